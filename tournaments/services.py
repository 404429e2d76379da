"""Tournaments made, joined, withdrawn from, started and finished.

Every change holds the tournament's row lock (``select_for_update``): a join, a
withdrawal and a pairing wave (tournaments/pairing.py) of one tournament happen one after
the other on every database, so a withdrawal never lands in the middle of a wave and a
join counted twice is one entry (and the unique constraint says so too).
"""

from __future__ import annotations

import math
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts import services as accounts
from accounts.models import Account
from games import catalog
from games import clocks as clock_rules
from games.services.base import ServiceError
from lobby import rating
from lobby.services import clean_clock, clean_game
from tournaments import changes
from tournaments.models import Entry, Tournament

MAX_MINUTES = 24 * 60  # an arena's longest
MAX_ROUNDS = 30
MAX_AHEAD = 30 * 24 * 3600  # seconds: the furthest start one may set
KINDS = tuple(Tournament.Kind.values)


def whole(value: object, field: str, low: int, high: int) -> int:
    """A whole number from ``low`` to ``high``; a refusal naming ``field`` otherwise (booleans,
    fractions, NaN, infinities and strings included)."""
    if isinstance(value, float) and (math.isnan(value) or math.isinf(value)):
        words = _("%(field)s must be a number, not %(value)s.") % {"field": field, "value": value}
        raise ServiceError("bad_number", words, field=field)
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ServiceError(
            "bad_number", _("%(field)s must be a whole number.") % {"field": field}, field=field
        )
    if not low <= value <= high:
        words = _("%(field)s must be from %(low)d to %(high)d.") % {"field": field, "low": low, "high": high}
        raise ServiceError("out_of_range", words, field=field)
    return value


def real_time_needed() -> str:
    return _("A tournament needs a real-time clock (such as 3+2).")


def clean_start(starts_at: object, starts_in: object, now: datetime) -> datetime:
    if starts_at is not None and starts_in is not None:
        raise ServiceError("bad_start", _("Give starts_at or starts_in, not both."), field="starts_at")
    if starts_in is not None:
        return now + timedelta(seconds=whole(starts_in, "starts_in", 0, MAX_AHEAD))
    if starts_at is None:
        return now
    when = starts_at if isinstance(starts_at, datetime) else None
    if isinstance(starts_at, str) and len(starts_at) <= 40:
        try:
            when = parse_datetime(starts_at)
        except ValueError:
            when = None
    if when is None:
        words = _("starts_at must be a date and time (ISO 8601).")
        raise ServiceError("bad_start", words, field="starts_at")
    if timezone.is_naive(when):
        words = _("starts_at must say its time zone (Z or +01:00).")
        raise ServiceError("bad_start", words, field="starts_at")
    if not now - timedelta(minutes=1) <= when <= now + timedelta(seconds=MAX_AHEAD):
        words = _("starts_at must be from now to 30 days ahead.")
        raise ServiceError("bad_start", words, field="starts_at")
    return when


def clean_name(name: object, default: str) -> str:
    if name is None or name == "":
        return default
    if not isinstance(name, str) or len(name.strip()) > 80 or not name.strip().isprintable():
        raise ServiceError("bad_name", _("A name is up to 80 printable characters."), field="name")
    return name.strip()


def default_name(kind: str, game: str, control: clock_rules.TimeControl) -> str:
    return f"{catalog.get(game).title} {control.label} {'Arena' if kind == 'arena' else 'Swiss'}"


def lock_account(account: Account) -> None:
    """The creator's account row: two creations by one account are counted one after the other."""
    Account.objects.select_for_update().filter(pk=account.pk).first()


