"""Telling open pages that a game changed: one rendering per audience, sent as bytes.

An *audience* is what one kind of viewer sees of a game: ``"seat-0"`` (whoever holds
seat 0 alone), ``"seat-0-1"`` (one person holding both seats, hot-seat play), ``"watch"``
(spectators) and ``"json"`` (programs on ``?format=json``: the API's state, the same for
everyone). Every socket joins two channel-layer groups: its audience's
(``game-<id>-<audience>``) and the game's (``game-<id>``, for events meant for all).

When a game changes (a :class:`~games.events.GameEvent`, after commit) the subscriber
reads whether a socket of the game is open anywhere (a game nobody watches ends there),
and if one is, schedules a *render round* on the server's event loop and returns: the move's
answer never waits for it. The round runs in one worker thread of this process, reads
the game once, renders each audience that has a socket open (anywhere, when the cache
is shared) once, stores each rendering in the cache under (game, version, audience),
points ``live:now:<game>`` at that version, and sends the bytes to the audience's
group; the consumers forward them untouched. Events that arrive while a round runs are
coalesced into one more round, which renders the newest position. With Redis as the
channel layer and the cache, the process that made the change renders once for the
sockets of every process.

A connecting socket (and a resync) reads the current rendering from the cache; on a miss
it is rendered once in the worker thread (concurrent misses of one process share it) and
stored.

Presence: the open sockets of each audience are counted in the ``live`` cache (and in
this process). A moment after a socket comes or goes (once per game per
``WS_PRESENCE_DELAY``), and after a seat changes hands or names, each HTML audience with
a socket open gets its own presence line, rendered once for all its sockets
(:func:`games.presenting.words.presence_text`): a player reads about the others ("Your
opponent is connected.", "Bob (Player 2) is not connected."), a spectator about every
player, everyone how many watch. The page is rendered with the same line
(:func:`presence_of`).

Last seen: when the last socket of a seat (over every process sharing the cache) closes,
the seat's ``left_at`` is stored (:func:`games.services.actions.seats_left`) and the game
is rendered afresh ``ABANDON_AFTER`` seconds later, when its opponents may claim it; a
socket of that seat coming back clears it (and renders afresh when it was set). A
process killed never runs its sockets' disconnect: so every ``SEAT_HEARTBEAT`` seconds
each process stores that it still holds sockets of the seats in its own counts
(:func:`heartbeat`, one update for them all), and the sweep takes the seats no process
has noted for ``SEAT_LOST_AFTER`` seconds as gone since their last note, no longer
counts their sockets (the dead process never counted them out) and tells the pages.
Every ``ABANDON_SWEEP`` seconds the server's event loop does that and closes the games
nobody claimed (:func:`games.services.actions.close_abandoned`), whether the computer's
turns run here or on queue workers.

Small events (chat lines, offers): :func:`to_audience` and :func:`to_all` carry a payload
``{"kind": ..., "html": ..., "data": {...}}``: HTML sockets receive ``html`` (an
out-of-band swap), JSON sockets ``{"type": kind, **data}``; either may be left out.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.core.cache import caches
from django.db import close_old_connections
from django.utils import timezone

from games.events import GameEvent
from games.models import Game
from games.presenting import downloads, presenters, words
from games.services import actions, chat
from games.services.moves import Actor

log = logging.getLogger(__name__)

WATCH = "watch"
JSON = "json"
ANY = "any"  # the counter of every socket of a game
# Renderings and the viewer lookups live this long in the cache; the counters a day
# (they expire by themselves when a process died without saying goodbye).
RENDER_TTL = 600
COUNT_TTL = 24 * 60 * 60


def live_cache() -> Any:
    return caches["live"]


def group_name(game_id: int) -> str:
    """Everyone watching the game: small events for all and presence."""
    return f"game-{game_id}"


def audience_group(game_id: int, audience: str) -> str:
    return f"game-{game_id}-{audience}"


def audience_name(seats: Sequence[int]) -> str:
    return "seat-" + "-".join(str(s) for s in seats) if seats else WATCH


def audience_seats(audience: str) -> list[int]:
    if not audience.startswith("seat-"):
        return []
    return [int(s) for s in audience.removeprefix("seat-").split("-")]


def version(game: Game) -> str:
    """What a rendering shows: the ply and the game row's last save (a takeback may repeat a ply)."""
    return f"{game.ply}.{int(game.updated.timestamp() * 1_000_000)}"


