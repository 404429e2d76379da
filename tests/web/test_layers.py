"""The Redis channel layers as the live layer uses them: pub/sub hands one message per
process and group to every socket of the process, and neither layer takes a socket down
while Redis is unreachable."""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import socket
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from redis import asyncio as aioredis
from redis.exceptions import ConnectionError as RedisConnectionError

from games.live.layers import PatientRedisPubSubChannelLayer

UNREACHABLE = "redis://127.0.0.1:1/0"


async def settled_subscribers(redis: aioredis.Redis, channel: str, expected: int) -> int:
    """Subscribers of a Redis channel, once they reach ``expected`` or after a second
    (a SUBSCRIBE written on one connection is seen on another a moment later)."""
    for _ in range(20):
        (_, count), *_ = await redis.pubsub_numsub(channel)
        if count == expected:
            break
        await asyncio.sleep(0.05)
    return int(count)


async def test_pubsub_opens_a_socket_s_channel_with_redis_down_and_group_add_says_so() -> None:
    layer = PatientRedisPubSubChannelLayer(hosts=[UNREACHABLE])
    channel = await layer.new_channel()  # Channels does this for every socket: it must not raise
    assert channel.startswith("asgi")
    with pytest.raises((RedisConnectionError, OSError)):
        await layer.group_add("game-1", channel)  # what the consumer turns into "paused"
    await layer.flush()


@pytest.mark.redis
async def test_pubsub_subscribes_each_process_once_per_group_and_reaches_every_socket() -> None:
    url = os.environ.get("REDIS_URL")
    if not url:
        pytest.skip("needs REDIS_URL")
    prefix = f"test-layers-{os.getpid()}"
    server_a = PatientRedisPubSubChannelLayer(hosts=[url], prefix=prefix)
    server_b = PatientRedisPubSubChannelLayer(hosts=[url], prefix=prefix)
    sockets = [await server_a.new_channel() for _ in range(3)]
    for channel in sockets:
        await server_a.group_add("game-7-watch", channel)
    redis = aioredis.from_url(url)
    try:
        group_channel = f"{prefix}__group__game-7-watch"
        subscribers = await settled_subscribers(redis, group_channel, 1)
        assert subscribers == 1, "one subscription for the process, not one per socket"
        await server_b.group_send("game-7-watch", {"type": "live.frame", "text": "<p>ply 3</p>"})
        got = await asyncio.wait_for(asyncio.gather(*(server_a.receive(c) for c in sockets)), 5)
        assert [m["text"] for m in got] == ["<p>ply 3</p>"] * 3
        for channel in sockets:
            await server_a.group_discard("game-7-watch", channel)
        subscribers = await settled_subscribers(redis, group_channel, 0)
        assert subscribers == 0, "the last socket out unsubscribes the process"
    finally:
        await redis.aclose()
        await server_a.flush()
        await server_b.flush()


async def pushed_until_received(
    sender: PatientRedisPubSubChannelLayer, receiver: PatientRedisPubSubChannelLayer, channel: str, text: str
) -> dict[str, Any] | None:
    """Push ``text`` to the group again and again until ``channel`` receives it (a pub/sub
    message sent before the subscription is in place, or while reconnecting, is dropped);
    None after 30 s."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        with contextlib.suppress(RedisConnectionError, OSError):
            await sender.group_send("game-9-seat-0", {"type": "live.frame", "text": text})
        with contextlib.suppress(asyncio.TimeoutError):
            message: dict[str, Any] = await asyncio.wait_for(receiver.receive(channel), 0.25)
            if message["text"] == text:  # not an extra copy of an earlier push
                return message
    return None


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[Callable[[], None]]:
    """A redis-server of this test's own, on a free port, that the test may restart."""
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.skip("needs redis-server")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    argv = [binary, "--port", str(port), "--save", "", "--appendonly", "no", "--dir", str(tmp_path)]
    running: list[subprocess.Popen[bytes]] = []

    def start() -> None:
        running.append(subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError):
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                return
            time.sleep(0.05)
        pytest.fail("redis-server did not start")

    def stop() -> None:
        proc = running.pop()
        proc.terminate()
        proc.wait(10)

    start()

    def restart() -> None:
        stop()
        start()

    restart.url = f"redis://127.0.0.1:{port}/0"  # type: ignore[attr-defined]
    yield restart
    while running:
        stop()


async def test_pubsub_pushes_reach_open_sockets_again_after_redis_restarts(own_redis: Any) -> None:
    """Redis keeps nothing on disk here: a restart forgets every group. Pub/sub's
    subscriptions live in the processes, which subscribe again when they reconnect, so
    the sockets that stayed open get pushes again without reconnecting."""
    server_a = PatientRedisPubSubChannelLayer(hosts=[own_redis.url])
    server_b = PatientRedisPubSubChannelLayer(hosts=[own_redis.url])
    channel = await server_a.new_channel()
    await server_a.group_add("game-9-seat-0", channel)
    before = await pushed_until_received(server_b, server_a, channel, "ply 1")
    assert before is not None and before["text"] == "ply 1"
    own_redis()  # restarted: empty, every connection cut
    got = await pushed_until_received(server_b, server_a, channel, "ply 2")
    assert got is not None and got["text"] == "ply 2", "no push reached the open socket after the restart"
    await server_a.flush()
    await server_b.flush()
