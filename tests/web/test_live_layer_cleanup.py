"""The in-memory channel layer looks for expired entries once a second, not on every call."""

from __future__ import annotations

from typing import Any

import pytest

from games.live.layers import ThriftyInMemoryChannelLayer


@pytest.mark.asyncio
async def test_expired_entries_are_looked_for_at_most_once_per_interval(monkeypatch: Any) -> None:
    layer = ThriftyInMemoryChannelLayer()
    walks: list[int] = []
    monkeypatch.setattr("channels.layers.InMemoryChannelLayer._clean_expired", lambda self: walks.append(1))
    await layer.group_add("g", "c.inmemory!a")
    for _ in range(50):
        await layer.group_send("g", {"type": "x"})
        await layer.receive("c.inmemory!a")
    assert len(walks) == 1
    layer._cleaned -= layer.clean_interval  # a second later
    await layer.group_send("g", {"type": "x"})
    assert len(walks) == 2
