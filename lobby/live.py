"""The lobby over the WebSocket: one audience. A change is rendered once (a moment later,
so a burst of changes is one rendering), stored in the live cache for sockets that connect
next, and sent to the group every lobby socket of every process has joined."""

from __future__ import annotations

import asyncio
import logging
import threading
from typing import Any

from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import close_old_connections

from games.presenting import audiences
from lobby import pool, presenting, services

log = logging.getLogger(__name__)

GROUP = "lobby"
NOW_KEY = "lobby:now"
# Changes within this many seconds are pushed as one rendering.
PUSH_DELAY = 0.2

_lock = threading.Lock()
_scheduled = False


def rendering() -> str:
    """The latest rendering of the live part (rendered and stored on a miss)."""
    cache = audiences.live_cache()
    html: str | None = cache.get(NOW_KEY)
    if html is None:
        html = presenting.render_live()
        cache.set(NOW_KEY, html, 3600)
    return html


def push_now() -> None:
    """Render the live part once and send it to every lobby page."""
    global _scheduled
    with _lock:
        _scheduled = False
    try:
        html = presenting.render_live()
        audiences.live_cache().set(NOW_KEY, html, 3600)
        layer = get_channel_layer()
        if layer is not None:
            async_to_sync(layer.group_send)(GROUP, {"type": "lobby.frame", "html": html})
    except Exception:  # a failed push leaves the pages to the next one
        log.exception("could not push the lobby")
    finally:
        close_old_connections()


def on_change() -> None:
    """lobby.changes' listener: schedule one push for this burst of changes."""
    global _scheduled
    with _lock:
        if _scheduled:
            return
        _scheduled = True
    timer = threading.Timer(PUSH_DELAY, push_now)
    timer.daemon = True
    timer.start()


def sweep_all() -> None:
    """Cancel the seeks and drop the pool entries nobody keeps alive (their pushes follow)."""
    try:
        services.sweep()
        pool.sweep()
    finally:
        close_old_connections()


_sweeper: asyncio.Task[None] | None = None


async def sweeping() -> None:
    while True:
        await asyncio.sleep(max(1.0, settings.SEEK_ALIVE / 3))
        try:
            await database_sync_to_async(sweep_all)()
        except Exception:
            log.exception("lobby sweep failed")


class LobbyConsumer(AsyncWebsocketConsumer):  # type: ignore[misc]  # channels is untyped
    """A lobby page's socket: receives the live part whenever it changes; sends nothing."""

    async def connect(self) -> None:
        global _sweeper
        await self.channel_layer.group_add(GROUP, self.channel_name)
        await self.accept()
        if _sweeper is None or _sweeper.done():  # one sweeper per process, while pages are open
            _sweeper = asyncio.get_running_loop().create_task(sweeping())
        await self.send(text_data=await database_sync_to_async(rendering)())

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(GROUP, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """Frames from the page are ignored (htmx's ws extension may send none)."""

    async def lobby_frame(self, event: dict[str, Any]) -> None:
        await self.send(text_data=event["html"])
