"""Connect-N's board as plain data for the grid partials: where a stone would land, and
the columns still open. Pure: no Django, no markup."""

from __future__ import annotations

from collections.abc import Hashable

from games.engine.grid import cell_name
from games.formats.boards import Data, grid_cells, grid_data

from . import rules as connect

SYMBOLS = ("X", "O", "A", "B")  # up to four players


def targets(state: connect.State) -> dict[int, str]:
    if state.gravity:
        # Any cell of a droppable column drops a stone into it.
        return {
            rank * state.width + column: str(state.move_at(rank * state.width + column))
            for column in state.droppable_columns
            for rank in range(state.height)
        }
    return {state.target_of(m): str(m) for m in state.legal_moves()}


def where_played(state: connect.State, last: Hashable | None) -> int | None:
    return state.last_cell


def board_data(state: connect.State, last: Hashable | None, my_turn: bool) -> Data:
    # Where a stone would land, on the page of the player to move only: elsewhere the
    # rings would look like cells to click.
    landing = set(state.legal_targets) if state.gravity and my_turn else set()
    cells = grid_cells(state, targets(state) if my_turn else {}, landing, state.last_cell, SYMBOLS)
    for index, cell in cells.items():
        # Every cell of a column drops the same stone: the keyboard stops once a column,
        # at its landing cell (up to 7 Tab stops on a Connect Four board, not 42).
        cell["tab_skip"] = bool(cell["move"]) and bool(landing) and index not in landing
    data = grid_data(state, cells, SYMBOLS)
    data["droppable"] = {cell_name(c, state.width)[0] for c in state.droppable_columns} if my_turn else set()
    return data
