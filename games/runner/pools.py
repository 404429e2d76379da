"""The process pools behind the computer, and the gate in front of analysis.

The computer's own moves run in :func:`executor_factory`'s pool owned by the runner
(:mod:`games.runner.turns`); analysis (the API's analysis, hints, reviews) never shares it:
it runs in its own (``ANALYSIS_WORKERS``), admitted by :class:`AnalysisGate` (a total
cap and a cap per client, refusals as :class:`Busy`), and a game's review is computed
once.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import multiprocessing
import os
import threading
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.cache import cache

from games import catalog
from games.ai.base import ActionValue


def executor_factory(processes: int | None = None, name: str = "ai") -> concurrent.futures.Executor:
    size = settings.AI_PROCESSES if processes is None else processes
    if settings.AI_PROCESSES > 0:
        # spawn: a fresh interpreter, never a fork of a threaded server.
        return concurrent.futures.ProcessPoolExecutor(
            max(1, size),
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_exit_with_parent,
            initargs=(os.getpid(),),
        )
    return concurrent.futures.ThreadPoolExecutor(
        2 if processes is None else max(1, size), thread_name_prefix=name
    )


def _exit_with_parent(parent: int, interval: float = 0.5) -> None:
    """In each search process: leave as soon as the process that started it is gone.

    A server stopped by a signal (or killed) does not always reach the pool's own
    shutdown; without this its search processes would live on as orphans.
    """

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(interval)
        os._exit(0)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


class Busy(Exception):
    """Analysis refused for now: ``code`` for programs, ``message`` for people."""

    def __init__(self, code: str, message: str, retry_after: int, status: int) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.retry_after = retry_after
        self.status = status


class AnalysisGate:
    """Admits analysis work into its own pool: at most ``ANALYSIS_MAX_PENDING`` jobs
    running or queued in this process, and ``ANALYSIS_PER_CLIENT`` of them per client.

    A slot is held until the job itself ends, not the request: a client that hangs up
    and asks again does not stack searches behind its back.
    """

    def __init__(self) -> None:
        self._executor: concurrent.futures.Executor | None = None
        self._lock = threading.Lock()
        self._clients: Counter[str] = Counter()
        self._total = 0

    def executor(self) -> concurrent.futures.Executor:
        if self._executor is None:
            self._executor = executor_factory(settings.ANALYSIS_WORKERS, "analysis")
        return self._executor

    def submit(self, client: str, fn: Callable[..., Any], *args: Any) -> concurrent.futures.Future[Any]:
        with self._lock:
            if self._clients[client] >= settings.ANALYSIS_PER_CLIENT:
                raise Busy(
                    "analysis_running",
                    "Your previous analysis is still running: wait for it, then ask again.",
                    2,
                    429,
                )
            if self._total >= settings.ANALYSIS_MAX_PENDING:
                raise Busy("busy", "The computer is busy analysing: try again in a few seconds.", 5, 503)
            self._clients[client] += 1
            self._total += 1
        try:
            future = self.executor().submit(fn, *args)
        except BaseException:
            self._release(client)
            raise
        future.add_done_callback(lambda _: self._release(client))
        return future

    def _release(self, client: str) -> None:
        with self._lock:
            self._total -= 1
            self._clients[client] -= 1
            if self._clients[client] <= 0:
                del self._clients[client]

    def in_flight(self) -> int:
        return self._total


gate = AnalysisGate()


async def analyse(
    kind: str, options: dict[str, Any], moves: list[str], budget: float, client: str = ""
) -> list[ActionValue]:
    """The analysis of a position, in the analysis pool; raises :class:`Busy` when full."""
    future = gate.submit(client, catalog.analyse_moves, kind, options, moves, budget)
    result: list[ActionValue] = await asyncio.wrap_future(future)
    return result


# Reviews being computed in this process, by cache key: later askers wait for these.
_reviews: dict[str, concurrent.futures.Future[Any]] = {}
_reviews_lock = threading.Lock()
REVIEW_LOCK_SECONDS = 600


def review_key(game_id: int, moves: list[str]) -> str:
    return f"review:{game_id}:{len(moves)}"


async def cached_review(game_id: int, moves: list[str]) -> list[Any] | None:
    """A game's review when computed already, else None (nothing is started)."""
    entries: list[Any] | None = await cache.aget(review_key(game_id, moves))
    return entries


async def review(
    game_id: int, kind: str, options: dict[str, Any], moves: list[str], budget: float, client: str = ""
) -> list[Any]:
    """A finished game judged move by move: computed once, then kept in the cache.

    Single flight: while one request computes a game's review, the others wait for
    that computation (in this process, on its future; in another process, on the
    cache, with a lock taken by ``cache.add``). Callers check the game is finished.
    """
    key = review_key(game_id, moves)
    entries: list[Any] | None = await cache.aget(key)
    if entries is not None:
        return entries
    started = None
    with _reviews_lock:
        future = _reviews.get(key)
        if future is None and cache.add(f"{key}:lock", 1, timeout=REVIEW_LOCK_SECONDS):
            try:
                future = started = gate.submit(client, catalog.review, kind, options, moves, budget)
            except Busy:
                cache.delete(f"{key}:lock")
                raise
            _reviews[key] = future
    if started is not None:
        # Out of the lock: a review done already (a quick one) runs the callback here at
        # once, and the callback takes the lock.
        started.add_done_callback(lambda done: _keep_review(key, done))
    if future is None:
        return await _review_from_elsewhere(key, timeout=len(moves) * budget * 2 + 10)
    # shield: a waiter that hangs up must not cancel the computation the others await.
    result: list[Any] = await asyncio.shield(asyncio.wrap_future(future))
    return result


def _keep_review(key: str, future: concurrent.futures.Future[Any]) -> None:
    try:
        if not future.cancelled() and future.exception() is None:
            cache.set(key, future.result(), timeout=None)
    finally:
        cache.delete(f"{key}:lock")
        with _reviews_lock:
            _reviews.pop(key, None)


async def _review_from_elsewhere(key: str, timeout: float) -> list[Any]:
    """Another process computes this review: wait for it to appear in the cache."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        await asyncio.sleep(0.25)
        entries: list[Any] | None = await cache.aget(key)
        if entries is not None:
            return entries
        if not await cache.aget(f"{key}:lock"):
            break  # the other computation failed: let the next request start one
    raise Busy("review_pending", "The review is still being prepared: try again in a few seconds.", 5, 503)