# Cache keys.
def _seats_key(game_id: int) -> str:
    return f"live:seats:{game_id}"


def _now_key(game_id: int) -> str:
    return f"live:now:{game_id}"


def _render_key(game_id: int, ver: str, audience: str) -> str:
    return f"live:r:{game_id}:{ver}:{audience}"


def _names_key(game_id: int) -> str:
    return f"live:names:{game_id}"


def _count_key(game_id: int, audience: str) -> str:
    return f"live:n:{game_id}:{audience}"


def _player_key(session_key: str) -> str:
    return "live:player:" + hashlib.sha256(session_key.encode()).hexdigest()[:32]


# Who holds which seat: the human seats' player ids (None for the computer or an open seat).
SeatMap = list[str | None]


def seat_map(game: Game) -> SeatMap:
    return [None if s.is_ai else (s.player_id or None) for s in game.seat_list]


# The display name of each seat of the seat map ("" when none), None where it has no player.
SeatNames = list[str | None]


def seat_names(game: Game) -> SeatNames:
    return [
        None if player is None else seat.name
        for player, seat in zip(seat_map(game), game.seat_list, strict=True)
    ]


def audience_of(seats: SeatMap, player_id: str | None) -> str:
    return audience_name([i for i, p in enumerate(seats) if player_id and p == player_id])


def audiences(seats: SeatMap) -> list[str]:
    """Every HTML audience of a game: each person's seats, and the spectators."""
    named = {audience_of(seats, p) for p in seats if p}
    return [*sorted(named), WATCH]


def render(game: Game, seats: SeatMap, audience: str) -> str:
    """One audience's bytes: the HTML partials of its viewer, or the API state for JSON."""
    if audience == JSON:
        return json.dumps({"type": "state", "ply": game.ply, "state": downloads.game_json(game)})
    held = audience_seats(audience)
    actor = Actor(player_id=seats[held[0]]) if held else Actor()
    return presenters.render_partials(game, actor)


def rendering_for(game: Game, actor: Actor) -> str:
    """The partials ``actor`` sees (the htmx answer to a move): from the cache when this
    version was rendered for that audience already, else rendered and stored for the push."""
    if actor.token or actor.is_ai:  # not a browser: its seats are not its player id's
        return presenters.render_partials(game, actor)
    seats = seat_map(game)
    audience = audience_of(seats, actor.player_id)
    key = _render_key(game.pk, version(game), audience)
    text: str | None = live_cache().get(key)
    if text is None:
        text = render(game, seats, audience)
        live_cache().set(key, text, RENDER_TTL)
    return text


# Counting sockets. This process's own counts decide what to render as much as the
# cache's, so an evicted counter never silences a push to this process's sockets.
local_counts: Counter[tuple[int, str]] = Counter()


def arrive(game_id: int, audiences_: Sequence[str]) -> None:
    cache = live_cache()
    for audience in [*audiences_, ANY]:
        local_counts[game_id, audience] += 1
        key = _count_key(game_id, audience)
        cache.add(key, 0, COUNT_TTL)
        try:
            cache.incr(key)
        except ValueError:  # evicted between add and incr
            cache.set(key, 1, COUNT_TTL)


def leave(game_id: int, audiences_: Sequence[str]) -> None:
    cache = live_cache()
    for audience in [*audiences_, ANY]:
        local_counts[game_id, audience] -= 1
        if local_counts[game_id, audience] <= 0:
            del local_counts[game_id, audience]
        key = _count_key(game_id, audience)
        try:
            if cache.decr(key) < 0:
                cache.set(key, 0, COUNT_TTL)
        except ValueError:
            pass


def counts(game_id: int, audiences_: Sequence[str]) -> dict[str, int]:
    """Open sockets per audience, over every process sharing the cache."""
    found = live_cache().get_many([_count_key(game_id, a) for a in audiences_])
    return {
        a: max(int(found.get(_count_key(game_id, a)) or 0), local_counts.get((game_id, a), 0))
        for a in audiences_
    }


def seats_here(by_audience: dict[str, int]) -> set[int]:
    """The seats with a socket open, from the counts of the audiences."""
    return {seat for a, n in by_audience.items() if n > 0 for seat in audience_seats(a)}


