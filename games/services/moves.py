"""The one path that changes games: a move. (Games are made in
:mod:`games.services.creation`; its functions are said here too.)

Views, the JSON API, the WebSocket consumer, the terminal player and the AI runner
all call :func:`play_move`; nothing else writes a move. What happened is published as
a :class:`~games.events.GameEvent` after commit; the live push and the AI runner
subscribe (games/apps.py), so this module imports neither.
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from games import catalog
from games.engine import MoveError
from games.events import GameEvent, publish
from games.models import Game, Move
from games.prepared import PreparedSave
from games.services import clocks
from games.services.base import (
    AI,
    Actor,
    ServiceError,
    check_ply,
    ended,
    locked_game,
    schedule_ai_if_due,
    seats_held,
)
from games.services.creation import (
    OPPONENTS,
    SEAT_CHOICES,
    NewGame,
    create_game,
    import_game,
    import_record,
    join_game,
    time_control,
)
from games.services.results import record_outcome
from games.services.timeouts import end_by_clock

# The move path; Actor, AI, ServiceError and seats_held (games.services.base) and the
# games made (games.services.creation) are said here too, as its callers use them with it.
__all__ = [
    "AI",
    "OPPONENTS",
    "SEAT_CHOICES",
    "Actor",
    "NewGame",
    "ServiceError",
    "already_played",
    "create_game",
    "import_game",
    "import_record",
    "join_game",
    "play_move",
    "seats_held",
    "time_control",
]


# What a move changes in the game's row (Game.save adds the revision): the ply, the
# offers it lapses, the outcome, the computer's due time. The rest stays as read under the lock.
MOVED_FIELDS = (
    "ply",
    "offers",
    "status",
    "reason",
    "winner",
    "result",
    "ai_due_at",
    "remaining",
    "clock_since",
    "deadline",
    "updated",
)
# The move's two writes with statements written once (games/prepared.py): the move's row,
# and the game's row as game.save(update_fields=MOVED_FIELDS) writes it, revision included.
SAVE_MOVE = PreparedSave(Move, ("game", "ply", "seat", "text", "created", "clock_ms"))
SAVE_GAME = PreparedSave(Game, (*MOVED_FIELDS, "revision"))


def play_move(
    game_id: int, actor: Actor, text: str, expected_ply: int | None, expected_revision: int | None = None
) -> Game:
    """Apply one action for the seat ``actor`` holds, in one locked transaction.

    ``expected_ply`` (and ``expected_revision``, when sent) is what the actor saw; when the
    game has changed since, the action is refused as stale, so a repeated submission
    applies once and a late one never lands on another position.

    An action that arrives after its seat's time ran out is not played: the game ends on
    time (or is aborted, for a first move) and the answer is ``timeout``.
    """
    if not isinstance(text, str) or not text.strip() or len(text) > 16:
        raise ServiceError("bad_notation", _("Send the action as a short text such as a1 or 7."))
    ended = _apply(game_id, actor, text, expected_ply, expected_revision)
    if isinstance(ended, Game):
        return ended
    raise ServiceError("timeout", ended, 409)


def already_played(game_id: int, actor: Actor, text: str, expected_ply: int) -> Game | None:
    """The game, when the move made for ``expected_ply`` is ``text`` played by a seat
    ``actor`` holds: a second delivery of that same click (a page resends its socket move
    over HTTP when the socket gave no answer), refused as stale, was in fact played; None
    otherwise (another move was played there, or none yet).
    """
    game = Game.objects.filter(pk=game_id).first()
    if game is None or game.ply <= expected_ply:
        return None
    played = Move.objects.filter(game=game, ply=expected_ply + 1).first()
    if played is None or played.seat not in seats_held(game, actor):
        return None
    try:
        canonical = str(catalog.get(game.kind).rules.parse_move(text))
    except MoveError:
        return None
    return game if canonical == played.text else None


def _apply(
    game_id: int, actor: Actor, text: str, expected_ply: int | None, expected_revision: int | None
) -> Game | str:
    """The move's transaction: the game moved, or (committed) why the clock ended it."""
    with transaction.atomic():
        game = locked_game(game_id)
        if game.is_finished:
            raise ServiceError("game_over", _("The game is over: no more moves."), 409)
        if game.status == Game.Status.WAITING:
            raise ServiceError("waiting", _("The game has not started: a seat is still open."), 409)
        check_ply(game, expected_ply, expected_revision)
        state = game.state
        seats = game.seat_list
        held = [s.index for s in seats if actor.holds(s)]
        if not held:
            raise ServiceError("not_your_seat", _("You do not hold a seat in this game."), 403)
        if state.to_move not in held:
            raise ServiceError("not_your_turn", _("It is not your turn."), 403)
        now = clocks.now()
        if clocks.flagged(game, now):
            end_by_clock(game, now)
            if game.reason == Game.Reason.NO_START:
                return _("The first move came too late: the game is aborted.")
            return _("Your time ran out before the move arrived: the game is lost on time.")
        rules = catalog.get(game.kind).rules
        try:
            move = rules.parse_move(text)
            new_state = state.play(move)
        except MoveError as exc:
            raise ServiceError(exc.code, exc.said(_)) from exc
        _lapse_offers(game, state.to_move)
        game.ply += 1
        before = [seat for seat, _ in game.move_rows]
        left = clocks.moved(game, state.to_move, before, new_state, now)
        SAVE_MOVE.insert(Move(game=game, ply=game.ply, seat=state.to_move, text=str(move), clock_ms=left))
        record_outcome(game, new_state)
        schedule_ai_if_due(game, new_state, just_moved=state.to_move)
        game.revision += 1  # as Game.save counts a save that touches "updated"
        SAVE_GAME.update(game)
        game.__dict__["move_rows"] = [*game.move_rows, (state.to_move, str(move))]
        game.__dict__["state"] = new_state
        if game.is_finished:
            ended(game)
        due = game.ai_due_at is not None
        publish(GameEvent(game_id, game.ply, "moved", ai_due=due, clock_runs=game.time_control.runs))
    return game


def _lapse_offers(game: Game, mover: int) -> None:
    """What a move ends: any takeback request (the position it named is gone), and a draw
    offer once the seat that offered moves again after another seat has moved (an offer
    stands for the opponents' turn that follows it, as on lichess)."""
    offers = {kind: dict(offer) for kind, offer in game.offers.items() if kind != "takeback"}
    draw = offers.get("draw")
    if draw is not None:
        if draw["seats"][0] != mover:
            draw["seen"] = True
        elif draw.get("seen"):
            del offers["draw"]
    game.offers = offers
