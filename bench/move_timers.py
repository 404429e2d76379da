"""The site's ASGI application with wall-clock timers on each part of a request.

Served by Daphne in place of ``quarto_site.asgi:application`` (bench/move_targets.py
``--breakdown`` starts it): the same application, with the parts a move goes through
wrapped in timers before it is built. Each HTTP request to the API's moves or
``/healthz`` gets a record (a context variable, which follows the request into its
thread); when it ends its times are added to that kind's totals. ``GET /__timings``
answers the means per request, ``GET /__timings?reset`` starts again.

Nothing here changes what the site does; the timers cost a few microseconds each.
"""

from __future__ import annotations

import contextvars
import functools
import json
import os
import re
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import django

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "quarto_site.settings")
django.setup()

from django.core.handlers.asgi import ASGIHandler  # noqa: E402
from django.core.handlers.base import BaseHandler  # noqa: E402
from django.db.backends.signals import connection_created  # noqa: E402
from django.dispatch import Signal  # noqa: E402
from django.http.response import HttpResponseBase  # noqa: E402
from ninja.operation import Operation  # noqa: E402

import games.services.moves as service_moves  # noqa: E402
from games.api import endpoints, plumbing  # noqa: E402
from games.engine.base import GameRules  # noqa: E402
from monitoring.middleware import RequestMetricsMiddleware  # noqa: E402
from quarto_site.sqlite import base as sqlite_base  # noqa: E402

now = time.perf_counter
CURRENT: contextvars.ContextVar[dict[str, float] | None] = contextvars.ContextVar("timers", default=None)
TOTALS: dict[str, dict[str, float]] = {}
COUNTS: dict[str, int] = {}
_totals_lock = threading.Lock()
_inside = threading.local()


def add(name: str, seconds: float) -> None:
    record = CURRENT.get()
    if record is not None:
        record[name] = record.get(name, 0.0) + seconds


def mark(name: str) -> None:
    record = CURRENT.get()
    if record is not None:
        record.setdefault("@" + name, now())


def timer(name: str, fn: Callable[..., Any], outermost: bool = False) -> Callable[..., Any]:
    """``fn`` timed under ``name``; ``outermost``: not counted again inside another ``outermost`` timer."""

    @functools.wraps(fn)
    def timed(*args: Any, **kwargs: Any) -> Any:
        if CURRENT.get() is None or (outermost and getattr(_inside, "busy", False)):
            return fn(*args, **kwargs)
        if outermost:
            _inside.busy = True
        start = now()
        try:
            return fn(*args, **kwargs)
        finally:
            add(name, now() - start)
            if outermost:
                _inside.busy = False

    return timed


def async_timer(name: str, fn: Callable[..., Any], begin: str = "", end: str = "") -> Callable[..., Any]:
    @functools.wraps(fn)
    async def timed(*args: Any, **kwargs: Any) -> Any:
        start = now()
        if begin:
            mark(begin)
        try:
            return await fn(*args, **kwargs)
        finally:
            if end:
                mark(end)
            add(name, now() - start)

    return timed


# -- the parts -------------------------------------------------------------------------

TABLE = re.compile(r'(?:FROM|INTO|UPDATE)\s+"(\w+)"', re.I)


def statement_label(sql: str) -> str:
    verb = sql.split(None, 1)[0].upper() if sql.strip() else "?"
    table = TABLE.search(sql)
    label = f"sql {verb} {table.group(1) if table else ''}".rstrip()
    if verb == "SELECT" and "token_hash" in sql:
        label += " (token)"
    if verb == "SELECT" and "FOR UPDATE" in sql.upper():
        label += " (locked)"
    return label


def time_statement(execute: Callable[..., Any], sql: str, params: Any, many: bool, context: Any) -> Any:
    if CURRENT.get() is None:
        return execute(sql, params, many, context)
    start = now()
    try:
        return execute(sql, params, many, context)
    finally:
        add(statement_label(sql), now() - start)


def on_connection(sender: Any, connection: Any, **kwargs: Any) -> None:
    if time_statement not in connection.execute_wrappers:
        connection.execute_wrappers.append(time_statement)


connection_created.connect(on_connection)


class TimedLock:
    """The SQLite writers' lock, its wait timed."""

    def __init__(self, lock: Any) -> None:
        self.lock = lock

    def acquire(self, *args: Any, **kwargs: Any) -> bool:
        start = now()
        try:
            return bool(self.lock.acquire(*args, **kwargs))
        finally:
            add("sqlite writer lock wait", now() - start)

    def release(self) -> None:
        self.lock.release()


sqlite_base._writer = TimedLock(sqlite_base._writer)
Wrapper = sqlite_base.DatabaseWrapper
Wrapper._commit = timer("commit", Wrapper._commit)
Wrapper.get_new_connection = timer("db connection taken", Wrapper.get_new_connection)
Wrapper.run_and_clear_commit_hooks = timer("events after commit", Wrapper.run_and_clear_commit_hooks)