def create(
    user: Any,
    *,
    kind: object,
    game: object,
    options: object = None,
    clock: object = None,
    minutes: object = None,
    rounds: object = None,
    starts_at: object = None,
    starts_in: object = None,
    rated: object = False,
    name: object = None,
    now: datetime | None = None,
) -> Tournament:
    """A new tournament, by an account (at most ``TOURNAMENTS_PER_ACCOUNT`` upcoming or
    running at once) or by staff (no limit)."""
    account = accounts.account_of(user) if user is not None else None
    if account is None or not account.in_good_standing:
        raise ServiceError("needs_account", _("Tournaments are made by accounts: log in first."), 401)
    if kind not in KINDS:
        raise ServiceError("bad_kind", _("kind must be arena or swiss."), field="kind")
    kind = str(kind)
    game_kind, clean = clean_game(game, options)
    control = clean_clock(clock)
    if not control.realtime:
        raise ServiceError("bad_clock", real_time_needed(), field="clock")
    if not isinstance(rated, bool):
        raise ServiceError("bad_option", _("rated is true or false."), field="rated")
    if kind == "arena":
        if rounds is not None:
            raise ServiceError("bad_option", _("An arena lasts minutes, not rounds."), field="rounds")
        length, count = whole(minutes, "minutes", 1, MAX_MINUTES), None
    else:
        if minutes is not None:
            raise ServiceError("bad_option", _("A Swiss event has rounds, not minutes."), field="minutes")
        length, count = None, whole(rounds, "rounds", 1, MAX_ROUNDS)
    now = now or timezone.now()
    begins = clean_start(starts_at, starts_in, now)
    title = clean_name(name, default_name(kind, game_kind, control))
    with transaction.atomic():
        if not user.is_staff:
            lock_account(account)
            limit = settings.TOURNAMENTS_PER_ACCOUNT
            mine = Tournament.objects.filter(created_by=user, status__lt=Tournament.Status.FINISHED)
            if mine.count() >= limit:
                words = ngettext(
                    "You have %(count)d tournament to come or running already.",
                    "You have %(count)d tournaments to come or running already.",
                    limit,
                )
                raise ServiceError("too_many_tournaments", words % {"count": limit}, 409)
        tournament = Tournament.objects.create(
            name=title,
            kind=kind,
            game=game_kind,
            options=clean,
            clock=control.to_json(),
            rated=rated,
            minutes=length,
            rounds=count,
            starts_at=begins,
            created_by=user,
        )
        changes.changed(tournament.pk)
    return tournament


def get(tournament_id: int) -> Tournament:
    try:
        return Tournament.objects.get(pk=tournament_id)
    except Tournament.DoesNotExist:
        raise ServiceError(
            "not_found", _("There is no tournament %(id)s.") % {"id": tournament_id}, 404
        ) from None


def locked(tournament_id: int) -> Tournament:
    try:
        return Tournament.objects.select_for_update().get(pk=tournament_id)
    except Tournament.DoesNotExist:
        raise ServiceError(
            "not_found", _("There is no tournament %(id)s.") % {"id": tournament_id}, 404
        ) from None


def player_account(user: Any) -> Account:
    account = accounts.account_of(user) if user is not None else None
    if account is None or not account.in_good_standing:
        raise ServiceError("needs_account", _("Tournaments are for accounts: log in first."), 401)
    return account


def join(tournament_id: int, user: Any) -> Entry:
    """Take part (again, after a withdrawal); joining twice is one entry."""
    account = player_account(user)
    with transaction.atomic():
        tournament = locked(tournament_id)
        if tournament.status == Tournament.Status.FINISHED:
            raise ServiceError("tournament_over", _("This tournament is over."), 409)
        entry = Entry.objects.filter(tournament=tournament, user=user).first()
        if entry is not None:
            if entry.withdrawn:
                entry.withdrawn = False
                entry.free_since = timezone.now()
                entry.save(update_fields=["withdrawn", "free_since"])
                changes.changed(tournament.pk)
            return entry
        control = clock_rules.parse(tournament.clock)
        numbered = tournament.entries.count()
        entry = Entry.objects.create(
            tournament=tournament,
            user=user,
            player_id=account.player_id,
            rating=rating.rating_of(user, tournament.game, control) or rating.NEW,
            number=numbered + 1 if tournament.status == Tournament.Status.RUNNING else 0,
            free_since=timezone.now(),
        )
        changes.changed(tournament.pk)
    return entry


