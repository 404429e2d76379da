"""What a player meets in the lobby: its own seek offers Cancel, not Accept (on its page's
own rendering, and marked for the pushed list, which is the same for every page); the
home page's quick-pairing counts come live from the lobby's socket."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from lobby import live, pool, presenting
from lobby import services as lobby
from lobby.models import Seek
from quarto_site.asgi import application

from .helpers import browser


def row_of(page: str, seek_id: int) -> str:
    start = page.index(f'data-seek="{seek_id}"')
    return page[start : page.index("</li>", start)]


@pytest.mark.django_db
def test_ones_own_seek_is_marked_yours_with_cancel_and_others_see_accept() -> None:
    alice, bob = Client(), Client()
    alice.post("/lobby/seeks", {"game": "tictactoe", "clock": "3d"})
    seek = Seek.objects.get()

    own = alice.get("/lobby/").content.decode()
    row = row_of(own, seek.pk)
    assert "yours" in row and f'action="/lobby/seeks/{seek.pk}/cancel"' in row and "Accept" not in row
    assert f'data-mine="{seek.pk}"' in own  # for lobby.js, on the pushed list

    theirs = bob.get("/lobby/").content.decode()
    row = row_of(theirs, seek.pk)
    assert "yours" not in row and f'action="/lobby/seeks/{seek.pk}/accept"' in row
    assert 'data-mine=""' in theirs
    pushed = presenting.render_live()  # the same bytes for every page
    assert "yours" not in row_of(pushed, seek.pk) and "/accept" in row_of(pushed, seek.pk)

    alice.post(f"/lobby/seeks/{seek.pk}/cancel")
    assert Seek.objects.get().status == Seek.Status.CANCELLED


@pytest.mark.django_db
def test_the_home_page_listens_for_the_pools_with_a_token_for_pushed_forms(client: Client) -> None:
    html = client.get("/").content.decode()
    section = html[html.index('class="card home__pairing"') :]
    assert 'ws-connect="/ws/lobby/?part=pools"' in section[:300]
    assert 'id="lobby-csrf"' in section and "js/lobby.js" in html


HEADERS = [(b"origin", b"http://localhost"), (b"host", b"localhost")]


@pytest.mark.django_db(transaction=True)
@pytest.mark.backends
async def test_a_home_page_socket_gets_the_pools_when_their_counts_change_and_only_then() -> None:
    home = WebsocketCommunicator(application, "/ws/lobby/?part=pools", headers=HEADERS)
    connected, _ = await home.connect(timeout=5)
    assert connected
    first = await home.receive_from(timeout=5)
    assert 'id="lobby-pools-table"' in first and 'id="lobby-seek-list"' not in first

    # A seek leaves the pools as they were: nothing for the home page.
    await database_sync_to_async(lobby.create_seek)(browser("alice"), "tictactoe")
    await database_sync_to_async(live.flush)()
    assert await home.receive_nothing(timeout=0.5)

    await database_sync_to_async(pool.join)(browser("bob"), "tictactoe", {"initial": 180, "increment": 2})
    pushed = await home.receive_from(timeout=5)
    assert 'hx-swap-oob="outerHTML:#lobby-pools-table"' in pushed and "1 waiting" in pushed
    assert 'id="lobby-seek-list"' not in pushed
    await home.disconnect()