GameRules.replay = timer("rules: replay of the moves", GameRules.replay, outermost=True)  # type: ignore[method-assign]
service_moves.publish = timer("event made (on_commit)", service_moves.publish)

plumbing._refusal = timer("rate limit + body checks", plumbing._refusal)
plumbing.SeatToken.authenticate = timer("token lookup (auth)", plumbing.SeatToken.authenticate)  # type: ignore[method-assign]
service_moves.play_move = timer("service play_move", service_moves.play_move)
endpoints.answer_state = timer("answer: state dict", endpoints.answer_state)
endpoints.state_of = timer("answer: state dict (read again)", endpoints.state_of)
Operation._result_to_response = timer("answer: schema + JSON", Operation._result_to_response)  # type: ignore[method-assign]

BaseHandler._get_response = timer("view (url, ninja, endpoint)", BaseHandler._get_response)  # type: ignore[method-assign]
HttpResponseBase.close = timer("response.close (in thread)", HttpResponseBase.close)  # type: ignore[method-assign]
_asend = Signal.asend


async def asend(self: Signal, sender: Any, **named: Any) -> Any:
    if CURRENT.get() is None or sender is None or named.get("scope") is None:
        return await _asend(self, sender, **named)
    start = now()
    try:
        return await _asend(self, sender, **named)
    finally:
        add("request_started signal (a hop)", now() - start)


Signal.asend = asend  # type: ignore[method-assign]
ASGIHandler.get_response_async = async_timer(  # type: ignore[method-assign]
    "get_response_async", ASGIHandler.get_response_async, "get_response_in", "get_response_out"
)
ASGIHandler.send_response = async_timer(  # type: ignore[method-assign]
    "send the answer", ASGIHandler.send_response, "send_in", "send_out"
)
_metrics_call = RequestMetricsMiddleware.__call__


def metrics_call(self: Any, request: Any) -> Any:
    mark("chain_in")
    try:
        return _metrics_call(self, request)
    finally:
        mark("chain_out")


RequestMetricsMiddleware.__call__ = metrics_call  # type: ignore[method-assign]

from quarto_site.asgi import application as site  # noqa: E402

MOVE = re.compile(r"^/api/v1/games/\d+/moves$")


def kind_of(scope: dict[str, Any]) -> str | None:
    path = scope.get("path", "")
    if MOVE.match(path) and scope.get("method") == "POST":
        return "move"
    return "healthz" if path == "/healthz" else None


def finish(kind: str, record: dict[str, float]) -> None:
    marks = {k[1:]: v for k, v in record.items() if k.startswith("@")}
    parts = {k: v for k, v in record.items() if not k.startswith("@")}
    if {"get_response_in", "chain_in", "chain_out", "get_response_out"} <= marks.keys():
        parts["hop into the thread"] = marks["chain_in"] - marks["get_response_in"]
        parts["hop back to the loop"] = marks["get_response_out"] - marks["chain_out"]
        parts["middleware (chain less view)"] = (marks["chain_out"] - marks["chain_in"]) - parts.get(
            "view (url, ninja, endpoint)", 0.0
        )
    if "send_out" in marks:
        parts["after the answer (close hop, tasks)"] = marks["end"] - marks["send_out"]
    if "get_response_in" in marks:
        parts["before the view (body, request, signal)"] = marks["get_response_in"] - marks["begin"]
    with _totals_lock:
        totals = TOTALS.setdefault(kind, {})
        for name, seconds in parts.items():
            totals[name] = totals.get(name, 0.0) + seconds
        COUNTS[kind] = COUNTS.get(kind, 0) + 1


async def answer(send: Any, body: dict[str, Any]) -> None:
    data = json.dumps(body).encode()
    await send(
        {"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"application/json")]}
    )
    await send({"type": "http.response.body", "body": data})


async def application(scope: dict[str, Any], receive: Any, send: Any) -> Any:
    if scope["type"] == "http" and scope.get("path") == "/__timings":
        with _totals_lock:
            means = {
                kind: {name: total / COUNTS[kind] * 1000 for name, total in parts.items()}
                for kind, parts in TOTALS.items()
            }
            body = {"counts": dict(COUNTS), "mean_ms": means}
            if b"reset" in scope.get("query_string", b""):
                TOTALS.clear()
                COUNTS.clear()
        return await answer(send, body)
    kind = kind_of(scope) if scope["type"] == "http" else None
    if kind is None:
        return await site(scope, receive, send)
    record: dict[str, float] = {"@begin": now()}
    token = CURRENT.set(record)
    try:
        return await site(scope, receive, send)
    finally:
        record["@end"] = now()
        record["asgi application (all)"] = record["@end"] - record["@begin"]
        CURRENT.reset(token)
        finish(kind, record)
