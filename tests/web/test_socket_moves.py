"""Moves sent on the game's socket: applied once through the move path, pushed to every
socket of the game; refusals go to the sender alone and change nothing."""

from __future__ import annotations

import json
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from games.models import Game
from games.services import actions
from games.services import moves as services

from .test_audiences import session_for, socket
from .test_consumer import receive_until

pytestmark = [pytest.mark.django_db(transaction=True)]


def tictactoe_between(one: str, two: str) -> Game:
    game = services.create_game("tictactoe", {}, opponent="human", seat="first", player_id=one).game
    services.join_game(game.pk, invite=game.invite_code, player_id=two)
    return Game.objects.get(pk=game.pk)


async def opened(comm: WebsocketCommunicator) -> WebsocketCommunicator:
    connected, _ = await comm.connect(timeout=5)
    assert connected
    await comm.receive_from(timeout=5)  # the current position
    return comm


async def frames_within(comm: WebsocketCommunicator, seconds: float) -> list[str]:
    frames: list[str] = []
    while not await comm.receive_nothing(timeout=seconds):
        frames.append(await comm.receive_from())
    return frames


async def json_socket(game_id: int, session_key: str) -> WebsocketCommunicator:
    """A program's JSON socket with the browser session ``session_key``, opened."""
    return await opened(
        WebsocketCommunicator(
            socket(game_id).application,
            f"/ws/games/{game_id}/?format=json",
            headers=[(b"origin", b"http://localhost"), (b"cookie", f"sessionid={session_key}".encode())],
        )
    )


async def send(comm: WebsocketCommunicator, **frame: Any) -> None:
    await comm.send_to(text_data=json.dumps(frame))


async def ply_of(game: Game) -> int:
    fresh: Game = await database_sync_to_async(Game.objects.get)(pk=game.pk)
    return fresh.ply


async def test_a_move_on_the_socket_is_played_once_and_pushed_to_everyone() -> None:
    game = await database_sync_to_async(tictactoe_between)("p-one", "p-two")
    one = await opened(socket(game.pk, await database_sync_to_async(session_for)("p-one")))
    two = await opened(socket(game.pk, await database_sync_to_async(session_for)("p-two")))
    watcher = await opened(socket(game.pk))
    await send(one, move="b2", ply=0, revision=game.revision)
    for comm in (one, two, watcher):  # the answer is the push, to every socket
        await receive_until(comm, 'data-ply="1"')
    assert await ply_of(game) == 1
    # Another move for the same ply (a page that missed the push) is stale: applied once.
    await send(one, move="c3", ply=0, revision=game.revision)
    refusal = await receive_until(one, "has moved on")
    assert 'id="status"' in refusal
    assert await ply_of(game) == 1
    # The same frame again (the page's click, also resent over HTTP and played that way
    # first) is not applied again, nor refused: the page's own move is no stale news.
    await send(one, move="b2", ply=0, revision=game.revision)
    assert not [f for f in await frames_within(one, 0.3) if 'id="status"' in f]
    assert await ply_of(game) == 1
    for comm in (one, two, watcher):
        await comm.disconnect()


async def test_a_program_sending_the_same_frame_twice_is_told_it_is_stale() -> None:
    game = await database_sync_to_async(tictactoe_between)("p-one", "p-two")
    key = await database_sync_to_async(session_for)("p-one")
    program = await json_socket(game.pk, key)
    for _ in range(2):
        await send(program, move="b2", ply=0)
    error = json.loads(await receive_until(program, '"error"'))
    assert error["code"] == "stale"
    assert await ply_of(game) == 1
    await program.disconnect()


