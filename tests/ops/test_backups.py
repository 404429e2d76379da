"""``manage.py backup`` and ``manage.py restore``: accounts, ratings and a game in play
survive a backup, the loss of the database and a restore into a fresh one, and play goes on.

Every step is the operator's command in its own process, as docs/deployment.md gives it.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ..e2e.conftest import migrated_sqlite

ROOT = Path(__file__).resolve().parents[2]
WORLD = str(Path(__file__).with_name("world.py"))
pytestmark = pytest.mark.slow


def run(env: dict[str, str], *argv: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(
        [sys.executable, *argv], cwd=ROOT, env=env, capture_output=True, text=True, timeout=180
    )
    if check:
        assert result.returncode == 0, result.stdout + result.stderr
    return result


def manage(env: dict[str, str], *argv: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    return run(env, "manage.py", *argv, check=check)


def world(env: dict[str, str], *argv: str) -> dict[str, Any]:
    answer: dict[str, Any] = json.loads(run(env, WORLD, *argv).stdout.strip().splitlines()[-1])
    return answer


def base_env(**extra: str) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if key not in ("DATABASE_URL", "REDIS_URL")}
    env.update(DJANGO_SETTINGS_MODULE="quarto_site.settings", AI_WARM_UP="0", **extra)
    return env


# --- SQLite ---------------------------------------------------------------------------


def games_in(path: Path) -> int:
    with sqlite3.connect(path) as db:
        return int(db.execute("SELECT count(*) FROM games_game").fetchone()[0])


def test_sqlite_backup_while_writing_restores_into_a_fresh_file(tmp_path: Path) -> None:
    live = tmp_path / "site.sqlite3"
    env = base_env(SQLITE_PATH=str(live))
    shutil.copyfile(migrated_sqlite(env), live)  # as `migrate` would make it, once per process
    made = world(env, "make")
    assert made["ply"] == 3 and set(made["ratings"]) == {"alice", "bob"}

    # A second process keeps writing until told to stop, after the backup.
    stop = tmp_path / "stop-writing"
    writer = subprocess.Popen(
        [sys.executable, WORLD, "write", str(stop)], cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True
    )
    try:
        deadline = time.monotonic() + 120  # a loaded machine starts Django slowly
        while games_in(live) <= 2:
            assert time.monotonic() < deadline and writer.poll() is None, "the writer never wrote"
            time.sleep(0.05)
        backup = tmp_path / "backups" / "site.sqlite3"
        assert manage(env, "backup", str(backup)).stdout.strip() == str(backup)
        assert writer.poll() is None, "the backup must be taken while the writer runs"
        in_backup = games_in(backup)
        assert in_backup > 2  # a snapshot from the middle of the writing
        while games_in(live) <= in_backup:  # and the live file moves on past it
            assert time.monotonic() < deadline + 60 and writer.poll() is None, "the writer stopped"
            time.sleep(0.05)
    finally:
        stop.touch()
        out, _ = writer.communicate(timeout=60)
    assert writer.returncode == 0 and json.loads(out.strip().splitlines()[-1])["games"] > 0

    # The database is lost; the backup goes into a fresh file and play goes on.
    for suffix in ("", "-wal", "-shm"):
        Path(f"{live}{suffix}").unlink(missing_ok=True)
    assert manage(env, "restore", str(backup)).returncode == 0
    assert world(env, "check", json.dumps(made)) == {"ply": 4, "status": "playing"}
    with sqlite3.connect(live) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_sqlite_restore_refuses_a_database_in_use_and_a_foreign_file(tmp_path: Path) -> None:
    live = tmp_path / "site.sqlite3"
    env = base_env(SQLITE_PATH=str(live))
    shutil.copyfile(migrated_sqlite(env), live)  # as `migrate` would make it, once per process
    backup = Path(manage(env, "backup", str(tmp_path / "b.sqlite3")).stdout.strip())
    refused = manage(env, "restore", str(backup), check=False)
    assert refused.returncode == 1 and "already holds a database" in refused.stderr
    garbage = tmp_path / "notes.txt"
    garbage.write_text("not a backup")
    refused = manage(env, "restore", str(garbage), check=False)
    assert refused.returncode == 1 and "neither a pg_dump" in refused.stderr
    missing = manage(env, "restore", str(tmp_path / "nothing.dump"), check=False)
    assert missing.returncode == 1 and "No backup at" in missing.stderr


# --- PostgreSQL -----------------------------------------------------------------------


def psql(url: str, sql: str) -> str:
    result = subprocess.run(
        ["psql", url, "-v", "ON_ERROR_STOP=1", "-Atc", sql], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


@pytest.fixture
def postgres_database() -> Iterator[tuple[str, str]]:
    """A database of this test's own (and the server's URL to administer it), dropped after."""
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith("postgres"):
        pytest.skip("needs DATABASE_URL (PostgreSQL)")
    server = url.rsplit("/", 1)[0]
    admin = f"{server}/postgres"
    name = f"backup_test_{secrets.token_hex(4)}"
    psql(admin, f"CREATE DATABASE {name}")
    try:
        yield admin, name
    finally:
        psql(admin, f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


@pytest.mark.postgres
def test_postgres_backup_drop_and_restore_into_a_fresh_database(
    postgres_database: tuple[str, str], tmp_path: Path
) -> None:
    admin, name = postgres_database
    env = base_env(DATABASE_URL=f"{admin.rsplit('/', 1)[0]}/{name}")
    manage(env, "migrate", "-v", "0")
    made = world(env, "make")
    backup = tmp_path / "site.dump"
    assert manage(env, "backup", str(backup)).stdout.strip() == str(backup)
    assert backup.read_bytes().startswith(b"PGDMP")

    # The database is dropped and made again, empty; the restore fills it and play goes on.
    psql(admin, f"DROP DATABASE {name} WITH (FORCE)")
    psql(admin, f"CREATE DATABASE {name}")
    manage(env, "restore", str(backup))
    assert world(env, "check", json.dumps(made)) == {"ply": 4, "status": "playing"}

    # A second restore over the live database is refused and changes nothing.
    refused = manage(env, "restore", str(backup), check=False)
    assert refused.returncode == 1 and "already holds" in refused.stderr
    restored = f"{admin.rsplit('/', 1)[0]}/{name}"
    assert psql(restored, f"SELECT ply FROM games_game WHERE id = {made['playing']}") == "4"
    # And a SQLite backup is not a PostgreSQL one.
    sqlite_file = tmp_path / "other.sqlite3"
    sqlite3.connect(sqlite_file).close()
    sqlite_file.write_bytes(b"SQLite format 3\x00" + bytes(100))
    wrong = manage(env, "restore", str(sqlite_file), check=False)
    assert wrong.returncode == 1 and "is a sqlite backup" in wrong.stderr


def test_an_older_pg_dump_is_refused_with_the_package_to_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from quarto_site import backups

    fake = tmp_path / "pg_dump"
    fake.write_text("#!/bin/sh\necho 'pg_dump (PostgreSQL) 13.16 (Debian 13.16-0+deb11u1)'\n")
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setattr(backups, "_server_major", lambda alias: 15)
    older = r"pg_dump 13 is older than the server .* install postgresql-client-15"
    with pytest.raises(backups.BackupError, match=older):
        backups._tool("pg_dump", "default")
    monkeypatch.setattr(backups, "_server_major", lambda alias: 13)
    assert backups._tool("pg_dump", "default") == str(fake)