def withdraw(tournament_id: int, user: Any) -> Entry:
    """Stop being paired (a game in progress is played out); joining again comes back."""
    player_account(user)
    with transaction.atomic():
        tournament = locked(tournament_id)
        entry = Entry.objects.select_for_update().filter(tournament=tournament, user=user).first()
        if entry is None:
            raise ServiceError("not_joined", _("You are not in this tournament."), 409)
        if tournament.status == Tournament.Status.FINISHED:
            raise ServiceError("tournament_over", _("This tournament is over."), 409)
        if not entry.withdrawn:
            entry.withdrawn = True
            entry.save(update_fields=["withdrawn"])
            changes.changed(tournament.pk)
    return entry


def entry_of(tournament: Tournament, user: Any) -> Entry | None:
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    return Entry.objects.filter(tournament=tournament, user=user).first()


def current_game(tournament_id: int, user: Any) -> int | None:
    """The game the player plays in the tournament now (None: waiting or not in it)."""
    player_account(user)
    entry = entry_of(get(tournament_id), user)
    return entry.game_id if entry is not None else None


def start(tournament: Tournament, now: datetime) -> None:
    """The tournament begins (locked by the caller): an arena's end is set; a Swiss event's
    players are numbered by rating (1 the highest)."""
    tournament.status = Tournament.Status.RUNNING
    if tournament.kind == Tournament.Kind.ARENA:
        tournament.ends_at = max(now, tournament.starts_at) + timedelta(minutes=tournament.minutes or 0)
    else:
        ranked = sorted(tournament.entries.all(), key=lambda e: (-e.rating, e.pk))
        for number, entry in enumerate(ranked, 1):
            Entry.objects.filter(pk=entry.pk).update(number=number)
    tournament.save(update_fields=["status", "ends_at"])
    changes.changed(tournament.pk)


def finish(tournament: Tournament, now: datetime) -> None:
    """The tournament ends (locked by the caller): the standings are ranked and kept. Games
    still in play are played out, but no longer scored."""
    tournament.status = Tournament.Status.FINISHED
    if tournament.kind == Tournament.Kind.SWISS or tournament.ends_at is None:
        tournament.ends_at = now
    tournament.save(update_fields=["status", "ends_at"])
    for place, entry in enumerate(standings(tournament), 1):
        Entry.objects.filter(pk=entry.pk).update(rank=place)
    changes.changed(tournament.pk)


def standings(tournament: Tournament) -> list[Entry]:
    """The players best first: score, then (Swiss) Buchholz and Sonneborn-Berger, then rating."""
    rows = list(tournament.entries.select_related("user"))
    if tournament.status == Tournament.Status.FINISHED and all(e.rank for e in rows):
        return sorted(rows, key=lambda e: e.rank or 0)
    return sorted(rows, key=lambda e: (-e.score, -e.buchholz, -e.sonneborn, -e.rating, e.pk))


SCHEDULE_BATCH = 10  # the most tournaments one schedule makes in one tick


def from_schedule(schedule: Any, now: datetime) -> int:
    """Make the schedule's tournaments that start within its ``ahead_minutes`` and do not
    exist yet (under the schedule's row lock: two processes make each once)."""
    made = 0
    with transaction.atomic():
        row = type(schedule).objects.select_for_update().filter(pk=schedule.pk, active=True).first()
        if row is None:
            return 0
        every = timedelta(minutes=max(1, row.every_minutes))
        passed = (now - row.first_at) // every + 1 if now >= row.first_at else 0  # the next after now
        when = row.first_at + passed * every
        horizon = now + timedelta(minutes=row.ahead_minutes)
        while when <= horizon and made < SCHEDULE_BATCH:
            if not Tournament.objects.filter(schedule=row, starts_at=when).exists():
                tournament = Tournament.objects.create(
                    name=row.name,
                    kind=row.kind,
                    game=row.game,
                    options=row.options,
                    clock=row.clock,
                    rated=row.rated,
                    minutes=row.minutes if row.kind == Tournament.Kind.ARENA else None,
                    rounds=row.rounds if row.kind == Tournament.Kind.SWISS else None,
                    starts_at=when,
                    schedule=row,
                )
                changes.changed(tournament.pk)
                made += 1
            when += every
    return made
