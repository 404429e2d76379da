"""Django's Redis cache that keeps working while Redis is unreachable.

Every call goes to Redis; when Redis cannot be reached (refused, timed out, still
loading after a restart) the call is served instead by a cache in this process's
memory, and so is every call for the next ``RETRY_SECONDS``, so an outage costs one
failed connection per process and interval, not one per request. Rate limits then
count per process, renderings are kept per process, and :func:`redis_down` says so
(``/healthz`` reports it, the live layer tells pages that live updates are paused and
calls presence unknown). Nothing kept only here outlives the outage's purpose: it is
all counters and copies of what the database holds.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

log = logging.getLogger(__name__)

RETRY_SECONDS = 2.0
UNREACHABLE = (RedisConnectionError, RedisTimeoutError, OSError)

# Shared by every thread's instance of the caches: Django makes one per thread.
_lock = threading.Lock()
_down_until = 0.0
_down_since: float | None = None


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


class FallbackRedisCache(RedisCache):
    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        options = params.get("OPTIONS", {})
        # Fail fast rather than hang a request on a host that does not answer.
        options.setdefault("socket_connect_timeout", 1.0)
        options.setdefault("socket_timeout", 2.0)
        self._options = options
        self.local = LocMemCache(
            "fallback-" + str(params.get("KEY_PREFIX", "")) + server,
            {"TIMEOUT": params.get("TIMEOUT", 300), "OPTIONS": {"MAX_ENTRIES": 20_000}},
        )

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
