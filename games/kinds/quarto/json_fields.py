"""What Quarto adds to a position's JSON: each cell's piece and traits, the piece in hand,
the pieces left and the phase; a won game's shared traits. Pure (no Django)."""

from __future__ import annotations

from games.engine import Outcome
from games.formats.serializers import Json, JsonFields

from . import rules as quarto


def cell(state: quarto.State, index: int) -> Json:
    piece = state.board[index]
    return {"piece": piece, "traits": list(quarto.piece_traits(piece)) if piece is not None else None}


def top(state: quarto.State) -> Json:
    return {"in_hand": state.in_hand, "available": list(state.available), "phase": state.phase}


def result(outcome: Outcome) -> Json:
    return {"shared": list(outcome.shared)}


FIELDS = JsonFields(cell=cell, top=top, result=result)
