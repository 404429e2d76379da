"""A game position as plain JSON-ready values, for the API, the WebSocket and records.

:func:`serialize` is a pure function of the game's kind, options, position and move
texts. It works from what every grid game's ``State`` has (``board``, ``to_move``,
``outcome``, ``legal_moves()``, and ``width``/``height`` or a square board); each
game adds its own fields with an :class:`Extras` value named in its catalog entry
(:mod:`games.catalog`), which passes it here.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.engine import Outcome, connect, quarto
from games.engine.grid import FILES, cell_name, rows_top_first

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
class Extras:
    """What one game adds to the generic picture.

    ``cell(state, index)`` gives the keys of one square besides its name (default: the
    seat that owns it); ``fields(state)`` the game's own top-level fields;
    ``result(outcome)`` extra keys for the result of a finished game.
    """

    cell: Callable[[Any, int], Json] | None = None
    fields: Callable[[Any], Json] | None = None
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
    extras: Extras = Extras(),
) -> Json:
    """The position as JSON values: cells by name, rows top first, the game's own fields.

    ``status`` is "waiting", "playing" or "finished"; by default it follows the position.
    """
    width, height = geometry(state)
    cell = extras.cell or owner_cell
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
        if extras.result:
            result.update(extras.result(outcome))
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
    if extras.fields:
        data.update(extras.fields(state))
    return data


# -- Quarto -----------------------------------------------------------------


def _quarto_cell(state: quarto.State, index: int) -> Json:
    piece = state.board[index]
    return {"piece": piece, "traits": list(quarto.piece_traits(piece)) if piece is not None else None}


def _quarto_fields(state: quarto.State) -> Json:
    return {"in_hand": state.in_hand, "available": list(state.available), "phase": state.phase}


def _quarto_result(outcome: Outcome) -> Json:
    return {"shared": list(outcome.shared)}


QUARTO = Extras(cell=_quarto_cell, fields=_quarto_fields, result=_quarto_result)


# -- the grid cousins: only attributes their states are known to have --------


def _connect_fields(state: Any) -> Json:
    """Columns a stone can still be dropped into (gravity games), as column letters."""
    if not getattr(state, "gravity", False) or state.is_over():
        return {"droppable": []}
    width, height = geometry(state)
    return {"droppable": [FILES[f] for f in connect.open_columns(state.board, width, height)]}


def _ultimate_fields(state: Any) -> Json:
    last = getattr(state, "last_move", None)
    return {
        "allowed_boards": [] if state.is_over() else list(state.allowed_boards),
        "board_owners": list(getattr(state, "board_owners", ())),
        "last_move": None if last is None else str(last),
    }


CONNECT = Extras(fields=_connect_fields)
ULTIMATE = Extras(fields=_ultimate_fields)
