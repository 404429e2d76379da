"""Around the game: resign, draw offers, takebacks and rematches.

Like :func:`games.services.moves.play_move`, every action here runs in one transaction
that locks the game row and checks the ply the actor saw (a repeated request applies
once: the second is ``stale`` or finds the game over; :func:`games.services.base.acting_on`),
refuses with a :class:`~games.services.base.ServiceError` and changes nothing then, and publishes a
:class:`~games.events.GameEvent` after commit.

The offers follow lichess's Board API: *yes* offers, or accepts what another seat
offered; *no* declines (or withdraws) it. ``Game.offers`` holds each pending offer as
``{"seats": [...], "ply": n}``: the seats that said yes, the offerer first. An offer is
accepted once every seat held by a person has said yes; the computer's seats answer at
once:

- **Draw**: the computer always declines (it plays every position out); between people
  the game ends drawn, reason ``agreed``. A draw offer lapses once the offerer moves
  again after an opponent has moved; any move ends a takeback request.
- **Takeback**: against the computer (every other seat is the computer's) it applies at
  once on your turn: your last turn and the computer's reply after it are undone. Against
  people the others accept it, and the requester's last turn (and any reply after it) is
  undone. Only where the game allows takebacks (a new-game option, on by default); each
  one is counted in ``Game.takebacks``.
- **Resign**: the game ends, reason ``resigned``. With two seats the opponent wins; with
  three or four (connect-N) the resigning seat loses and the others share the win
  (``result["winners"]``, no single ``winner``), as the record's ``Result`` says
  (``1/2-0-1/2``).
- **Rematch** (after the game): once accepted, a new game of the same kind, options,
  level, hints and takebacks setting, the seats rotated by one (two players swap sides),
  each person keeping their player id and token in the new seat. The old game names it
  (``Game.rematch``).
Abandonment (a seat's pages gone, claims) is :mod:`games.services.abandonment`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import catalog
from games.events import GameEvent, publish
from games.models import Game, Move, Seat
from games.services import chat, clocks, policy
from games.services.base import Actor, ServiceError, acting_on, finish_game, others_win, schedule_ai_if_due

OfferKind = Literal["draw", "takeback", "rematch"]


def _acting_seat(game: Game, held: list[int]) -> int:
    """The seat a holder of several (hot-seat) acts for: the one to move, else the first."""
    to_move: int = game.state.to_move
    return to_move if to_move in held and not game.is_finished else held[0]


def _people(game: Game) -> set[int]:
    return {s.index for s in game.seat_list if not s.is_ai}


def _vs_computer(game: Game) -> bool:
    return any(s.is_ai for s in game.seat_list)


# One whole sentence per offer, so that each language says it its own way.
ALREADY_OFFERED: dict[str, Callable[[], str]] = {
    "draw": lambda: _("You have already said yes to this draw; wait for the answer."),
    "takeback": lambda: _("You have already said yes to this takeback; wait for the answer."),
    "rematch": lambda: _("You have already said yes to this rematch; wait for the answer."),
}
NO_OFFER: dict[str, Callable[[], str]] = {
    "draw": lambda: _("There is no draw offer to answer."),
    "takeback": lambda: _("There is no takeback offer to answer."),
    "rematch": lambda: _("There is no rematch offer to answer."),
}


def _say_yes(game: Game, kind: OfferKind, held: list[int], seat: int) -> bool:
    """Record ``held``'s yes to the ``kind`` offer (making it if none); True when accepted."""
    offer = game.offers.get(kind)
    if offer is None:
        offer = {"seats": [seat], "ply": game.ply}
    elif set(held) <= set(offer["seats"]):
        raise ServiceError("already_offered", ALREADY_OFFERED[kind](), 409)
    seats: list[int] = offer["seats"]
    seats += [s for s in held if s not in seats]
    game.offers = {**game.offers, kind: {**offer, "seats": seats}}
    return _people(game) <= set(seats)


def _say_no(game: Game, kind: OfferKind) -> None:
    if kind not in game.offers:
        raise ServiceError("no_offer", NO_OFFER[kind](), 409)
    game.offers = {k: v for k, v in game.offers.items() if k != kind}


# -- resign ---------------------------------------------------------------------------


def resign(game_id: int, actor: Actor, expected_ply: int | None) -> Game:
    """The actor's seat gives up: the opponent wins (with three or more seats, the others share)."""
    with transaction.atomic():
        game, held = acting_on(game_id, actor, expected_ply)
        seat = _acting_seat(game, held)
        others_win(game, [seat], Game.Reason.RESIGNED, {"resigned": seat})
    return game


def _decline(game: Game, kind: OfferKind, held: list[int]) -> Game:
    """Decline the pending offer (or withdraw one's own) and tell the pages; the chat says
    who did (a line of the site), so the offerer learns why their offer went away."""
    said_yes = game.offers.get(kind, {}).get("seats", [])
    _say_no(game, kind)
    game.save(update_fields=["offers", "updated"])
    mine = [seat for seat in held if seat in said_yes]
    done = "withdrew" if mine else "declined"
    chat.site_line(game, game.seat_list[mine[0] if mine else held[0]], done, kind)
    publish(GameEvent(game.pk, game.ply, "declined"))
    return game


# -- draw -------------------------------------------------------------------------------


