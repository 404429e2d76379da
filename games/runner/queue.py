"""The computer's turns on a task queue (``AI_RUNNER=queue``): Celery workers play them.

The game row stays the source of truth. ``Game.ai_due_at`` holds either the time a
turn is due (set by the move that made it due) or, once a worker claimed it, the end
of that worker's lease; a message carries the game, the ply and the value it was sent
for, its *token*:

* after commit, the web process sends ``(game, ply, due time)`` (:func:`enqueue`);
* a task claims the turn by compare-and-set of ``ai_due_at`` from its token to a
  lease ``AI_LEASE`` seconds ahead (:func:`take_turn`), so of two messages for one
  turn only the first does the work; it computes in a search process, renewing the
  lease every third of it, waits out the thinking delay, and plays through
  :func:`games.services.moves.play_move` with the ply it searched: a stale result is
  refused there, so a turn is applied once;
* a worker that dies stops renewing: its lease lapses within ``AI_LEASE`` seconds and
  every worker's sweeper (:class:`Sweeper`, every ``AI_SWEEP`` seconds) re-enqueues
  turns whose ``ai_due_at`` has passed, lapsed leases and lost messages alike, with
  the current value as token.
"""

from __future__ import annotations

import concurrent.futures
import logging
import secrets
import threading
import time
from datetime import datetime, timedelta
from typing import Literal

from django.conf import settings
from django.db import close_old_connections
from django.utils import timezone

from games import catalog
from games.models import Game
from games.runner.pools import executor_factory
from games.services import clocks
from games.services.base import AI, ServiceError
from games.services.moves import play_move
from quarto_site.celery import app

log = logging.getLogger(__name__)

PLAY_TURN = "games.play_turn"
Outcome = Literal["played", "dropped", "gone", "taken", "lost"]
# A due turn nobody took this long after it fell due is sent again.
SWEEP_GRACE = 0.5
# ... but the same turn at most this often by one sweeper (a busy queue, not a lost one).
SWEEP_REPEAT = 10.0


def enqueue(game_id: int) -> bool:
    """Send the game's due turn, if any, to the AI queue; the web processes call this
    after the move that made it due committed."""
    row = (
        Game.objects.filter(pk=game_id, status=Game.Status.PLAYING, ai_due_at__isnull=False)
        .values_list("ply", "ai_due_at")
        .first()
    )
    if row is None or row[1] is None:
        return False
    send(game_id, row[0], row[1])
    return True


def send(game_id: int, ply: int, token: datetime) -> None:
    """One message: the task by name (games/runner/tasks.py), on the AI queue."""
    app.send_task(PLAY_TURN, (game_id, ply, token.isoformat()), queue=settings.AI_QUEUE)


_executor: concurrent.futures.Executor | None = None
_executor_lock = threading.Lock()


def executor() -> concurrent.futures.Executor:
    """The worker's search processes: the computer's moves only."""
    global _executor
    with _executor_lock:
        if _executor is None:
            _executor = executor_factory()
        return _executor


def claim(game_id: int, ply: int, token: datetime, lease: float) -> datetime | None:
    """Take the turn sent as ``token``: the lease's end, or None when another took it."""
    until = timezone.now() + timedelta(seconds=lease)
    taken = Game.objects.filter(pk=game_id, status=Game.Status.PLAYING, ply=ply, ai_due_at=token).update(
        ai_due_at=until
    )
    return until if taken == 1 else None


def renew(game_id: int, ply: int, held: datetime, lease: float) -> datetime | None:
    """Extend a lease still ours; None when it is not (lapsed and taken, or played)."""
    return claim(game_id, ply, held, lease)


def take_turn(
    game_id: int, ply: int, token: datetime, compute: concurrent.futures.Executor | None = None
) -> Outcome:
    """One message: claim, compute (renewing the lease), wait the delay, play."""
    lease = settings.AI_LEASE
    game = Game.objects.filter(pk=game_id).first()
    if game is None or game.ply != ply or game.ai_due_at != token or game.status != Game.Status.PLAYING:
        return "gone"
    held = claim(game_id, ply, token, lease)
    if held is None:
        return "taken"
    future = (compute or executor()).submit(
        catalog.compute_move,
        game.kind,
        game.options,
        game.move_texts,
        game.ai_level,
        clocks.think_time(game, settings.AI_DELAY, settings.AI_BUDGET)[1],
        secrets.randbits(32),
    )
    beat = lease / 3
    while True:
        try:
            text = future.result(timeout=beat)
            break
        except concurrent.futures.TimeoutError:
            if (held := renew(game_id, ply, held, lease)) is None:
                future.cancel()
                return "lost"
    # The thinking delay counts from the move that made the turn due (the token, when
    # it is the due time rather than a lapsed lease).
    while (wait := (token - timezone.now()).total_seconds()) > 0:
        time.sleep(min(wait, beat))
        if (held := renew(game_id, ply, held, lease)) is None:
            return "lost"
    try:
        play_move(game_id, AI, text, ply)
    except ServiceError as exc:
        if exc.code in ("stale", "game_over", "not_your_turn"):
            log.info("dropped AI move %s for game %s ply %s: %s", text, game_id, ply, exc.code)
            return "dropped"
        raise
    return "played"


def overdue(now: datetime | None = None) -> list[tuple[int, int, datetime]]:
    """Turns past their due time or lease: (game, ply, token) to send again."""
    limit = (now or timezone.now()) - timedelta(seconds=SWEEP_GRACE)
    rows = Game.objects.filter(status=Game.Status.PLAYING, ai_due_at__lte=limit).values_list(
        "pk", "ply", "ai_due_at"
    )
    return [(pk, ply, due) for pk, ply, due in rows.order_by("ai_due_at")[:500] if due is not None]


class Sweeper:
    """Re-enqueues overdue turns every ``AI_SWEEP`` seconds, in a thread of the worker."""

    def __init__(self, interval: float | None = None) -> None:
        self.interval = settings.AI_SWEEP if interval is None else interval
        self.stop = threading.Event()
        self._sent: dict[tuple[int, int, datetime], float] = {}
        self._thread: threading.Thread | None = None

    def sweep(self) -> int:
        now = time.monotonic()
        self._sent = {key: at for key, at in self._sent.items() if now - at < SWEEP_REPEAT}
        count = 0
        for key in overdue():
            if key in self._sent:
                continue
            self._sent[key] = now
            send(*key)
            count += 1
        if count:
            log.info("sweeper re-enqueued %d overdue AI turn(s)", count)
        return count

    def run(self) -> None:
        while not self.stop.wait(self.interval):
            try:
                self.sweep()
            except Exception:
                log.exception("AI sweeper failed; trying again")
            finally:
                close_old_connections()

    def start(self) -> None:
        self._thread = threading.Thread(target=self.run, name="ai-sweeper", daemon=True)
        self._thread.start()


def shutdown() -> None:
    global _executor
    with _executor_lock:
        if _executor is not None:
            _executor.shutdown(wait=False, cancel_futures=True)
            _executor = None