def presence_line(names: SeatNames, by_audience: dict[str, int], audience: str) -> str:
    """What ``audience`` reads about who is connected (see the module's docstring)."""
    return words.presence_text(
        names, audience_seats(audience), seats_here(by_audience), by_audience.get(WATCH, 0)
    )


def presence_of(game: Game, actor: Actor) -> str:
    """The presence line of ``actor``'s page as it is rendered now; its socket's pushes follow."""
    seats = seat_map(game)
    audience = audience_of(seats, actor.player_id)
    return presence_line(seat_names(game), counts(game.pk, audiences(seats)), audience)


# Looking viewers up: the seat map of a game (with the seats' names) and the player id of
# a session, both cached.
def _remember_seats(game: Game) -> tuple[SeatMap, SeatNames]:
    seats, names = seat_map(game), seat_names(game)
    live_cache().set_many({_seats_key(game.pk): seats, _names_key(game.pk): names}, RENDER_TTL)
    return seats, names


def _load_seats(game_id: int) -> tuple[SeatMap, SeatNames] | None:
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        return None
    return _remember_seats(game)


def cached_seats(game_id: int) -> SeatMap | None:
    seats: SeatMap | None = live_cache().get(_seats_key(game_id))
    return seats


def cached_player(session_key: str) -> str | None:
    player: str | None = live_cache().get(_player_key(session_key))
    return player


def remember_player(session_key: str, player_id: str | None) -> None:
    if player_id:  # "no player yet" is not kept: joining a game makes one
        live_cache().set(_player_key(session_key), player_id, COUNT_TTL)


# The worker thread: every render and database read of the live layer, off the thread
# that serves synchronous views and off the event loop.
_executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="live-render")


def _in_worker(func: Any, *args: Any) -> Any:
    close_old_connections()
    try:
        return func(*args)
    finally:
        close_old_connections()


async def in_worker(func: Any, *args: Any) -> Any:
    return await asyncio.get_running_loop().run_in_executor(_executor, _in_worker, func, *args)


async def load_seats(game_id: int) -> SeatMap | None:
    """The game's seat map from the database (and into the cache): one read for every
    socket of a burst that found the cache empty, not one each."""
    lineup = await _once(("seats", game_id), _load_seats, game_id)
    return None if lineup is None else lineup[0]


async def load_lineup(game_id: int) -> tuple[SeatMap, SeatNames] | None:
    """The seat map and the seats' names, from the cache, else from the database (once)."""
    found = live_cache().get_many([_seats_key(game_id), _names_key(game_id)])
    seats, names = found.get(_seats_key(game_id)), found.get(_names_key(game_id))
    if seats is not None and names is not None:
        return seats, names
    return await _once(("seats", game_id), _load_seats, game_id)  # type: ignore[no-any-return]


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
    if counts(game_id, [ANY])[ANY] > 0:
        return True
    live_cache().delete_many([_now_key(game_id)])
    return False


def _render_round(game_id: int, fresh: bool) -> list[tuple[str, str]]:
    """Render every audience with a socket open; ``fresh`` ignores what the cache holds
    (an event other than a move may change a rendering without changing the version).
    A game without a socket open anywhere is not even read."""
    return _render_watched(game_id, fresh) if _watched(game_id) else []


def _render_watched(game_id: int, fresh: bool) -> list[tuple[str, str]]:
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        return []
    seats, _ = _remember_seats(game)
    cache = live_cache()
    ver = version(game)
    present = counts(game_id, [*audiences(seats), JSON])
    frames = []
    for audience, n in present.items():
        if n <= 0:
            continue
        key = _render_key(game_id, ver, audience)
        text = None if fresh else cache.get(key)
        if text is None:
            text = render(game, seats, audience)
            cache.set(key, text, RENDER_TTL)
        frames.append((audience, text))
    cache.set(_now_key(game_id), ver, COUNT_TTL)
    return frames


def _render_current(game_id: int, audience: str) -> str | None:
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        return None
    seats = seat_map(game)
    text = render(game, seats, audience)
    ver = version(game)
    cache = live_cache()
    cache.set(_render_key(game_id, ver, audience), text, RENDER_TTL)
    cache.add(_now_key(game_id), ver, COUNT_TTL)
    return text


