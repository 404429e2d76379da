"""Around the game: resign, draw offers, takebacks and rematches.

Like :func:`games.services.moves.play_move`, every action here runs in one transaction
that locks the game row and checks the ply the actor saw (a repeated request applies
once: the second is ``stale`` or finds the game over), refuses with a
:class:`~games.services.moves.ServiceError` and changes nothing then, and publishes a
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
- **Claim** (abandonment): once an opponent has gone (see
  :func:`games.services.policy.gone_seats`), the others may claim the win (the gone seats
  lose) or a draw, reason ``abandoned``. A game left unclaimed ``ABANDON_CLOSE_AFTER``
  seconds is closed by :func:`close_abandoned` (status "abandoned", nobody wins). The live
  layer says when a seat's pages all closed and when one is back (:func:`seats_left`,
  :func:`seats_back`). A server that dies cannot say so for the pages it held: every
  server says every ``SEAT_HEARTBEAT`` seconds which seats it holds pages of
  (:func:`seats_seen`, ``Seat.seen_at``), and :func:`seats_lost` takes a seat no server
  has seen for ``SEAT_LOST_AFTER`` seconds as gone since it was last seen.
"""

from __future__ import annotations

import operator
from collections.abc import Iterable, Mapping
from datetime import datetime, timedelta
from functools import reduce
from typing import Any, Literal

from django.conf import settings
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from games import catalog
from games.events import GameEvent, publish
from games.models import Game, Move, Seat
from games.services import chat, policy
from games.services.moves import Actor, ServiceError, _locked_game, _schedule_ai_if_due, check_ply

OfferKind = Literal["draw", "takeback", "rematch"]


def _begin(
    game_id: int, actor: Actor, expected_ply: int | None, *, over: bool = False
) -> tuple[Game, list[int]]:
    """The locked game and the seats ``actor`` holds, or the refusal.

    ``over`` says the action is for a finished game (a rematch); the others are for a game
    in play.
    """
    game = _locked_game(game_id)
    if game.status == Game.Status.WAITING:
        raise ServiceError("waiting", "The game has not started: a seat is still open.", 409)
    if over and not game.is_finished:
        raise ServiceError("not_over", "A rematch can be offered once the game is over.", 409)
    if not over and game.is_finished:
        raise ServiceError("game_over", "The game is over.", 409)
    check_ply(game, expected_ply)
    held = [s.index for s in game.seat_list if actor.holds(s)]
    if not held:
        raise ServiceError("not_your_seat", "You do not hold a seat in this game.", 403)
    return game, held


def _acting_seat(game: Game, held: list[int]) -> int:
    """The seat a holder of several (hot-seat) acts for: the one to move, else the first."""
    to_move: int = game.state.to_move
    return to_move if to_move in held and not game.is_finished else held[0]


def _people(game: Game) -> set[int]:
    return {s.index for s in game.seat_list if not s.is_ai}


def _vs_computer(game: Game) -> bool:
    return any(s.is_ai for s in game.seat_list)


def _say_yes(game: Game, kind: OfferKind, held: list[int], seat: int) -> bool:
    """Record ``held``'s yes to the ``kind`` offer (making it if none); True when accepted."""
    offer = game.offers.get(kind)
    if offer is None:
        offer = {"seats": [seat], "ply": game.ply}
    elif set(held) <= set(offer["seats"]):
        raise ServiceError(
            "already_offered", f"You have already said yes to this {kind}; wait for the answer.", 409
        )
    seats: list[int] = offer["seats"]
    seats += [s for s in held if s not in seats]
    game.offers = {**game.offers, kind: {**offer, "seats": seats}}
    return _people(game) <= set(seats)


def _say_no(game: Game, kind: OfferKind) -> None:
    if kind not in game.offers:
        raise ServiceError("no_offer", f"There is no {kind} offer to answer.", 409)
    game.offers = {k: v for k, v in game.offers.items() if k != kind}


def _finish(game: Game, status: Game.Status, reason: Game.Reason, result: dict[str, Any]) -> None:
    game.status = status
    game.reason = reason
    game.winner = result["winner"]
    game.result = {"lines": [], "shared": [], **result}
    game.offers = {}
    game.ai_due_at = None
    game.save()
    publish(GameEvent(game.pk, game.ply, "ended"))


