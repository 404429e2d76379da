"""The lobby's socket: the current list on connect, and each change pushed to every page."""

from __future__ import annotations

import json
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client
from django.utils import translation

from games.models import Game
from games.services import moves as services
from lobby import presenting
from lobby import services as lobby
from lobby.models import Seek
from quarto_site.asgi import application

from .helpers import browser

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.backends]

HEADERS = [(b"origin", b"http://localhost"), (b"host", b"localhost")]


async def test_every_lobby_page_gets_the_list_on_connect_and_after_a_change() -> None:
    pages = [WebsocketCommunicator(application, "/ws/lobby/", headers=HEADERS) for _ in range(2)]
    for page in pages:
        connected, _ = await page.connect(timeout=5)
        assert connected
        first = await page.receive_from(timeout=5)
        assert 'id="lobby-seek-list"' in first and "No open games" in first
    made = await database_sync_to_async(lobby.create_seek)(browser("alice"), "tictactoe")
    for page in pages:
        pushed = await page.receive_from(timeout=5)
        assert (
            f'data-seek="{made.seek.pk}"' in pushed and 'hx-swap-oob="outerHTML:#lobby-seek-list"' in pushed
        )
        assert 'id="lobby-pools-table"' in pushed
    late = WebsocketCommunicator(application, "/ws/lobby/", headers=HEADERS)
    await late.connect(timeout=5)
    assert f'data-seek="{made.seek.pk}"' in await late.receive_from(timeout=5)
    for page in [*pages, late]:
        await page.disconnect()


async def test_a_burst_of_changes_is_one_rendering(monkeypatch: pytest.MonkeyPatch) -> None:
    page = WebsocketCommunicator(application, "/ws/lobby/", headers=HEADERS)
    await page.connect(timeout=5)
    await page.receive_from(timeout=5)
    rendered: list[str] = []
    real = presenting.render_live

    def counting() -> str:
        rendered.append(translation.get_language() or "")
        return real()

    monkeypatch.setattr(presenting, "render_live", counting)
    for name in ("a", "bb", "ccc"):
        await database_sync_to_async(lobby.create_seek)(browser(name), "tictactoe")
    pushed = await page.receive_from(timeout=5)
    # Once in English, and once in each other language a socket opened in (another test's).
    assert pushed.count("data-seek=") == 3 and "en" in rendered and len(rendered) == len(set(rendered))
    assert await page.receive_nothing(timeout=0.5)
    await page.disconnect()


def visitor_cookie(client: Client) -> str:
    """A browser that has acted in the lobby (a post: only acting makes a player id)."""
    client.post("/lobby/pairing", {"leave": "1", "game": "tictactoe", "clock": "1+0"})
    return str(client.cookies[settings.SESSION_COOKIE_NAME].value)


async def waiting_socket(path: str, cookie: str) -> WebsocketCommunicator:
    session = f"{settings.SESSION_COOKIE_NAME}={cookie}".encode()
    comm = WebsocketCommunicator(application, path, headers=[*HEADERS, (b"cookie", session)])
    connected, _ = await comm.connect(timeout=5)
    assert connected
    return comm


async def test_the_waiting_pages_socket_holds_the_seek_and_moves_the_page_to_the_game() -> None:
    alice, bob = Client(), Client()
    cookie = await database_sync_to_async(visitor_cookie)(alice)
    await database_sync_to_async(alice.post)("/lobby/seeks", {"game": "tictactoe", "clock": "3+2"})
    seek = await database_sync_to_async(Seek.objects.get)()
    before = seek.last_seen
    comm = await waiting_socket(f"/ws/lobby/wait/?seek={seek.pk}", cookie)
    assert await comm.receive_nothing(timeout=0.3)
    await database_sync_to_async(seek.refresh_from_db)()
    assert seek.last_seen > before, "the open socket keeps the seek alive"
    await database_sync_to_async(bob.post)(f"/lobby/seeks/{seek.pk}/accept")
    game = await database_sync_to_async(Game.objects.get)()
    assert json.loads(await comm.receive_from(timeout=5)) == {"go": f"/games/{game.pk}/"}
    await comm.disconnect()


