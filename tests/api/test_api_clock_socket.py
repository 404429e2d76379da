"""The JSON socket's state carries the clock; its frames come from a cache, so the times are
given as of a moment (clock_at) and each frame is stamped with the server's time of sending."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from games.services import moves as services
from games.services import timeouts
from games.services.moves import Actor, play_move
from quarto_site.asgi import application
from tests.api.test_api_websocket import HEADERS, receive_state

pytestmark = [pytest.mark.django_db(transaction=True)]

CROSS, NOUGHT = Actor(player_id="s-x"), Actor(player_id="s-o")


def timed_game() -> int:
    game = services.create_game(
        "tictactoe",
        {},
        opponent="human",
        seat="first",
        player_id="s-x",
        clock={"initial": 60, "increment": 2},
    ).game
    services.join_game(game.pk, invite=game.invite_code, player_id="s-o")
    return game.pk


def at(text: str) -> datetime:
    return datetime.fromisoformat(text)


def shown(state: dict[str, Any]) -> list[int]:
    """What docs/api.md tells a client to show."""
    times = list(state["remaining"])
    if state["ticking"]:
        elapsed = at(state["now"]) - at(state["clock_at"])
        times[state["to_move"]] -= round(elapsed.total_seconds() * 1000)
    return times


async def test_frames_carry_the_clock_and_the_time_they_were_sent(fake_clock: Any) -> None:
    game_id = await database_sync_to_async(timed_game)()
    comm = WebsocketCommunicator(application, f"/ws/games/{game_id}/?format=json", headers=HEADERS)
    connected, _ = await comm.connect()
    assert connected
    first = json.loads(await comm.receive_from())["state"]
    assert first["clock"] == {"initial": 60, "increment": 2} and first["remaining"] == [60_000, 60_000]
    assert first["first_move"] is True and at(first["now"]) == fake_clock.now()
    await database_sync_to_async(play_move)(game_id, CROSS, "b2", 0)
    await receive_state(comm, 1)
    fake_clock.advance(3)
    await database_sync_to_async(play_move)(game_id, NOUGHT, "a1", 1)
    pushed = (await receive_state(comm, 2))["state"]
    assert pushed["ticking"] is True and pushed["first_move"] is False
    assert pushed["clock_at"] == pushed["to_move_since"] and at(pushed["now"]) == fake_clock.now()
    # Later, the same cached rendering is served again: a later "now", the same times.
    fake_clock.advance(4.5)
    await comm.send_to(text_data="sync")
    again = (await receive_state(comm, 2))["state"]
    assert again["remaining"] == pushed["remaining"] == [60_000, 60_000]
    assert (at(again["now"]) - at(pushed["now"])).total_seconds() == 4.5
    assert shown(again) == [55_500, 60_000]
    await comm.disconnect()


async def test_a_flag_by_the_sweeper_is_pushed(fake_clock: Any) -> None:
    game_id = await database_sync_to_async(timed_game)()
    comm = WebsocketCommunicator(application, f"/ws/games/{game_id}/?format=json", headers=HEADERS)
    connected, _ = await comm.connect()
    assert connected
    await comm.receive_from()
    await database_sync_to_async(play_move)(game_id, CROSS, "b2", 0)
    await database_sync_to_async(play_move)(game_id, NOUGHT, "a1", 1)
    await receive_state(comm, 2)
    fake_clock.advance(61)
    assert await database_sync_to_async(timeouts.sweep)() == [game_id]
    while True:  # the pushes of the moves may still be coming
        state = json.loads(await comm.receive_from(timeout=5))["state"]
        if state["status"] == "finished":
            break
    assert state["reason"] == "timeout" and state["result"]["timeout"] == 0
    assert state["remaining"] == [0, 60_000] and state["ticking"] is False and state["deadline"] is None
    await comm.disconnect()
