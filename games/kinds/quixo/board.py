"""Quixo's board as plain data for the grid partials: each cube the mover may take is a
two-part control (:mod:`games.formats.boards`): take it, then choose the end it goes back
in from. Pure: no Django, no markup."""

from __future__ import annotations

from collections.abc import Hashable

from games.formats.action_words import gettext_noop
from games.formats.action_words import say as _
from games.formats.boards import Data, end, grid_cells, grid_data

from .rules import CELL_NAMES, ENDS, Push, State

SYMBOLS = ("X", "O")
PUSH_HERE = gettext_noop("%(cell)s: push the cube from %(from)s in here")


def where_played(state: State, last: Hashable | None) -> int | None:
    """The end the newest cube went in at."""
    return last.end if isinstance(last, Push) else None


def board_data(state: State, last: Hashable | None, my_turn: bool) -> Data:
    cells = grid_cells(state, {}, set(), where_played(state, last), SYMBOLS)
    data = grid_data(state, cells, SYMBOLS)
    controls = []
    if my_turn and not state.is_over():
        for take, ends in ENDS.items():
            if not state.takeable(take):
                continue
            cell = cells[take]
            name = CELL_NAMES[take]
            cell["part"] = name
            cell["label"] += _(", take this cube")
            cell["ends"] = [
                end(cells[e], str(Push(take, e)), _(PUSH_HERE) % {"cell": CELL_NAMES[e], "from": name})
                for e in ends
            ]
            controls.append(cell)
    data["controls"] = controls
    return data
