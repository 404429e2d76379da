"""What Ultimate Tic-Tac-Toe adds to a position's JSON: the small boards one may play in,
who owns each, and the newest move (it decides where the next is played). Pure (no Django)."""

from __future__ import annotations

from typing import Any

from games.formats.serializers import Json, JsonFields


def top(state: Any) -> Json:
    last = getattr(state, "last_move", None)
    return {
        "allowed_boards": [] if state.is_over() else list(state.allowed_boards),
        "board_owners": list(getattr(state, "board_owners", ())),
        "last_move": None if last is None else str(last),
    }


FIELDS = JsonFields(top=top)
