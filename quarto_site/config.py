"""The functions the settings are computed with (quarto_site/settings.py holds the values):
reading the environment, the database and cache configurations, checks that refuse a
setting that cannot work."""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in ("1", "true", "yes", "on")


def env_float(name: str, default: float) -> float:
    value = os.environ.get(name)
    try:
        return default if value is None else float(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a number, not {value!r}") from None


def secret_key(base_dir: Path) -> str:
    if key := os.environ.get("SECRET_KEY"):
        return key
    # A self-hosted site keeps its key across restarts so sessions (and seats) survive.
    path = base_dir / ".secret_key"
    if not path.exists():
        path.write_text(secrets.token_urlsafe(50))
        path.chmod(0o600)
    return path.read_text().strip()


# Databases: DATABASE_URL (postgres://... or sqlite:///...) or the embedded SQLite file.
SQLITE_OPTIONS = {
    # WAL + immediate transactions + a busy timeout: concurrent writers wait
    # for each other instead of failing with "database is locked".
    "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    "transaction_mode": "IMMEDIATE",
    "timeout": 20,
}
SQLITE_ENGINE = "quarto_site.sqlite"


def database_config(url: str | None, sqlite_path: str) -> dict[str, Any]:
    """The default database: from a URL when given, else the SQLite file at ``sqlite_path``.

    SQLite gets the same locking settings however it is named.
    """
    if url:
        db: dict[str, Any] = dict(dj_database_url.parse(url, conn_max_age=0))
    else:
        # A file, not memory: tests with several threads need real locking.
        db = {"ENGINE": "django.db.backends.sqlite3", "NAME": sqlite_path}
        db["TEST"] = {"NAME": str(BASE_DIR / "test-db.sqlite3")}
    if db["ENGINE"] in ("django.db.backends.sqlite3", SQLITE_ENGINE):
        # Django's SQLite, with the writers of one process queued on a lock (see there).
        db["ENGINE"] = SQLITE_ENGINE
        db["OPTIONS"] = {**SQLITE_OPTIONS, **db.get("OPTIONS", {})}
    elif db["ENGINE"] == "django.db.backends.postgresql":
        # Under ASGI persistent connections leak; the pool reuses them safely. With
        # health checks the pool checks each connection as it is taken, so one the
        # server dropped (a restart, pg_terminate_backend) is replaced, not a 500.
        db.setdefault("OPTIONS", {})["pool"] = {
            "min_size": 2,
            "max_size": int(os.environ.get("DATABASE_POOL_SIZE", "10")),
            # Seconds a request waits for a connection (the database down: then a 503).
            "timeout": env_float("DATABASE_POOL_TIMEOUT", 10.0),
        }
        db["CONN_HEALTH_CHECKS"] = True
    return db


def redis_caches(url: str, prefix: str) -> dict[str, dict[str, Any]]:
    """Both caches on Redis, each falling back to this process's memory while Redis is
    unreachable (games/services/fallback_cache.py): the site keeps serving."""
    backend = {"BACKEND": "games.services.fallback_cache.FallbackRedisCache", "LOCATION": url}
    return {"default": {**backend, "KEY_PREFIX": prefix}, "live": {**backend, "KEY_PREFIX": prefix}}


def check_heartbeat(every: float, lost_after: float) -> None:
    if every > 0 and lost_after < 2 * every:
        raise ImproperlyConfigured(
            f"SEAT_LOST_AFTER ({lost_after:g}) must be at least twice SEAT_HEARTBEAT ({every:g}): "
            "a server's pages would be taken for gone between two of its heartbeats"
        )


def site_url(given: str, hosts: list[str], secure: bool) -> str:
    """The site's address as its emails link to it (a turn to play, a game ended):
    ``SITE_URL`` when given, else the first host ALLOWED_HOSTS names (https when the
    cookies are secure), and the development server's address only for a local site."""
    if given.strip():
        return given.strip().rstrip("/")
    named = [host for host in hosts if host and host != "*" and not host.startswith(".")]
    host = next((h for h in named if h not in ("localhost", "127.0.0.1", "[::1]")), None)
    if host is None:
        return "http://localhost:8000"
    return f"{'https' if secure else 'http'}://{host}"
