"""Runs the computer's turns: waits the thinking delay, searches off the event loop,
and plays through :func:`games.services.play_move` with the ply it searched for.

Two modes (setting ``AI_RUNNER``):

* ``inline`` (default): each web process runs due AI turns as asyncio tasks on its
  own event loop; the search runs in a process pool (``AI_PROCESSES``) or threads.
  Outside a server (terminal player, tests without one) the turn runs synchronously.
* ``worker``: web processes only record ``Game.ai_due_at``; ``manage.py ai_worker``
  processes claim due games and play them.

Either way a due turn is stored on the game, so a restart loses none, and a result
computed for an older ply is refused as stale and dropped.

Analysis (the API's analysis, hints, reviews) never shares the computer's pool: it runs
in its own (``ANALYSIS_WORKERS``), admitted by :class:`AnalysisGate` (a total cap and
a cap per client, refusals as :class:`Busy`), and a game's review is computed once.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextvars
import logging
import multiprocessing
import secrets
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from channels.db import database_sync_to_async
from django.conf import settings
from django.core.cache import cache
from django.utils import timezone

from . import ai
from .models import Game

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Job:
    game_id: int
    ply: int
    due_at: datetime
    kind: str
    options: dict[str, Any]
    moves: list[str]
    level: str

    def compute(self) -> str:
        return ai.compute_move(self.kind, self.options, self.moves, self.level, settings.AI_BUDGET, _seed())


def _seed() -> int:
    return secrets.randbits(32)


def load_job(game_id: int) -> Job | None:
    """The AI turn due in this game, or ``None`` when the computer is not to move."""
    game = Game.objects.filter(pk=game_id, status=Game.Status.PLAYING, ai_due_at__isnull=False).first()
    if game is None or game.ai_due_at is None:
        return None
    return Job(game.pk, game.ply, game.ai_due_at, game.kind, game.options, game.move_texts, game.ai_level)


def claim(job: Job, lease: float) -> bool:
    """Atomically take a due turn for ``lease`` seconds, so several workers share the work."""
    until = timezone.now() + timedelta(seconds=lease)
    return Game.objects.filter(pk=job.game_id, ply=job.ply, ai_due_at=job.due_at).update(ai_due_at=until) == 1


def apply(job: Job, text: str) -> bool:
    """Play the computed action; False when the game moved on meanwhile (dropped)."""
    from .services import AI, ServiceError, play_move

    try:
        play_move(job.game_id, AI, text, job.ply)
    except ServiceError as exc:
        if exc.code in ("stale", "game_over", "not_your_turn"):
            log.info("dropped AI move %s for game %s ply %s: %s", text, job.game_id, job.ply, exc.code)
            return False
        raise
    return True


def _executor_factory(processes: int | None = None, name: str = "ai") -> concurrent.futures.Executor:
    size = settings.AI_PROCESSES if processes is None else processes
    if settings.AI_PROCESSES > 0:
        # spawn: a fresh interpreter, never a fork of a threaded server.
        return concurrent.futures.ProcessPoolExecutor(
            max(1, size), mp_context=multiprocessing.get_context("spawn")
        )
    return concurrent.futures.ThreadPoolExecutor(
        2 if processes is None else max(1, size), thread_name_prefix=name
    )


class Runner:
    def __init__(self) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None
        self._executor: concurrent.futures.Executor | None = None
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._again: set[int] = set()
        self._inline = threading.local()

    # -- entry points -------------------------------------------------------

    def bind(self, loop: asyncio.AbstractEventLoop) -> None:
        """Called once the server's event loop runs: warm up, then pick up due turns."""
        if self._loop is loop or settings.AI_RUNNER != "inline":
            return
        self._loop = loop
        loop.create_task(self._start_up(), context=contextvars.Context())

    def schedule(self, game_id: int) -> None:
        """A game changed: make sure its AI turn (if any) gets played. Any thread."""
        if settings.AI_RUNNER != "inline":
            return
        loop = self._loop
        if loop is not None and loop.is_running():
            # A fresh context: the caller's belongs to a request that is about to end.
            loop.call_soon_threadsafe(self._start_task, game_id, context=contextvars.Context())
        else:
            self._run_inline(game_id)

    # -- inside a server ----------------------------------------------------

    def executor(self) -> concurrent.futures.Executor:
        """The computer's own moves: nothing else ever runs here."""
        if self._executor is None:
            self._executor = _executor_factory()
        return self._executor

    async def _start_up(self) -> None:
        assert self._loop is not None
        if settings.AI_WARM_UP:
            seconds = await self._loop.run_in_executor(self.executor(), ai.warm_up)
            log.info("AI warm-up took %.2f s", seconds)
            # Then the analysis pool, so that its first hint does not compile either.
            gate.executor().submit(ai.warm_up)
        due = await database_sync_to_async(
            lambda: list(
                Game.objects.filter(status=Game.Status.PLAYING, ai_due_at__isnull=False).values_list(
                    "pk", flat=True
                )
            )
        )()
        for game_id in due:
            self._start_task(game_id)

    def _start_task(self, game_id: int) -> None:
        task = self._tasks.get(game_id)
        if task is not None and not task.done():
            self._again.add(game_id)  # the running task looks once more before it ends
            return
        assert self._loop is not None
        self._tasks[game_id] = self._loop.create_task(self._drive(game_id), context=contextvars.Context())

    async def _drive(self, game_id: int) -> None:
        assert self._loop is not None
        try:
            while True:
                self._again.discard(game_id)
                job = await database_sync_to_async(load_job)(game_id)
                if job is None:
                    if game_id in self._again:
                        continue
                    return
                started = time.monotonic()
                text = await self._loop.run_in_executor(
                    self.executor(),
                    ai.compute_move,
                    job.kind,
                    job.options,
                    job.moves,
                    job.level,
                    settings.AI_BUDGET,
                    _seed(),
                )
                wait = (job.due_at - timezone.now()).total_seconds()
                if wait > 0:
                    await asyncio.sleep(wait)
                log.debug("AI %s for game %s in %.3f s", text, game_id, time.monotonic() - started)
                await database_sync_to_async(apply)(job, text)
        except Exception:
            log.exception("AI turn failed in game %s", game_id)
        finally:
            self._tasks.pop(game_id, None)

    # -- outside a server ---------------------------------------------------

    def _run_inline(self, game_id: int) -> None:
        """Play due AI turns now, in this thread; re-entrant calls queue behind the first."""
        pending: set[int] | None = getattr(self._inline, "pending", None)
        if pending is not None:
            pending.add(game_id)
            return
        self._inline.pending = pending = {game_id}
        try:
            while pending:
                current = pending.pop()
                while (job := load_job(current)) is not None:
                    text = job.compute()
                    wait = (job.due_at - timezone.now()).total_seconds()
                    if wait > 0:
                        time.sleep(wait)
                    if not apply(job, text):
                        break
        finally:
            self._inline.pending = None


