"""What every game service shares: who acts, how a refusal is said, the locked read of a
game and the guards each action checks under that lock, and how a game ends.

The services (moves, offers, abandonment, chat, moderation) and the apps built on the
games (accounts, lobby, ratings) use these names; none of them is private to one module.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import clocks as clock_rules
from games.engine import State
from games.events import GameEvent, publish
from games.models import LOCKED_GAME, Game, Seat, hash_token
from games.services import clocks

log = logging.getLogger(__name__)


class ServiceError(Exception):
    """A refused request: ``code`` for programs, ``message`` for people, ``status`` for HTTP;
    ``retry_after`` the seconds to wait when it was refused for speed; ``field`` names the
    input at fault, where there is one (a form shows the message beside it)."""

    def __init__(
        self,
        code: str,
        message: str,
        status: int = 400,
        retry_after: int | None = None,
        field: str | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
        self.retry_after = retry_after
        self.field = field


@dataclass(frozen=True)
class Actor:
    """Who is acting: a browser (its player id), an API token holder, or the computer."""

    player_id: str | None = None
    token: str | None = None
    is_ai: bool = False

    def holds(self, seat: Seat) -> bool:
        if self.is_ai:
            return seat.is_ai
        if seat.is_ai:
            return False
        if self.player_id and seat.player_id == self.player_id:
            return True
        return bool(self.token) and seat.token_hash == hash_token(self.token or "")


AI = Actor(is_ai=True)


def locked_game(game_id: int) -> Game:
    """The game's row, locked until the transaction ends (call inside ``transaction.atomic``)."""
    game = LOCKED_GAME.first(game_id)
    if game is None:
        raise ServiceError("not_found", _("There is no game %(id)s.") % {"id": game_id}, 404)
    return game


def check_ply(game: Game, expected_ply: int | None, expected_revision: int | None = None) -> None:
    """The ply guard: an action made for an older position is refused as stale, so a
    repeated submission applies once. The revision names the position itself: after a
    takeback and another move the ply is the same again, the revision is not."""
    if expected_ply is not None and expected_ply != game.ply:
        raise ServiceError(
            "stale",
            _("The game has moved on (ply %(ply)d, you sent %(sent)d); reload the position.")
            % {"ply": game.ply, "sent": expected_ply},
            409,
        )
    if expected_revision is not None and expected_revision != game.revision:
        raise ServiceError(
            "stale",
            _("The game has changed since (revision %(revision)d, you sent %(sent)d); reload the position.")
            % {"revision": game.revision, "sent": expected_revision},
            409,
        )


def seats_held(game: Game, actor: Actor) -> list[int]:
    return [s.index for s in game.seat_list if actor.holds(s)]


def acting_on(
    game_id: int, actor: Actor, expected_ply: int | None, *, over: bool = False
) -> tuple[Game, list[int]]:
    """The locked game and the seats ``actor`` holds, or the refusal: the guard of every
    action a seat takes besides a move.

    ``over`` says the action is for a finished game (a rematch); the others are for a game
    in play.
    """
    game = locked_game(game_id)
    if game.status == Game.Status.WAITING:
        raise ServiceError("waiting", _("The game has not started: a seat is still open."), 409)
    if over and not game.is_finished:
        raise ServiceError("not_over", _("A rematch can be offered once the game is over."), 409)
    if not over and game.is_finished:
        raise ServiceError("game_over", _("The game is over."), 409)
    check_ply(game, expected_ply)
    held = seats_held(game, actor)
    if not held:
        raise ServiceError("not_your_seat", _("You do not hold a seat in this game."), 403)
    if not over and clocks.flagged(game, clocks.now()):
        # The clock has ended the game; the sweep records it within a second.
        raise ServiceError("timeout", _("Time has run out: the game is over."), 409)
    return game, held


def schedule_ai_if_due(game: Game, state: State[Any], just_moved: int | None) -> None:
    """Mark when the computer should act, if it is to move: a restart finds it again."""
    game.ai_due_at = None
    if state.is_over() or not game.ai_level:
        return
    seat = next((s for s in game.seat_list if s.index == state.to_move), None)
    if seat is None or not seat.is_ai:
        return
    delay = settings.AI_DELAY / 2 if just_moved == state.to_move else settings.AI_DELAY
    if game.remaining and game.time_control.realtime:
        # On the clock the thinking delay is spent from the computer's time: a share of it.
        left = game.remaining[state.to_move]
        delay = clock_rules.think_time(game.time_control, left, delay, settings.AI_BUDGET)[0]
    game.ai_due_at = timezone.now() + timedelta(seconds=delay)


# Called with every game that ends, inside the transaction that ends it (the ratings
# app rates here: once, with the game's row locked). Registered in an app's ready().
EndHook = Callable[[Game], None]
_end_hooks: list[EndHook] = []


def on_end(hook: EndHook) -> None:
    if hook not in _end_hooks:
        _end_hooks.append(hook)


def ended(game: Game) -> None:
    """Run the end hooks for ``game`` (ended, its row locked, not yet committed). A hook
    that fails is undone alone (its savepoint) and logged: the game still ends."""
    for hook in tuple(_end_hooks):
        try:
            with transaction.atomic():
                hook(game)
        except Exception:
            log.exception("end hook %r failed for game %s", hook, game.pk)


def unstarted_seat(game: Game) -> int | None:
    """The first seat that has made no move yet, or None once every seat has moved."""
    movers = {seat for seat, _ in game.move_rows}
    return next((seat.index for seat in game.seat_list if seat.index not in movers), None)


def finish_game(game: Game, status: Game.Status, reason: Game.Reason, result: dict[str, Any]) -> None:
    """End a game in play other than by a move (resignation, agreement, abandonment): one
    ``ended`` event, published after commit. A rated game that ends so before every seat
    has moved is aborted instead (as lichess does): nobody wins and nothing is rated, so a
    resignation at the first move cannot farm rating points."""
    if game.rated and status != Game.Status.ABORTED and (idle := unstarted_seat(game)) is not None:
        result = {"winner": None, "no_start": idle, "ended_by": reason.value}
        status, reason = Game.Status.ABORTED, Game.Reason.NO_START
    if clocks.running(game):
        clocks.stop(game, game.state.to_move, clocks.now())
    game.status = status
    game.reason = reason
    game.winner = result["winner"]
    game.result = {"lines": [], "shared": [], **result}
    game.offers = {}
    game.ai_due_at = None
    game.deadline = None
    game.save()
    ended(game)
    publish(GameEvent(game.pk, game.ply, "ended"))


def others_win(game: Game, losers: list[int], reason: Game.Reason, detail: dict[str, Any]) -> None:
    """The seats not among ``losers`` win: one winner with two seats, a shared win with more."""
    others = [s.index for s in game.seat_list if s.index not in losers]
    winner = others[0] if len(others) == 1 else None
    finish_game(game, Game.Status.WON, reason, {"winner": winner, "winners": others, **detail})
