"""Redis (cache and channel layer) stopped under a running site: pages, moves, the API
and sockets keep working, and /healthz says what is degraded."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.layers import channel_layers
from channels.testing import WebsocketCommunicator
from django.test import Client

from games.live.layers import PatientRedisPubSubChannelLayer
from games.models import Game
from games.services import fallback_cache
from quarto_site import config
from quarto_site.asgi import application

from .redis_server import RedisServer, wait_for

pytestmark = pytest.mark.django_db(transaction=True)

HTMX = {"HX-Request": "true"}
ORIGIN = [(b"origin", b"http://localhost")]


@pytest.fixture
def on_redis(
    redis_server: RedisServer,
    settings: Any,
    monkeypatch: pytest.MonkeyPatch,
) -> Iterator[RedisServer]:
    """The site's caches and channel layer on the test's own redis-server, as REDIS_URL sets them."""
    before = settings.CACHES
    settings.CACHES = config.redis_caches(redis_server.url, "test-down")
    layer = PatientRedisPubSubChannelLayer(hosts=[redis_server.url])
    monkeypatch.setitem(channel_layers.backends, "default", layer)
    monkeypatch.setattr(fallback_cache, "RETRY_SECONDS", 0.2)
    # The outage is process state: whatever this test leaves of it ends with the test.
    monkeypatch.setattr(fallback_cache, "_down_since", None)
    monkeypatch.setattr(fallback_cache, "_down_until", 0.0)
    yield redis_server
    settings.CACHES = before  # the caches of the other tests, before this server stops


def new_game(client: Client) -> Game:
    response = client.post("/games/new", {"kind": "quarto", "opponent": "ai", "seat": "first"})
    assert response.status_code in (302, 303)
    game = Game.objects.get()
    return game


async def paused_socket(path: str) -> tuple[str, str]:
    comm = WebsocketCommunicator(application, path, headers=ORIGIN)
    connected, _ = await comm.connect(timeout=5)
    assert connected, "the handshake answers (it was a 500)"
    current = await comm.receive_from(timeout=5)
    notice = await comm.receive_from(timeout=5)
    await comm.disconnect()
    return current, notice


def test_with_redis_down_pages_moves_the_api_and_sockets_work(
    on_redis: RedisServer, no_ai_reply: None
) -> None:
    client = Client()
    game = new_game(client)
    assert client.get("/healthz").json() == {"status": "ok", "database": "ok", "redis": "ok"}
    on_redis.stop()

    assert client.get(f"/games/{game.pk}/").status_code == 200
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "Who is connected is not known right now." in page
    moved = client.post(f"/games/{game.pk}/move", {"move": "3", "ply": "0"}, headers=HTMX)
    assert moved.status_code == 200
    game.refresh_from_db()
    assert game.ply == 1
    api = client.get(f"/api/v1/games/{game.pk}")
    assert api.status_code == 200 and api.json()["ply"] == 1
    # Rate limits still count, in this process.
    again = client.post("/games/new", {"kind": "quarto", "opponent": "ai", "seat": "first"})
    assert again.status_code in (302, 303) and Game.objects.count() == 2

    current, notice = async_to_sync(paused_socket)(f"/ws/games/{game.pk}/")
    assert 'id="board"' in current
    assert re.search(r'id="live-status"[^>]*>Live updates are paused', notice)
    current, notice = async_to_sync(paused_socket)(f"/ws/games/{game.pk}/?format=json")
    assert json.loads(current)["ply"] == 1 and json.loads(notice)["type"] == "paused"

    health = client.get("/healthz")
    assert health.status_code == 503
    assert health.json() == {"status": "degraded", "database": "ok", "redis": "unreachable"}
    assert health["Retry-After"] == "5"
    # A load balancer that should keep sending players to a degraded site asks this way.
    assert client.get("/healthz?degraded=ok").status_code == 200

    on_redis.start()
    wait_for(lambda: client.get("/healthz").status_code == 200, "/healthz did not recover with Redis")
    assert client.get("/healthz").json()["redis"] == "ok"


def test_without_redis_configured_healthz_says_so(client: Client) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "ok", "redis": "unused"}
