"""Settings chosen by the environment: the database however it is named."""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Any

import pytest
from asgiref.sync import SyncToAsync, async_to_sync
from django.db.utils import ConnectionHandler
from django.test import AsyncClient

from quarto_site.config import SQLITE_ENGINE, SQLITE_OPTIONS, database_config


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


def test_sqlite_connections_are_kept_for_the_next_thread_never_with_a_transaction_open(
    tmp_path: Path, django_db_blocker: Any
) -> None:
    """A closed connection is taken by the next request (another thread), rolled back first
    if it was left in a transaction, with its foreign keys checked again."""
    config = database_config(None, str(tmp_path / "db.sqlite3"))
    raws: list[Any] = []

    def request(work: str) -> None:
        connection: Any = ConnectionHandler({"default": config})["default"]
        connection.ensure_connection()
        raws.append(connection.connection)
        cursor = connection.cursor()
        if work == "create":
            cursor.execute("CREATE TABLE t (n INTEGER)")
        elif work == "left open":
            cursor.execute("PRAGMA foreign_keys = OFF")
            connection._start_transaction_under_autocommit()
            cursor.execute("INSERT INTO t VALUES (1)")
        else:
            raws.append(cursor.execute("SELECT count(*) FROM t").fetchone()[0])
            raws.append(cursor.execute("PRAGMA foreign_keys").fetchone()[0])
        connection.close()

    with django_db_blocker.unblock():
        for work in ("create", "left open", "read"):
            thread = threading.Thread(target=request, args=(work,))
            thread.start()
            thread.join(5)
    first, second, third, rows, foreign_keys = raws
    assert first is second is third  # one connection, three threads
    assert rows == 0 and foreign_keys == 1


def test_sqlite_connections_are_not_kept_across_a_new_file(tmp_path: Path, django_db_blocker: Any) -> None:
    """A database file made again (a test database, a restore) gets new connections."""
    path = tmp_path / "db.sqlite3"
    config = database_config(None, str(path))
    with django_db_blocker.unblock():
        connection: Any = ConnectionHandler({"default": config})["default"]
        connection.cursor().execute("CREATE TABLE old (n INTEGER)")
        before = connection.connection
        connection.close()
        path.unlink()
        connection.cursor().execute("CREATE TABLE new (n INTEGER)")
        assert connection.connection is not before
        tables = connection.cursor().execute("SELECT name FROM sqlite_master").fetchall()
        assert tables == [("new",)]
        connection.close()


def test_a_forked_child_sets_its_parent_s_idle_connections_aside(
    tmp_path: Path, django_db_blocker: Any
) -> None:
    """A forked process never uses (or closes) what its parent kept: it opens its own, and
    the parent's connection still works after the child is gone."""
    from quarto_site.sqlite import base

    config = database_config(None, str(tmp_path / "db.sqlite3"))
    with django_db_blocker.unblock():
        connection: Any = ConnectionHandler({"default": config})["default"]
        connection.cursor().execute("CREATE TABLE t (n INTEGER)")
        kept = connection.connection
        connection.close()
        child = os.fork()
        if child == 0:  # the child: its own connection, the parent's set aside
            code = 1
            try:
                set_aside = not base._idle and kept in base._inherited  # at the fork, before any use
                mine: Any = ConnectionHandler({"default": config})["default"]
                mine.cursor().execute("INSERT INTO t VALUES (1)")
                code = 0 if set_aside and mine.connection is not kept else 2
                mine.close()
            finally:
                os._exit(code)
        _, status = os.waitpid(child, 0)
        assert os.waitstatus_to_exitcode(status) == 0
        connection.ensure_connection()
        assert connection.connection is kept
        assert connection.cursor().execute("SELECT count(*) FROM t").fetchone()[0] == 1
        connection.close()


def test_postgres_url_gets_the_pool_and_no_persistent_connections() -> None:
    config = database_config("postgres://user@db.example:5432/quarto", "unused")
    assert config["CONN_MAX_AGE"] == 0 and "pool" in config["OPTIONS"]
    assert "transaction_mode" not in config["OPTIONS"]


@pytest.mark.django_db(transaction=True)
def test_under_asgi_the_middleware_runs_as_one_synchronous_chain(monkeypatch: pytest.MonkeyPatch) -> None:
    """The innermost middleware is synchronous only, so Django runs the whole stack in the
    request's thread in one go, not each middleware hook through a hop of its own (15 hops
    to the request's thread for /healthz before, 5 now)."""
    hops: list[str] = []
    hop = SyncToAsync.__call__

    async def counted(self: SyncToAsync[..., Any], *args: Any, **kwargs: Any) -> Any:
        hops.append(getattr(self.func, "__qualname__", repr(self.func)))
        return await hop(self, *args, **kwargs)

    monkeypatch.setattr(SyncToAsync, "__call__", counted)
    response = async_to_sync(AsyncClient().get)("/healthz")
    assert response.status_code == 200
    assert not [name for name in hops if "Middleware.process_" in name and "process_view" not in name], hops
    assert len(hops) <= 5, hops
