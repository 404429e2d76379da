"""The channel layers: Redis made to wait out an outage, and the in-memory one made
to clean up once a second instead of on every call.

In memory: Channels' layer walks every channel and every group membership of the
process for expired entries on each ``receive`` and ``group_send``. Every consumer
calls ``receive`` again after each message, so a push to a game's 500 watchers cost
500 walks over all the process's sockets, and a burst of 2,000 connecting sockets as
many. Messages expire after a minute and memberships after a day: looking once a
second loses nothing.

Redis:
Channels runs every consumer's ``receive`` on its layer beside the socket's own
frames; with Redis unreachable that call raises and takes the socket down with a 1011
and a traceback, before the consumer can tell the page that live updates are paused.
Here it waits and tries again; ``group_add`` still raises, which the consumer handles.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from channels.layers import InMemoryChannelLayer
from channels_redis.core import RedisChannelLayer
from redis.exceptions import ConnectionError as RedisConnectionError

log = logging.getLogger(__name__)

RETRY_SECONDS = 2.0


class PatientRedisChannelLayer(RedisChannelLayer):  # type: ignore[misc]  # channels_redis is untyped
    async def receive(self, channel: str) -> Any:
        while True:
            try:
                return await super().receive(channel)
            except (RedisConnectionError, OSError) as exc:
                log.warning("channel layer unreachable (%s); retrying in %.0f s", exc, RETRY_SECONDS)
                await asyncio.sleep(RETRY_SECONDS)


class ThriftyInMemoryChannelLayer(InMemoryChannelLayer):  # type: ignore[misc]  # channels is untyped
    clean_interval = 1.0
    _cleaned = float("-inf")

    def _clean_expired(self) -> None:
        now = time.monotonic()
        if now - self._cleaned < self.clean_interval:
            return
        self._cleaned = now
        super()._clean_expired()
