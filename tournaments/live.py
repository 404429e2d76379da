"""Tournaments over the WebSocket, and their timer on the server's loop.

A tournament's page is one audience per language: a change is rendered once per language
its sockets read (a moment later, so a burst of changes is one rendering), stored in the
live cache for the sockets that connect next, and sent to that language's group, which
every socket of that tournament's page on every process has joined (games/presenting/spoken.py).
The tick (start, pair, finish; tournaments/pairing.py) runs every ``TOURNAMENT_TICK``
seconds on each web process's event loop, as the clock sweeper does, in a thread of its
own so that pairing never waits behind the pages' renderings; a game's end wakes it for
its tournament at once (on the process where the game ended).
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any
from urllib.parse import parse_qs

from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import close_old_connections
from django.urls import reverse

from games.engine.numbers import whole_number
from games.presenting import spoken
from games.services import players
from games.services.base import ServiceError
from quarto_site.languages import scope_language
from tournaments import pairing, presenting
from tournaments.models import Entry

log = logging.getLogger(__name__)

NO_SUCH_TOURNAMENT = 4004  # closes a socket that asks for a tournament that does not exist
PUSH_DELAY = 0.2  # changes within this many seconds are pushed as one rendering

_lock = threading.Lock()
_timers: dict[int, threading.Timer] = {}


def group(tournament_id: int) -> str:
    return f"tournament-{tournament_id}"


def cache_key(tournament_id: int) -> str:
    return f"tournament:{tournament_id}:now"


def rendering(tournament_id: int, language: str = "") -> str:
    """The latest rendering of the tournament's live part in ``language`` (the site's by
    default; rendered and stored on a miss)."""
    language = language or spoken.site_language()
    return spoken.current(cache_key(tournament_id), language, lambda: presenting.render_live(tournament_id))


def push_now(tournament_id: int) -> None:
    """Render the tournament's live part once per language read and send it to its pages."""
    with _lock:
        _timers.pop(tournament_id, None)
    try:
        layer = get_channel_layer()
        for language in spoken.read_in(group(tournament_id)):
            html = spoken.rendered(language, lambda: presenting.render_live(tournament_id))
            spoken.store(cache_key(tournament_id), language, html)
            if layer is not None:
                frame = {"type": "tournament.frame", "html": html}
                async_to_sync(layer.group_send)(spoken.group(group(tournament_id), language), frame)
    except Exception:  # a failed push leaves the pages to the next one
        log.exception("could not push tournament %s", tournament_id)
    finally:
        close_old_connections()


def on_change(tournament_id: int) -> None:
    """tournaments.changes' listener: schedule one push for this burst of changes."""
    with _lock:
        if tournament_id in _timers:
            return
        timer = threading.Timer(PUSH_DELAY, push_now, args=[tournament_id])
        timer.daemon = True
        timer.start()  # before it is listed: flush() joins only started timers
        _timers[tournament_id] = timer


def flush() -> None:
    """Wait for the pushes under way (tests: before their database goes)."""
    for timer in list(_timers.values()):
        timer.join()


# -- the timer ----------------------------------------------------------------------------

_executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="tournament-tick")
_bound: asyncio.AbstractEventLoop | None = None


def _tick() -> int:
    close_old_connections()
    try:
        return pairing.tick()
    finally:
        close_old_connections()


_waking: set[int] = set()


def _pair_now(tournament_id: int) -> int:
    close_old_connections()
    try:
        return pairing.pair(tournament_id)
    finally:
        close_old_connections()


def wake(tournament_id: int) -> None:
    """A game's end freed players (changes' listener, any thread): pair that tournament
    now rather than at the next tick (once, however many games end meanwhile)."""
    loop = _bound
    if loop is None or loop.is_closed():
        return
    with _lock:
        if tournament_id in _waking:
            return
        _waking.add(tournament_id)

    async def run() -> None:
        with _lock:
            _waking.discard(tournament_id)
        try:
            await loop.run_in_executor(_executor, _pair_now, tournament_id)
        except Exception:
            log.exception("could not pair tournament %s", tournament_id)

    loop.call_soon_threadsafe(lambda: loop.create_task(run()))


