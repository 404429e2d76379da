"""Each seat's rating on the game page and in its JSON state, from the app that keeps
ratings (registered in its ``AppConfig.ready()``: games knows nothing of it).

A provider returns, for a rated game, seat -> ``{"rating": int, "provisional": bool,
"change": int | None}``: the rating before the game and, once it is rated, the change.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from games.models import Game

log = logging.getLogger(__name__)

Provider = Callable[[Game], dict[int, dict[str, Any]]]
_providers: list[Provider] = []


def add_provider(provider: Provider) -> None:
    if provider not in _providers:
        _providers.append(provider)


def of(game: Game) -> dict[int, dict[str, Any]]:
    """Seat -> its rating data; empty for a game not rated (or when no app rates)."""
    if not game.rated:
        return {}
    found: dict[int, dict[str, Any]] = {}
    for provider in tuple(_providers):
        try:
            found.update(provider(game))
        except Exception:  # a page never fails for want of a rating
            log.exception("seat ratings of game %s", game.pk)
    return found


def text(data: dict[str, Any] | None) -> str:
    """ "1512?", "1512 +12", "1488 -12" (written with a minus sign, U+2212)."""
    if not data:
        return ""
    shown = f"{data['rating']}{'?' if data['provisional'] else ''}"
    change = data.get("change")
    if change is None:
        return shown
    sign = "+" if change > 0 else "\u2212" if change < 0 else "±"
    return f"{shown} {sign}{abs(change)}"
