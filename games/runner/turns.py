"""Runs the computer's turns: waits the thinking delay, searches off the event loop,
and plays through :func:`games.services.moves.play_move` with the ply it searched for.

Two modes (setting ``AI_RUNNER``):

* ``inline`` (default): each web process runs due AI turns as asyncio tasks on its
  own event loop; the search runs in a process pool (``AI_PROCESSES``) or threads.
  Outside a server (terminal player, tests without one) the turn runs synchronously.
* ``queue``: web processes record ``Game.ai_due_at`` and send the turn to a Celery
  queue after commit; ``manage.py ai_worker`` processes play it under a lease renewed
  while they think (see :mod:`games.runner.queue`). The polling ``worker`` mode is
  retired; its name is read as ``queue``.

Either way a due turn is stored on the game, so a restart loses none, and a result
computed for an older ply is refused as stale and dropped.

The runner subscribes to the services' game events (:func:`on_game_event`, registered
in games/apps.py): it never is called by the services. Analysis (the API's analysis,
hints, reviews) never shares the computer's pool: see :mod:`games.runner.pools`.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextvars
import logging
import secrets
import threading
import time
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from channels.db import database_sync_to_async
from django.conf import settings
from django.db import InterfaceError, OperationalError
from django.utils import timezone

from games import catalog
from games.events import GameEvent
from games.models import Game
from games.runner import queue, readiness
from games.runner.pools import AnalysisGate, Busy, analyse, cached_review, executor_factory, gate, review
from games.services import clocks
from games.services.base import AI, ServiceError
from games.services.moves import play_move

log = logging.getLogger(__name__)

STARTUP_RETRY = 2.0  # seconds between reads of the due turns while the database is down


@dataclass(frozen=True)
class Job:
    game_id: int
    ply: int
    due_at: datetime
    kind: str
    options: dict[str, Any]
    moves: list[str]
    level: str
    budget: float  # seconds of search: AI_BUDGET, less when the computer's clock is low

    def compute(self) -> str:
        return catalog.compute_move(self.kind, self.options, self.moves, self.level, self.budget, _seed())


def _seed() -> int:
    return secrets.randbits(32)


def load_job(game_id: int) -> Job | None:
    """The AI turn due in this game, or ``None`` when the computer is not to move."""
    game = Game.objects.filter(pk=game_id, status=Game.Status.PLAYING, ai_due_at__isnull=False).first()
    if game is None or game.ai_due_at is None:
        return None
    budget = clocks.think_time(game, settings.AI_DELAY, settings.AI_BUDGET)[1]
    return Job(
        game.pk, game.ply, game.ai_due_at, game.kind, game.options, game.move_texts, game.ai_level, budget
    )


def apply(job: Job, text: str) -> bool:
    """Play the computed action; False when the game moved on meanwhile (dropped)."""
    try:
        play_move(job.game_id, AI, text, job.ply)
    except ServiceError as exc:
        if exc.code in ("stale", "game_over", "not_your_turn"):
            log.info("dropped AI move %s for game %s ply %s: %s", text, job.game_id, job.ply, exc.code)
            return False
        raise
    return True


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
        if settings.AI_RUNNER == "queue":
            queue.enqueue(game_id)
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
            self._executor = executor_factory()
        return self._executor

    async def _start_up(self) -> None:
        assert self._loop is not None
        if settings.AI_WARM_UP:
            with readiness.warming_up():
                seconds = await self._loop.run_in_executor(self.executor(), catalog.warm_up)
            log.info("AI warm-up took %.2f s", seconds)
            # Then the analysis pool, so that its first hint does not compile either.
            gate.executor().submit(catalog.warm_up)
        while True:  # a server started while its database is down picks them up once it is back
            try:
                due = await database_sync_to_async(
                    lambda: list(
                        Game.objects.filter(status=Game.Status.PLAYING, ai_due_at__isnull=False).values_list(
                            "pk", flat=True
                        )
                    )
                )()
                break
            except (OperationalError, InterfaceError):
                log.warning("cannot read the due AI turns yet; trying again", exc_info=True)
                await asyncio.sleep(STARTUP_RETRY)
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
                    catalog.compute_move,
                    job.kind,
                    job.options,
                    job.moves,
                    job.level,
                    job.budget,
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


runner = Runner()


def on_game_event(event: GameEvent) -> None:
    """Subscribed in ``GamesConfig.ready()``: a new game or a move may make the computer due."""
    if event.kind in ("created", "moved") and event.ai_due is not False:
        # A move that leaves a person to move (every move of a game between people) costs
        # the runner nothing: no read of the game on the thread that serves the moves.
        runner.schedule(event.game_id)


# The analysis side, re-exported for the views and the API.
__all__ = ["AnalysisGate", "Busy", "Job", "Runner", "analyse", "cached_review", "gate", "review", "runner"]
