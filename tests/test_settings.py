"""Settings chosen by the environment: the database however it is named."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest
from django.db.utils import ConnectionHandler

from quarto_site.settings import SQLITE_ENGINE, SQLITE_OPTIONS, database_config


def test_sqlite_given_as_a_url_gets_the_locking_settings(tmp_path: Path) -> None:
    by_url = database_config(f"sqlite:///{tmp_path}/db.sqlite3", "unused")
    by_path = database_config(None, str(tmp_path / "db.sqlite3"))
    assert by_url["ENGINE"] == by_path["ENGINE"] == SQLITE_ENGINE
    assert by_url["NAME"] == by_path["NAME"] == str(tmp_path / "db.sqlite3")
    assert by_url["OPTIONS"] == by_path["OPTIONS"] == SQLITE_OPTIONS
    assert SQLITE_OPTIONS["transaction_mode"] == "IMMEDIATE" and SQLITE_OPTIONS["timeout"] == 20


@pytest.mark.parametrize("use_url", [True, False], ids=["url", "path"])
def test_an_open_connection_has_wal_immediate_transactions_and_a_busy_timeout(
    tmp_path: Path, use_url: bool, django_db_blocker: Any
) -> None:
    path = tmp_path / "db.sqlite3"
    config = database_config(f"sqlite:///{path}" if use_url else None, str(path))
    connection = ConnectionHandler({"default": config})["default"]
    with django_db_blocker.unblock():
        with connection.cursor() as cursor:
            assert cursor.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
            assert cursor.execute("PRAGMA busy_timeout").fetchone()[0] == 20_000
        assert getattr(connection, "transaction_mode") == "IMMEDIATE"  # noqa: B009 (sqlite only)
        connection.close()


def test_sqlite_writers_of_one_process_take_turns_on_a_lock_and_always_release_it(
    tmp_path: Path, django_db_blocker: Any
) -> None:
    """A transaction (what ``atomic`` starts and ends) holds the process's writer lock:
    another waits on it, not in SQLite's busy polling; commit, rollback and close free it."""
    from quarto_site.sqlite import base

    config = database_config(None, str(tmp_path / "db.sqlite3"))
    order: list[str] = []

    def writer() -> None:
        connection: Any = ConnectionHandler({"default": config})["default"]
        connection.ensure_connection()
        connection._start_transaction_under_autocommit()
        order.append("other in")
        connection.cursor().execute("INSERT INTO t VALUES (2)")
        connection.commit()
        connection.close()

    with django_db_blocker.unblock():
        first: Any = ConnectionHandler({"default": config})["default"]
        with first.cursor() as cursor:
            cursor.execute("CREATE TABLE t (n INTEGER)")
        first._start_transaction_under_autocommit()
        assert base._writer.locked()
        other = threading.Thread(target=writer)
        other.start()
        other.join(0.3)
        assert order == []  # queued on the lock
        first.cursor().execute("INSERT INTO t VALUES (1)")
        first.commit()
        other.join(5)
        assert order == ["other in"] and not base._writer.locked()
        first._start_transaction_under_autocommit()
        first.rollback()
        assert not base._writer.locked()
        first._start_transaction_under_autocommit()
        first.close()
        assert not base._writer.locked()


def test_postgres_url_gets_the_pool_and_no_persistent_connections() -> None:
    config = database_config("postgres://user@db.example:5432/quarto", "unused")
    assert config["CONN_MAX_AGE"] == 0 and "pool" in config["OPTIONS"]
    assert "transaction_mode" not in config["OPTIONS"]
