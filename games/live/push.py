"""The live layer's subscriber and its start: every game event reaches the open pages.

:func:`on_game_event` (subscribed in ``GamesConfig.ready()``) starts a render round
(:mod:`games.live.rounds`) and the small messages an event carries
(:mod:`games.live.messages`); :func:`bind` ties the live layer to the server's event loop
and starts the heartbeat and the sweeps (abandoned games, clocks) (:mod:`games.live.heartbeat`).
"""

from __future__ import annotations

import asyncio

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings

from games.events import GameEvent
from games.live import heartbeat, messages, rounds
from games.presenting import audiences


def bind(loop: asyncio.AbstractEventLoop) -> None:
    """The server's event loop (set by the ASGI app and by every consumer that connects)."""
    if not rounds.is_bound(loop):
        rounds.bind(loop)
        if settings.ABANDON_SWEEP > 0:
            heartbeat.every(loop, settings.ABANDON_SWEEP, heartbeat.sweep)
        if settings.SEAT_HEARTBEAT > 0:
            heartbeat.every(loop, settings.SEAT_HEARTBEAT, heartbeat.heartbeat)
        if settings.CLOCK_SWEEP > 0:
            heartbeat.every(loop, settings.CLOCK_SWEEP, heartbeat.clock_sweep)


def on_game_event(event: GameEvent) -> None:
    """Subscribed in ``GamesConfig.ready()``: every event changes what open pages show."""
    if event.kind != "moved":  # a seat may have changed hands or names
        audiences.live_cache().delete_many(
            [audiences.seats_key(event.game_id), audiences.names_key(event.game_id)]
        )
    rounds.broadcast(event.game_id, event.ply, fresh=event.kind != "moved")
    if event.kind in ("joined", "named"):
        messages.presence_later(event.game_id)
    for kind in messages.SMALL_EVENTS.get(event.kind, ()):
        messages.small_event(event.game_id, kind)


def session_ended(tag: str) -> None:
    """Subscribed in ``GamesConfig.ready()``: a browser logged out (or its session ended,
    or the account it played as was closed), ``tag`` naming the session. Its open sockets
    stop getting its seats' renderings and become a spectator's."""
    layer = get_channel_layer()
    if layer is not None:
        async_to_sync(layer.group_send)(audiences.tagged_session_group(tag), {"type": "session.ended"})
