"""One WebSocket per open game page, joined to the game's group.

On connect and after every committed move the consumer sends the viewer's current
partials (HTML for the htmx ws extension), so a client that missed a message is
back in sync with the next one.

Programs connect with ``?format=json`` and receive instead, on connect and after every
move (and whenever they send anything)::

    {"type": "state", "ply": 7, "state": {...the API's game state...}}

The ``state`` is exactly what ``GET /api/v1/games/<id>`` returns (see docs/api.md).
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer

from . import live, players, presenters
from .models import Game
from .services import Actor


def _render(game_id: int, actor: Actor) -> str | None:
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        return None
    return presenters.render_partials(game, actor)


def _render_json(game_id: int, actor: Actor) -> str | None:
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        return None
    return json.dumps({"type": "state", "ply": game.ply, "state": presenters.game_json(game)})


def wants_json(query_string: bytes) -> bool:
    return parse_qs(query_string.decode("latin-1")).get("format") == ["json"]


class GameConsumer(AsyncWebsocketConsumer):  # type: ignore[misc]  # channels is untyped
    async def connect(self) -> None:
        self.game_id = int(self.scope["url_route"]["kwargs"]["game_id"])
        session = self.scope.get("session")
        player = None if session is None else await database_sync_to_async(players.player_id)(session)
        self.actor = Actor(player_id=player)
        self.render = _render_json if wants_json(self.scope.get("query_string", b"")) else _render
        html = await database_sync_to_async(self.render)(self.game_id, self.actor)
        if html is None:
            await self.close(code=4404)
            return
        self.group = live.group_name(self.game_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self.send(text_data=html)

    async def disconnect(self, code: int) -> None:
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        # Any message from the page asks for a resync.
        await self.game_changed({})

    async def game_changed(self, event: dict[str, Any]) -> None:
        html = await database_sync_to_async(self.render)(self.game_id, self.actor)
        if html is not None:
            await self.send(text_data=html)