def bind(loop: asyncio.AbstractEventLoop) -> None:
    """Tick on the server's loop (called with the clock sweeper's binding); once per loop."""
    global _bound
    every = settings.TOURNAMENT_TICK
    if _bound is loop or every <= 0:
        return
    _bound = loop

    def start() -> None:
        if _bound is loop and not loop.is_closed():
            loop.create_task(run())

    async def run() -> None:
        try:
            await loop.run_in_executor(_executor, _tick)
        except Exception:
            log.exception("the tournaments' tick failed; trying again")
        finally:
            if not loop.is_closed():
                loop.call_later(every, start)

    loop.call_later(every, start)


# -- the sockets --------------------------------------------------------------------------


class TournamentConsumer(AsyncWebsocketConsumer):  # type: ignore[misc]  # channels is untyped
    """A tournament page's socket: the live part whenever it changes; sends nothing."""

    group_name = ""

    async def connect(self) -> None:
        tournament_id = int(self.scope["url_route"]["kwargs"]["pk"])
        language = scope_language(self.scope)
        self.group_name = spoken.group(group(tournament_id), language)
        await database_sync_to_async(spoken.opened)(group(tournament_id), language)
        try:
            await self.channel_layer.group_add(self.group_name, self.channel_name)
        except Exception:  # the layer is down: the page still gets the standings as they are
            log.warning("could not join the tournament's group", exc_info=True)
        await self.accept()
        try:
            html = await database_sync_to_async(rendering)(tournament_id, language)
        except ServiceError:  # no such tournament
            await self.close(code=NO_SUCH_TOURNAMENT)
            return
        await self.send(text_data=html)

    async def disconnect(self, code: int) -> None:
        try:
            await self.channel_layer.group_discard(self.group_name, self.channel_name)
        except Exception:
            log.warning("could not leave the tournament's group", exc_info=True)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """Frames from the page are ignored."""

    async def tournament_frame(self, event: dict[str, Any]) -> None:
        await self.send(text_data=event["html"])


FOLLOW_LOOK = 0.5  # how often a following page looks for its player's next game


def next_game(tournament_id: int, player_id: str | None, current: int | None) -> str | None:
    """Where a following page should go: the player's game when it is another than the one
    it shows, else None."""
    if not player_id:
        return None
    game_id = (
        Entry.objects.filter(tournament_id=tournament_id, player_id=player_id)
        .values_list("game_id", flat=True)
        .first()
    )
    if game_id is None or game_id == current:
        return None
    return reverse("games:detail", args=[game_id])


def _looked(tournament_id: int, player_id: str | None, current: int | None) -> str | None:
    try:
        return next_game(tournament_id, player_id, current)
    finally:
        close_old_connections()


def game_of(query: bytes) -> int | None:
    """The game a following page shows (``?after=12``: a game page), None for none or junk."""
    values = parse_qs(query.decode("latin-1")).get("after", [])
    text = values[0] if values else ""
    return whole_number(text, 18)


class FollowConsumer(AsyncWebsocketConsumer):  # type: ignore[misc]
    """A following page's socket: tells the page its player's next game ({"go": url}); on
    a game's page (``?after=<game>``), the one after that game."""

    task: asyncio.Task[None] | None = None

    async def connect(self) -> None:
        await self.accept()
        tournament_id = int(self.scope["url_route"]["kwargs"]["pk"])
        session = self.scope.get("session")
        player = await database_sync_to_async(players.identify)(session) if session is not None else None
        after = game_of(self.scope.get("query_string", b""))
        self.task = asyncio.get_running_loop().create_task(self.watch(tournament_id, player, after))

    async def watch(self, tournament_id: int, player: str | None, after: int | None) -> None:
        while True:
            go = await database_sync_to_async(_looked)(tournament_id, player, after)
            if go is not None:
                await self.send(text_data=json.dumps({"go": go}))
                return
            await asyncio.sleep(FOLLOW_LOOK)

    async def disconnect(self, code: int) -> None:
        if self.task is not None:
            self.task.cancel()

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """The page sends nothing."""
