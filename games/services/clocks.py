"""A game's clock as the services keep it: started, charged at each action, stopped.

The server is the clock: a seat's time is taken off from the moments the server
commits its actions, never from what a page says. The arithmetic is pure
(:mod:`games.clocks`); this module applies it to a :class:`~games.models.Game` under the
caller's lock and reads the time from :data:`clock`, which tests replace
(:func:`use`) so that no test sleeps.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from typing import Any, Protocol

from django.conf import settings
from django.utils import timezone

from games import clocks
from games.engine import State
from games.models import Game


class Clock(Protocol):
    def now(self) -> datetime: ...


class SystemClock:
    def now(self) -> datetime:
        return timezone.now()


class FakeClock:
    """A clock that moves only when told (tests)."""

    def __init__(self, start: datetime | None = None) -> None:
        self.current = start or datetime(2026, 1, 1, 12, tzinfo=UTC)

    def now(self) -> datetime:
        return self.current

    def advance(self, seconds: float) -> datetime:
        self.current += timedelta(seconds=seconds)
        return self.current


clock: Clock = SystemClock()


def now() -> datetime:
    return clock.now()


@contextmanager
def use(replacement: Clock) -> Iterator[Clock]:
    """Read the time from ``replacement`` meanwhile."""
    global clock
    previous, clock = clock, replacement
    try:
        yield replacement
    finally:
        clock = previous


def ms(moment: datetime) -> int:
    return round(moment.timestamp() * 1000)


def moment(epoch_ms: int) -> datetime:
    return datetime.fromtimestamp(epoch_ms / 1000, tz=UTC)


def _movers(game: Game) -> list[int]:
    return [seat for seat, _ in game.move_rows]


def _first_move_ms() -> int:
    return round(settings.CLOCK_FIRST_MOVE * 1000)


def _set_deadline(game: Game, state: State[Any], movers: list[int] | None = None) -> None:
    control = game.time_control
    if state.is_over() or game.clock_since is None or not control.runs:
        game.deadline = None
        return
    first = clocks.first_turn(_movers(game) if movers is None else movers, state.to_move)
    due = clocks.deadline(
        control, game.remaining, state.to_move, ms(game.clock_since), first, _first_move_ms()
    )
    game.deadline = moment(due) if due is not None else None


def start(game: Game, state: State[Any], when: datetime | None = None) -> None:
    """The game begins (every seat taken): full time for every seat, the first to move's
    turn from now. Nothing for a game without a running clock."""
    control = game.time_control
    if not control.runs:
        return
    game.remaining = [control.start_ms()] * state.num_players
    game.clock_since = when or now()
    _set_deadline(game, state)


def running(game: Game) -> bool:
    return game.time_control.runs and game.clock_since is not None and not game.is_finished


def flagged(game: Game, when: datetime) -> bool:
    """Whether the seat to move has run out (or missed its first move) by ``when``."""
    return running(game) and game.deadline is not None and when > game.deadline


def moved(game: Game, mover: int, before: list[int], new_state: State[Any], when: datetime) -> int | None:
    """Charge ``mover`` for the action just applied (``before``: the seats of the actions
    before it) and start the next turn; the mover's time left, for the move's record."""
    if not running(game):
        return None
    control = game.time_control
    assert game.clock_since is not None
    since = ms(game.clock_since)
    first = clocks.first_turn(before, mover)
    times = list(game.remaining)
    if not first:
        times = clocks.charge(control, times, mover, since, ms(when))
    passes = new_state.is_over() or new_state.to_move != mover
    if passes and not first:
        times = clocks.turn_passed(control, times, mover, new_state.to_move)
    elif passes and control.correspondence:
        times[new_state.to_move] = control.start_ms()
    game.remaining = times
    # A first turn's limit counts from its start, however many actions it has.
    if passes or not first:
        game.clock_since = when
    _set_deadline(game, new_state, [*before, mover])
    return int(times[mover])


def restarted(
    game: Game, to_move_before: int, movers_before: list[int], state: State[Any], when: datetime
) -> None:
    """Moves were taken back: the seat that was to move (after ``movers_before``) is charged
    its thinking so far (no increment), and the seat now to move starts its turn now."""
    if not running(game):
        return
    assert game.clock_since is not None
    if not clocks.first_turn(movers_before, to_move_before):
        game.remaining = clocks.charge(
            game.time_control, game.remaining, to_move_before, ms(game.clock_since), ms(when)
        )
    game.clock_since = when
    _set_deadline(game, state)


def stop(game: Game, to_move: int | None, when: datetime) -> None:
    """The game ended other than by a move: the seat to move is charged, the clock stops."""
    if running(game) and to_move is not None:
        assert game.clock_since is not None
        if not clocks.first_turn(_movers(game), to_move):
            game.remaining = clocks.charge(
                game.time_control, game.remaining, to_move, ms(game.clock_since), ms(when)
            )
    game.deadline = None


def remaining_now(game: Game, when: datetime | None = None) -> list[int]:
    """Each seat's time as of now (the seat to move's thinking taken off): what pages show."""
    if not game.remaining:
        return []
    if not running(game):
        return list(game.remaining)
    to_move = game.state.to_move
    charged = not clocks.first_turn(_movers(game), to_move)
    since = ms(game.clock_since) if game.clock_since else None
    return clocks.now_remaining(game.remaining, to_move, since, ms(when or now()), charged)


def first_turn_of_mover(game: Game) -> bool:
    """Whether the seat to move has yet to make its first move (its clock is not running)."""
    return running(game) and clocks.first_turn(_movers(game), game.state.to_move)


def think_time(game: Game, delay: float, budget: float) -> tuple[float, float]:
    """The computer's delay and budget for its next action, from its time left."""
    if not running(game) or not game.remaining:
        return delay, budget
    left = remaining_now(game)[game.state.to_move]
    return clocks.think_time(game.time_control, left, delay, budget)
