"""Django's Redis cache that keeps working while Redis is unreachable.

Every call goes to Redis; when Redis cannot be reached (refused, timed out, still
loading after a restart) the call is served instead by a cache in this process's
memory, and so is every call for the next ``RETRY_SECONDS``, so an outage costs one
failed connection per process and interval, not one per request. Rate limits then
count per process, renderings are kept per process, and :func:`redis_down` says so
(``/healthz`` reports it, the live layer tells pages that live updates are paused and
calls presence unknown). Nothing kept only here outlives the outage's purpose: it is
all counters and copies of what the database holds.

One Redis client (one connection pool) per process and server, shared by every thread
and every asyncio task. Django makes a cache object per thread and per async context
(``asgiref.local.Local``), and its Redis backend gives each object a connection pool of
its own: under ASGI every request's thread and every WebSocket's task opened a new
connection to Redis and never closed it (2,000 sockets held 2,000 connections), each
costing a TCP handshake on the event loop and memory for as long as the socket lived.
"""

from __future__ import annotations

import logging
import re
import threading
import time
from collections.abc import Sequence
from typing import Any

from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from django.utils.functional import cached_property
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

log = logging.getLogger(__name__)

RETRY_SECONDS = 2.0
UNREACHABLE = (RedisConnectionError, RedisTimeoutError, OSError)

# Shared by every thread's instance of the caches: Django makes one per thread.
_lock = threading.Lock()
_down_until = 0.0
_down_since: float | None = None
# The process's Redis clients, by server and options (see the module's docstring).
_clients: dict[tuple[Any, ...], RedisCacheClient] = {}


def redis_down() -> bool:
    """Whether the last attempt to reach Redis (from any cache of this process) failed."""
    return _down_since is not None


def _went_down(exc: BaseException) -> None:
    global _down_until, _down_since
    with _lock:
        if _down_since is None:
            _down_since = time.monotonic()
            log.warning("Redis unreachable (%s): caching in this process meanwhile", exc)
        _down_until = time.monotonic() + RETRY_SECONDS


def _came_back() -> None:
    global _down_since
    with _lock:
        if _down_since is not None:
            log.warning("Redis reachable again after %.1f s", time.monotonic() - _down_since)
            _down_since = None


def _redis_call(name: str) -> Any:
    def call(self: FallbackRedisCache, *args: Any, **kwargs: Any) -> Any:
        if time.monotonic() >= _down_until:
            try:
                result = getattr(super(FallbackRedisCache, self), name)(*args, **kwargs)
            except UNREACHABLE as exc:
                _went_down(exc)
            else:
                if _down_since is not None:
                    _came_back()
                return result
        return getattr(self.local, name)(*args, **kwargs)

    call.__name__ = name
    return call


# Adds ARGV[1] to each counter of KEYS in one round trip and returns their new values: a
# missing counter is made with the delta and a lifetime of ARGV[2] seconds (a negative
# delta leaves it missing: 0), one that would go below 0 is set to 0 (with that lifetime).
ADD_TO_COUNTERS = """
local delta = tonumber(ARGV[1])
local out = {}
for i, key in ipairs(KEYS) do
  local value = 0
  if redis.call('EXISTS', key) == 1 then
    value = redis.call('INCRBY', key, delta)
  elseif delta > 0 then
    redis.call('SET', key, delta, 'EX', ARGV[2])
    value = delta
  end
  if value < 0 then
    redis.call('SET', key, 0, 'EX', ARGV[2])
    value = 0
  end
  out[i] = value
end
return out
"""


def add_to_counters(cache: Any, keys: Sequence[str], delta: int, timeout: int) -> list[int]:
    """Add ``delta`` to each counter at ``keys`` of ``cache`` and return the new values.
    A missing counter is opened at ``delta`` (when positive) for ``timeout`` seconds; none
    goes below 0. On Redis one round trip for all of them, else one cache call or two each."""
    if callable(getattr(cache, "add_to_counters", None)):  # a FallbackRedisCache
        values: list[int] = cache.add_to_counters(keys, delta, timeout)
        return values
    return _add_one_by_one(cache, keys, delta, timeout)


def _add_one_by_one(cache: Any, keys: Sequence[str], delta: int, timeout: int) -> list[int]:
    values = []
    for key in keys:
        try:
            value = int(cache.incr(key, delta))
        except ValueError:  # missing
            value = 0
            if delta > 0:
                value = delta
                if not cache.add(key, delta, timeout):  # opened by another meanwhile
                    try:
                        value = int(cache.incr(key, delta))
                    except ValueError:  # and expired again
                        cache.set(key, delta, timeout)
        if value < 0:
            cache.set(key, 0, timeout)
            value = 0
        values.append(value)
    return values


class FallbackRedisCache(RedisCache):
    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        options = params.get("OPTIONS", {})
        # Fail fast rather than hang a request on a host that does not answer.
        options.setdefault("socket_connect_timeout", 1.0)
        options.setdefault("socket_timeout", 2.0)
        self._options = options
        # As RedisCache splits its LOCATION (one or several servers).
        self._server_list = re.split("[;,]", server) if isinstance(server, str) else list(server)
        self._shared_key = (tuple(self._server_list), repr(sorted(options.items())))
        self.local = LocMemCache(
            "fallback-" + str(params.get("KEY_PREFIX", "")) + server,
            {"TIMEOUT": params.get("TIMEOUT", 300), "OPTIONS": {"MAX_ENTRIES": 20_000}},
        )

    @cached_property
    def _cache(self) -> RedisCacheClient:
        """The process's client for this server, made once (its pool with it)."""
        with _lock:
            client = _clients.get(self._shared_key)
            if client is None:
                client = RedisCacheClient(self._server_list, **self._options)
                client.get_client(write=True)  # its pool made here, under the lock
                _clients[self._shared_key] = client
        return client

    def add_to_counters(self, keys: Sequence[str], delta: int, timeout: int) -> list[int]:
        """:func:`add_to_counters` in one round trip (a script), or in this process's
        memory while Redis is unreachable."""
        if time.monotonic() >= _down_until:
            full = [self.make_and_validate_key(key) for key in keys]
            try:
                client = self._cache.get_client(write=True)
                values = client.eval(ADD_TO_COUNTERS, len(full), *full, delta, timeout)
            except UNREACHABLE as exc:
                _went_down(exc)
            else:
                if _down_since is not None:
                    _came_back()
                return [int(v) for v in values]
        return _add_one_by_one(self.local, keys, delta, timeout)

    add = _redis_call("add")
    get = _redis_call("get")
    set = _redis_call("set")
    touch = _redis_call("touch")
    delete = _redis_call("delete")
    get_many = _redis_call("get_many")
    has_key = _redis_call("has_key")
    incr = _redis_call("incr")
    set_many = _redis_call("set_many")
    delete_many = _redis_call("delete_many")
    clear = _redis_call("clear")
