"""Redis stopped and started again (it keeps nothing on disk) under two real web
processes: a page open on one says that live updates are paused while Redis is down,
and gets the move taken by the other after the restart, by itself. Before, the process
taking the move read the wiped socket counters as "nobody watches" and pushed nothing.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
import requests
from asgiref.sync import async_to_sync

from games.live import recovery, rounds
from games.presenting import audiences, presence
from games.services import fallback_cache
from quarto_site import config

from ..e2e.conftest import Processes
from .redis_server import RedisServer, wait_for
from .test_restart import embedded_env
from .ws_client import WsClient

JSON = {"Content-Type": "application/json"}


@pytest.fixture
def two_servers(
    redis_server: RedisServer, tmp_path: Path, request: pytest.FixtureRequest
) -> Iterator[tuple[str, str]]:
    env = embedded_env(tmp_path)
    env.update(CHANNEL_LAYER=getattr(request, "param", "pubsub"))
    env.update(REDIS_URL=redis_server.url, CHANNEL_PREFIX=f"restart{redis_server.port}")
    env.update(WS_REDIS_CHECK="0.5", WS_PRESENCE_DELAY="0.1")
    procs = Processes(tmp_path, env)
    try:
        procs.migrate()
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


@pytest.mark.slow
@pytest.mark.parametrize("two_servers", ["pubsub", "lists"], indirect=True)
def test_the_first_push_after_a_restart_from_a_server_that_did_not_notice_arrives(
    two_servers: tuple[str, str],
    redis_server: RedisServer,
) -> None:
    """The page (a spectator's, one audience) watches on b; a, with no socket of its own,
    holds the channel layer's connections it used before the restart: its first push
    went down a stale one and was lost ("could not push game N to watch")."""
    a, b = two_servers
    made = requests.post(a + "/api/v1/games", json={"game": "tictactoe", "opponent": "human"}, headers=JSON)
    game_id, first = made.json()["id"], made.json()["token"]
    joined = requests.post(f"{a}/api/v1/games/{game_id}/join", json={"invite": made.json()["invite"]})
    to_move = {made.json()["seat"]: first, joined.json()["seat"]: joined.json()["token"]}

    def move(ply: int, cell: str) -> None:
        answer = requests.post(
            f"{a}/api/v1/games/{game_id}/moves",
            json={"move": cell, "ply": ply},
            headers={**JSON, "Authorization": f"Bearer {to_move[ply % 2]}"},
        )
        assert answer.status_code == 200, answer.text

    def until(text: str, timeout: float = 15.0) -> None:
        deadline = time.monotonic() + timeout
        while text not in page.receive(max(0.01, deadline - time.monotonic())):
            pass

    page = WsClient(b, f"/ws/games/{game_id}/")
    try:
        until('data-ply="0"')
        move(0, "a1")  # a's connections to Redis are made here
        until('data-ply="1"')

        redis_server.stop()
        until("Live updates are paused")
        redis_server.start()
        until('data-ply="1"')  # b joined again and sent the position
        wait_for(lambda: healthy(a), "server a did not see Redis again")
        time.sleep(1.5)  # b's subscriptions are made again meanwhile (pub/sub)

        move(1, "b2")
        until('data-ply="2"', timeout=5)
    finally:
        page.close()


class FakeSocket:
    """What the check asks of an open socket."""

    def __init__(self, game_id: int = 7, shown: str | None = None) -> None:
        self.paused = False
        self.calls: list[str] = []
        self.game_id, self.shown = game_id, shown

    async def send_current(self) -> None:
        self.calls.append("current")

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
    settings.CACHES = config.redis_caches(redis_server.url, "test-restart")
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


def test_a_socket_that_missed_a_push_is_sent_the_position_by_the_check(caches_on: RedisServer) -> None:
    """The push of version 2 never reached the socket that shows version 1 (a stale
    connection, a pub/sub gap): the next check sends it the current rendering."""
    cache = audiences.live_cache()
    behind, current, fresh = FakeSocket(7, "1.5"), FakeSocket(7, "2.9"), FakeSocket(8, None)
    sockets = [behind, current, fresh]
    recovery.sockets.update(sockets)
    try:
        cache.set(audiences.now_key(7), "2.9", 60)
        cache.set(audiences.now_key(8), "4.1", 60)

        async_to_sync(recovery.check)()

        assert behind.calls == ["current"]
        assert current.calls == [] and fresh.calls == []  # up to date; still connecting
    finally:
        for socket in sockets:
            recovery.sockets.discard(socket)


class StaleLayer:
    """A channel layer whose idle connection went stale: its first send fails."""

    def __init__(self, failures: int) -> None:
        self.failures, self.dropped = failures, 0
        self.sent: list[tuple[str, dict[str, Any]]] = []

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        if self.failures:
            self.failures -= 1
            raise redis.exceptions.ConnectionError("Connection closed by server.")
        self.sent.append((group, message))

    async def drop_idle_connections(self) -> None:
        self.dropped += 1


def test_a_failed_push_is_sent_again_on_a_fresh_connection_a_bounded_number_of_times() -> None:
    once = StaleLayer(failures=1)
    async_to_sync(rounds.push_to_group)(once, "game-1-watch", {"type": "live.frame", "text": "x"})
    assert once.sent == [("game-1-watch", {"type": "live.frame", "text": "x"})] and once.dropped == 1

    down = StaleLayer(failures=99)  # Redis really gone: given up after the retries, the move stands
    async_to_sync(rounds.push_to_group)(down, "game-1-watch", {"type": "live.frame", "text": "x"})
    assert down.sent == [] and down.dropped == rounds.PUSH_RETRIES
    assert down.failures == 99 - (1 + rounds.PUSH_RETRIES)
