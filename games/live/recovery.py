"""Open sockets through a Redis outage or restart, in each web process.

Every ``WS_REDIS_CHECK`` seconds (with the live cache on Redis) the process reads a key
of its own in Redis:

- Redis unreachable: each open socket is told that live updates are paused (its page
  polls meanwhile); pushes through Redis cannot reach it.
- The key gone (Redis restarted empty, or flushed): the counts of open sockets were
  wiped with it, so another process taking a move would read "nobody watches" and push
  nothing. The process adds its own sockets' counts back, then every socket joins its
  groups again (the ``lists`` layer forgot them) and gets the current position, which
  holds any move made meanwhile; a paused one is told live updates resumed.
- Otherwise each open socket's last rendering is compared with the game's current
  version (one read for all the process's games): a socket that missed a push (lost
  on a stale connection to a restarted Redis, or by pub/sub while this process was
  subscribing again) is sent the current rendering.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
import weakref
from typing import Any, Protocol

from django.conf import settings

from games.live import heartbeat, rounds
from games.presenting import audiences, presence
from games.services.fallback_cache import FallbackRedisCache, redis_down

log = logging.getLogger(__name__)

MARKER = f"live:process:{uuid.uuid4().hex}"
MARKER_TTL = 3600


class Socket(Protocol):
    paused: bool
    game_id: int
    shown: str | None

    async def send_current(self) -> None: ...

    async def pause(self) -> None: ...

    async def recover(self) -> None: ...


sockets: weakref.WeakSet[Any] = weakref.WeakSet()
_bound: set[int] = set()
_marked = False
_first: set[asyncio.Task[None]] = set()


def bind(loop: asyncio.AbstractEventLoop) -> None:
    """Start the checks on the server's loop (once), when the live cache is on Redis."""
    if id(loop) in _bound or settings.WS_REDIS_CHECK <= 0:
        return
    if not isinstance(audiences.live_cache(), FallbackRedisCache):
        return
    _bound.add(id(loop))
    first = loop.create_task(check())  # marks this process now: a restart from then on is seen
    _first.add(first)
    first.add_done_callback(_first.discard)
    heartbeat.every(loop, settings.WS_REDIS_CHECK, check)


def _look() -> str:
    """ "down", "wiped" or "ok"; marks this process in Redis."""
    global _marked
    cache = audiences.live_cache()
    found = cache.get(MARKER)
    if redis_down():
        return "down"
    wiped = _marked and found is None
    if wiped:
        _count_again()
    cache.set(MARKER, 1, MARKER_TTL)
    _marked = not redis_down()
    return "wiped" if wiped else "ok"


def _count_again() -> None:
    """Add this process's open sockets to the counts in Redis again."""
    cache = audiences.live_cache()
    for (game_id, audience), n in list(presence.local_counts.items()):
        key = audiences.count_key(game_id, audience)
        cache.add(key, 0, audiences.COUNT_TTL)
        cache.incr(key, n)


async def check() -> None:
    try:
        state = await rounds.in_worker(_look)
    except Exception:
        log.exception("could not check Redis; trying again")
        return
    if state == "down":
        for socket in list(sockets):
            if not socket.paused:
                await socket.pause()
        return
    if state == "wiped":
        log.warning("Redis came back empty: %d open sockets counted and joined again", len(sockets))
    behind = [] if state == "wiped" else [s for s in list(sockets) if not s.paused]
    for socket in list(sockets):
        if state == "wiped" or socket.paused:
            await socket.recover()
    await _catch_up(behind)


def _versions(game_ids: list[int]) -> dict[int, str]:
    found = audiences.live_cache().get_many([audiences.now_key(g) for g in game_ids])
    return {g: found[audiences.now_key(g)] for g in game_ids if audiences.now_key(g) in found}


async def _catch_up(open_sockets: list[Any]) -> None:
    """Send the current rendering to each socket whose last one is older than the game's."""
    shown = [s for s in open_sockets if getattr(s, "shown", None) is not None]
    if not shown:
        return
    current = await rounds.in_worker(_versions, sorted({s.game_id for s in shown}))
    for socket in shown:
        ver = current.get(socket.game_id)
        if ver is not None and ver != socket.shown:
            log.info("a socket of game %s missed version %s: sent it", socket.game_id, ver)
            await socket.send_current()
