"""Telling open pages that a game changed: one channel-layer group per game."""

from __future__ import annotations

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from games.events import GameEvent

log = logging.getLogger(__name__)


def group_name(game_id: int) -> str:
    return f"game-{game_id}"


def broadcast(game_id: int, ply: int) -> None:
    """Ask every consumer watching the game to push its current partials.

    Consumers render per viewer (a seat sees "your turn", a spectator does not), so
    the message carries only the ply.
    """
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(group_name(game_id), {"type": "game.changed", "ply": ply})
    except Exception:  # a lost push is healed by the next one or a reload; the move stands
        log.exception("could not broadcast game %s ply %s", game_id, ply)


def on_game_event(event: GameEvent) -> None:
    """Subscribed in ``GamesConfig.ready()``: every event changes what open pages show."""
    broadcast(event.game_id, event.ply)
