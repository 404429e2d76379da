"""Games made: created (against the computer or waiting for others), joined, and
imported from a record. Each is one transaction; what happened is published as a
:class:`~games.events.GameEvent` after commit, as :mod:`games.services.moves` does."""

from __future__ import annotations

import random
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import catalog
from games import clocks as clock_rules
from games.catalog import GameSpec
from games.engine import MoveError, OptionError
from games.events import GameEvent, publish
from games.formats import records
from games.models import Game, Move, Seat, hash_token
from games.services import clocks, copies
from games.services.base import Actor, ServiceError, locked_game, schedule_ai_if_due
from games.services.names import BadName, record_names
from games.services.results import record_outcome, record_termination

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
        raise ServiceError(exc.code, exc.said(_), field=exc.option) from exc


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


def time_control(clock: Mapping[str, Any] | None) -> clock_rules.TimeControl:
    """The time control a game is created with; a refusal names the ``clock`` field."""
    try:
        control = clock_rules.parse(clock)
    except clock_rules.ClockError as exc:
        raise ServiceError(exc.code, exc.said(_), field="clock") from None
    if control.paused:
        raise ServiceError("bad_clock", _("A new game's clock cannot start paused."), field="clock")
    return control


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
        raise ServiceError("rated_needs_clock", _("A rated game needs a clock."), field="clock")
    if opponent not in OPPONENTS:
        raise ServiceError(
            "bad_option", _("opponent must be one of %(known)s.") % {"known": ", ".join(OPPONENTS)}
        )
    if seat not in SEAT_CHOICES:
        raise ServiceError(
            "bad_option", _("seat must be one of %(known)s.") % {"known": ", ".join(SEAT_CHOICES)}
        )
    if opponent == "ai":
        if spec.player is None:
            raise ServiceError(
                "bad_option",
                _("%(game)s has no computer player yet: invite a friend.") % {"game": spec.title},
            )
        level = level or spec.default_level
        if level not in spec.levels:
            raise ServiceError(
                "bad_option",
                _("level must be one of %(known)s.") % {"known": ", ".join(spec.levels)},
                field="level",
            )
    else:
        level = ""
    if rated and level:
        measured = spec.level_rating(level)
        if measured is None or not measured.established:
            raise ServiceError(
                "level_not_rated",
                _("The %(level)s level has no established rating yet: play it casual.") % {"level": _(level)},
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
            allow_hints=allow_hints and not rated,  # no engine help in a rated game (policy)
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
            raise ServiceError("bad_invite", _("Joining needs this game's invite code."), 403)
        actor = Actor(player_id=player_id)
        if player_id and any(actor.holds(s) for s in game.seat_list):
            raise ServiceError("already_seated", _("You already have a seat in this game."), 409)
        open_seats = [s for s in game.seat_list if s.is_open]
        if game.is_finished or not open_seats:
            raise ServiceError("no_open_seat", _("This game has no open seat."), 409)
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
        raise ServiceError("bad_record", exc.said(_)) from None
    for ply, left in enumerate(move_clocks, start=1):
        if left is not None and not 0 <= left <= clock_rules.MAX_LEFT_MS:
            hours = clock_rules.MAX_LEFT_HOURS
            raise ServiceError(
                "bad_record",
                _("move %(ply)s: a time left must be from 0 to %(hours)s hours.")
                % {"ply": ply, "hours": hours},
            )
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
                raise ServiceError(
                    "bad_record",
                    _("move %(ply)s (%(action)s): %(reason)s")
                    % {"ply": ply, "action": text, "reason": exc.said(_)},
                ) from exc
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
        record_outcome(game, state)
        if state.outcome is None and termination:
            record_termination(game, state.num_players, result, termination, state.to_move)
        if not game.is_finished:
            game.copy_of = copies.game_in_play_copied(game, game.move_texts)
        game.save()
        publish(GameEvent(game.pk, game.ply, "imported"))
    return NewGame(game=game, seat=None, token=token, first_seat_won_toss=False)
