"""The lobby over the WebSocket: one audience per language. A change is rendered once per
language its sockets read (a moment later, so a burst of changes is one rendering), stored
in the live cache for sockets that connect next, and sent to that language's group, which
every lobby socket of every process reading it has joined (games/presenting/spoken.py)."""

from __future__ import annotations

import asyncio
import json
import logging
import threading
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
from games.services import players, ratelimit
from games.services.moves import ServiceError
from lobby import pool, presenting, services
from lobby.models import Seek
from lobby.seekers import Who
from quarto_site.languages import scope_language

log = logging.getLogger(__name__)

GROUP = "lobby"
NOW_KEY = "lobby:now"
# The home page's socket (``?part=pools``) gets the pools' grid alone, when it changes.
POOLS_GROUP = "lobby-pools"
POOLS_KEY = "lobby:pools"
# Changes within this many seconds are pushed as one rendering.
PUSH_DELAY = 0.2

_lock = threading.Lock()
_scheduled = False
_timer: threading.Timer | None = None


def rendering(pools_only: bool = False, language: str = "") -> str:
    """The latest rendering of the live part, or of the pools alone, in ``language`` (the
    site's by default; rendered and stored on a miss)."""
    render = presenting.render_pools if pools_only else presenting.render_live
    return spoken.current(POOLS_KEY if pools_only else NOW_KEY, language or spoken.site_language(), render)


def push_now() -> None:
    """Render the live part once per language read and send it to every lobby page."""
    global _scheduled
    with _lock:
        _scheduled = False
    try:
        layer = get_channel_layer()
        for language in spoken.read_in(GROUP):
            html = spoken.rendered(language, presenting.render_live)
            spoken.store(NOW_KEY, language, html)
            pools = spoken.rendered(language, presenting.render_pools)
            pools_changed = spoken.store(POOLS_KEY, language, pools)  # most changes are seeks
            if layer is not None:
                send = async_to_sync(layer.group_send)
                send(spoken.group(GROUP, language), {"type": "lobby.frame", "html": html})
                if pools_changed:  # home pages skip the others
                    send(spoken.group(POOLS_GROUP, language), {"type": "lobby.frame", "html": pools})
    except Exception:  # a failed push leaves the pages to the next one
        log.exception("could not push the lobby")
    finally:
        close_old_connections()


def on_change() -> None:
    """lobby.changes' listener: schedule one push for this burst of changes."""
    global _scheduled, _timer
    with _lock:
        if _scheduled:
            return
        _scheduled = True
        _timer = threading.Timer(PUSH_DELAY, push_now)
        _timer.daemon = True
        _timer.start()


def flush() -> None:
    """Wait for the push under way, if any (tests: before their database goes)."""
    timer = _timer
    if timer is not None:
        timer.join()


def sweep_all() -> None:
    """Cancel the seeks and drop the pool entries nobody keeps alive (their pushes follow)."""
    try:
        services.sweep()
        pool.sweep()
    finally:
        close_old_connections()


_sweeper: asyncio.Task[None] | None = None


class Counted(AsyncWebsocketConsumer):  # type: ignore[misc]  # channels is untyped
    """A lobby socket counted against its client's ``WS_MAX_PER_CLIENT``, in the same count
    as the game sockets (``ratelimit.open_socket``): one budget per address."""

    address: str | None = None

    async def admitted(self) -> bool:
        address = ratelimit.scope_address(self.scope)
        if not ratelimit.open_socket(address):
            # Accepted first: a handshake refused is an HTTP 403 the page cannot tell apart.
            await self.accept()
            await self.close(code=ratelimit.TOO_MANY_SOCKETS)
            return False
        self.address = address
        return True

    def uncount(self) -> None:
        if self.address is not None:
            ratelimit.close_socket(self.address)
            self.address = None


async def sweeping() -> None:
    while True:
        await asyncio.sleep(max(1.0, settings.SEEK_ALIVE / 3))
        try:
            await database_sync_to_async(sweep_all)()
        except Exception:
            log.exception("lobby sweep failed")


