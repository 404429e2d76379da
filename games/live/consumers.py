"""One WebSocket per open game page, joined to the game's group.

On connect and after every committed move the consumer sends the viewer's current
partials (HTML for the htmx ws extension), so a client that missed a message is
back in sync with the next one.

Programs connect with ``?format=json`` and receive instead, on connect and after every
move (and whenever they send anything)::

    {"type": "state", "ply": 7, "state": {...the API's game state...}}

The ``state`` is exactly what ``GET /api/v1/games/<id>`` returns (see docs/api.md).

Limits: at most ``WS_MAX_PER_CLIENT`` sockets open per client address (in this
process), and a burst of incoming frames costs at most one render per
``WS_RESYNC_INTERVAL`` seconds.

Without a channel layer (Redis unreachable) a socket still opens and gets the current
partials and a notice that live updates are paused (the page polls meanwhile); the
consumer tries to join its group every ``WS_LAYER_RETRY`` seconds and, once in, says
so and sends the current position: pushes resume without a reload. (Daphne allows no
close code the htmx ws extension would retry on, so the socket stays open instead.)
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections import Counter
from typing import Any
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.template.loader import render_to_string

from games.live import push as live
from games.models import Game
from games.services import players, ratelimit
from games.services.moves import Actor
from games.web import downloads, presenters

log = logging.getLogger(__name__)

TOO_MANY_SOCKETS = 4429

# Open sockets per client address, in this process.
open_sockets: Counter[str] = Counter()


def _render(game_id: int, actor: Actor) -> str | None:
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        return None
    return presenters.render_partials(game, actor)


def _render_json(game_id: int, actor: Actor) -> str | None:
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        return None
    return json.dumps({"type": "state", "ply": game.ply, "state": downloads.game_json(game)})


def wants_json(query_string: bytes) -> bool:
    return parse_qs(query_string.decode("latin-1")).get("format") == ["json"]


def live_notice(as_json: bool, paused: bool) -> str:
    if as_json:
        if paused:
            return json.dumps({"type": "paused", "detail": "Live updates are paused; poll meanwhile."})
        return json.dumps({"type": "resumed"})
    return render_to_string("games/game.html#live_notice", {"paused": paused, "oob": True})


class GameConsumer(AsyncWebsocketConsumer):  # type: ignore[misc]  # channels is untyped
    address: str | None = None
    group: str | None = None
    last_render = 0.0
    resync: asyncio.Task[None] | None = None
    rejoin: asyncio.Task[None] | None = None

    async def connect(self) -> None:
        address = ratelimit.scope_address(self.scope)
        if open_sockets[address] >= settings.WS_MAX_PER_CLIENT:
            await self.close(code=TOO_MANY_SOCKETS)
            return
        self.address = address
        open_sockets[address] += 1
        self.game_id = int(self.scope["url_route"]["kwargs"]["game_id"])
        session = self.scope.get("session")
        player = None if session is None else await database_sync_to_async(players.player_id)(session)
        self.actor = Actor(player_id=player)
        as_json = wants_json(self.scope.get("query_string", b""))
        self.as_json = as_json
        self.render = _render_json if as_json else _render
        # Join before rendering: a move committed in between is then pushed to this
        # socket too, instead of falling in the gap and leaving the page behind.
        joined = await self._join()
        html = await database_sync_to_async(self.render)(self.game_id, self.actor)
        if html is None:
            await self._leave()
            await self.close(code=4404)
            return
        await self.accept()
        self.last_render = time.monotonic()
        await self.send(text_data=html)
        if not joined:
            await self.send(text_data=live_notice(as_json, paused=True))
            self.rejoin = asyncio.create_task(self._rejoin())

    async def _join(self) -> bool:
        """Join the game's group; False when the layer (Redis) cannot be reached."""
        try:
            await self.channel_layer.group_add(live.group_name(self.game_id), self.channel_name)
        except Exception:
            log.warning("no channel layer for game %s: live updates paused", self.game_id, exc_info=True)
            return False
        self.group = live.group_name(self.game_id)
        return True

    async def _rejoin(self) -> None:
        while True:
            await asyncio.sleep(settings.WS_LAYER_RETRY)
            if await self._join():
                break
        self.rejoin = None
        await self.send(text_data=live_notice(self.as_json, paused=False))
        await self.game_changed({})

    async def disconnect(self, code: int) -> None:
        if self.address is not None:
            open_sockets[self.address] -= 1
            if open_sockets[self.address] <= 0:
                del open_sockets[self.address]
            self.address = None
        for task in (self.resync, self.rejoin):
            if task is not None:
                task.cancel()
        await self._leave()

    async def _leave(self) -> None:
        if self.group is not None:
            group, self.group = self.group, None
            try:
                await self.channel_layer.group_discard(group, self.channel_name)
            except Exception:  # the layer is down; the group entry expires there by itself
                log.warning("could not leave %s", group, exc_info=True)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """Any message from the page asks for a resync; a burst gets one, a little later."""
        if self.resync is not None:
            return  # one is already on its way
        wait = self.last_render + settings.WS_RESYNC_INTERVAL - time.monotonic()
        if wait <= 0:
            await self.game_changed({})
            return
        self.resync = asyncio.create_task(self._resync(wait))

    async def _resync(self, wait: float) -> None:
        await asyncio.sleep(wait)
        self.resync = None
        await self.game_changed({})

    async def game_changed(self, event: dict[str, Any]) -> None:
        self.last_render = time.monotonic()
        html = await database_sync_to_async(self.render)(self.game_id, self.actor)
        if html is not None:
            await self.send(text_data=html)
