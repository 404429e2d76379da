"""Quick pairing: players wait in a pool per game and time control and are paired two by two.

Pairing happens under the pool's row lock (``Pool``, one row per game and clock), and a
waiting entry is taken only while it has no game, so whatever the database and however
many processes pair at once, one player is never paired twice.

Whom a player meets, as lichess's pools do: among the compatible waiting entries of the
same pool, the nearest rating first, then the one waiting longest. Two players are
compatible when either has no rating (anonymous: casual games) or their ratings differ by
at most ``RANGE_START + RANGE_WIDEN * s``, where s is the seconds the longer-waiting of
the two has waited: the range widens the longer one waits. A game between two accounts
with a running clock is rated; any other pairing is casual.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from games import clocks as clock_rules
from games.models import Game
from games.services import moves
from games.services.moves import ServiceError
from lobby import changes, rating
from lobby.models import Pool, PoolEntry
from lobby.seekers import Who
from lobby.services import clean_clock, clean_game, count_created

RANGE_START = 100.0  # rating points
RANGE_WIDEN = 50.0  # more points per second waited


# The rating the pool pairs by; a test may replace it.
rating_hook: Callable[[Any, str, clock_rules.TimeControl], float | None] = rating.rating_of


@dataclass(frozen=True)
class Waiting:
    """Where a player stands: waiting in a pool since ``since``, or paired into ``game``."""

    entry: PoolEntry
    game: Game | None


def pool_key(kind: str, control: clock_rules.TimeControl) -> str:
    return f"{kind}:{control.label}"


def compatible(a: PoolEntry, b: PoolEntry, now: datetime) -> bool:
    if a.rating is None or b.rating is None:
        return True
    waited = (now - min(a.since, b.since)).total_seconds()
    return abs(a.rating - b.rating) <= RANGE_START + RANGE_WIDEN * max(0.0, waited)


def choose(me: PoolEntry, others: list[PoolEntry], now: datetime) -> PoolEntry | None:
    """The partner for ``me``: the nearest rating among the compatible ones, then the oldest."""
    fits = [o for o in others if compatible(me, o, now)]
    if not fits:
        return None

    def distance(o: PoolEntry) -> float:
        return abs(me.rating - o.rating) if me.rating is not None and o.rating is not None else 0.0

    return min(fits, key=lambda o: (distance(o), o.since, o.pk))


def alive_after(now: datetime) -> datetime:
    return now - timedelta(seconds=settings.SEEK_ALIVE)


def pair_game(first: PoolEntry, second: PoolEntry, rng: random.Random | None = None) -> Game:
    """The game between two pool entries, seats by a coin flip; both entries get it."""
    rated = first.user_id is not None and second.user_id is not None and clock_rules.parse(first.clock).runs
    created = moves.create_game(
        first.kind, {}, opponent="human", seat="random", player_id=first.player_id, clock=first.clock,
        rated=rated, rng=rng,
    )  # fmt: skip
    game = created.game
    moves.join_game(game.pk, invite=game.invite_code, player_id=second.player_id)
    PoolEntry.objects.filter(pk__in=[first.pk, second.pk]).update(game=game)
    return game


def try_pair(pool: Pool, me: PoolEntry, now: datetime, rng: random.Random | None = None) -> Game | None:
    """Inside a transaction holding ``pool``'s lock: pair ``me`` if someone fits."""
    others = list(
        PoolEntry.objects.select_for_update()
        .filter(pool=pool, game__isnull=True, last_seen__gte=alive_after(now))
        .exclude(pk=me.pk)
        .exclude(player_id=me.player_id)
    )
    partner = choose(me, others, now)
    if partner is None:
        return None
    older, newer = sorted((me, partner), key=lambda e: (e.since, e.pk))
    return pair_game(older, newer, rng)


def locked_pool(key: str) -> Pool:
    Pool.objects.get_or_create(key=key)
    return Pool.objects.select_for_update().get(key=key)


