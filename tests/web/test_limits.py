"""Limits per client on the pages and sockets: games created, moves, hints, sockets, resyncs."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from games.live import rounds
from games.models import Game
from games.presenting import audiences
from games.services import ratelimit
from quarto_site.asgi import application

from .helpers import human_first_vs_ai

pytestmark = pytest.mark.django_db(transaction=True)

HTMX = {"HX-Request": "true"}
ORIGIN = [(b"origin", b"http://localhost")]
NEW = {"kind": "tictactoe", "opponent": "ai", "seat": "first", "allow_hints": "on"}


@pytest.fixture(autouse=True)
def _no_open_sockets() -> Iterator[None]:
    ratelimit.forget_open_sockets()
    yield
    ratelimit.forget_open_sockets()


def test_creating_games_too_fast_is_refused_with_a_message(client: Client, settings: Any) -> None:
    settings.RATE_LIMIT_CREATE = "2/minute"
    for _ in range(2):
        client.post("/games/new", NEW)
    response = client.post("/games/new", NEW, follow=True)
    assert Game.objects.count() == 2
    assert "You are starting games too fast: try again in" in response.content.decode()
    htmx = client.post("/games/new", NEW, headers=HTMX)
    assert htmx["HX-Redirect"] == "/" and Game.objects.count() == 2
    # "Play again" counts as creating a game too.
    game = Game.objects.first()
    assert game is not None
    client.post(f"/games/{game.pk}/again", headers=HTMX)
    assert Game.objects.count() == 2
    # Another address is not affected.
    Client(REMOTE_ADDR="10.3.3.3").post("/games/new", NEW)
    assert Game.objects.count() == 3


def test_a_rematch_counts_as_a_game_created(client: Client, settings: Any, no_ai_reply: None) -> None:
    settings.RATE_LIMIT_CREATE = "2/minute"
    client.post("/games/new", NEW)
    game = Game.objects.get()
    for _ in range(3):  # resign, rematch, resign, rematch ...
        client.post(f"/games/{game.pk}/resign", {"ply": str(game.ply)})
        client.post(f"/games/{game.pk}/rematch", {"ply": str(game.ply), "answer": "yes"})
        game.refresh_from_db()
        if game.rematch is not None:
            game = game.rematch
    assert Game.objects.count() == 2  # the first game and one rematch
    response = client.post(f"/games/{game.pk}/rematch", {"ply": str(game.ply), "answer": "yes"}, follow=True)
    assert "You are starting games too fast: try again in" in response.content.decode()
    game.refresh_from_db()
    assert game.rematch is None and Game.objects.count() == 2
    htmx = client.post(f"/games/{game.pk}/rematch", {"ply": str(game.ply), "answer": "yes"}, headers=HTMX)
    assert "You are starting games too fast" in htmx.content.decode()
    # Declining a rematch creates nothing and is not counted.
    declined = client.post(f"/games/{game.pk}/rematch", {"ply": str(game.ply), "answer": "no"}, follow=True)
    assert "too fast" not in declined.content.decode()


def test_moving_too_fast_is_said_in_the_status_line(client: Client, settings: Any, no_ai_reply: None) -> None:
    settings.RATE_LIMIT_MOVE = "1/minute"
    client.post("/games/new", {**NEW, "kind": "quarto"})
    game = Game.objects.get()
    client.post(f"/games/{game.pk}/move", {"move": "3", "ply": "0"}, headers=HTMX)
    game.refresh_from_db()
    assert game.ply == 1
    html = client.post(f"/games/{game.pk}/move", {"move": "a1", "ply": "1"}, headers=HTMX).content.decode()
    assert "You are moving too fast: try again in" in html and 'class="status__error"' in html
    game.refresh_from_db()
    assert game.ply == 1
    # Without JavaScript: the message after the redirect.
    page = client.post(f"/games/{game.pk}/move", {"move": "a1", "ply": "1"}, follow=True).content.decode()
    assert "You are moving too fast" in page


def test_hints_too_often_are_refused(client: Client, settings: Any) -> None:
    settings.RATE_LIMIT_HINT = "1/minute"
    client.post("/games/new", NEW)
    game = Game.objects.get()
    assert "hint--" in client.get(f"/games/{game.pk}/hint", headers=HTMX).content.decode()
    html = client.get(f"/games/{game.pk}/hint", headers=HTMX).content.decode()
    assert "You asked for many hints: try again in" in html and "hint--" not in html


async def test_sockets_per_client_are_capped(settings: Any) -> None:
    settings.WS_MAX_PER_CLIENT = 2
    game = await database_sync_to_async(human_first_vs_ai)()
    path = f"/ws/games/{game.pk}/"
    open_ones = []
    for _ in range(2):
        comm = WebsocketCommunicator(application, path, headers=ORIGIN)
        assert (await comm.connect())[0]
        open_ones.append(comm)
    # Accepted, then closed with 4429 (a handshake refused would be Daphne's HTTP 403).
    refused = WebsocketCommunicator(application, path, headers=ORIGIN)
    connected, _ = await refused.connect()
    assert connected
    assert await refused.receive_output() == {"type": "websocket.close", "code": ratelimit.TOO_MANY_SOCKETS}
    await refused.disconnect()
    # Closing one frees its place.
    await open_ones.pop().disconnect()
    again = WebsocketCommunicator(application, path, headers=ORIGIN)
    assert (await again.connect())[0]
    for comm in [*open_ones, again]:
        await comm.disconnect()


async def test_a_burst_of_frames_costs_one_resync_and_no_render(
    settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.WS_RESYNC_INTERVAL = 0.3
    game = await database_sync_to_async(human_first_vs_ai)()
    renders: list[str] = []
    resyncs: list[int] = []
    real_render, real_current = audiences.render, rounds.current

    def counted_render(game: Any, seats: Any, audience: str) -> str:
        renders.append(audience)
        return real_render(game, seats, audience)

    async def counted_current(game_id: int, audience: str) -> str | None:
        resyncs.append(game_id)
        return await real_current(game_id, audience)

    monkeypatch.setattr(audiences, "render", counted_render)
    monkeypatch.setattr(rounds, "current", counted_current)
    comm = WebsocketCommunicator(application, f"/ws/games/{game.pk}/", headers=ORIGIN)
    assert (await comm.connect())[0]
    await comm.receive_from()
    for _ in range(200):
        await comm.send_to(text_data="x")
    await asyncio.sleep(0.6)
    sent = 0
    while not await comm.receive_nothing(timeout=0.05):
        sent += 'id="board"' in await comm.receive_from()
    assert len(resyncs) == 2 and sent == 1, (resyncs, sent)  # connect + one coalesced resync
    assert renders == ["watch"], "rendered once on connect; the resync came from the cache"
    await comm.disconnect()


def test_a_rate_counts_each_request_once_per_window_and_a_new_window_starts_afresh() -> None:
    rate = ratelimit.Rate(limit=3, seconds=60)
    start = 6000.0  # the start of a window
    assert [ratelimit.hit("a", rate, start + i) for i in range(3)] == [0, 0, 0]
    assert ratelimit.hit("a", rate, start + 10) == 50  # the fourth: wait for the next window
    assert ratelimit.hit("a", rate, start + 59.5) == 1
    assert ratelimit.hit("b", rate, start + 10) == 0  # another client has its own count
    assert ratelimit.hit("a", rate, start + 60) == 0