async def test_a_late_move_for_a_position_taken_back_is_stale_on_the_socket() -> None:
    game = await database_sync_to_async(tictactoe_between)("p-one", "p-two")
    one, two = services.Actor(player_id="p-one"), services.Actor(player_id="p-two")
    for ply, (actor, move) in enumerate([(one, "a1"), (two, "b2"), (one, "c3")]):
        await database_sync_to_async(services.play_move)(game.pk, actor, move, ply)
    old = await database_sync_to_async(Game.objects.get)(pk=game.pk)
    # The other seat is to move at ply 3; the first asks to take c3 back, it is accepted,
    # and a2 is played instead: the ply is 3 again, the position is not.
    await database_sync_to_async(actions.takeback)(game.pk, one, True, 3)
    await database_sync_to_async(actions.takeback)(game.pk, two, True, 3)
    await database_sync_to_async(services.play_move)(game.pk, one, "a2", 2)
    comm = await opened(socket(game.pk, await database_sync_to_async(session_for)("p-two")))
    comm_json = await opened(
        WebsocketCommunicator(
            comm.application, f"/ws/games/{game.pk}/?format=json", headers=comm.scope["headers"]
        )
    )
    await send(comm_json, move="a3", ply=3, revision=old.revision)
    error = json.loads(await receive_until(comm_json, '"error"'))
    assert error == {"type": "error", "code": "stale", "message": error["message"]}
    assert "revision" in error["message"]
    assert await ply_of(game) == 3
    await comm.disconnect()
    await comm_json.disconnect()


@pytest.mark.parametrize(
    "frame, code",
    [
        ({"move": "a1", "ply": 0}, "not_your_seat"),  # a spectator
        ({"move": 7, "ply": 0}, "bad_frame"),
        ({"move": "a1"}, "bad_frame"),
        ({"move": "a1", "ply": "0"}, "bad_frame"),
        ({"move": "a1", "ply": 0, "revision": -1}, "bad_frame"),
    ],
)
async def test_a_refused_socket_move_is_said_to_its_sender_only(frame: dict[str, Any], code: str) -> None:
    game = await database_sync_to_async(tictactoe_between)("p-one", "p-two")
    seat = await opened(socket(game.pk, await database_sync_to_async(session_for)("p-one")))
    spectator = await opened(
        WebsocketCommunicator(
            seat.application, f"/ws/games/{game.pk}/?format=json", headers=[(b"origin", b"http://localhost")]
        )
    )
    sender = spectator
    if code == "bad_frame":
        sender = await opened(
            WebsocketCommunicator(
                seat.application, f"/ws/games/{game.pk}/?format=json", headers=seat.scope["headers"]
            )
        )
    await send(sender, **frame)
    error = json.loads(await receive_until(sender, '"error"'))
    assert error["code"] == code and error["message"]
    assert await ply_of(game) == 0
    # Nothing about it reached the other sockets (a presence line may: the sender connected).
    assert not [f for f in await frames_within(seat, 0.3) if 'id="board"' in f or "error" in f]
    for comm in {seat, spectator, sender}:
        await comm.disconnect()


async def test_moves_on_the_socket_count_against_the_move_limit(settings: Any) -> None:
    settings.RATE_LIMIT_MOVE = "1/minute"
    game = await database_sync_to_async(tictactoe_between)("p-one", "p-two")
    key_one = await database_sync_to_async(session_for)("p-one")
    one = await json_socket(game.pk, key_one)
    await send(one, move="a1", ply=0)
    await receive_until(one, '"ply": 1')
    await send(one, move="b1", ply=1)  # not its turn, but the limit speaks first
    error = json.loads(await receive_until(one, '"error"'))
    assert error["code"] == "rate_limited" and "try again in" in error["message"]
    assert await ply_of(game) == 1
    await one.disconnect()


async def test_any_other_frame_still_asks_for_a_resync() -> None:
    game = await database_sync_to_async(tictactoe_between)("p-one", "p-two")
    comm = await opened(socket(game.pk))
    await comm.send_to(text_data="resync please")
    assert 'data-ply="0"' in await receive_until(comm, 'id="board"')
    await comm.disconnect()