def draw(game_id: int, actor: Actor, yes: bool, expected_ply: int | None) -> Game:
    """Offer or accept a draw (``yes``), or decline or withdraw the pending offer."""
    with transaction.atomic():
        game, held = acting_on(game_id, actor, expected_ply)
        if not yes:
            return _decline(game, "draw", held)
        if _vs_computer(game):
            raise ServiceError("declined", _("The computer declines the draw: it plays every game out."), 409)
        if _say_yes(game, "draw", held, _acting_seat(game, held)):
            finish_game(game, Game.Status.DRAWN, Game.Reason.AGREED, {"winner": None})
        else:
            game.save(update_fields=["offers", "updated"])
            publish(GameEvent(game.pk, game.ply, "offer"))
    return game


# -- takeback ---------------------------------------------------------------------------


def _last_turn_start(rows: list[tuple[int, str]], seat: int) -> int:
    """How many actions stay when ``seat``'s last turn and everything after it are undone."""
    end = len(rows)
    while end and rows[end - 1][0] != seat:
        end -= 1
    while end and rows[end - 1][0] == seat:
        end -= 1
    return end


def _undo(game: Game, seat: int) -> None:
    to_move_before = game.state.to_move
    movers_before = [mover for mover, _ in game.move_rows]
    keep = _last_turn_start(game.move_rows, seat)
    Move.objects.filter(game=game, ply__gt=keep).delete()
    game.ply = keep
    game.takebacks += 1
    game.offers = {k: v for k, v in game.offers.items() if k not in ("takeback", "draw")}
    game.status = Game.Status.PLAYING
    game.winner = None
    game.result = None
    game.reason = ""
    game.__dict__["move_rows"] = game.move_rows[:keep]
    game.__dict__.pop("state", None)
    clocks.restarted(game, to_move_before, movers_before, game.state, clocks.now())
    schedule_ai_if_due(game, game.state, just_moved=None)
    game.save()
    publish(GameEvent(game.pk, game.ply, "takeback"))


def takeback(game_id: int, actor: Actor, yes: bool, expected_ply: int | None) -> Game:
    """Take your last turn back (against the computer at once, against people once accepted)."""
    with transaction.atomic():
        game, held = acting_on(game_id, actor, expected_ply)
        if not yes:
            return _decline(game, "takeback", held)
        if refusal := policy.takeback_refusal(game):
            raise refusal
        pending = game.offers.get("takeback")
        if pending is None:
            mine = [seat for seat, _ in game.move_rows if seat in held]
            if not mine:
                raise ServiceError("not_allowed", _("You have made no move to take back."), 409)
            seat = mine[-1]
        else:
            seat = pending["seats"][0]
        if _vs_computer(game):
            if game.state.to_move not in held:
                raise ServiceError(
                    "not_your_turn", _("Take back on your turn, once the computer has replied."), 403
                )
            _undo(game, seat)
        elif _say_yes(game, "takeback", held, seat):
            _undo(game, seat)
        else:
            game.save(update_fields=["offers", "updated"])
            publish(GameEvent(game.pk, game.ply, "offer"))
    return game


# -- rematch ---------------------------------------------------------------------------


def rematch(game_id: int, actor: Actor, yes: bool, expected_ply: int | None) -> Game:
    """Offer or accept a rematch of a finished game (``game.rematch`` once it is made)."""
    with transaction.atomic():
        game, held = acting_on(game_id, actor, expected_ply, over=True)
        if not yes:
            return _decline(game, "rematch", held)
        if game.rematch_id is not None:
            raise ServiceError("rematch_exists", _("The rematch has started already."), 409)
        if _say_yes(game, "rematch", held, held[0]):
            game.rematch = _new_game_like(game)
            game.offers = {k: v for k, v in game.offers.items() if k != "rematch"}
            game.save(update_fields=["rematch", "offers", "updated"])
            publish(GameEvent(game.pk, game.ply, "rematch"))
        else:
            game.save(update_fields=["offers", "updated"])
            publish(GameEvent(game.pk, game.ply, "offer"))
    return game


def _new_game_like(old: Game) -> Game:
    """The rematch: same game and settings, every seat moved one place on (two swap)."""
    new = Game.objects.create(
        kind=old.kind,
        options=old.options,
        ai_level=old.ai_level,
        allow_hints=old.allow_hints,
        allow_takebacks=old.allow_takebacks,
        status=Game.Status.PLAYING,
        clock={k: v for k, v in old.clock.items() if k != "paused"},
        rated=old.rated,
    )
    seats = old.seat_list
    now = timezone.now()
    for seat in seats:
        Seat.objects.create(
            game=new,
            index=(seat.index + 1) % len(seats),
            kind=seat.kind,
            player_id=seat.player_id,
            token_hash=seat.token_hash,
            name=seat.name,
            joined_at=now if not seat.is_ai else None,
        )
    state = catalog.get(new.kind).rules.new_state(new.options)
    schedule_ai_if_due(new, state, just_moved=None)
    clocks.start(new, state)
    if new.ai_due_at or new.deadline:
        new.save(update_fields=["ai_due_at", "remaining", "clock_since", "deadline"])
    publish(GameEvent(new.pk, new.ply, "created"))
    return new


ACTIONS = {"draw": draw, "takeback": takeback, "rematch": rematch}
