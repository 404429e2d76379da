"""The WebSocket handshake: unrouted paths and foreign origins are refused cleanly."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from quarto_site.asgi import application

from .helpers import human_first_vs_ai

pytestmark = pytest.mark.django_db(transaction=True)


async def handshake(path: str, headers: list[tuple[bytes, bytes]], scheme: str = "ws") -> bool:
    comm = WebsocketCommunicator(application, path, headers=headers)
    comm.scope["scheme"] = scheme
    connected, _ = await comm.connect(timeout=5)
    if connected:
        await comm.disconnect()
    return bool(connected)


@pytest.mark.parametrize("path", ["/", "/ws/", "/ws/games/abc/", "/ws/games/1/extra", "/nowhere"])
async def test_a_socket_to_an_unrouted_path_is_refused_without_an_error(
    path: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    headers = [(b"origin", b"http://localhost"), (b"host", b"localhost")]
    assert not await handshake(path, headers)
    assert [r for r in caplog.records if r.levelno >= logging.ERROR] == []


@pytest.mark.parametrize(
    ("origin", "host", "scheme", "accepted"),
    [
        (b"http://localhost", b"localhost", "ws", True),
        (b"http://127.0.0.1:8000", b"127.0.0.1:8000", "ws", True),
        (b"https://127.0.0.1:8443", b"127.0.0.1:8443", "wss", True),
        (b"http://localhost", None, "ws", True),  # no Host header: the default port
        (b"http://[::1]:8000", b"[::1]:8000", "ws", True),
        (b"http://[::1]:9999", b"[::1]:8000", "ws", False),
        (b"http://127.0.0.1:9999", b"127.0.0.1:8000", "ws", False),  # another port
        (b"http://127.0.0.1:9999", None, "ws", False),
        (b"https://127.0.0.1:8000", b"127.0.0.1:8000", "ws", False),  # another scheme
        (b"http://127.0.0.1:8443", b"127.0.0.1:8443", "wss", False),
        (b"http://evil.example", b"localhost", "ws", False),  # another host
        (b"http://localhost.evil.example", b"localhost", "ws", False),
        (b"null", b"localhost", "ws", False),
    ],
)
async def test_the_origin_must_match_scheme_host_and_port(
    origin: bytes, host: bytes | None, scheme: str, accepted: bool
) -> None:
    game = await database_sync_to_async(human_first_vs_ai)()
    headers = [(b"origin", origin)] + ([(b"host", host)] if host else [])
    assert await handshake(f"/ws/games/{game.pk}/", headers, scheme) is accepted


async def test_a_trusted_origin_of_the_settings_is_accepted(settings: Any) -> None:
    settings.CSRF_TRUSTED_ORIGINS = ["https://play.example.org"]
    settings.ALLOWED_HOSTS = ["play.example.org", "localhost"]
    game = await database_sync_to_async(human_first_vs_ai)()
    headers = [(b"origin", b"https://play.example.org"), (b"host", b"localhost:8001")]
    assert await handshake(f"/ws/games/{game.pk}/", headers)
