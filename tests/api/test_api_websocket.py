"""The game's WebSocket in JSON: the API's state on connect and after every move."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from games.services import actions, chat
from games.services import moves as services
from games.services.moves import Actor, play_move
from quarto_site.asgi import application

pytestmark = [pytest.mark.django_db(transaction=True)]

HEADERS = [(b"origin", b"http://localhost")]


def new_game() -> int:
    return services.create_game(
        "quarto", {}, opponent="ai", level="casual", seat="first", player_id="s-ws"
    ).game.pk


async def receive_state(comm: WebsocketCommunicator, ply: int, timeout: float = 5) -> dict[str, Any]:
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        left = deadline - asyncio.get_running_loop().time()
        message = json.loads(await comm.receive_from(timeout=max(left, 0.01)))
        if message["ply"] >= ply:
            return dict(message)


async def test_json_clients_get_the_api_state_on_connect_and_after_moves() -> None:
    game_id = await database_sync_to_async(new_game)()
    comm = WebsocketCommunicator(application, f"/ws/games/{game_id}/?format=json", headers=HEADERS)
    connected, _ = await comm.connect()
    assert connected
    first = json.loads(await comm.receive_from(timeout=5))
    assert set(first) == {"type", "ply", "state"}
    assert first["type"] == "state" and first["ply"] == 0
    assert first["state"]["id"] == game_id and first["state"]["legal_moves"][0] == "0"
    await database_sync_to_async(play_move)(game_id, Actor(player_id="s-ws"), "15", 0)
    after = await receive_state(comm, 1)
    assert after["state"]["moves"][:1] == ["15"] and after["state"]["ply"] == after["ply"]
    # The computer's reply (place 15, give a piece) is pushed too.
    last = await receive_state(comm, 3)
    assert last["state"]["to_move"] == 0 and last["state"]["phase"] == "place"
    # Anything the client sends asks for a resync (at most one per WS_RESYNC_INTERVAL).
    await comm.send_to(text_data="sync")
    again = json.loads(await comm.receive_from(timeout=3))
    assert again["ply"] == 3
    await comm.disconnect()


async def test_html_clients_are_unchanged() -> None:
    game_id = await database_sync_to_async(new_game)()
    comm = WebsocketCommunicator(application, f"/ws/games/{game_id}/?format=html", headers=HEADERS)
    connected, _ = await comm.connect()
    assert connected
    assert (await comm.receive_from()).lstrip().startswith("<")
    await comm.disconnect()


async def test_json_client_of_an_unknown_game_is_refused() -> None:
    comm = WebsocketCommunicator(application, "/ws/games/4242/?format=json", headers=HEADERS)
    connected, _ = await comm.connect()
    assert not connected


def two_people() -> int:
    game = services.create_game("quarto", {}, opponent="human", seat="first", player_id="s-a").game
    services.join_game(game.pk, invite=game.invite_code, player_id="s-b")
    return game.pk


async def message_of(comm: WebsocketCommunicator, kind: str, timeout: float = 5) -> dict[str, Any]:
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        left = deadline - asyncio.get_running_loop().time()
        message = json.loads(await comm.receive_from(timeout=max(left, 0.01)))
        if message["type"] == kind:
            return dict(message)


async def test_json_clients_get_chat_lines_and_offers_as_their_own_messages() -> None:
    game_id = await database_sync_to_async(two_people)()
    comm = WebsocketCommunicator(application, f"/ws/games/{game_id}/?format=json", headers=HEADERS)
    connected, _ = await comm.connect()
    assert connected
    await message_of(comm, "state")
    await database_sync_to_async(chat.say)(game_id, Actor(player_id="s-a"), "hello <b>")
    said = await message_of(comm, "chat")
    assert said["line"]["text"] == "hello <b>" and said["line"]["seat"] == 0 and said["ply"] == 0
    await database_sync_to_async(actions.draw)(game_id, Actor(player_id="s-b"), True, 0)
    offer = await message_of(comm, "offer")
    assert offer == {"type": "offer", "ply": 0, "offers": {"draw": [1]}}
    await database_sync_to_async(actions.draw)(game_id, Actor(player_id="s-a"), False, 0)
    assert (await message_of(comm, "offer"))["offers"] == {}
    declined = await message_of(comm, "chat")  # the site's line saying who declined
    assert (
        declined["line"]["seat"] is None and declined["line"]["text"] == "Player 1 declined the draw offer."
    )
    await comm.disconnect()