def run_worker(poll: float = 0.2, lease: float = 30.0, stop: threading.Event | None = None) -> None:
    """The loop of ``manage.py ai_worker``: claim due turns, compute, play."""
    stop = stop or threading.Event()
    if settings.AI_WARM_UP:
        log.info("AI warm-up took %.2f s", ai.warm_up())
    while not stop.is_set():
        due = list(
            Game.objects.filter(status=Game.Status.PLAYING, ai_due_at__lte=timezone.now())
            .order_by("ai_due_at")
            .values_list("pk", flat=True)[:10]
        )
        for game_id in due:
            job = load_job(game_id)
            if job is None or not claim(job, lease):
                continue
            apply(job, job.compute())
        if not due:
            stop.wait(poll)


runner = Runner()


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
            self._executor = _executor_factory(settings.ANALYSIS_WORKERS, "analysis")
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
) -> list[Any]:
    """The analysis of a position, in the analysis pool; raises :class:`Busy` when full."""
    future = gate.submit(client, ai.analyse_moves, kind, options, moves, budget)
    result: list[Any] = await asyncio.wrap_future(future)
    return result


# Reviews being computed in this process, by cache key: later askers wait for these.
_reviews: dict[str, concurrent.futures.Future[Any]] = {}
_reviews_lock = threading.Lock()
REVIEW_LOCK_SECONDS = 600


async def review(
    game_id: int, kind: str, options: dict[str, Any], moves: list[str], budget: float, client: str = ""
) -> list[Any]:
    """A finished game judged move by move: computed once, then kept in the cache.

    Single flight: while one request computes a game's review, the others wait for
    that computation (in this process, on its future; in another process, on the
    cache, with a lock taken by ``cache.add``). Callers check the game is finished.
    """
    key = f"review:{game_id}:{len(moves)}"
    entries: list[Any] | None = await cache.aget(key)
    if entries is not None:
        return entries
    with _reviews_lock:
        future = _reviews.get(key)
        if future is None and cache.add(f"{key}:lock", 1, timeout=REVIEW_LOCK_SECONDS):
            try:
                future = gate.submit(client, ai.review, kind, options, moves, budget)
            except Busy:
                cache.delete(f"{key}:lock")
                raise
            _reviews[key] = future
            future.add_done_callback(lambda done: _keep_review(key, done))
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
