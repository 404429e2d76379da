"""The one path that creates games and changes them.

Views, the JSON API, the WebSocket consumer, the terminal player and the AI runner
all call :func:`play_move`; nothing else writes a move. What happened is published as
a :class:`~games.events.GameEvent` after commit; the live push and the AI runner
subscribe (games/apps.py), so this module imports neither.
"""

from __future__ import annotations

import logging
import random
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from games import catalog
from games import clocks as clock_rules
from games.catalog import GameSpec
from games.engine import MoveError, OptionError, State
from games.events import GameEvent, publish
from games.formats import records
from games.models import Game, Move, Seat, hash_token
from games.services import clocks, copies
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
from games.services.names import BadName, record_names
from games.services.timeouts import end_by_clock

# The move path; Actor, AI, ServiceError and seats_held (games.services.base) are said
# here too, as the callers of the move path use them with it.
__all__ = [
    "AI",
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
]

log = logging.getLogger(__name__)

OPPONENTS = ("ai", "human")
SEAT_CHOICES = ("first", "second", "random")


@dataclass(frozen=True)
class NewGame:
    game: Game
    seat: int | None
    token: str | None
    first_seat_won_toss: bool


def _spec_and_options(kind: str, options: Mapping[str, Any]) -> tuple[GameSpec, dict[str, Any]]:
    try:
        spec = catalog.get(kind)
        return spec, spec.rules.clean_options(options)
    except OptionError as exc:
        raise ServiceError(exc.code, exc.message, field=exc.option) from exc


def _person_seat(
    game: Game, index: int, player_id: str | None, token: str | None, now: datetime, name: str = ""
) -> Seat:
    """A seat taken at creation by a person: held by the player id and/or the token."""
    return Seat.objects.create(
        game=game,
        index=index,
        kind=Seat.Kind.HUMAN,
        player_id=player_id or "",
        token_hash=hash_token(token) if token else "",
        name=name,
        joined_at=now,
    )


def create_game(
    kind: str,
    options: Mapping[str, Any] | None = None,
    *,
    opponent: str = "ai",
    level: str | None = None,
    seat: str = "random",
    player_id: str | None = None,
    with_token: bool = False,
    allow_hints: bool = True,
    allow_takebacks: bool = True,
    rng: random.Random | None = None,
    name: str = "",
    clock: Mapping[str, Any] | None = None,
    rated: bool = False,
) -> NewGame:
    """A new game with the creator in one seat and the computer (or an open seat) in the others.

    ``seat`` is "first", "second" or "random" (a coin flip decides who starts);
    ``name`` is the creator's display name, already checked (``chat.clean_name``);
    ``clock`` the time control's JSON form (:func:`games.clocks.parse`), none by default.
    The clock starts once every seat is taken. ``rated`` games need a clock, and against
    the computer a level whose rating is established; whether the players are accounts is
    the caller's to check (the lobby, the new-game page).
    """
    spec, clean = _spec_and_options(kind, options or {})
    control = time_control(clock)
    if rated and not control.runs:
        raise ServiceError("rated_needs_clock", "A rated game needs a clock.", field="clock")
    if opponent not in OPPONENTS:
        raise ServiceError("bad_option", f"opponent must be one of {', '.join(OPPONENTS)}.")
    if seat not in SEAT_CHOICES:
        raise ServiceError("bad_option", f"seat must be one of {', '.join(SEAT_CHOICES)}.")
    if opponent == "ai":
        if spec.player is None:
            raise ServiceError("bad_option", f"{spec.title} has no computer player yet: invite a friend.")
        level = level or spec.default_level
        if level not in spec.levels:
            raise ServiceError("bad_option", f"level must be one of {', '.join(spec.levels)}.", field="level")
    else:
        level = ""
    if rated and level:
        measured = spec.level_rating(level)
        if measured is None or not measured.established:
            raise ServiceError(
                "level_not_rated",
                f"The {level} level has no established rating yet: play it casual.",
                field="level",
            )
    state = spec.rules.new_state(clean)
    players = state.num_players
    rng = rng or random.Random(secrets.randbits(64))
    mine = {"first": 0, "second": players - 1, "random": rng.randrange(players)}[seat]
    token = secrets.token_urlsafe(24) if with_token else None

    with transaction.atomic():
        game = Game.objects.create(
            kind=kind,
            options=clean,
            ai_level=level,
            allow_hints=allow_hints,
            allow_takebacks=allow_takebacks,
            status=Game.Status.PLAYING if opponent == "ai" else Game.Status.WAITING,
            clock=control.to_json(),
            rated=rated,
        )
        now = timezone.now()
        for index in range(players):
            if index == mine:
                _person_seat(game, index, player_id, token, now, name)
            else:
                Seat.objects.create(
                    game=game, index=index, kind=Seat.Kind.AI if opponent == "ai" else Seat.Kind.HUMAN
                )
        schedule_ai_if_due(game, state, just_moved=None)
        if game.status == Game.Status.PLAYING:
            clocks.start(game, state)
        if game.ai_due_at or game.deadline:
            game.save(update_fields=["ai_due_at", "remaining", "clock_since", "deadline"])
        publish(GameEvent(game.pk, game.ply, "created"))
    return NewGame(game=game, seat=mine, token=token, first_seat_won_toss=mine == 0)


