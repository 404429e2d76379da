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

Connections are kept for the next request, as PostgreSQL's pool does: every request runs in
a thread of its own, so Django opened a new SQLite connection for each (connect, its
pragmas and some thirty SQL functions: about 1 ms of CPU, a fifth of a move's) and closed
it at the end. A closed connection goes to a small list per database file instead (rolled
back if a transaction was left open), and the next request of any thread takes it, unless
the file was replaced since (a new inode: a test database made again, a restore). A forked
child never uses nor closes its parent's idle connections (closing one there could
checkpoint the parent's WAL away): it sets them aside and opens its own.
"""

from __future__ import annotations

import os
import threading
from typing import Any

from django.db.backends.sqlite3 import base

_writer = threading.Lock()
# The stubs leave out the private hooks overridden below.
_Base: Any = base.DatabaseWrapper


# Idle connections per database file: (the raw connection, the file and process it was opened in).
_idle: dict[str, list[tuple[Any, tuple[int, int, int]]]] = {}
_idle_lock = threading.Lock()
IDLE_PER_FILE = 16


# A forked child's copies of its parent's idle connections: kept, never used or closed.
_inherited: list[Any] = []


def _set_aside_after_fork() -> None:
    global _idle_lock
    _idle_lock = threading.Lock()  # another thread of the parent may have held it
    _inherited.extend(raw for idle in _idle.values() for raw, _ in idle)
    _idle.clear()


os.register_at_fork(after_in_child=_set_aside_after_fork)


def _file_identity(name: str) -> tuple[int, int, int] | None:
    try:
        found = os.stat(name)
    except OSError:
        return None
    return found.st_dev, found.st_ino, os.getpid()


class DatabaseWrapper(_Base):  # type: ignore[misc]
    _holds_writer = False
    _opened_on: tuple[int, int, int] | None = None

    def _pooled(self) -> bool:
        return not self.is_in_memory_db()

    def get_new_connection(self, conn_params: Any) -> Any:
        name = str(self.settings_dict["NAME"])
        if self._pooled():
            now = _file_identity(name)
            with _idle_lock:
                idle = _idle.get(name, [])
                while idle:
                    raw, opened_on = idle.pop()
                    if opened_on == now:
                        # Constraint checking may have been switched off by its last user.
                        raw.execute("PRAGMA foreign_keys = ON")
                        self._opened_on = opened_on
                        return raw
                    if opened_on is not None and now is not None and opened_on[2] == now[2]:
                        raw.close()  # the file was replaced since
                    else:
                        _inherited.append(raw)
        raw = super().get_new_connection(conn_params)
        self._opened_on = _file_identity(name)
        return raw

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
            if not self._keep():
                return super()._close()
        finally:
            self._release_writer()
        return None

    def _keep(self) -> bool:
        """Put the connection on the idle list rather than close it; False when full."""
        raw, opened_on = self.connection, self._opened_on
        if raw is None or opened_on is None or self.in_atomic_block or not self._pooled():
            return False
        if opened_on[2] != os.getpid():
            return False
        try:
            if raw.in_transaction:
                raw.rollback()
        except Exception:  # a broken connection is closed, not kept
            return False
        name = str(self.settings_dict["NAME"])
        with _idle_lock:
            idle = _idle.setdefault(name, [])
            if len(idle) >= IDLE_PER_FILE:
                return False
            idle.append((raw, opened_on))
        return True
