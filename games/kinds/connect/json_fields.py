"""What connect-N adds to a position's JSON: the columns a stone can still be dropped into
(gravity games), as column letters. Pure (no Django)."""

from __future__ import annotations

from typing import Any

from games.engine.grid import FILES
from games.formats.serializers import Json, JsonFields, geometry

from . import rules as connect


def top(state: Any) -> Json:
    # Only attributes every connect state has: records and tests pass plain stand-ins.
    if not getattr(state, "gravity", False) or state.is_over():
        return {"droppable": []}
    width, height = geometry(state)
    return {"droppable": [FILES[f] for f in connect.open_columns(state.board, width, height)]}


FIELDS = JsonFields(top=top)