def _others_win(game: Game, losers: list[int], reason: Game.Reason, detail: dict[str, Any]) -> None:
    """The seats not among ``losers`` win: one winner with two seats, a shared win with more."""
    others = [s.index for s in game.seat_list if s.index not in losers]
    winner = others[0] if len(others) == 1 else None
    _finish(game, Game.Status.WON, reason, {"winner": winner, "winners": others, **detail})


# -- resign ---------------------------------------------------------------------------


def resign(game_id: int, actor: Actor, expected_ply: int | None) -> Game:
    """The actor's seat gives up: the opponent wins (with three or more seats, the others share)."""
    with transaction.atomic():
        game, held = _begin(game_id, actor, expected_ply)
        seat = _acting_seat(game, held)
        _others_win(game, [seat], Game.Reason.RESIGNED, {"resigned": seat})
    return game


OFFER_NAMES = {"draw": "draw offer", "takeback": "takeback request", "rematch": "rematch offer"}


def _decline(game: Game, kind: OfferKind, held: list[int]) -> Game:
    """Decline the pending offer (or withdraw one's own) and tell the pages; the chat says
    who did (a line of the site), so the offerer learns why their offer went away."""
    said_yes = game.offers.get(kind, {}).get("seats", [])
    _say_no(game, kind)
    game.save(update_fields=["offers", "updated"])
    mine = [seat for seat in held if seat in said_yes]
    done = "withdrew" if mine else "declined"
    chat.site_line(game, game.seat_list[mine[0] if mine else held[0]], f"{done} the {OFFER_NAMES[kind]}.")
    publish(GameEvent(game.pk, game.ply, "declined"))
    return game


# -- draw -------------------------------------------------------------------------------


def draw(game_id: int, actor: Actor, yes: bool, expected_ply: int | None) -> Game:
    """Offer or accept a draw (``yes``), or decline or withdraw the pending offer."""
    with transaction.atomic():
        game, held = _begin(game_id, actor, expected_ply)
        if not yes:
            return _decline(game, "draw", held)
        if _vs_computer(game):
            raise ServiceError("declined", "The computer declines the draw: it plays every game out.", 409)
        if _say_yes(game, "draw", held, _acting_seat(game, held)):
            _finish(game, Game.Status.DRAWN, Game.Reason.AGREED, {"winner": None})
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
    _schedule_ai_if_due(game, game.state, just_moved=None)
    game.save()
    publish(GameEvent(game.pk, game.ply, "takeback"))


