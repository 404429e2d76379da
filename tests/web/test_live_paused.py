"""Without a channel layer (Redis down) a page still connects, says so, and polls."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.layers import InMemoryChannelLayer, channel_layers
from channels.testing import WebsocketCommunicator
from django.test import Client

from games.models import Game
from games.presenting import audiences, presence
from games.services.moves import Actor, play_move
from quarto_site.asgi import application

from .helpers import human_first_vs_ai

pytestmark = pytest.mark.django_db(transaction=True)

HTMX = {"HX-Request": "true"}
ORIGIN = [(b"origin", b"http://localhost")]
STATIC = Path(__file__).resolve().parents[2] / "static"


class DownLayer(InMemoryChannelLayer):  # type: ignore[misc]  # channels is untyped
    """A layer whose server is unreachable, as channels_redis is with Redis down, until ``up``."""

    up = False

    async def group_add(self, group: str, channel: str) -> None:
        if not self.up:
            raise ConnectionRefusedError("Connect call failed ('127.0.0.1', 6379)")
        await super().group_add(group, channel)

    async def group_discard(self, group: str, channel: str) -> None:
        if not self.up:
            raise ConnectionRefusedError("Connect call failed ('127.0.0.1', 6379)")
        await super().group_discard(group, channel)


@pytest.fixture
def layer_down(monkeypatch: pytest.MonkeyPatch) -> DownLayer:
    layer = DownLayer()
    monkeypatch.setitem(channel_layers.backends, "default", layer)
    return layer


@pytest.mark.parametrize("as_json", [False, True])
async def test_socket_without_a_layer_says_paused_and_resumes_when_it_returns(
    layer_down: DownLayer, as_json: bool, settings: Any
) -> None:
    settings.WS_LAYER_RETRY = 0.1
    game = await database_sync_to_async(human_first_vs_ai)()
    query = "?format=json" if as_json else ""
    comm = WebsocketCommunicator(application, f"/ws/games/{game.pk}/{query}", headers=ORIGIN)
    connected, _ = await comm.connect()
    assert connected, "the handshake succeeds (it was a 500)"
    current = await comm.receive_from()
    notice = await comm.receive_from()
    if as_json:
        assert json.loads(current)["type"] == "state" and json.loads(notice)["type"] == "paused"
    else:
        assert '<div id="board" hx-swap-oob="innerHTML">' in current
        assert re.search(r'<p id="live-status"[^>]*hx-swap-oob="true">Live updates are paused', notice)
    assert await comm.receive_nothing(timeout=0.3), "still down: nothing more, the socket stays open"
    layer_down.up = True
    resumed = await comm.receive_from(timeout=2)
    fresh = await comm.receive_from(timeout=2)
    if as_json:
        assert json.loads(resumed)["type"] == "resumed" and json.loads(fresh)["type"] == "state"
    else:
        assert re.search(r'<p id="live-status"[^>]* hidden>', resumed)
        assert 'id="board"' in fresh
    # Back in the group: a move is pushed again.
    await database_sync_to_async(play_move)(game.pk, Actor(player_id="s-human"), "15", 0)
    pushed = await comm.receive_from(timeout=5)
    while 'id="presence"' in pushed:  # a presence line may come first, at any time
        pushed = await comm.receive_from(timeout=5)
    assert ('"ply": 1' in pushed) if as_json else ('data-ply="1"' in pushed)
    await comm.disconnect()


def test_game_page_polls_the_partials_only_through_a_static_script(client: Client) -> None:
    game = human_first_vs_ai()
    html = client.get(game.get_absolute_url()).content.decode()
    poll = re.search(r'<div id="live-poll"[^>]*>', html)
    assert poll, html
    assert f'hx-get="/games/{game.pk}/partials"' in poll.group(0) and 'hx-trigger="every 3s"' in poll.group(0)
    assert re.search(r'<p id="live-status"[^>]* hidden>', html)
    assert re.search(r'<script src="/static/js/live(\.[0-9a-f]{12})?\.js" defer></script>', html)
    # No inline script or handler: the page works under a strict CSP.
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html) and "hx-on" not in html
    script = (STATIC / "js" / "live.js").read_text()
    for event in ("htmx:wsOpen", "htmx:wsClose", "htmx:beforeRequest", "live-poll", "wsReconnectDelay"):
        assert event in script
    # The polled URL answers the current board, pieces and status as out-of-band swaps.
    partials = client.get(f"/games/{game.pk}/partials").content.decode()
    assert 'id="board" hx-swap-oob' in partials and 'id="status" hx-swap-oob' in partials


def test_a_failed_broadcast_leaves_the_move_standing(
    client: Client, layer_down: None, monkeypatch: pytest.MonkeyPatch, settings: Any
) -> None:
    refused: list[str] = []

    async def refuse(self: DownLayer, group: str, message: Any) -> None:
        refused.append(group)
        raise ConnectionRefusedError("down")

    monkeypatch.setattr(DownLayer, "group_send", refuse)
    client.post("/games/new", {"kind": "tictactoe", "opponent": "ai", "seat": "first"})
    game = Game.objects.get()
    presence.arrive(game.pk, [audiences.WATCH])  # a spectator's page is open: there is a push to send
    response = client.post(f"/games/{game.pk}/move", {"move": "a1", "ply": "0"}, headers=HTMX)
    assert response.status_code == 200
    game.refresh_from_db()
    assert game.ply == 2, "the move and the computer's reply were played"
    assert f"game-{game.pk}-watch" in refused, "the push was tried"
