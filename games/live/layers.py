"""The Redis channel layer, made to wait out an outage instead of crashing consumers.

Channels runs every consumer's ``receive`` on its layer beside the socket's own
frames; with Redis unreachable that call raises and takes the socket down with a 1011
and a traceback, before the consumer can tell the page that live updates are paused.
Here it waits and tries again; ``group_add`` still raises, which the consumer handles.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

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