def join_game(
    game_id: int,
    *,
    invite: str | None,
    player_id: str | None = None,
    with_token: bool = False,
    name: str = "",
) -> tuple[int, str | None]:
    """Take the first open seat of a game waiting for players; returns (seat, token).

    ``invite`` is the game's invite code: only those the creator gave it to may join,
    so nobody takes a friend's seat by walking through game numbers.
    """
    token = secrets.token_urlsafe(24) if with_token else None
    with transaction.atomic():
        game = locked_game(game_id)
        if not isinstance(invite, str) or not secrets.compare_digest(
            invite.encode(), game.invite_code.encode()
        ):
            raise ServiceError("bad_invite", "Joining needs this game's invite code.", 403)
        actor = Actor(player_id=player_id)
        if player_id and any(actor.holds(s) for s in game.seat_list):
            raise ServiceError("already_seated", "You already have a seat in this game.", 409)
        open_seats = [s for s in game.seat_list if s.is_open]
        if game.is_finished or not open_seats:
            raise ServiceError("no_open_seat", "This game has no open seat.", 409)
        seat = open_seats[0]
        seat.player_id = player_id or ""
        seat.token_hash = hash_token(token) if token else ""
        seat.joined_at = timezone.now()
        seat.name = name
        seat.save()
        if len(open_seats) == 1:
            game.status = Game.Status.PLAYING
            clocks.start(game, game.state)
            game.save(update_fields=["status", "remaining", "clock_since", "deadline", "updated"])
        publish(GameEvent(game.pk, game.ply, "joined"))
    return seat.index, token


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


def time_control(clock: Mapping[str, Any] | None) -> clock_rules.TimeControl:
    """The time control a game is created with; a refusal names the ``clock`` field."""
    try:
        control = clock_rules.parse(clock)
    except clock_rules.ClockError as exc:
        raise ServiceError(exc.code, exc.message, field="clock") from None
    if control.paused:
        raise ServiceError("bad_clock", "A new game's clock cannot start paused.", field="clock")
    return control


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
        raise ServiceError("bad_notation", "Send the action as a short text such as a1 or 7.")
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
            raise ServiceError("game_over", "The game is over: no more moves.", 409)
        if game.status == Game.Status.WAITING:
            raise ServiceError("waiting", "The game has not started: a seat is still open.", 409)
        check_ply(game, expected_ply, expected_revision)
        state = game.state
        seats = game.seat_list
        held = [s.index for s in seats if actor.holds(s)]
        if not held:
            raise ServiceError("not_your_seat", "You do not hold a seat in this game.", 403)
        if state.to_move not in held:
            raise ServiceError("not_your_turn", "It is not your turn.", 403)
        now = clocks.now()
        if clocks.flagged(game, now):
            end_by_clock(game, now)
            if game.reason == Game.Reason.NO_START:
                return "The first move came too late: the game is aborted."
            return "Your time ran out before the move arrived: the game is lost on time."
        rules = catalog.get(game.kind).rules
        try:
            move = rules.parse_move(text)
            new_state = state.play(move)
        except MoveError as exc:
            raise ServiceError(exc.code, exc.message) from exc
        _lapse_offers(game, state.to_move)
        game.ply += 1
        before = [seat for seat, _ in game.move_rows]
        left = clocks.moved(game, state.to_move, before, new_state, now)
        Move.objects.create(game=game, ply=game.ply, seat=state.to_move, text=str(move), clock_ms=left)
        _record_outcome(game, new_state)
        schedule_ai_if_due(game, new_state, just_moved=state.to_move)
        game.save(update_fields=MOVED_FIELDS)
        game.__dict__["move_rows"] = [*game.move_rows, (state.to_move, str(move))]
        game.__dict__["state"] = new_state
        if game.is_finished:
            ended(game)
        publish(GameEvent(game_id, game.ply, "moved", ai_due=game.ai_due_at is not None))
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


def _record_outcome(game: Game, state: State[Any]) -> None:
    outcome = state.outcome
    if outcome is None:
        return
    game.offers = {}
    game.reason = Game.Reason.NORMAL
    game.status = Game.Status.DRAWN if outcome.winner is None else Game.Status.WON
    game.winner = outcome.winner
    game.result = {
        "winner": outcome.winner,
        "lines": [list(line) for line in outcome.lines],
        "shared": list(outcome.shared),
    }