async def current(game_id: int, audience: str) -> str | None:
    """The audience's current rendering: from the cache, else rendered once and stored."""
    cache = live_cache()
    ver = cache.get(_now_key(game_id))
    if ver is not None:
        text: str | None = cache.get(_render_key(game_id, ver, audience))
        if text is not None:
            return text
    return await _once(("render", game_id, audience), _render_current, game_id, audience)  # type: ignore[no-any-return]


# Scheduling: one round at a time per game, on the server's event loop.
_loop: asyncio.AbstractEventLoop | None = None
_running: set[int] = set()
_again: dict[int, bool] = {}
_tasks: set[asyncio.Task[None]] = set()


def bind(loop: asyncio.AbstractEventLoop) -> None:
    """The server's event loop (set by the ASGI app and by every consumer that connects)."""
    global _loop
    if _loop is not loop:
        if settings.ABANDON_SWEEP > 0:
            every(loop, settings.ABANDON_SWEEP, sweep)
        if settings.SEAT_HEARTBEAT > 0:
            every(loop, settings.SEAT_HEARTBEAT, heartbeat)
    _loop = loop


def every(loop: asyncio.AbstractEventLoop, seconds: float, job: Any) -> None:
    """Run ``await job()`` ``seconds`` from now, then ``seconds`` after each run ends, while
    ``loop`` is the bound one. (A timer, not a waiting task: a loop that closes meanwhile
    drops it quietly.)"""

    def start() -> None:
        if loop is not _loop or loop.is_closed():
            return
        _spawn(run())

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
            for game_id, left_at in await in_worker(_mark_lost):
                _after_lost(game_id, left_at)
        closed = await in_worker(actions.close_abandoned)
        if closed:
            log.info("closed %d abandoned game(s): %s", len(closed), closed)
    except Exception:
        log.exception("could not sweep the abandoned games; trying again")


# The heartbeat: which seats this process holds pages of, stored every SEAT_HEARTBEAT s.
def held_seats() -> dict[int, set[int]]:
    """Game id -> the seats with a socket open in this process."""
    held: dict[int, set[int]] = {}
    for (game_id, audience), n in list(local_counts.items()):
        if n > 0 and audience_seats(audience):
            held[game_id] = held.get(game_id, set()) | set(audience_seats(audience))
    return held


def _beat() -> list[int]:
    # Read in the worker thread, in turn with the departures' seats_left: a socket that
    # closed before this read is left out here, one that closes after is marked gone after.
    held = held_seats()
    return actions.seats_seen(held) if held else []


async def heartbeat() -> None:
    try:
        for game_id in await in_worker(_beat):
            _schedule(game_id, True)  # taken for gone meanwhile: the claim goes away
    except Exception:
        log.exception("could not say which seats this server holds; trying again")


def _mark_lost() -> list[tuple[int, datetime]]:
    """The seats no server has seen lately, marked gone; their sockets are no longer
    counted (the server that counted them died without counting them out)."""
    lost = actions.seats_lost()
    cache = live_cache()
    for game_id, seat, _ in lost:
        seats = cached_seats(game_id)
        if seats is None:
            loaded = _load_seats(game_id)
            seats = loaded[0] if loaded else []
        if seat < len(seats) and seats[seat]:
            audience = audience_of(seats, seats[seat])
            cache.set(_count_key(game_id, audience), local_counts.get((game_id, audience), 0), COUNT_TTL)
    return [(game_id, left_at) for game_id, _, left_at in lost]


def _after_lost(game_id: int, left_at: datetime) -> None:
    """Tell the pages the seat is gone; render them afresh once it may be claimed against."""
    presence_soon(game_id)
    wait = settings.ABANDON_AFTER - (timezone.now() - left_at).total_seconds()
    asyncio.get_running_loop().call_later(max(wait, 0) + 0.5, _schedule, game_id, True)


def _schedule(game_id: int, fresh: bool) -> None:
    if game_id in _running:
        _again[game_id] = _again.get(game_id, False) or fresh
        return
    _running.add(game_id)
    _spawn(_round(game_id, fresh))