class LobbyConsumer(Counted):
    """A lobby page's socket: receives the live part whenever it changes; sends nothing.
    With ``?part=pools`` (the home page) the pools' grid alone, when it changes."""

    group = GROUP

    async def connect(self) -> None:
        global _sweeper
        if not await self.admitted():
            return
        pools_only = parse_qs(self.scope.get("query_string", b"").decode("latin-1")).get("part") == ["pools"]
        language = scope_language(self.scope)
        self.group = spoken.group(POOLS_GROUP if pools_only else GROUP, language)
        await database_sync_to_async(spoken.opened)(GROUP, language)
        try:
            await self.channel_layer.group_add(self.group, self.channel_name)
        except Exception:  # the layer is down: the page still gets the list as it is now
            log.warning("could not join the lobby group", exc_info=True)
        await self.accept()
        if _sweeper is None or _sweeper.done():  # one sweeper per process, while pages are open
            _sweeper = asyncio.get_running_loop().create_task(sweeping())
        await self.send(text_data=await database_sync_to_async(rendering)(pools_only, language))

    async def disconnect(self, code: int) -> None:
        self.uncount()
        try:
            await self.channel_layer.group_discard(self.group, self.channel_name)
        except Exception:  # the layer is down: the entry expires there by itself
            log.warning("could not leave the lobby group", exc_info=True)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """Frames from the page are ignored (htmx's ws extension may send none)."""

    async def lobby_frame(self, event: dict[str, Any]) -> None:
        await self.send(text_data=event["html"])


# How often a waiting page's socket looks for its game (and keeps its seek or place alive).
WAIT_LOOK = 0.5


def waiting_news(player_id: str | None, seek_id: int | None, rejoin: bool = True) -> str | None:
    """Where a waiting page should go now (the game, or the lobby when its seek is gone),
    or None to wait on; keeps the seek alive, and with ``rejoin`` the pool place (a locked
    write that also pairs with the widened range; otherwise only a read)."""
    try:
        if not player_id:
            return reverse("lobby:lobby")
        who = Who(player_id=player_id)
        if seek_id is not None:
            try:
                seek = services.get_seek(seek_id)
            except ServiceError:
                return reverse("lobby:lobby")
            if not services.is_seeker(seek, who) or seek.status == Seek.Status.CANCELLED:
                return reverse("lobby:lobby")
            if seek.game_id is not None:
                return reverse("games:detail", args=[seek.game_id])
            if rejoin:
                services.keep_alive(seek)
            return None
        waiting = pool.status(who) if rejoin else pool.unseen_game(who)
        if waiting is None and not rejoin:
            return None
        if waiting is None:
            return reverse("lobby:lobby")
        return reverse("games:detail", args=[waiting.game.pk]) if waiting.game is not None else None
    finally:
        close_old_connections()


# No seek has this number: a waiting socket asking for it is sent back to the lobby.
NO_SEEK = 0


def seek_of(query: bytes) -> int | None:
    """The seek a waiting page follows (None: its place in the pool). A value that is no
    seek number ("²", which isdigit() passes and int() refuses; thousands of digits) is
    ``NO_SEEK``: no seek of this page's."""
    values = parse_qs(query.decode("latin-1")).get("seek", [])
    if not values:
        return None
    text = values[0]
    seek = whole_number(text, 18)
    return NO_SEEK if seek is None else seek


class WaitConsumer(Counted):
    """A waiting page's socket: it holds the seek (or the pool place) while it is open, and
    tells the page where to go once there is a game. When it closes, nothing keeps the seek
    alive: the sweep cancels it ``SEEK_ALIVE`` seconds later."""

    task: asyncio.Task[None] | None = None

    async def connect(self) -> None:
        if not await self.admitted():
            return
        await self.accept()
        session = self.scope.get("session")
        player = await database_sync_to_async(players.identify)(session) if session is not None else None
        self.task = asyncio.get_running_loop().create_task(
            self.watch(player, seek_of(self.scope["query_string"]))
        )

    async def watch(self, player: str | None, seek_id: int | None) -> None:
        looks = 0
        while True:
            rejoin = looks % 4 == 0  # the pool place: joined again every 2 s, looked at in between
            go = await database_sync_to_async(waiting_news)(player, seek_id, rejoin)
            if go is not None:
                await self.send(text_data=json.dumps({"go": go}))
                return
            looks += 1
            await asyncio.sleep(WAIT_LOOK)

    async def disconnect(self, code: int) -> None:
        self.uncount()
        if self.task is not None:
            self.task.cancel()

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """The page sends nothing."""