def _record_termination(game: Game, num_players: int, result: str, termination: str, to_move: int) -> None:
    """Finish an imported game as its record says it ended (``1-0``, ``1/2-0-1/2``..., or ``*``
    for a game abandoned or aborted for no first move, ``to_move`` the seat that made none)."""
    try:
        reason = Game.Reason(termination)
    except ValueError:
        raise ServiceError("bad_record", f"unknown termination {termination!r}") from None
    if result == "*" and reason == Game.Reason.ABANDONED:
        game.status, game.winner, game.reason = Game.Status.ABANDONED, None, reason
        game.result = {"winner": None, "lines": [], "shared": []}
        return
    if result == "*" and reason == Game.Reason.NO_START:
        # Aborted: the seat to move made no first move in time.
        game.status, game.winner, game.reason = Game.Status.ABORTED, None, reason
        game.result = {"winner": None, "lines": [], "shared": [], "no_start": to_move}
        return
    scores = result.split("-")
    if len(scores) != num_players or any(s not in ("0", "1") and "/" not in s for s in scores):
        raise ServiceError("bad_record", f"the result {result!r} does not fit {num_players} seats")
    winners = [i for i, s in enumerate(scores) if s != "0"]
    drawn = len(winners) == num_players
    game.reason = reason
    game.status = Game.Status.DRAWN if drawn else Game.Status.WON
    game.winner = winners[0] if len(winners) == 1 else None
    game.result = {"winner": game.winner, "lines": [], "shared": []}
    if not drawn:
        game.result["winners"] = winners
        if reason == Game.Reason.RESIGNED:
            losers = [i for i in range(num_players) if i not in winners]
            game.result["resigned"] = losers[0]
        elif reason == Game.Reason.ABANDONED:
            game.result["abandoned"] = [i for i in range(num_players) if i not in winners]
        elif reason == Game.Reason.TIMEOUT:
            loser = next(i for i in range(num_players) if i not in winners)
            game.result["timeout"] = loser
            if game.remaining:  # its time ran out: shown as 0, as the game was
                game.remaining = [0 if i == loser else ms for i, ms in enumerate(game.remaining)]


def import_record(record: records.Record, *, with_token: bool = True) -> NewGame:
    """:func:`import_game` for a record read by :func:`games.formats.records.load`."""
    return import_game(
        record.kind,
        record.options,
        record.moves,
        names=record.players,
        with_token=with_token,
        result=record.result,
        termination=record.termination,
        clock=getattr(record, "clock", None),
        move_clocks=getattr(record, "move_clocks", ()),
    )


def import_game(
    kind: str,
    options: Mapping[str, Any],
    moves: Sequence[str],
    *,
    names: Sequence[str] = (),
    with_token: bool = True,
    player_id: str | None = None,
    result: str = "",
    termination: str = "",
    clock: Mapping[str, Any] | None = None,
    move_clocks: Sequence[int | None] = (),
) -> NewGame:
    """A game rebuilt from a record: every action replayed through the rules, one transaction.

    A record that people or the clock ended (``termination`` resigned, agreed, abandoned,
    timeout or no_start, with the ``result`` it names) is finished as they ended it.

    Every seat is a person held by the importer (one token and/or player id for all of
    them), so a finished game is there to replay and an unfinished one can be played on
    from where the record stops. Nobody is asked to join and no computer plays.

    ``clock`` and ``move_clocks`` (each action's time left, in ms) are the record's time
    control and clock comments: kept and shown, paused (the game is played on untimed).
    """
    spec, clean = _spec_and_options(kind, options)
    try:
        control = clock_rules.parse(clock)
    except clock_rules.ClockError as exc:
        raise ServiceError("bad_record", exc.message) from None
    rules = spec.rules
    state = rules.new_state(clean)
    try:
        seat_names = record_names(names)
    except BadName as exc:
        raise ServiceError("bad_record", str(exc)) from None
    token = secrets.token_urlsafe(24) if with_token else None
    with transaction.atomic():
        game = Game.objects.create(
            kind=kind,
            options=clean,
            status=Game.Status.PLAYING,
            allow_hints=True,
            clock={**control.to_json(), "paused": True} if not control.unlimited else {},
        )
        now = timezone.now()
        for index in range(state.num_players):
            name = seat_names[index] if index < len(seat_names) else ""
            _person_seat(game, index, player_id, token, now, name)
        for ply, text in enumerate(moves, start=1):
            try:
                move = rules.parse_move(text)
                new_state = state.play(move)
            except MoveError as exc:
                # Rolls the whole import back: nothing of a bad record is kept.
                raise ServiceError("bad_record", f"move {ply} ({text}): {exc.message}") from exc
            left = move_clocks[ply - 1] if ply <= len(move_clocks) else None
            Move.objects.create(game=game, ply=ply, seat=state.to_move, text=str(move), clock_ms=left)
            if left is not None and not control.unlimited:
                times = game.remaining or [control.start_ms()] * state.num_players
                times[state.to_move] = left
                game.remaining = times
            state = new_state
        if not control.unlimited and not game.remaining:
            game.remaining = [control.start_ms()] * state.num_players
        game.ply = len(moves)
        _record_outcome(game, state)
        if state.outcome is None and termination:
            _record_termination(game, state.num_players, result, termination, state.to_move)
        if not game.is_finished:
            game.copy_of = copies.game_in_play_copied(game, game.move_texts)
        game.save()
        publish(GameEvent(game.pk, game.ply, "imported"))
    return NewGame(game=game, seat=None, token=token, first_seat_won_toss=False)
