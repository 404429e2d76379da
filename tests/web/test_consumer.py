"""The game's WebSocket: current partials on connect, the computer's move pushed after ours."""

from __future__ import annotations

import asyncio

import pytest
from channels import consumer as channels_consumer
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from games.services.moves import Actor, play_move
from quarto_site.asgi import application

from .helpers import human_first_vs_ai

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.backends]

HEADERS = [(b"origin", b"http://localhost")]


async def receive_until(comm: WebsocketCommunicator, needle: str, timeout: float = 5) -> str:
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        left = deadline - asyncio.get_running_loop().time()
        html: str = await comm.receive_from(timeout=max(left, 0.01))
        if needle in html:
            return html


async def test_connect_sends_current_partials() -> None:
    game = await database_sync_to_async(human_first_vs_ai)()
    comm = WebsocketCommunicator(application, f"/ws/games/{game.pk}/", headers=HEADERS)
    connected, _ = await comm.connect()
    assert connected
    html = await comm.receive_from()
    assert '<div id="board" hx-swap-oob="innerHTML">' in html and 'data-ply="0"' in html
    await comm.disconnect()


async def test_unknown_game_is_refused() -> None:
    comm = WebsocketCommunicator(application, "/ws/games/4242/", headers=HEADERS)
    connected, _ = await comm.connect()
    assert not connected


async def test_foreign_origin_is_refused() -> None:
    game = await database_sync_to_async(human_first_vs_ai)()
    comm = WebsocketCommunicator(
        application, f"/ws/games/{game.pk}/", headers=[(b"origin", b"http://evil.example")]
    )
    connected, _ = await comm.connect()
    assert not connected


async def test_computer_move_is_pushed_after_a_human_move() -> None:
    game = await database_sync_to_async(human_first_vs_ai)()
    comm = WebsocketCommunicator(application, f"/ws/games/{game.pk}/", headers=HEADERS)
    await comm.connect()
    await comm.receive_from()
    # The human gives piece 15 the way a view would: through the service, in a thread.
    await database_sync_to_async(play_move)(game.pk, Actor(player_id="s-human"), "15", 0)
    first = await receive_until(comm, 'data-ply="1"')
    assert "The computer is thinking" in first
    # The runner (bound to this loop by the ASGI app) places 15 and gives a piece back.
    last = await receive_until(comm, 'data-ply="3"')
    assert 'data-piece="15"' in last
    assert "The computer is thinking" not in last
    await comm.disconnect()


async def test_a_socket_s_messages_take_no_hop_to_the_synchronous_thread(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Channels closes old database connections on the one synchronous thread before
    every message a consumer handles; the game's socket uses no database on its loop, so
    its connect and the pushes it forwards skip that hop (a crowd's push queued behind it)."""
    hops: list[str] = []

    async def counted() -> None:
        hops.append("close_old_connections")

    monkeypatch.setattr(channels_consumer, "aclose_old_connections", counted)
    game = await database_sync_to_async(human_first_vs_ai)()
    comm = WebsocketCommunicator(application, f"/ws/games/{game.pk}/", headers=HEADERS)
    connected, _ = await comm.connect()
    assert connected
    await comm.receive_from()
    await database_sync_to_async(play_move)(game.pk, Actor(player_id="s-human"), "15", 0)
    await receive_until(comm, 'data-ply="1"')
    await comm.disconnect()
    assert hops == []
