"""A change to a game nobody watches renders nothing and schedules nothing: the round is
for games with a socket open somewhere (most of a bot's API games have none)."""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from games.live import rounds
from games.presenting import audiences, presence
from games.services.moves import play_move
from quarto_site.asgi import application

from .helpers import ONE, TWO, two_humans


@pytest.mark.django_db(transaction=True)
def test_a_move_in_a_game_nobody_watches_schedules_no_round(monkeypatch: pytest.MonkeyPatch) -> None:
    game = two_humans()
    scheduled: list[Any] = []
    rendered: list[Any] = []
    real_round = rounds._render_round

    def on_loop(callback: Any, *args: Any) -> bool:
        scheduled.append(args)
        return True

    def render_round(*args: Any) -> Any:
        rendered.append(args)
        return real_round(*args)

    monkeypatch.setattr(rounds, "on_server_loop", on_loop)
    monkeypatch.setattr(rounds, "_render_round", render_round)
    audiences.live_cache().set(audiences.now_key(game.pk), "old", 60)

    play_move(game.pk, ONE, "8", 0)  # a piece given
    assert scheduled == [] and rendered == []
    assert audiences.live_cache().get(audiences.now_key(game.pk)) is None, "the next socket renders afresh"

    presence.arrive(game.pk, [audiences.WATCH])  # a spectator's socket opens
    play_move(game.pk, TWO, "a1", 1)
    assert scheduled == [(game.pk, False)]


@pytest.mark.django_db(transaction=True)
async def test_a_watched_move_reads_the_socket_count_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The move's request finds the game watched and schedules the round; the round does
    not ask again (on Redis that was a second round trip for every move)."""
    game = await database_sync_to_async(two_humans)()
    comm = WebsocketCommunicator(
        application, f"/ws/games/{game.pk}/", headers=[(b"origin", b"http://localhost")]
    )
    connected, _ = await comm.connect()
    assert connected
    await comm.receive_from()
    reads: list[int] = []
    real_counts = presence.counts

    def counts(game_id: int, audiences_: Any) -> dict[str, int]:
        if list(audiences_) == [audiences.ANY]:
            reads.append(game_id)
        return real_counts(game_id, audiences_)

    monkeypatch.setattr(presence, "counts", counts)
    await database_sync_to_async(play_move)(game.pk, ONE, "8", 0)
    while 'data-ply="1"' not in await comm.receive_from(timeout=5):
        pass
    await comm.disconnect()
    assert reads == [game.pk]
