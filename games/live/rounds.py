"""Render rounds: telling open pages that a game changed, once per audience, as bytes.

When a game changes the subscriber reads whether a socket of the game is open anywhere (a
game nobody watches ends there), and if one is, schedules a *render round* on the
server's event loop and returns: the move's answer never waits for it. The round runs in
one worker thread of this process, reads the game once, renders each audience that has a
socket open (anywhere, when the cache is shared) once, stores each rendering in the cache
(:mod:`games.presenting.audiences`), points ``live:now:<game>`` at that version, and sends
the bytes to the audience's group; the consumers forward them untouched. Events that
arrive while a round runs are coalesced into one more round, which renders the newest
position. With Redis as the channel layer and the cache, the process that made the change
renders once for the sockets of every process.

A connecting socket (and a resync) reads the current rendering from the cache; on a miss
it is rendered once in the worker thread (concurrent misses of one process share it) and
stored.
"""

from __future__ import annotations

import asyncio
import logging
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import connections

from games.live import layers
from games.models import Game
from games.presenting import audiences, presence

log = logging.getLogger(__name__)

# A failed push is sent again this many times, each on a fresh connection.
PUSH_RETRIES = 2


# The worker thread: every render and database read of the live layer, off the thread
# that serves synchronous views and off the event loop.
_executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="live-render")


def _in_worker(func: Any, *args: Any) -> Any:
    _tidy_connections()
    try:
        return func(*args)
    finally:
        _tidy_connections()


def _tidy_connections() -> None:
    """The worker's connections, as Django tidies a request's, except that a healthy SQLite
    connection stays open: the worker is one thread for the life of the process, and
    opening SQLite again (with its pragmas) for every round cost a tenth of the server's
    time under a stream of moves. PostgreSQL's go back to the pool as before."""
    for conn in connections.all(initialized_only=True):
        if conn.vendor == "sqlite" and conn.connection is not None and not conn.in_atomic_block:
            conn.errors_occurred = False  # SQLite's connection is always usable
            continue
        conn.close_if_unusable_or_obsolete()


async def in_worker(func: Any, *args: Any) -> Any:
    return await asyncio.get_running_loop().run_in_executor(_executor, _in_worker, func, *args)


async def load_seats(game_id: int) -> audiences.SeatMap | None:
    """The game's seat map from the database (and into the cache): one read for every
    socket of a burst that found the cache empty, not one each."""
    lineup = await _once(("seats", game_id), audiences.read_lineup, game_id)
    return None if lineup is None else lineup[0]


async def load_lineup(game_id: int) -> tuple[audiences.SeatMap, audiences.SeatNames] | None:
    """The seat map and the seats' names, from the cache, else from the database (once)."""
    found = audiences.live_cache().get_many([audiences.seats_key(game_id), audiences.names_key(game_id)])
    seats, names = found.get(audiences.seats_key(game_id)), found.get(audiences.names_key(game_id))
    if seats is not None and names is not None:
        return seats, names
    return await _once(("seats", game_id), audiences.read_lineup, game_id)  # type: ignore[no-any-return]


_inflight: dict[tuple[Any, ...], asyncio.Future[Any]] = {}


async def _once(key: tuple[Any, ...], func: Any, *args: Any) -> Any:
    """``func(*args)`` in the worker thread, shared by every caller that asks while it runs."""
    pending = _inflight.get(key)
    if pending is not None:
        return await asyncio.shield(pending)
    future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
    _inflight[key] = future
    try:
        result = await in_worker(func, *args)
        future.set_result(result)
    except BaseException as exc:
        future.set_exception(exc)
        future.exception()  # retrieved: the waiters get it
        raise
    finally:
        del _inflight[key]
    return result


def _watched(game_id: int) -> bool:
    """Whether a socket of the game is open anywhere. When none is, its current-version
    pointer is dropped, so the next socket renders afresh (a socket is counted before it
    reads: one counted after this read reads the change)."""
    if presence.counts(game_id, [audiences.ANY])[audiences.ANY] > 0:
        return True
    audiences.live_cache().delete_many([audiences.now_key(game_id)])
    return False


Rendered = tuple[str | None, list[tuple[str, str]]]  # the version, and (audience, text) each


def _render_round(game_id: int, fresh: bool) -> Rendered:
    """Render every audience with a socket open; ``fresh`` ignores what the cache holds
    (an event other than a move may change a rendering without changing the version).
    A game without a socket open anywhere is not even read."""
    return _render_watched(game_id, fresh) if _watched(game_id) else (None, [])


def _render_watched(game_id: int, fresh: bool) -> Rendered:
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        return None, []
    seats, _ = audiences.remember_seats(game)
    cache = audiences.live_cache()
    ver = audiences.version(game)
    bare = [*audiences.audiences(seats), audiences.JSON]
    present = presence.counts(game_id, audiences.spoken(bare))
    frames = []
    for audience in audiences.listening(bare, present):
        key = audiences.render_key(game_id, ver, audience)
        text = None if fresh else cache.get(key)
        if text is None:
            text = audiences.render(game, seats, audience)
            cache.set(key, text, audiences.RENDER_TTL)
        frames.append((audience, text))
    cache.set(audiences.now_key(game_id), ver, audiences.COUNT_TTL)
    return ver, frames


