"""Seeks: made, listed, accepted (the game is created through games' services), cancelled.

Accepting locks the seek's row in the transaction that creates the game, so of two
accepts of one seek exactly one creates a game and the other is told ``seek_gone``.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games import catalog
from games import clocks as clock_rules
from games.engine import OptionError
from games.models import Game, Seat, hash_token
from games.services import moves, ratelimit
from games.services.moves import ServiceError
from lobby import changes, rating
from lobby.models import Seek
from lobby.seekers import Who
from ratings.models import Rating

SEATS = ("first", "second", "random")
NEW_RATING = "1500?"  # an account before its first rated game at this game and speed


@dataclass(frozen=True)
class Made:
    seek: Seek
    token: str  # the seeker's secret: asks for the seek, and holds its seat once taken


@dataclass(frozen=True)
class Accepted:
    game: Game
    seat: int
    token: str | None  # the accepter's seat token (API clients)


def count_created(address: str) -> None:
    """A seek or an accept counts as a game created (``RATE_LIMIT_CREATE``, as the pages' new game)."""
    wait = ratelimit.check("create", address, "RATE_LIMIT_CREATE") if address else 0
    if wait:
        words = _("You are starting games too fast: try again in %(seconds)d s.") % {"seconds": wait}
        raise ServiceError("rate_limited", words, 429, retry_after=wait)


def clean_game(kind: object, options: object) -> tuple[str, dict[str, Any]]:
    """The game's kind and its checked options, for two players; a refusal otherwise."""
    if not isinstance(kind, str) or kind not in catalog.CATALOG:
        known = ", ".join(catalog.CATALOG)
        words = _("Unknown game %(kind)s; known: %(known)s.") % {"kind": repr(kind), "known": known}
        raise ServiceError("unknown_game", words, field="game")
    if options is not None and not isinstance(options, Mapping):
        words = _("The options are an object of option names and values.")
        raise ServiceError("bad_option", words, field="options")
    spec = catalog.get(kind)
    try:
        clean = spec.rules.clean_options(options or {})
    except OptionError as exc:
        raise ServiceError(exc.code, exc.said(_), field=exc.option) from exc
    if spec.rules.new_state(clean).num_players != 2:
        raise ServiceError("bad_option", _("A seek is for two players."), field="options")
    return kind, clean


# What a seek's or a pool's clock may say: a game's stored clock may also be "paused" (a
# record's), which no game offered to play can be.
CLOCK_KEYS = frozenset({"initial", "increment", "days"})


def shape() -> str:
    """What a clock looks like (games.clocks.SHAPE, said in the request's language)."""
    return _('Give the clock as {"initial": seconds, "increment": seconds} or {"days": n}.')


def clean_clock(clock: object) -> clock_rules.TimeControl:
    if clock is not None and not isinstance(clock, Mapping):
        raise ServiceError("bad_clock", shape(), field="clock")
    unknown = sorted(set(clock or {}) - CLOCK_KEYS, key=str)
    if unknown:
        said = ", ".join(repr(key) for key in unknown)
        words = _("Unknown clock key %(keys)s.") % {"keys": said}
        raise ServiceError("bad_clock", f"{words} {shape()}", field="clock")
    try:
        return clock_rules.parse(clock)
    except clock_rules.ClockError as exc:
        raise ServiceError(exc.code, exc.said(_), field="clock") from exc


def mine(who: Who) -> Q:
    """The seeks ``who`` made: by its player id (browser or account), else by its address."""
    if who.player_id:
        return Q(player_id=who.player_id)
    if who.client:
        return Q(client=who.client, player_id="")
    return Q(pk__in=[])


def open_seek_ids(who: Who) -> frozenset[int]:
    """The ids of ``who``'s open seeks."""
    if not who.player_id:
        return frozenset()
    return frozenset(Seek.objects.filter(mine(who), status=Seek.Status.OPEN).values_list("pk", flat=True))


def check_seek_limits(who: Who) -> None:
    """At most ``LOBBY_MAX_SEEKS`` open seeks per player and ``LOBBY_MAX_SEEKS_PER_ADDRESS``
    per address (a new browser session per seek would otherwise make as many as it likes).
    Called in the transaction that makes the seek, after :func:`lock_seeker`."""
    limit = settings.LOBBY_MAX_SEEKS
    open_seeks = Seek.objects.filter(status=Seek.Status.OPEN)
    if open_seeks.filter(mine(who)).count() >= limit:
        words = ngettext(
            "You have %(count)d open seek already: cancel it first.",
            "You have %(count)d open seeks already: cancel one first.",
            limit,
        )
        raise ServiceError("too_many_seeks", words % {"count": limit}, 409)
    per_address = settings.LOBBY_MAX_SEEKS_PER_ADDRESS
    if who.client and open_seeks.filter(client=who.client).count() >= per_address:
        words = ngettext(
            "Your address has %(count)d open seek already: cancel it or wait for it to be taken.",
            "Your address has %(count)d open seeks already: cancel one or wait for one to be taken.",
            per_address,
        )
        raise ServiceError("too_many_seeks", words % {"count": per_address}, 409)


def lock_seeker(who: Who) -> None:
    """Make the count of ``who``'s open seeks and the insert of a new one a unit: two
    concurrent seeks of one player or address are counted one after the other. SQLite
    takes its write lock when the transaction begins (``BEGIN IMMEDIATE``, see the
    settings); PostgreSQL takes an advisory lock per player and per address until the
    transaction ends (in one order, so two never wait for each other)."""
    if connection.vendor != "postgresql":
        return
    keys = [f"seeker:{who.player_id}"] if who.player_id else []
    if who.client:
        keys.append(f"seeker-address:{who.client}")
    with connection.cursor() as cursor:
        for key in sorted(keys):
            cursor.execute("SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))", [key])


def create_seek(
    who: Who,
    kind: object,
    options: object = None,
    *,
    clock: object = None,
    rated: bool = False,
    seat: str = "random",
    rating_range: tuple[int | None, int | None] = (None, None),
) -> Made:
    kind, clean = clean_game(kind, options)
    control = clean_clock(clock)
    if seat not in SEATS:
        words = _("seat must be one of %(seats)s.") % {"seats": ", ".join(SEATS)}
        raise ServiceError("bad_option", words, field="seat")
    if rated and not who.is_account:
        raise ServiceError("rated_needs_account", _("Rated games are between accounts: log in first."), 403)
    if rated and not control.runs:
        raise ServiceError("rated_needs_clock", _("A rated game needs a clock."), field="clock")
    low, high = rating_range
    if (low is not None or high is not None) and not who.is_account:
        words = _("A rating range is for accounts: log in first.")
        raise ServiceError("range_needs_account", words, 403, field="rating")
    if low is not None and high is not None and low > high:
        words = _("The rating range's low end is above its high end.")
        raise ServiceError("bad_option", words, field="rating")
    with transaction.atomic():
        lock_seeker(who)
        check_seek_limits(who)
        count_created(who.address)
        token = secrets.token_urlsafe(24)
        seek = Seek.objects.create(
            kind=kind,
            options=clean,
            clock=control.to_json(),
            rated=rated,
            seat=seat,
            rating_min=low,
            rating_max=high,
            player_id=who.player_id or "",
            user=who.user,
            token_hash=hash_token(token),
            client=who.client,
            bot=who.bot,
            last_seen=timezone.now(),
        )
    changes.changed()
    return Made(seek, token)


def is_seeker(seek: Seek, who: Who) -> bool:
    if who.player_id and seek.player_id == who.player_id:
        return True
    if who.user is not None and seek.user_id == who.user.pk:
        return True
    return bool(who.token) and secrets.compare_digest(seek.token_hash, hash_token(who.token or ""))


def known_secret(token: str) -> bool:
    """Whether ``token`` is the secret of a seek (whatever its status)."""
    return Seek.objects.filter(token_hash=hash_token(token)).exists()


def get_seek(seek_id: int) -> Seek:
    try:
        return Seek.objects.get(pk=seek_id)
    except Seek.DoesNotExist:
        raise ServiceError("not_found", _("There is no seek %(id)s.") % {"id": seek_id}, 404) from None


def locked_seek(seek_id: int) -> Seek:
    try:
        return Seek.objects.select_for_update().get(pk=seek_id)
    except Seek.DoesNotExist:
        raise ServiceError("not_found", _("There is no seek %(id)s.") % {"id": seek_id}, 404) from None


def seek_gone(seek: Seek) -> ServiceError:
    if seek.status == Seek.Status.TAKEN:
        return ServiceError("seek_gone", _("That seek was taken: pick another one."), 409)
    return ServiceError("seek_gone", _("That seek was cancelled: pick another one."), 409)


def accept_seek(seek_id: int, who: Who, rng: random.Random | None = None) -> Accepted:
    """Take a seek: the game is created with the seeker in its seat and ``who`` in the other."""
    with transaction.atomic():
        seek = locked_seek(seek_id)
        if seek.status != Seek.Status.OPEN:
            raise seek_gone(seek)
        if seek.user is not None and not seek.user.is_active:  # closed or banned meanwhile
            raise ServiceError("seek_gone", _("That seek was cancelled: pick another one."), 409)
        if is_seeker(seek, who):
            words = _("That is your own seek: wait for someone to accept it.")
            raise ServiceError("own_seek", words, 409)
        if seek.rated and not who.is_account:
            raise ServiceError("rated_needs_account", _("This seek is rated: log in to accept it."), 403)
        if not in_range(seek, who):
            raise ServiceError("out_of_range", out_of_range(seek), 403)
        if not who.player_id and not who.api:
            words = _("Accepting needs a browser session or an API client.")
            raise ServiceError("no_player", words, 400)
        count_created(who.address)
        created = moves.create_game(
            seek.kind,
            seek.options,
            opponent="human",
            seat=seek.seat,
            player_id=seek.player_id or None,
            clock=seek.clock,
            rated=seek.rated,
            rng=rng,
        )
        game = created.game
        seeker = created.seat if created.seat is not None else 0
        if seek.token_hash:  # the seek's secret holds the seeker's seat
            Seat.objects.filter(game=game, index=seeker).update(token_hash=seek.token_hash)
        seat, token = moves.join_game(
            game.pk, invite=game.invite_code, player_id=who.player_id, with_token=who.api
        )
        seek.status = Seek.Status.TAKEN
        seek.game = game
        seek.save(update_fields=["status", "game"])
        changes.changed()
    return Accepted(game, seat, token)


def out_of_range(seek: Seek) -> str:
    low = seek.rating_min or 0
    if seek.rating_max is None:
        words = _("This seek is for players rated %(low)d or more in this game and speed.")
        return words % {"low": low}
    words = _("This seek is for players rated %(low)d to %(high)d in this game and speed.")
    return words % {"low": low, "high": seek.rating_max}


def in_range(seek: Seek, who: Who) -> bool:
    """Whether ``who`` fits the seek's rating range (anonymous players fit only a seek without one)."""
    if seek.rating_min is None and seek.rating_max is None:
        return True
    value = rating.rating_of(who.user, seek.kind, clock_rules.parse(seek.clock))
    if value is None:
        return False
    return (seek.rating_min is None or value >= seek.rating_min) and (
        seek.rating_max is None or value <= seek.rating_max
    )


def cancel_seek(seek_id: int, who: Who) -> Seek:
    """The seeker withdraws an open seek (a taken one stays taken: ``seek_gone``)."""
    with transaction.atomic():
        seek = locked_seek(seek_id)
        if not is_seeker(seek, who):
            raise ServiceError("not_your_seek", _("Only the seeker can cancel a seek."), 403)
        if seek.status == Seek.Status.TAKEN:
            raise seek_gone(seek)
        if seek.status == Seek.Status.OPEN:
            seek.status = Seek.Status.CANCELLED
            seek.save(update_fields=["status"])
            changes.changed()
    return seek


def keep_alive(seek: Seek, now: datetime | None = None) -> None:
    """The seeker still waits (its page or API client asked): the sweep leaves the seek."""
    if seek.status == Seek.Status.OPEN:
        seek.last_seen = now or timezone.now()
        Seek.objects.filter(pk=seek.pk).update(last_seen=seek.last_seen)


def lasts(seek: Seek) -> bool:
    """A correspondence seek is not tied to a page: it lasts until taken, cancelled or it
    lapses (:func:`lapses_at`)."""
    return clock_rules.parse(seek.clock).correspondence


def lapses_at(seek: Seek) -> datetime | None:
    """When a correspondence seek lapses (``SEEK_CORRESPONDENCE_DAYS`` after it was made);
    None for a seek that lives while its seeker waits."""
    if not lasts(seek):
        return None
    return seek.created + timedelta(days=settings.SEEK_CORRESPONDENCE_DAYS)


def sweep(now: datetime | None = None) -> int:
    """Cancel the real-time and unlimited seeks nobody asked for in ``SEEK_ALIVE`` seconds,
    and the correspondence seeks made more than ``SEEK_CORRESPONDENCE_DAYS`` ago."""
    now = now or timezone.now()
    cutoff = now - timedelta(seconds=settings.SEEK_ALIVE)
    lapsed = now - timedelta(days=settings.SEEK_CORRESPONDENCE_DAYS)
    found = Seek.objects.filter(Q(last_seen__lt=cutoff) | Q(created__lt=lapsed), status=Seek.Status.OPEN)
    stale = [s.pk for s in found if (s.created < lapsed if lasts(s) else s.last_seen < cutoff)]
    if not stale:
        return 0
    with transaction.atomic():
        count = Seek.objects.filter(pk__in=stale, status=Seek.Status.OPEN).update(
            status=Seek.Status.CANCELLED
        )
        if count:
            changes.changed()
    return count


def open_seeks(kind: str | None = None, limit: int = 100) -> list[Seek]:
    """The open seeks, newest first (``kind`` filters), after the sweep."""
    sweep()
    rows = Seek.objects.filter(status=Seek.Status.OPEN).select_related("user")
    if kind:
        rows = rows.filter(kind=kind)
    return list(rows[:limit])


def ratings_shown(seeks: list[Seek]) -> dict[int, str]:
    """Each account's seek's rating as shown ("1512", "1500?" while provisional), by seek id."""
    by_user: dict[int, list[Rating]] = {}
    users = {seek.user_id for seek in seeks if seek.user_id}
    for found in Rating.objects.filter(user_id__in=users):
        by_user.setdefault(found.user_id, []).append(found)
    shown = {}
    for seek in seeks:
        if seek.user_id is None:
            continue
        speed = clock_rules.parse(seek.clock).speed
        row = next(
            (r for r in by_user.get(seek.user_id, []) if r.kind == seek.kind and r.speed == speed), None
        )
        shown[seek.pk] = row.shown if row else NEW_RATING
    return shown


def seeker_seat(seek: Seek, by_secret: bool = False) -> int | None:
    """The seeker's seat in the game made from a taken seek; ``by_secret``: the seat the
    seek's secret still holds (none once its account is closed or banned)."""
    if seek.game_id is None:
        return None
    seats = Seat.objects.filter(game_id=seek.game_id)
    held = seats.filter(token_hash=seek.token_hash) if seek.token_hash else seats.none()
    if not held.exists() and seek.player_id and not by_secret:
        held = seats.filter(player_id=seek.player_id)
    first = held.order_by("index").first()
    return first.index if first else None
