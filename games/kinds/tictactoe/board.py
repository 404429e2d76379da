"""Tic-tac-toe's board as plain data for the grid partials. Pure: no Django, no markup."""

from __future__ import annotations

from collections.abc import Hashable

from games.formats.boards import Data, cell_targets, grid_cells, grid_data, marked_cell

from . import rules

SYMBOLS = ("X", "O")


def board_data(state: rules.State, last: Hashable | None, my_turn: bool) -> Data:
    targets = cell_targets(state) if my_turn else {}
    return grid_data(state, grid_cells(state, targets, set(), marked_cell(state, last), SYMBOLS), SYMBOLS)
