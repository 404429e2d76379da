"""A seat's pages coming and going, and the games people left.

The live layer says when a seat's pages all closed and when one is back
(:func:`seats_left`, :func:`seats_back`). A server that dies cannot say so for the pages
it held: every server says every ``SEAT_HEARTBEAT`` seconds which seats it holds pages of
(:func:`seats_seen`, ``Seat.seen_at``), and :func:`seats_lost` takes a seat no server has
seen for ``SEAT_LOST_AFTER`` seconds as gone since it was last seen.

**Claim**: once an opponent has gone (see :func:`games.services.policy.gone_seats`), the
others may claim the win (the gone seats lose) or a draw, reason ``abandoned``. A game
left unclaimed ``ABANDON_CLOSE_AFTER`` seconds is closed by :func:`close_abandoned`
(status "abandoned", nobody wins).
"""

from __future__ import annotations

import operator
from collections.abc import Iterable, Mapping
from datetime import datetime, timedelta
from functools import reduce
from typing import Literal

from django.conf import settings
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from games.events import GameEvent, publish
from games.models import Game, Seat
from games.services import policy
from games.services.base import Actor, acting_on, finish_game, locked_game, others_win


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


def page_polled(game_id: int, ply: int, seats: list[int]) -> None:
    """A player's page polled (its socket could not open): their seats are here, as a
    socket would say; the pages that offered a claim against them are told."""
    if seats and seats_back(game_id, seats):
        publish(GameEvent(game_id, ply, "back"))


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
        game, held = acting_on(game_id, actor, expected_ply)
        if refusal := policy.claim_refusal(game, actor):
            raise refusal
        gone = [s for s in policy.gone_seats(game) if s not in held]
        if outcome == "draw":
            finish_game(game, Game.Status.DRAWN, Game.Reason.ABANDONED, {"winner": None, "abandoned": gone})
        else:
            others_win(game, gone, Game.Reason.ABANDONED, {"abandoned": gone})
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
            game = locked_game(game_id)
            gone = policy.gone_seats(game, after=after, now=now)
            if not gone:
                continue
            finish_game(
                game, Game.Status.ABANDONED, Game.Reason.ABANDONED, {"winner": None, "abandoned": gone}
            )
            closed.append(game_id)
    return closed
