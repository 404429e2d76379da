"""A game position as plain JSON-ready values, for the API, the WebSocket and records.

:func:`serialize` is a pure function of the game's kind, options, position and move
texts. It works from what every game's ``State`` has (``board``, ``to_move``,
``outcome``, ``legal_moves()``, and ``width``/``height`` or a square board); each
game adds its own fields with a :class:`JsonFields` value named in its package's entry
(:class:`games.spec.GameSpec` ``json_fields``), which passes it here.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.engine import Outcome
from games.engine.grid import cell_name, rows_top_first

Json = dict[str, Any]


def geometry(state: Any) -> tuple[int, int]:
    """(width, height) of the board: the state's own, else a square board's side."""
    width = getattr(state, "width", None)
    height = getattr(state, "height", None)
    if isinstance(width, int) and isinstance(height, int):
        return width, height
    side = math.isqrt(len(state.board))
    if side * side != len(state.board):
        raise ValueError(f"{type(state).__name__} has no width/height and its board is not square")
    return side, side


@dataclass(frozen=True)
class JsonFields:
    """What one game adds to the generic JSON picture of a position.

    ``cell(state, index)`` gives the keys of one square besides its name (default: the
    seat that owns it); ``top(state)`` the game's own top-level fields;
    ``result(outcome)`` extra keys for the result of a finished game.
    """

    cell: Callable[[Any, int], Json] | None = None
    top: Callable[[Any], Json] | None = None
    result: Callable[[Outcome], Json] | None = None


def owner_cell(state: Any, index: int) -> Json:
    return {"owner": state.board[index]}


def serialize(
    kind: str,
    options: Mapping[str, Any],
    state: Any,
    moves: Sequence[str],
    *,
    status: str | None = None,
    fields: JsonFields = JsonFields(),
) -> Json:
    """The position as JSON values: cells by name, rows top first, the game's own fields.

    ``status`` is "waiting", "playing" or "finished"; by default it follows the position.
    """
    width, height = geometry(state)
    cell = fields.cell or owner_cell
    outcome: Outcome | None = state.outcome
    over = state.is_over()
    if status is None:
        status = "finished" if over else "playing"
    result: Json | None = None
    if outcome is not None:
        result = {
            "winner": outcome.winner,
            "lines": [[cell_name(i, width) for i in line] for line in outcome.lines],
        }
        if fields.result:
            result.update(fields.result(outcome))
    data: Json = {
        "game": kind,
        "options": dict(options),
        "status": status,
        "result": result,
        "to_move": None if over else state.to_move,
        "num_players": state.num_players,
        "ply": len(moves),
        "moves": list(moves),
        "legal_moves": [str(m) for m in state.legal_moves()] if status == "playing" else [],
        "width": width,
        "height": height,
        "board": [
            [{"cell": cell_name(i, width), **cell(state, i)} for i in row]
            for row in rows_top_first(width, height)
        ],
    }
    if fields.top:
        data.update(fields.top(state))
    return data
