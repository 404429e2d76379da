"""What the caches cost Redis: one connection per process, not one per thread or socket,
and one round trip for a counter (a rate limit, a socket counted in or out)."""

from __future__ import annotations

import asyncio
import threading
import time
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
import redis
from django.core.cache import caches
from django.core.cache.backends.locmem import LocMemCache

from games.presenting import audiences, presence
from games.services import fallback_cache, ratelimit
from quarto_site import config

from .redis_server import RedisServer


@pytest.fixture
def on_redis(
    redis_server: RedisServer, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> Iterator[redis.Redis]:
    """The site's caches on the test's own redis-server; a client to look at it."""
    before = settings.CACHES
    settings.CACHES = config.redis_caches(redis_server.url, "test-trips")
    monkeypatch.setattr(fallback_cache, "_down_since", None)
    monkeypatch.setattr(fallback_cache, "_down_until", 0.0)
    monkeypatch.setattr(presence, "local_counts", Counter())
    look = redis.Redis.from_url(redis_server.url)
    yield look
    look.close()
    settings.CACHES = before


def stat(look: redis.Redis, name: str) -> int:
    return int(look.info("stats")[name])


def test_every_thread_and_task_shares_one_connection(on_redis: redis.Redis) -> None:
    """Django makes a cache object per thread and per asyncio task; they all share the
    process's pool: 40 threads and 40 tasks, one after another, open one connection."""
    caches["live"].set("seen", 1)
    before = stat(on_redis, "total_connections_received")

    def in_thread() -> None:
        assert caches["live"].get("seen") == 1
        assert caches["default"].get("other") is None

    for _ in range(40):
        thread = threading.Thread(target=in_thread)
        thread.start()
        thread.join()

    async def tasks() -> None:
        async def one() -> None:
            assert caches["live"].get("seen") == 1

        for _ in range(40):
            await asyncio.get_running_loop().create_task(one())

    asyncio.run(tasks())
    assert stat(on_redis, "total_connections_received") - before <= 1


def test_a_rate_limit_hit_is_one_round_trip(on_redis: redis.Redis) -> None:
    rate = ratelimit.Rate(3, 60)
    now = 1_000_040.0  # 20 s into a window of a minute
    counted = []
    for _ in range(4):
        counted.append(ratelimit.hit("203.0.113.9", rate, now))
    assert counted[:3] == [0, 0, 0]
    assert counted[3] == 40  # seconds to the end of the window
    calls = on_redis.info("commandstats")
    assert calls["cmdstat_eval"]["calls"] == 4  # one script call a hit, nothing else
    assert {name for name in calls if not name.startswith(("cmdstat_client", "cmdstat_hello"))} <= {
        "cmdstat_eval",
        "cmdstat_exists",  # the script's own
        "cmdstat_set",
        "cmdstat_incrby",
        "cmdstat_info",  # this test's
        "cmdstat_scan",
    }
    key = next(iter(on_redis.scan_iter("*ratelimit:60:*")))
    assert int(on_redis.get(key) or 0) == 4
    assert 0 < int(on_redis.ttl(key)) <= 61


def test_a_socket_counted_in_and_out_is_one_call_each(on_redis: redis.Redis) -> None:
    before = on_redis.info("commandstats").get("cmdstat_eval", {}).get("calls", 0)
    presence.arrive(7, ["seat-0"])
    presence.arrive(7, [audiences.WATCH])
    presence.arrive(7, [audiences.WATCH])
    assert presence.counts(7, ["seat-0", audiences.WATCH, audiences.ANY]) == {
        "seat-0": 1,
        audiences.WATCH: 2,
        audiences.ANY: 3,
    }
    presence.leave(7, [audiences.WATCH])
    presence.leave(7, ["seat-0"])
    assert on_redis.info("commandstats")["cmdstat_eval"]["calls"] - before == 5
    presence.local_counts.clear()  # the other processes' view: the cache alone
    assert presence.counts(7, ["seat-0", audiences.WATCH, audiences.ANY]) == {
        "seat-0": 0,
        audiences.WATCH: 1,
        audiences.ANY: 1,
    }
    key = next(iter(on_redis.scan_iter(f"*{audiences.count_key(7, audiences.ANY)}")))
    assert 0 < int(on_redis.ttl(key)) <= audiences.COUNT_TTL


@pytest.mark.parametrize("where", ["redis", "memory"])
def test_counters_open_add_and_stay_at_zero(where: str, request: pytest.FixtureRequest) -> None:
    """The same counting on Redis (a script) and on any other cache (calls one by one)."""
    if where == "redis":
        request.getfixturevalue("on_redis")
        cache: Any = caches["live"]
    else:
        cache = LocMemCache("counters-test", {})
    add = fallback_cache.add_to_counters
    assert add(cache, ["a", "b"], 1, 60) == [1, 1]
    assert add(cache, ["a"], 2, 60) == [3]
    assert add(cache, ["a", "b"], -1, 60) == [2, 0]
    assert add(cache, ["b"], -1, 60) == [0]  # never below 0
    assert cache.get("b") == 0
    assert add(cache, ["missing"], -1, 60) == [0]
    assert cache.get("missing") is None  # counting out of nothing opens nothing
    assert cache.get("a") == 2


def test_counters_with_redis_down_count_in_the_process(
    on_redis: redis.Redis, redis_server: RedisServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(fallback_cache, "RETRY_SECONDS", 0.2)
    cache = caches["live"]
    redis_server.stop()
    assert fallback_cache.add_to_counters(cache, ["k"], 1, 60) == [1]
    assert fallback_cache.redis_down()
    assert fallback_cache.add_to_counters(cache, ["k"], 1, 60) == [2]
    redis_server.start()
    deadline = time.monotonic() + 5
    while fallback_cache.redis_down() and time.monotonic() < deadline:
        time.sleep(0.25)  # the retry interval
        fallback_cache.add_to_counters(cache, ["k"], 1, 60)
    assert not fallback_cache.redis_down()
