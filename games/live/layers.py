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

Pub/sub, kept off one lock: channels_redis's pub/sub connection takes one ``asyncio.Lock``
per process for every SUBSCRIBE, UNSUBSCRIBE and PUBLISH, and subscribed every socket's
own channel on opening and unsubscribed it on closing. In a burst of connecting sockets
each waited its turn at that lock, one turn per pass of the event loop, twice (its own
channel, then its groups, even those already subscribed): a thousand sockets went through
it one by one, so none was accepted within Daphne's 5 s (docs/performance.md, "Scale-out").
Here a socket's own channel is a queue in its process only (the site sends to groups,
never to one socket's channel; a ``send`` to a channel of this process is delivered here),
and joining a group this process is already subscribed to, with nothing waiting at the
lock, takes no turn.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from channels.layers import InMemoryChannelLayer
from channels_redis.core import RedisChannelLayer
from channels_redis.pubsub import (
    RedisPubSubChannelLayer,
    RedisPubSubLoopLayer,
    RedisSingleShardConnection,
)
from channels_redis.utils import _wrap_close
from redis.exceptions import ConnectionError as RedisConnectionError

log = logging.getLogger(__name__)

RETRY_SECONDS = 2.0


async def drop_idle_connections(layer: Any) -> None:
    """Close the layer's idle connections to Redis on this loop (a Redis layer's), so the
    next command opens a fresh one. Those held (a subscription, a waiting ``receive``)
    stay: they notice a restart by themselves."""
    drop = getattr(layer, "drop_idle_connections", None)
    if drop is None:
        return
    try:
        await drop()
    except Exception:
        log.warning("could not drop the channel layer's idle connections", exc_info=True)


async def _drop_idle(clients: list[Any]) -> None:
    for client in clients:
        await client.connection_pool.disconnect(inuse_connections=False)


class PatientRedisChannelLayer(RedisChannelLayer):  # type: ignore[misc]  # channels_redis is untyped
    async def drop_idle_connections(self) -> None:
        loop_layer = self._layers.get(asyncio.get_running_loop())
        await _drop_idle(list(getattr(loop_layer, "_connections", {}).values()))

    async def receive(self, channel: str) -> Any:
        while True:
            try:
                return await super().receive(channel)
            except (RedisConnectionError, OSError) as exc:
                log.warning("channel layer unreachable (%s); retrying in %.0f s", exc, RETRY_SECONDS)
                await asyncio.sleep(RETRY_SECONDS)


class QuickShardConnection(RedisSingleShardConnection):  # type: ignore[misc]
    """One Redis pub/sub connection of the process; a subscription it holds already, with
    no (un)subscription under way or waiting, is not asked for again."""

    def _settled(self) -> bool:
        # channels_redis 4.3's lock: held, or released with a waiter about to take it.
        return not self._lock.locked() and not getattr(self._lock, "_waiters", None)

    async def subscribe(self, channel: str) -> None:
        if channel in self._subscribed_to and self._settled():
            return
        await super().subscribe(channel)

    async def unsubscribe(self, channel: str) -> None:
        if channel not in self._subscribed_to and self._settled():
            return  # a socket's own channel (never subscribed), or gone already
        await super().unsubscribe(channel)


class PatientPubSubLoopLayer(RedisPubSubLoopLayer):  # type: ignore[misc]
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        shards: list[RedisSingleShardConnection] = self._shards  # type: ignore[has-type]
        self._shards = [QuickShardConnection(shard.host, self) for shard in shards]

    async def _subscribe_to_channel(self, channel: str) -> None:
        # The socket's own channel: a queue in this process, not subscribed in Redis (see
        # the module's docstring). Its group messages are handed to it from the group's
        # subscription; with Redis down the consumer's group_add is what says "paused".
        self.channels[channel] = asyncio.Queue()

    async def send(self, channel: str, message: dict[str, Any]) -> None:
        queue = self.channels.get(channel)
        if queue is not None:  # a channel of this process
            queue.put_nowait(self.channel_layer.serialize(message))
            return
        await super().send(channel, message)


class PatientRedisPubSubChannelLayer(RedisPubSubChannelLayer):  # type: ignore[misc]
    async def drop_idle_connections(self) -> None:
        layer = self._layers.get(asyncio.get_running_loop())
        shards = layer._shards if layer is not None else []
        await _drop_idle([shard._redis for shard in shards if shard._redis is not None])

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
