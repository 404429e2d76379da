"""Quarto's board as plain data for its partials: the cells, the piece in hand and the
tray. A piece is ``{"number", "name", "shape"}``: the page renders its ``shape`` once with
the game's ``piece`` partial. Pure: no Django, no markup."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass

from games.engine.grid import rows_top_first
from games.formats.action_words import say as _
from games.formats.boards import HINTLESS, Data, winning_cells

from . import rules as quarto
from .action_words import looks

CYLINDER_SIDES = 16  # faces drawn around a round piece; quarto.css spaces them 360/16 degrees apart


@dataclass(frozen=True)
class PieceShape:
    """What the CSS 3D piece is made of: its trait classes, and its faces when round."""

    classes: str
    round: bool
    hollow: bool
    sides: tuple[int, ...]


def piece_shape(number: int) -> PieceShape:
    is_round = number & quarto.SHAPE_BIT != 0
    return PieceShape(
        classes=" ".join(f"piece--{t}" for t in quarto.piece_traits(number)),
        round=is_round,
        hollow=number & quarto.FILL_BIT != 0,
        sides=tuple(range(CYLINDER_SIDES)) if is_round else (),
    )


def piece(number: int) -> Data:
    name = looks(number)
    return {
        "number": number,
        "name": name,
        "shape": piece_shape(number),
        "used": False,
        "move": str(number),
        "label": _("Give piece %(number)s: %(piece)s") % {"number": number, "piece": name},
        **HINTLESS,
    }


def where_played(state: quarto.State, last: Hashable | None) -> int | None:
    """The cell of the newest action when it was a placement."""
    return last.cell if isinstance(last, quarto.Place) else None


def board_data(state: quarto.State, last: Hashable | None, my_turn: bool) -> Data:
    winning = winning_cells(state)
    new_cell = where_played(state, last)
    playing = my_turn and not state.is_over()
    can_place = playing and state.phase == quarto.PLACE
    available = set(state.available)
    rows = []
    for row in rows_top_first(quarto.SIZE, quarto.SIZE):
        cells = []
        for index in row:
            held = state.board[index]
            name = quarto.CELL_NAMES[index]
            cells.append(
                {
                    "index": index,
                    "name": name,
                    "piece": piece(held) if held is not None else None,
                    "playable": can_place and held is None,
                    "move": name if can_place and held is None else None,
                    "is_winning": index in winning,
                    "is_new": index == new_cell,
                    "label": _("%(cell)s: %(piece)s") % {"cell": name, "piece": looks(held)}
                    if held is not None
                    else _("%(cell)s: empty") % {"cell": name},
                    **HINTLESS,
                }
            )
        rows.append(cells)
    tray = [piece(p) if p in available else {"number": p, "used": True} for p in quarto.PIECES]
    in_hand = piece(state.in_hand) if state.in_hand is not None else None
    can_give = playing and state.phase == quarto.GIVE
    return {
        "rows": rows,
        # What can be played now: the empty cells for the piece in hand, or the pieces to give.
        "controls": [c for row in rows for c in row if c["move"]]
        + [p for p in tray if can_give and not p["used"]],
        # Every piece in sight, whose markup the page renders from its shape.
        "shown_pieces": [c["piece"] for row in rows for c in row if c["piece"]]
        + ([in_hand] if in_hand else [])
        + [p for p in tray if not p["used"]],
        "in_hand": in_hand,
        # All 16 slots, so a piece keeps its place in the tray as others leave it.
        "tray": tray,
        "available_count": len(available),
        "can_place": can_place,
        "can_give": can_give,
        "phase": state.phase,
    }