def join(who: Who, kind: object, clock: object, rng: random.Random | None = None) -> Waiting:
    """Wait in the pool of ``kind`` and ``clock`` (leaving any other), paired at once if someone fits.

    Joining again the pool one waits in only says one still waits (and tries again)."""
    if not who.player_id:
        words = gettext("Quick pairing through the API needs a personal token.")
        raise ServiceError("no_player", words, 401)
    kind, _ = clean_game(kind, {})
    control = clean_clock(clock)
    now = timezone.now()
    key = pool_key(kind, control)
    untold = unseen_game(who)
    if untold is not None:  # paired meanwhile by someone else's join: that game first
        return untold
    with transaction.atomic():
        pool = locked_pool(key)  # the pool first, then entries: one lock order for every pairing
        current = (
            PoolEntry.objects.select_for_update().filter(player_id=who.player_id, game__isnull=True).first()
        )
        if current is not None and current.pool_id != pool.pk:
            current.delete()  # one pool at a time
            current = None
        if current is None:
            count_created(who.address)
            current = PoolEntry.objects.create(
                pool=pool,
                kind=kind,
                clock=control.to_json(),
                player_id=who.player_id,
                user=who.user,
                rating=rating_hook(who.user, kind, control),
                since=now,
                last_seen=now,
            )
        else:
            current.last_seen = now
            current.save(update_fields=["last_seen"])
        game = try_pair(pool, current, now, rng)
        changes.changed()
    if game is not None:
        current.game = game
        PoolEntry.objects.filter(pk=current.pk).update(told=True)
    return Waiting(current, game)


def unseen_game(who: Who) -> Waiting | None:
    """The player's pairing it has not been told of yet (marked told now)."""
    entry = (
        PoolEntry.objects.filter(player_id=who.player_id, game__isnull=False, told=False)
        .select_related("game")
        .order_by("-since")
        .first()
    )
    if entry is None:
        return None
    PoolEntry.objects.filter(pk=entry.pk).update(told=True)
    return Waiting(entry, entry.game)


def status(who: Who) -> Waiting | None:
    """Where the player stands: a pairing it has not been told of, else its waiting entry
    (kept alive, and paired now if someone fits), else None."""
    if not who.player_id:
        return None
    untold = unseen_game(who)
    if untold is not None:
        return untold
    entry = PoolEntry.objects.filter(player_id=who.player_id, game__isnull=True).first()
    if entry is None:
        return None
    return join(who, entry.kind, entry.clock)


def current_pool(who: Who) -> str | None:
    """The key of the pool the player waits in, if any."""
    if not who.player_id:
        return None
    entries = PoolEntry.objects.filter(player_id=who.player_id, game__isnull=True)
    entry = entries.select_related("pool").first()
    return entry.pool.key if entry is not None else None


def leave(who: Who) -> bool:
    """Stop waiting (a second click on the pool's button); False when not waiting."""
    if not who.player_id:
        return False
    with transaction.atomic():
        gone, _ = PoolEntry.objects.filter(player_id=who.player_id, game__isnull=True).delete()
        if gone:
            changes.changed()
    return bool(gone)


def sweep(now: datetime | None = None) -> int:
    """Drop the waiting entries whose players stopped asking (a closed page, a client gone)."""
    gone, _ = PoolEntry.objects.filter(
        game__isnull=True, last_seen__lt=alive_after(now or timezone.now())
    ).delete()
    if gone:
        changes.changed()
    return gone


def waiting_counts() -> dict[str, int]:
    """How many wait in each pool (by pool key), counting only the live entries."""
    counts: dict[str, int] = {}
    rows = PoolEntry.objects.filter(game__isnull=True, last_seen__gte=alive_after(timezone.now()))
    for key in rows.values_list("pool__key", flat=True):
        counts[key] = counts.get(key, 0) + 1
    return counts