def takeback(game_id: int, actor: Actor, yes: bool, expected_ply: int | None) -> Game:
    """Take your last turn back (against the computer at once, against people once accepted)."""
    with transaction.atomic():
        game, held = _begin(game_id, actor, expected_ply)
        if not yes:
            return _decline(game, "takeback", held)
        if not game.allow_takebacks:
            raise ServiceError("not_allowed", "Takebacks are off in this game.", 403)
        pending = game.offers.get("takeback")
        if pending is None:
            mine = [seat for seat, _ in game.move_rows if seat in held]
            if not mine:
                raise ServiceError("not_allowed", "You have made no move to take back.", 409)
            seat = mine[-1]
        else:
            seat = pending["seats"][0]
        if _vs_computer(game):
            if game.state.to_move not in held:
                raise ServiceError(
                    "not_your_turn", "Take back on your turn, once the computer has replied.", 403
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
        game, held = _begin(game_id, actor, expected_ply, over=True)
        if not yes:
            return _decline(game, "rematch", held)
        if game.rematch_id is not None:
            raise ServiceError("rematch_exists", "The rematch has started already.", 409)
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
    _schedule_ai_if_due(new, state, just_moved=None)
    if new.ai_due_at:
        new.save(update_fields=["ai_due_at"])
    publish(GameEvent(new.pk, new.ply, "created"))
    return new


# -- abandonment -----------------------------------------------------------------------


def seats_left(game_id: int, seats: list[int], when: datetime | None = None) -> int:
    """The last open page of ``seats`` closed: they are gone from now (unless gone already)."""
    return Seat.objects.filter(game_id=game_id, index__in=seats, left_at=None, kind=Seat.Kind.HUMAN).update(
        left_at=when or timezone.now()
    )


def seats_back(game_id: int, seats: list[int]) -> int:
    """A page of ``seats`` is open again (seen now); how many of them had been gone
    ``ABANDON_AFTER`` seconds (long enough to be claimed against: the pages show that)."""
    now = timezone.now()
    away = Seat.objects.filter(game_id=game_id, index__in=seats).exclude(left_at=None)
    claimable = away.filter(left_at__lte=now - timedelta(seconds=settings.ABANDON_AFTER)).count()
    Seat.objects.filter(game_id=game_id, index__in=seats, kind=Seat.Kind.HUMAN).update(
        left_at=None, seen_at=now
    )
    return claimable


def seats_seen(held: Mapping[int, Iterable[int]], when: datetime | None = None) -> list[int]:
    """A server holds open pages of ``held`` (game id -> seat indexes): they are here now.

    One update for them all (and one read, of the seats among them taken for gone
    meanwhile: a server late with its heartbeat; they are here after all). Returns the
    games of those seats, whose pages no longer offer a claim."""
    by_index: dict[int, list[int]] = {}
    for game_id, seats in held.items():
        for seat in seats:
            by_index.setdefault(seat, []).append(game_id)
    if not by_index:
        return []
    where = reduce(operator.or_, (Q(index=i, game_id__in=ids) for i, ids in sorted(by_index.items())))
    rows = Seat.objects.filter(where, kind=Seat.Kind.HUMAN).order_by()
    back = sorted(set(rows.exclude(left_at=None).values_list("game_id", flat=True)))
    rows.update(seen_at=when or timezone.now(), left_at=None)
    return back


def seats_lost(now: datetime | None = None) -> list[tuple[int, int, datetime]]:
    """The people's seats that a page was open for, that no server has seen for
    ``SEAT_LOST_AFTER`` seconds, and that nobody said had left (their server died): gone
    since they were last seen (``left_at`` = ``seen_at``). Returns (game id, seat, left_at)
    for each; a seat seen again meanwhile is left alone."""
    now = now or timezone.now()
    limit = now - timedelta(seconds=settings.SEAT_LOST_AFTER)
    unseen = Seat.objects.filter(left_at=None, seen_at__lt=limit, kind=Seat.Kind.HUMAN).order_by()
    found = list(unseen.values_list("pk", flat=True))
    if not found:
        return []
    unseen.filter(pk__in=found).update(left_at=F("seen_at"))
    marked = Seat.objects.filter(pk__in=found, left_at__lt=limit).order_by("game_id", "index")
    return [
        (game, seat, left) for game, seat, left in marked.values_list("game_id", "index", "left_at") if left
    ]


ClaimKind = Literal["win", "draw"]


def claim(game_id: int, actor: Actor, outcome: ClaimKind, expected_ply: int | None) -> Game:
    """The opponents have gone: claim the win (they lose) or a draw; reason ``abandoned``."""
    with transaction.atomic():
        game, held = _begin(game_id, actor, expected_ply)
        if refusal := policy.claim_refusal(game, actor):
            raise refusal
        gone = [s for s in policy.gone_seats(game) if s not in held]
        if outcome == "draw":
            _finish(game, Game.Status.DRAWN, Game.Reason.ABANDONED, {"winner": None, "abandoned": gone})
        else:
            _others_win(game, gone, Game.Reason.ABANDONED, {"abandoned": gone})
    return game


def close_abandoned(now: datetime | None = None) -> list[int]:
    """Close every game whose gone player nobody claimed against in ``ABANDON_CLOSE_AFTER``
    seconds: status "abandoned", nobody wins. The games closed."""
    now = now or timezone.now()
    after = settings.ABANDON_CLOSE_AFTER
    limit = now - timedelta(seconds=after)
    candidates = (
        Game.objects.filter(status=Game.Status.PLAYING, seats__left_at__lte=limit)
        .values_list("pk", flat=True)
        .distinct()
    )
    closed = []
    for game_id in list(candidates):
        with transaction.atomic():
            game = _locked_game(game_id)
            gone = policy.gone_seats(game, after=after, now=now)
            if not gone:
                continue
            _finish(game, Game.Status.ABANDONED, Game.Reason.ABANDONED, {"winner": None, "abandoned": gone})
            closed.append(game_id)
    return closed


ACTIONS = {"draw": draw, "takeback": takeback, "rematch": rematch}
