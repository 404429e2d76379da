"""SQLite whose writers queue on a lock in the process instead of in SQLite's busy handler.

Under ASGI every request's synchronous code runs in a thread of its own (Django wraps
each request in asgiref's ``ThreadSensitiveContext``), so concurrent moves are concurrent
writers. SQLite lets one of them ``BEGIN IMMEDIATE`` and makes the others poll: its busy
handler sleeps 1, 2, 5, 10 ... up to 100 ms between tries, so a writer that just missed
the lock waits tens of milliseconds after it was freed, and under a burst some wait out
the whole timeout ("database is locked"). Here a transaction first takes one lock per
process, which wakes the next writer the moment the previous one committed or rolled
back; SQLite's own locking still guards against other processes (and is the fallback
when the lock cannot be had within the connection's timeout).

Reads outside a transaction (autocommit) take no lock: WAL lets them run beside the writer.
"""

from __future__ import annotations

import threading
from typing import Any

from django.db.backends.sqlite3 import base

_writer = threading.Lock()
# The stubs leave out the private hooks overridden below.
_Base: Any = base.DatabaseWrapper


class DatabaseWrapper(_Base):  # type: ignore[misc]
    _holds_writer = False

    def _start_transaction_under_autocommit(self) -> None:
        if not self._holds_writer:
            timeout = float(self.settings_dict.get("OPTIONS", {}).get("timeout", 5))
            self._holds_writer = _writer.acquire(timeout=timeout)
        try:
            super()._start_transaction_under_autocommit()
        except BaseException:
            self._release_writer()
            raise

    def _release_writer(self) -> None:
        if self._holds_writer:
            self._holds_writer = False
            _writer.release()

    def _commit(self) -> Any:
        try:
            return super()._commit()
        finally:
            self._release_writer()

    def _rollback(self) -> Any:
        try:
            return super()._rollback()
        finally:
            self._release_writer()

    def _close(self) -> Any:
        try:
            return super()._close()
        finally:
            self._release_writer()
