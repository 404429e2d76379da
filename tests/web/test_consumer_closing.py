"""A push can reach a socket whose page has just closed (a player leaves for the rematch,
closes the tab): Daphne refuses the send. The socket is then counted out as usual: a
crashed consumer never runs its disconnect, and its seat would look held for good."""

from __future__ import annotations

from typing import Any

import pytest
from autobahn.exception import Disconnected
from channels.consumer import AsyncConsumer
from channels.layers import get_channel_layer

from games.live import rounds
from games.presenting import audiences, presence

from .test_audiences import session_for, socket, two_humans

pytestmark = [pytest.mark.django_db(transaction=True)]


@pytest.mark.asyncio
async def test_a_push_to_a_closed_page_is_dropped_and_the_socket_counted_out(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = await rounds.in_worker(two_humans)
    comm = socket(game.pk, await rounds.in_worker(session_for, "p-one"))
    connected, _ = await comm.connect()
    assert connected
    await comm.receive_from()  # the current position
    assert presence.local_counts[game.pk, "seat-0"] == 1

    real_send = AsyncConsumer.send

    async def closed(self: Any, message: dict[str, Any]) -> None:
        if message["type"] == "websocket.send":
            raise Disconnected("Attempt to send on a closed protocol")
        await real_send(self, message)

    monkeypatch.setattr(AsyncConsumer, "send", closed)
    layer = get_channel_layer()
    await layer.group_send(audiences.audience_group(game.pk, "seat-0"), {"type": "live.frame", "text": "x"})
    await comm.disconnect()  # raises what the consumer raised, if it crashed
    assert presence.local_counts[game.pk, "seat-0"] == 0