async def _round(game_id: int, fresh: bool) -> None:
    try:
        while True:
            frames = await in_worker(_render_round, game_id, fresh)
            await send_frames(game_id, frames)
            if game_id not in _again:
                return
            fresh = _again.pop(game_id)
    except Exception:
        log.exception("could not push game %s", game_id)
    finally:
        _running.discard(game_id)
        _again.pop(game_id, None)


async def send_frames(game_id: int, frames: list[tuple[str, str]]) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    for audience, text in frames:
        try:
            await layer.group_send(audience_group(game_id, audience), {"type": "live.frame", "text": text})
        except Exception:  # a lost push is healed by the next one or a resync; the move stands
            log.exception("could not push game %s to %s", game_id, audience)


def _on_server_loop(callback: Any, *args: Any) -> bool:
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
        if not _watched(game_id) or _on_server_loop(_schedule, game_id, fresh):
            return
        frames = _render_watched(game_id, fresh)
        if frames and get_channel_layer() is not None:
            async_to_sync(send_frames)(game_id, frames)
    except Exception:
        log.exception("could not broadcast game %s ply %s", game_id, ply)


def on_game_event(event: GameEvent) -> None:
    """Subscribed in ``GamesConfig.ready()``: every event changes what open pages show."""
    if event.kind != "moved":  # a seat may have changed hands or names
        live_cache().delete_many([_seats_key(event.game_id), _names_key(event.game_id)])
    broadcast(event.game_id, event.ply, fresh=event.kind != "moved")
    if event.kind in ("joined", "named"):
        presence_later(event.game_id)
    for kind in SMALL_EVENTS.get(event.kind, ()):
        small_event(event.game_id, kind)


# The events that JSON sockets also receive as messages of their own (HTML pages get the
# render), and which: a declined offer changes the offers and adds the chat's line about it.
SMALL_EVENTS = {"chat": ("chat",), "offer": ("offer",), "declined": ("offer", "chat")}


def small_payload(game_id: int, kind: str) -> dict[str, Any] | None:
    """The JSON sockets' message for a chat line or an offer; None when no JSON socket is open.

    ``{"type": "chat", "line": {...}}`` (the newest line shown, as ``GET .../chat`` gives
    it; ``null`` once every line is hidden) or ``{"type": "offer", "ply": n, "offers":
    {"draw": [0]}}`` (the pending offers after an offer was made, declined or withdrawn).
    """
    if counts(game_id, [JSON])[JSON] <= 0:
        return None
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        return None
    data: dict[str, Any] = {"ply": game.ply}
    if kind == "chat":
        lines = chat.visible_lines(game, limit=1)
        data["line"] = (
            {
                "id": lines[0].pk,
                "seat": lines[0].seat,
                "name": lines[0].name,
                "text": lines[0].text,
                "created": lines[0].created.isoformat(),
            }
            if lines
            else None
        )
    else:
        data["offers"] = {k: list(offer["seats"]) for k, offer in game.offers.items()}
    return {"kind": kind, "data": data}


def small_event(game_id: int, kind: str) -> None:
    """Send a chat line or the offers to the game's JSON sockets, soon (as :func:`broadcast`)."""
    if _on_server_loop(lambda: _spawn(_send_small(game_id, kind))):
        return
    try:
        payload = small_payload(game_id, kind)
        if payload is not None:
            to_all(game_id, payload)
    except Exception:
        log.exception("could not send the %s of game %s", kind, game_id)


async def _send_small(game_id: int, kind: str) -> None:
    try:
        payload = await in_worker(small_payload, game_id, kind)
        if payload is not None:
            await ato_all(game_id, payload)
    except Exception:
        log.exception("could not send the %s of game %s", kind, game_id)


# Last seen: the seats whose every socket closed, and those back.
def _seat_present(game_id: int, seat: int, seats: SeatMap) -> bool:
    return any(n > 0 and seat in audience_seats(a) for a, n in counts(game_id, audiences(seats)).items())


def _back(game_id: int, seats_: list[int]) -> bool:
    return actions.seats_back(game_id, seats_) > 0


def _left(game_id: int, seats_: list[int]) -> int:
    return actions.seats_left(game_id, seats_)


def _spawn(coroutine: Any) -> None:
    task = asyncio.get_running_loop().create_task(coroutine)
    _tasks.add(task)
    task.add_done_callback(_tasks.discard)


