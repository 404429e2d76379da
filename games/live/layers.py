"""The channel layers: Redis made to wait out an outage, and the in-memory one made
to clean up once a second instead of on every call.

In memory: Channels' layer walks every channel and every group membership of the
process for expired entries on each ``receive`` and ``group_send``. Every consumer
calls ``receive`` again after each message, so a push to a game's 500 watchers cost
500 walks over all the process's sockets, and a burst of 2,000 connecting sockets as
many. Messages expire after a minute and memberships after a day: looking once a
second loses nothing.

Redis, two ways (``CHANNEL_LAYER``):
``lists`` (channels_redis's default layer) keeps a list per socket: a group send writes
one copy of the message per member socket into Redis, and each process pops them back
one by one; ``pubsub`` publishes one message per group, which each process subscribed to
the group receives once and hands to its own sockets. A game's 500 watchers cost one
message per process, not 500 (docs/performance.md compares them). Pub/sub delivers at
most once, with nothing kept for a process that is reconnecting: a page that missed a
push is healed by the next one or its resync, as with the lists' expiry.

Channels runs every consumer's ``receive`` on its layer beside the socket's own
frames; with Redis unreachable the lists' ``receive`` raises and takes the socket down
with a 1011 and a traceback, before the consumer can tell the page that live updates
are paused; and pub/sub's ``new_channel`` raises the same way. Here both wait instead;
``group_add`` still raises, which the consumer handles.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from channels.layers import InMemoryChannelLayer
from channels_redis.core import RedisChannelLayer
from channels_redis.pubsub import RedisPubSubChannelLayer, RedisPubSubLoopLayer
from channels_redis.utils import _wrap_close
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


class PatientPubSubLoopLayer(RedisPubSubLoopLayer):  # type: ignore[misc]
    async def _subscribe_to_channel(self, channel: str) -> None:
        # The socket's own channel: nothing here sends to it (only to groups), so with
        # Redis down it can wait; the consumer's group_add is what says "paused".
        self.channels[channel] = asyncio.Queue()
        try:
            await self._get_shard(channel).subscribe(channel)
        except (RedisConnectionError, OSError) as exc:
            log.warning("channel layer unreachable (%s); %s not subscribed", exc, channel)


class PatientRedisPubSubChannelLayer(RedisPubSubChannelLayer):  # type: ignore[misc]
    def _get_layer(self) -> PatientPubSubLoopLayer:
        loop = asyncio.get_running_loop()
        layer: PatientPubSubLoopLayer | None = self._layers.get(loop)
        if layer is None:
            layer = PatientPubSubLoopLayer(*self._args, **self._kwargs, channel_layer=self)
            self._layers[loop] = layer
            _wrap_close(self, loop)
        return layer


class ThriftyInMemoryChannelLayer(InMemoryChannelLayer):  # type: ignore[misc]  # channels is untyped
    clean_interval = 1.0
    _cleaned = float("-inf")

    def _clean_expired(self) -> None:
        now = time.monotonic()
        if now - self._cleaned < self.clean_interval:
            return
        self._cleaned = now
        super()._clean_expired()
