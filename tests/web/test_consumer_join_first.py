"""A move committed while a socket is connecting reaches it: the consumer joins the
game's group before it renders the position it sends first."""

from __future__ import annotations

import asyncio

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from games.live import consumers, rounds
from games.services.moves import play_move
from quarto_site.asgi import application

from .helpers import ONE, two_humans

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.backends]

HEADERS = [(b"origin", b"http://localhost")]


async def frames_until(comm: WebsocketCommunicator, needle: str, timeout: float = 5) -> list[str]:
    frames: list[str] = []
    deadline = asyncio.get_running_loop().time() + timeout
    while not any(needle in frame for frame in frames):
        left = deadline - asyncio.get_running_loop().time()
        frames.append(await comm.receive_from(timeout=max(left, 0.01)))
    return frames


@pytest.mark.parametrize("as_json", [False, True])
async def test_a_move_committed_while_the_socket_connects_is_pushed_to_it(
    monkeypatch: pytest.MonkeyPatch, as_json: bool
) -> None:
    game = await database_sync_to_async(two_humans)()
    current = rounds.current
    moved: list[int] = []

    async def current_then_a_move_commits(game_id: int, audience: str) -> str | None:
        page = await current(game_id, audience)
        if not moved:  # the first read only: the opponent's move lands right after it
            moved.append(game_id)
            await database_sync_to_async(play_move)(game_id, ONE, "15", 0)
        return page

    monkeypatch.setattr(rounds, "current", current_then_a_move_commits)
    path = f"/ws/games/{game.pk}/" + ("?format=json" if as_json else "")
    comm = WebsocketCommunicator(application, path, headers=HEADERS)
    connected, _ = await comm.connect()
    assert connected
    first = await comm.receive_from()
    assert ('"ply": 0' if as_json else 'data-ply="0"') in first
    # Had the socket joined its groups after reading the position, the push of ply 1
    # would be lost and the page would stay on ply 0 until something else happened.
    frames = await frames_until(comm, '"ply": 1' if as_json else 'data-ply="1"', timeout=3)
    assert frames
    await comm.disconnect()


async def test_an_unknown_game_is_refused_before_joining_any_group(monkeypatch: pytest.MonkeyPatch) -> None:
    joined: list[int] = []
    original = consumers.GameConsumer._join

    async def join(self: consumers.GameConsumer) -> bool:
        joined.append(self.game_id)
        return await original(self)

    monkeypatch.setattr(consumers.GameConsumer, "_join", join)
    comm = WebsocketCommunicator(application, "/ws/games/4242/", headers=HEADERS)
    connected, _ = await comm.connect()
    assert not connected
    assert joined == []
