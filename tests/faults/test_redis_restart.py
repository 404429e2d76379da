"""Redis stopped and started again (it keeps nothing on disk) under two real web
processes: a page open on one says that live updates are paused while Redis is down,
and gets the move taken by the other after the restart, by itself. Before, the process
taking the move read the wiped socket counters as "nobody watches" and pushed nothing.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
import requests
from asgiref.sync import async_to_sync

from games.live import recovery
from games.presenting import audiences, presence
from games.services import fallback_cache
from quarto_site import settings as site_settings

from ..e2e.conftest import Processes
from .redis_server import RedisServer, wait_for
from .test_restart import embedded_env
from .ws_client import WsClient

JSON = {"Content-Type": "application/json"}


@pytest.fixture
def two_servers(redis_server: RedisServer, tmp_path: Path) -> Iterator[tuple[str, str]]:
    env = embedded_env(tmp_path)
    env.update(REDIS_URL=redis_server.url, CHANNEL_PREFIX=f"restart{redis_server.port}")
    env.update(WS_REDIS_CHECK="0.5", WS_PRESENCE_DELAY="0.1")
    procs = Processes(tmp_path, env)
    try:
        procs.manage("migrate", "--verbosity", "0")
        yield procs.daphne("a"), procs.daphne("b")
    finally:
        procs.stop()


def healthy(base: str) -> bool:
    try:
        return requests.get(base + "/healthz", timeout=5).status_code == 200
    except requests.RequestException:
        return False


@pytest.mark.slow
def test_a_page_on_one_server_gets_the_moves_of_another_after_redis_restarts(
    two_servers: tuple[str, str],
    redis_server: RedisServer,
) -> None:
    a, b = two_servers
    made = requests.post(b + "/api/v1/games", json={"game": "tictactoe", "opponent": "human"}, headers=JSON)
    assert made.status_code == 201, made.text
    game_id, first = made.json()["id"], made.json()["token"]
    joined = requests.post(f"{b}/api/v1/games/{game_id}/join", json={"invite": made.json()["invite"]})
    second = joined.json()["token"]
    to_move = {made.json()["seat"]: first, joined.json()["seat"]: second}

    def move(ply: int, cell: str) -> None:
        token = to_move[ply % 2]
        answer = requests.post(
            f"{b}/api/v1/games/{game_id}/moves",
            json={"move": cell, "ply": ply},
            headers={**JSON, "Authorization": f"Bearer {token}"},
        )
        assert answer.status_code == 200, answer.text

    page = WsClient(a, f"/ws/games/{game_id}/?format=json")
    try:
        assert page.status == 101
        assert page.receive_json_until(lambda m: m["type"] == "state")["ply"] == 0
        move(0, "a1")
        assert page.receive_json_until(lambda m: m["type"] == "state" and m["ply"] == 1)

        marked = redis.Redis.from_url(redis_server.url)
        wait_for(lambda: list(marked.scan_iter("*live:process:*")), "server a did not mark itself in Redis")
        marked.close()
        redis_server.stop()
        page.receive_json_until(lambda m: m["type"] == "paused")
        redis_server.start()
        page.receive_json_until(lambda m: m["type"] == "resumed")
        wait_for(lambda: healthy(b), "the other server did not see Redis again")

        move(1, "b2")
        assert page.receive_json_until(lambda m: m["type"] == "state" and m["ply"] == 2, timeout=5)
    finally:
        page.close()


class FakeSocket:
    """What the check asks of an open socket."""

    def __init__(self) -> None:
        self.paused = False
        self.calls: list[str] = []

    async def pause(self) -> None:
        self.paused = True
        self.calls.append("pause")

    async def recover(self) -> None:
        self.paused = False
        self.calls.append("recover")


@pytest.fixture
def caches_on(
    redis_server: RedisServer, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> Iterator[RedisServer]:
    before = settings.CACHES
    settings.CACHES = site_settings.redis_caches(redis_server.url, "test-restart")
    monkeypatch.setattr(fallback_cache, "RETRY_SECONDS", 0.0)
    monkeypatch.setattr(recovery, "_marked", False)
    yield redis_server
    settings.CACHES = before
    presence.local_counts.clear()


def test_a_restart_nobody_saw_still_counts_the_sockets_again(caches_on: RedisServer) -> None:
    """Redis back empty before any call of this process failed: found by its missing key."""
    socket = FakeSocket()
    recovery.sockets.add(socket)
    try:
        presence.arrive(7, ["seat-0"])
        async_to_sync(recovery.check)()
        assert socket.calls == []
        redis.Redis.from_url(caches_on.url).flushall()  # what a restart without a disk leaves
        assert presence.counts(7, [audiences.ANY]) == {audiences.ANY: 1}  # this process's own
        presence.local_counts.clear()  # as another process sees it
        assert presence.counts(7, [audiences.ANY]) == {audiences.ANY: 0}
        presence.local_counts[7, "seat-0"] = presence.local_counts[7, audiences.ANY] = 1

        async_to_sync(recovery.check)()

        assert socket.calls == ["recover"]
        presence.local_counts.clear()
        assert presence.counts(7, ["seat-0", audiences.ANY]) == {"seat-0": 1, audiences.ANY: 1}
        caches_on.stop()
        async_to_sync(recovery.check)()
        assert socket.calls == ["recover", "pause"] and socket.paused
    finally:
        recovery.sockets.discard(socket)