def seat_arrived(game_id: int, audience: str) -> None:
    """A socket of ``audience`` opened: its seats are here (again)."""
    if audience_seats(audience):
        _spawn(_seat_arrived(game_id, audience_seats(audience)))


async def _seat_arrived(game_id: int, seats_: list[int]) -> None:
    try:
        if await in_worker(_back, game_id, seats_):
            _schedule(game_id, True)  # the claim buttons go away
    except Exception:
        log.exception("could not mark seats %s of game %s as back", seats_, game_id)


def seat_departed(game_id: int, audience: str) -> None:
    """A socket of ``audience`` closed (and was counted out): the seats with no socket left
    anywhere are gone from now; the game is rendered afresh once they may be claimed."""
    held = audience_seats(audience)
    if not held:
        return
    seats = cached_seats(game_id)
    gone = [s for s in held if seats is None or not _seat_present(game_id, s, seats)]
    if gone:
        _spawn(_seat_departed(game_id, gone))


async def _seat_departed(game_id: int, seats_: list[int]) -> None:
    try:
        if await in_worker(_left, game_id, seats_):
            loop = asyncio.get_running_loop()
            loop.call_later(settings.ABANDON_AFTER + 0.5, _schedule, game_id, True)
    except Exception:
        log.exception("could not mark seats %s of game %s as gone", seats_, game_id)


# Presence, coalesced per game.
_presence_due: set[int] = set()


def presence_soon(game_id: int) -> None:
    """Tell the game's pages who is here, once, ``WS_PRESENCE_DELAY`` seconds from now."""
    if game_id in _presence_due:
        return
    _presence_due.add(game_id)
    asyncio.get_running_loop().call_later(settings.WS_PRESENCE_DELAY, _start_presence, game_id)


def _start_presence(game_id: int) -> None:
    _presence_due.discard(game_id)
    _spawn(_send_presence(game_id))


def presence_later(game_id: int) -> None:
    """:func:`presence_soon` from any thread (a subscriber): on the server's event loop, if any."""
    _on_server_loop(presence_soon, game_id)


async def _send_presence(game_id: int) -> None:
    """Each HTML audience with a socket open gets its own line, rendered once."""
    try:
        lineup = await load_lineup(game_id)
        if lineup is None:
            return
        seats, names = lineup
        by_audience = counts(game_id, audiences(seats))
        # An audience's group holds its HTML sockets only (JSON sockets are in "json"):
        # the line goes there as a frame, as the renderings do.
        lines = [
            (audience, presenters.presence_html(presence_line(names, by_audience, audience)))
            for audience, n in by_audience.items()
            if n > 0
        ]
        await send_frames(game_id, lines)
    except Exception:  # the next arrival or departure says it again
        log.exception("could not tell game %s who is connected", game_id)


# Small events.
async def ato_audience(game_id: int, audience: str, payload: dict[str, Any]) -> None:
    """Send ``payload`` to an audience: ``"watch"``, ``"seats"`` (every seat holder),
    ``"seat-N"`` (whoever holds seat N, alone or with other seats) or an audience name."""
    layer = get_channel_layer()
    if layer is None:
        return
    message = {"type": "live.event", "payload": payload}
    if audience == WATCH:
        targets = [WATCH]
    else:
        seats = cached_seats(game_id)
        if seats is None:
            seats = await load_seats(game_id)
        named = [a for a in audiences(seats or []) if a != WATCH]
        wanted = audience_seats(audience)
        if audience == "seats":
            targets = named
        elif len(wanted) == 1:
            targets = [a for a in named if wanted[0] in audience_seats(a)]
        else:
            targets = [audience]
    for target in targets:
        await layer.group_send(audience_group(game_id, target), message)


async def ato_all(game_id: int, payload: dict[str, Any]) -> None:
    layer = get_channel_layer()
    if layer is not None:
        await layer.group_send(group_name(game_id), {"type": "live.event", "payload": payload})


def to_audience(game_id: int, audience: str, payload: dict[str, Any]) -> None:
    """:func:`ato_audience` from synchronous code (a subscriber, a view)."""
    async_to_sync(ato_audience)(game_id, audience, payload)


def to_all(game_id: int, payload: dict[str, Any]) -> None:
    """Send ``payload`` to every socket of the game (see the module's docstring)."""
    async_to_sync(ato_all)(game_id, payload)
