"""Back up the site's database and restore it: ``manage.py backup`` and ``manage.py restore``.

PostgreSQL through its own tools (``pg_dump`` in the custom format, ``pg_restore`` into an
empty database); SQLite through its online backup API, which copies a consistent snapshot
while the server goes on writing (WAL). The file's first bytes say which it is, so a
restore refuses a backup of the other kind.
"""

from __future__ import annotations

import os
import re
import shutil
import sqlite3
import subprocess
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import connections

POSTGRES_MAGIC = b"PGDMP"  # pg_dump's custom format
SQLITE_MAGIC = b"SQLite format 3\x00"


class BackupError(Exception):
    """A backup or restore that cannot go ahead; its message says why and what to do."""


def engine(alias: str = "default") -> str:
    """``postgres`` or ``sqlite``."""
    name = settings.DATABASES[alias]["ENGINE"]
    if "postgresql" in name:
        return "postgres"
    if "sqlite" in name:
        return "sqlite"
    raise BackupError(f"Backups know PostgreSQL and SQLite, not {name}.")


def default_path(alias: str = "default") -> Path:
    """``backups/<database>-<UTC time>.dump`` (PostgreSQL) or ``.sqlite3``, in the checkout."""
    kind = engine(alias)
    name = Path(str(settings.DATABASES[alias]["NAME"])).stem
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    suffix = ".dump" if kind == "postgres" else ".sqlite3"
    return Path(settings.BASE_DIR) / "backups" / f"{name}-{stamp}{suffix}"


def backup(path: Path, alias: str = "default") -> Path:
    """Write a backup of the database to ``path`` (whole or not at all); its path."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".part")
    try:
        if engine(alias) == "postgres":
            _pg_dump(partial, alias)
        else:
            _sqlite_backup(Path(settings.DATABASES[alias]["NAME"]), partial)
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    partial.replace(path)
    return path


def restore(path: Path, alias: str = "default") -> None:
    """Load the backup at ``path`` into the database, which must be empty (or, for SQLite,
    not exist yet): a restore never merges into, or overwrites, a live database."""
    kind = engine(alias)
    if not path.is_file():
        raise BackupError(f"No backup at {path}.")
    head = _head(path)
    found = "postgres" if head.startswith(POSTGRES_MAGIC) else "sqlite" if head == SQLITE_MAGIC else None
    if found is None:
        raise BackupError(f"{path} is neither a pg_dump custom-format file nor an SQLite database.")
    if found != kind:
        raise BackupError(f"{path} is a {found} backup; this site's database is {kind}.")
    if kind == "postgres":
        _pg_restore(path, alias)
    else:
        _sqlite_restore(path, Path(settings.DATABASES[alias]["NAME"]))


def _head(path: Path) -> bytes:
    with open(path, "rb") as file:
        return file.read(16)


# --- SQLite ---------------------------------------------------------------------------


def _sqlite_backup(source: Path, target: Path) -> None:
    if not source.is_file():
        raise BackupError(f"No SQLite database at {source}.")
    target.unlink(missing_ok=True)
    # One step (pages=-1): a read transaction on a WAL database sees one snapshot while
    # writers go on; copying in steps would start again after every write.
    with _closing(sqlite3.connect(source, timeout=20)) as src, _closing(sqlite3.connect(target)) as dst:
        src.backup(dst)
        dst.execute("PRAGMA journal_mode=DELETE")  # one self-contained file
    _check_sqlite(target)


def _sqlite_restore(backup_file: Path, target: Path) -> None:
    if target.exists() and _sqlite_tables(target):
        raise BackupError(
            f"{target} already holds a database. Stop the server and move it (and its -wal and "
            "-shm files) aside, then restore."
        )
    _check_sqlite(backup_file)
    for extra in ("-wal", "-shm"):
        Path(f"{target}{extra}").unlink(missing_ok=True)
    with _closing(sqlite3.connect(backup_file)) as src, _closing(sqlite3.connect(target)) as dst:
        src.backup(dst)
        dst.execute("PRAGMA journal_mode=WAL")


def _sqlite_tables(path: Path) -> list[str]:
    with _closing(sqlite3.connect(path)) as db:
        return [row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]


def _check_sqlite(path: Path) -> None:
    with _closing(sqlite3.connect(path)) as db:
        result = db.execute("PRAGMA integrity_check").fetchone()[0]
    if result != "ok":
        raise BackupError(f"{path} fails SQLite's integrity check: {result}")


class _closing:
    """sqlite3's own context manager commits but does not close."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> sqlite3.Connection:
        return self.db

    def __exit__(self, *exc: Any) -> None:
        self.db.close()


# --- PostgreSQL -----------------------------------------------------------------------


def _pg_env(alias: str) -> dict[str, str]:
    """libpq's variables for the database: no password on a command line."""
    db = settings.DATABASES[alias]
    env = dict(os.environ)
    pairs = {"PGHOST": db.get("HOST"), "PGPORT": db.get("PORT"), "PGUSER": db.get("USER")}
    pairs |= {"PGPASSWORD": db.get("PASSWORD"), "PGDATABASE": db.get("NAME")}
    pairs["PGSSLMODE"] = db.get("OPTIONS", {}).get("sslmode")
    env.update({key: str(value) for key, value in pairs.items() if value})
    return env


def _tool(name: str, alias: str) -> str:
    """The path of ``pg_dump`` or ``pg_restore``, checked to be at least the server's version."""
    path = shutil.which(name)
    server = _server_major(alias)
    package = f"postgresql-client-{server}"
    if path is None:
        raise BackupError(f"{name} is not installed: install {package} (apt-get install {package}).")
    version = subprocess.run([path, "--version"], capture_output=True, text=True, check=True).stdout
    match = re.search(r"(\d+)(?:\.\d+)?", version)
    client = int(match.group(1)) if match else 0
    if client < server:
        raise BackupError(
            f"{name} {client} is older than the server (PostgreSQL {server}) and cannot read it: "
            f"install {package}."
        )
    return path


def _server_major(alias: str) -> int:
    connection = connections[alias]
    connection.ensure_connection()
    return int(connection.pg_version) // 10000  # type: ignore[attr-defined]


def _run(argv: list[str], alias: str) -> None:
    result = subprocess.run(argv, env=_pg_env(alias), capture_output=True, text=True)
    if result.returncode != 0:
        raise BackupError(f"{Path(argv[0]).name} failed: {result.stderr.strip()}")


def _pg_dump(target: Path, alias: str) -> None:
    _run([_tool("pg_dump", alias), "--format=custom", "--no-owner", f"--file={target}"], alias)


def _pg_restore(backup_file: Path, alias: str) -> None:
    tool = _tool("pg_restore", alias)
    with connections[alias].cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'")
        (tables,) = cursor.fetchone()
    connections[alias].close()
    if tables:
        name = settings.DATABASES[alias]["NAME"]
        raise BackupError(
            f"The database {name} already holds {tables} tables: restore into a new, empty "
            f"database (createdb) and point DATABASE_URL at it."
        )
    argv = [tool, "--no-owner", "--no-privileges", "--exit-on-error", "--single-transaction"]
    _run([*argv, f"--dbname={settings.DATABASES[alias]['NAME']}", str(backup_file)], alias)
