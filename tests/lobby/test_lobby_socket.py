"""The lobby's socket: the current list on connect, and each change pushed to every page."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from lobby import presenting
from lobby import services as lobby
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
    rendered: list[int] = []
    real = presenting.render_live

    def counting() -> str:
        rendered.append(1)
        return real()

    monkeypatch.setattr(presenting, "render_live", counting)
    for name in ("a", "bb", "ccc"):
        await database_sync_to_async(lobby.create_seek)(browser(name), "tictactoe")
    pushed = await page.receive_from(timeout=5)
    assert pushed.count("data-seek=") == 3 and rendered == [1]
    assert await page.receive_nothing(timeout=0.5)
    await page.disconnect()
