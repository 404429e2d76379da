"""Settings chosen by the environment: the database however it is named."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.db.utils import ConnectionHandler

from quarto_site.settings import SQLITE_OPTIONS, database_config


def test_sqlite_given_as_a_url_gets_the_locking_settings(tmp_path: Path) -> None:
    by_url = database_config(f"sqlite:///{tmp_path}/db.sqlite3", "unused")
    by_path = database_config(None, str(tmp_path / "db.sqlite3"))
    assert by_url["ENGINE"] == by_path["ENGINE"] == "django.db.backends.sqlite3"
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


def test_postgres_url_gets_the_pool_and_no_persistent_connections() -> None:
    config = database_config("postgres://user@db.example:5432/quarto", "unused")
    assert config["CONN_MAX_AGE"] == 0 and "pool" in config["OPTIONS"]
    assert "transaction_mode" not in config["OPTIONS"]