async def current(game_id: int, audience: str) -> str | None:
    """The audience's current rendering: from the cache, else rendered once and stored."""
    cache = audiences.live_cache()
    ver = cache.get(audiences.now_key(game_id))
    if ver is not None:
        text: str | None = cache.get(audiences.render_key(game_id, ver, audience))
        if text is not None:
            return text
    return await _once(("render", game_id, audience), audiences.render_current, game_id, audience)  # type: ignore[no-any-return]


# Scheduling: one round at a time per game, on the server's event loop.
_loop: asyncio.AbstractEventLoop | None = None


def bind(loop: asyncio.AbstractEventLoop) -> None:
    """The server's event loop: rounds are scheduled there (see :func:`games.live.push.bind`)."""
    global _loop
    _loop = loop


def is_bound(loop: asyncio.AbstractEventLoop) -> bool:
    return loop is _loop


_running: set[int] = set()


_again: dict[int, bool] = {}


_tasks: set[asyncio.Task[None]] = set()


def schedule(game_id: int, fresh: bool, watched: bool = False) -> None:
    """A round for the game, or one more after the one running; ``watched``: the caller
    has just read that a socket of the game is open (the first round need not read it)."""
    if game_id in _running:
        _again[game_id] = _again.get(game_id, False) or fresh
        return
    _running.add(game_id)
    spawn(_round(game_id, fresh, watched))


def schedule_watched(game_id: int, fresh: bool) -> None:
    """:func:`schedule` for a game :func:`broadcast` has just found watched."""
    schedule(game_id, fresh, watched=True)


async def _round(game_id: int, fresh: bool, watched: bool = False) -> None:
    try:
        while True:
            # Reading the counts again would be a second round trip to Redis per move.
            ver, frames = await in_worker(_render_watched if watched else _render_round, game_id, fresh)
            watched = False
            await send_frames(game_id, frames, ver)
            if game_id not in _again:
                return
            fresh = _again.pop(game_id)
    except Exception:
        log.exception("could not push game %s", game_id)
    finally:
        _running.discard(game_id)
        _again.pop(game_id, None)


async def send_frames(game_id: int, frames: list[tuple[str, str]], ver: str | None = None) -> None:
    """Each audience's text to its group; ``ver``, the version a rendering shows, goes
    with it (the sockets remember it: :mod:`games.live.recovery` compares)."""
    layer = get_channel_layer()
    if layer is None:
        return
    for audience, text in frames:
        message: dict[str, Any] = {"type": "live.frame", "text": text}
        if ver is not None:
            message["ver"] = ver
        await push_to_group(layer, audiences.audience_group(game_id, audience), message)


async def push_to_group(layer: Any, group: str, message: dict[str, Any]) -> None:
    """``group_send``, tried again on fresh connections when it fails: after a Redis
    restart this process's idle connections are stale (closed by the old server), and the
    first command on one fails. A push lost anyway is healed by the sockets' own check
    (:mod:`games.live.recovery`), the next push or a resync; the move stands."""
    for attempt in range(1 + PUSH_RETRIES):
        try:
            await layer.group_send(group, message)
            return
        except Exception as exc:
            if attempt == PUSH_RETRIES:
                log.exception("could not push to %s", group)
                return
            log.warning("could not push to %s (%s); again on a fresh connection", group, exc)
            await layers.drop_idle_connections(layer)


def on_server_loop(callback: Any, *args: Any) -> bool:
    """Call ``callback(*args)`` soon on the server's event loop, from any thread; False
    when no server loop runs in this process (a worker, a command, a test without one)."""
    loop = _loop
    if loop is None or not loop.is_running() or loop.is_closed():
        return False
    loop.call_soon_threadsafe(callback, *args)
    return True


def broadcast(game_id: int, ply: int, fresh: bool = True) -> None:
    """Render the game for its audiences and push it, soon: on the server's event loop
    when there is one, else (a worker process, a command, a test without a server) here.
    A game nobody watches (most games of the API's programs) costs one cache read here,
    not a round."""
    try:
        if not _watched(game_id) or on_server_loop(schedule_watched, game_id, fresh):
            return
        ver, frames = _render_watched(game_id, fresh)
        if frames and get_channel_layer() is not None:
            async_to_sync(send_frames)(game_id, frames, ver)
    except Exception:
        log.exception("could not broadcast game %s ply %s", game_id, ply)


def spawn(coroutine: Any) -> None:
    task = asyncio.get_running_loop().create_task(coroutine)
    _tasks.add(task)
    task.add_done_callback(_tasks.discard)
