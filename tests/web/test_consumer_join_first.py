"""A move committed while a socket is connecting reaches it: the consumer joins the
game's group before it renders the position it sends first."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from games.live import consumers
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
    render = consumers._render_json if as_json else consumers._render
    moved: list[int] = []

    def render_then_a_move_commits(game_id: int, actor: Any) -> str | None:
        page = render(game_id, actor)
        if not moved:  # the first render only: the opponent's move lands right after it
            moved.append(game_id)
            play_move(game_id, ONE, "15", 0)
        return page

    monkeypatch.setattr(consumers, "_render_json" if as_json else "_render", render_then_a_move_commits)
    path = f"/ws/games/{game.pk}/" + ("?format=json" if as_json else "")
    comm = WebsocketCommunicator(application, path, headers=HEADERS)
    connected, _ = await comm.connect()
    assert connected
    first = await comm.receive_from()
    assert ('"ply": 0' if as_json else 'data-ply="0"') in first
    # Before, the socket joined its group after that render: the push of ply 1 was lost
    # and the page stayed on ply 0 until something else happened.
    frames = await frames_until(comm, '"ply": 1' if as_json else 'data-ply="1"', timeout=3)
    assert frames
    await comm.disconnect()


async def test_an_unknown_game_leaves_no_group_behind(monkeypatch: pytest.MonkeyPatch) -> None:
    left: list[str] = []
    original = consumers.GameConsumer._leave

    async def leave(self: consumers.GameConsumer) -> None:
        left.append(str(self.group))
        await original(self)

    monkeypatch.setattr(consumers.GameConsumer, "_leave", leave)
    comm = WebsocketCommunicator(application, "/ws/games/4242/", headers=HEADERS)
    connected, _ = await comm.connect()
    assert not connected
    assert left == ["game-4242"]
