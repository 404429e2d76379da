"""Seats whose pages are gone: the heartbeat of each process and the sweep.

When the last socket of a seat (over every process sharing the cache) closes, the seat's
``left_at`` is stored (:func:`games.services.abandonment.seats_left`, by
:mod:`games.live.messages`) and the game is rendered afresh ``ABANDON_AFTER`` seconds
later, when its opponents may claim it. A process killed never runs its sockets'
disconnect: so every ``SEAT_HEARTBEAT`` seconds each process stores that it still holds
sockets of the seats in its own counts (:func:`heartbeat`, one update for them all), and
the sweep takes the seats no process has noted for ``SEAT_LOST_AFTER`` seconds as gone
since their last note, no longer counts their sockets (the dead process never counted
them out) and tells the pages. Every ``ABANDON_SWEEP`` seconds the server's event loop
does that and closes the games nobody claimed
(:func:`games.services.abandonment.close_abandoned`), whether the computer's turns run
here or on queue workers.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime
from typing import Any

from django.conf import settings
from django.utils import timezone

from games.live import messages, rounds
from games.presenting import audiences, presence
from games.services import abandonment, timeouts

log = logging.getLogger(__name__)


def every(loop: asyncio.AbstractEventLoop, seconds: float, job: Any) -> None:
    """Run ``await job()`` ``seconds`` from now, then ``seconds`` after each run ends, while
    ``loop`` is the bound one. (A timer, not a waiting task: a loop that closes meanwhile
    drops it quietly.)"""

    def start() -> None:
        if not rounds.is_bound(loop) or loop.is_closed():
            return
        rounds.spawn(run())

    async def run() -> None:
        try:
            await job()
        finally:
            if not loop.is_closed():
                loop.call_later(seconds, start)

    loop.call_later(seconds, start)


async def sweep() -> None:
    """Take the seats no server has seen lately as gone, then close the abandoned games
    nobody claimed."""
    try:
        if settings.SEAT_HEARTBEAT > 0:
            for game_id, left_at in await rounds.in_worker(_mark_lost):
                _after_lost(game_id, left_at)
        closed = await rounds.in_worker(abandonment.close_abandoned)
        if closed:
            log.info("closed %d abandoned game(s): %s", len(closed), closed)
    except Exception:
        log.exception("could not sweep the abandoned games; trying again")


async def clock_sweep() -> None:
    """End the games whose player to move has run out (every ``CLOCK_SWEEP`` seconds): the
    clock's flag when nobody sends a move. Their pages are told by the ``ended`` event."""
    try:
        await rounds.in_worker(timeouts.sweep)
    except Exception:
        log.exception("could not sweep the clocks; trying again")


# The heartbeat: which seats this process holds pages of, stored every SEAT_HEARTBEAT s.
def held_seats() -> dict[int, set[int]]:
    """Game id -> the seats with a socket open in this process."""
    held: dict[int, set[int]] = {}
    for (game_id, audience), n in list(presence.local_counts.items()):
        if n > 0 and audiences.audience_seats(audience):
            held[game_id] = held.get(game_id, set()) | set(audiences.audience_seats(audience))
    return held


def _beat() -> list[int]:
    # Read in the worker thread, in turn with the departures' seats_left: a socket that
    # closed before this read is left out here, one that closes after is marked gone after.
    held = held_seats()
    if not held:
        return []
    return sorted(set(abandonment.seats_seen(held)) | set(_counts_at_least_ours()))


def _counts_at_least_ours() -> list[int]:
    """Raise a seat's shared socket count back to this process's own where it is lower;
    the games whose counts were raised.

    Another process's sweep that took the seat for gone sets its count to its own sockets
    (none) and may do so just after a page of the seat reconnected here, before this
    process noted the seat: the page's own count would be lost, and a page nobody counts
    gets no rendering (the claim never shown). Never more than the sockets open here, so
    never a socket counted that is not open."""
    ours = {
        audiences.count_key(game_id, audience): (game_id, n)
        for (game_id, audience), n in list(presence.local_counts.items())
        if n > 0 and audiences.audience_seats(audience)
    }
    if not ours:
        return []
    cache = audiences.live_cache()
    shared = cache.get_many(list(ours))
    raised = {key: n for key, (_, n) in ours.items() if int(shared.get(key) or 0) < n}
    if raised:
        cache.set_many(raised, audiences.COUNT_TTL)
    return [ours[key][0] for key in raised]


async def heartbeat() -> None:
    try:
        for game_id in await rounds.in_worker(_beat):
            rounds.schedule(game_id, True)  # taken for gone meanwhile: the claim goes away
    except Exception:
        log.exception("could not say which seats this server holds; trying again")


def _mark_lost() -> list[tuple[int, datetime]]:
    """The seats no server has seen lately, marked gone; their sockets are no longer
    counted (the server that counted them died without counting them out)."""
    lost = abandonment.seats_lost()
    cache = audiences.live_cache()
    for game_id, seat, _ in lost:
        seats = audiences.cached_seats(game_id)
        if seats is None:
            loaded = audiences.read_lineup(game_id)
            seats = loaded[0] if loaded else []
        if seat < len(seats) and seats[seat]:
            audience = audiences.audience_of(seats, seats[seat])
            cache.set(
                audiences.count_key(game_id, audience),
                presence.local_counts.get((game_id, audience), 0),
                audiences.COUNT_TTL,
            )
    return [(game_id, left_at) for game_id, _, left_at in lost]


def _after_lost(game_id: int, left_at: datetime) -> None:
    """Tell the pages the seat is gone; render them afresh once it may be claimed against."""
    messages.presence_soon(game_id)
    wait = settings.ABANDON_AFTER - (timezone.now() - left_at).total_seconds()
    asyncio.get_running_loop().call_later(max(wait, 0) + 0.5, rounds.schedule, game_id, True)
