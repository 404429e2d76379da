"""``{% your_turn as rows %}``: this browser's games waiting for its move (the "your turn" list).

A tag rather than a view's context, so the list is one include in any page (the home
page, the profile) and the views stay as they are.
"""

from __future__ import annotations

from typing import Any

from django import template

from games.services import players
from games.services.your_turn import TurnRow, games_to_play

register = template.Library()


@register.simple_tag(takes_context=True)
def your_turn(context: dict[str, Any]) -> list[TurnRow]:
    request = context.get("request")
    session = getattr(request, "session", None)
    if session is None:
        return []
    return games_to_play(players.player_id(session))