async def test_someone_elses_seek_sends_the_page_back_to_the_lobby() -> None:
    alice, bob = Client(), Client()
    await database_sync_to_async(visitor_cookie)(alice)
    await database_sync_to_async(alice.post)("/lobby/seeks", {"game": "tictactoe", "clock": "3+2"})
    seek = await database_sync_to_async(Seek.objects.get)()
    comm = await waiting_socket(
        f"/ws/lobby/wait/?seek={seek.pk}", await database_sync_to_async(visitor_cookie)(bob)
    )
    assert json.loads(await comm.receive_from(timeout=5)) == {"go": "/lobby/"}
    await comm.disconnect()


async def test_a_pool_waiting_page_moves_when_paired() -> None:
    alice, bob = Client(), Client()
    cookie = await database_sync_to_async(visitor_cookie)(alice)
    await database_sync_to_async(alice.post)("/lobby/pairing", {"game": "tictactoe", "clock": "1+0"})
    comm = await waiting_socket("/ws/lobby/wait/", cookie)
    assert await comm.receive_nothing(timeout=0.3)
    await database_sync_to_async(visitor_cookie)(bob)
    await database_sync_to_async(bob.post)("/lobby/pairing", {"game": "tictactoe", "clock": "1+0"})
    game = await database_sync_to_async(Game.objects.get)()
    assert json.loads(await comm.receive_from(timeout=5)) == {"go": f"/games/{game.pk}/"}
    await comm.disconnect()


async def test_lobby_sockets_per_client_are_capped(settings: Any) -> None:
    settings.WS_MAX_PER_CLIENT = 2
    pages = [WebsocketCommunicator(application, "/ws/lobby/", headers=HEADERS) for _ in range(3)]
    opened = [(await page.connect(timeout=5))[0] for page in pages]
    # The third is accepted and closed at once with 4429 (a handshake refused would be
    # Daphne's HTTP 403, which a page cannot tell from a wrong origin).
    assert opened == [True, True, True]
    assert await pages[2].receive_output(timeout=5) == {"type": "websocket.close", "code": 4429}
    await pages[0].disconnect()
    again = WebsocketCommunicator(application, "/ws/lobby/", headers=HEADERS)
    assert (await again.connect(timeout=5))[0]
    for page in (pages[1], again):
        await page.disconnect()


@pytest.mark.parametrize("last", ["/ws/lobby/", "/ws/lobby/wait/?seek=1", "game"])
async def test_game_and_lobby_sockets_of_one_address_share_one_cap(settings: Any, last: str) -> None:
    """One budget per address for every socket: a game's and the lobby's sockets counted
    apart let an address hold twice ``WS_MAX_PER_CLIENT``."""
    settings.WS_MAX_PER_CLIENT = 2
    game = await database_sync_to_async(services.create_game)("tictactoe", opponent="human")
    game_path = f"/ws/games/{game.game.pk}/"
    open_ones = []
    for path in (game_path, "/ws/lobby/"):
        comm = WebsocketCommunicator(application, path, headers=HEADERS)
        assert (await comm.connect(timeout=5))[0]
        open_ones.append(comm)
    refused = WebsocketCommunicator(application, game_path if last == "game" else last, headers=HEADERS)
    assert (await refused.connect(timeout=5))[0]
    closed = await receive_close(refused)
    assert closed == {"type": "websocket.close", "code": 4429}
    await open_ones.pop().disconnect()
    again = WebsocketCommunicator(application, game_path if last == "game" else last, headers=HEADERS)
    assert (await again.connect(timeout=5))[0]
    for comm in (*open_ones, again):
        await comm.disconnect()


async def receive_close(comm: WebsocketCommunicator) -> dict[str, Any]:
    """The first close the socket gets (a game socket may be sent a rendering first)."""
    while True:
        output = await comm.receive_output(timeout=5)
        if output["type"] == "websocket.close":
            return dict(output)
