"""What each game's board looks like to a viewer, as plain data for the templates.

One function per game, declared in its catalog entry (:mod:`games.catalog`): it takes
the position, the newest action (``None`` before the first) and whether the viewer may
act now, and returns the board's rows of cells and the game's own extras. Pure: no
Django, no markup. A piece (Quarto's) is ``{"number", "name", "look"}``: the page renders
its ``look`` once with the game's ``piece`` partial.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any

from games.engine import connect, quarto, tictactoe, ultimate
from games.engine.grid import cell_name, rows_top_first

Data = dict[str, Any]
BoardData = Callable[[Any, Hashable | None, bool], Data]
GRID_SYMBOLS = ("X", "O", "A", "B")


def winning_cells(state: Any) -> set[int]:
    return {cell for line in (state.outcome.lines if state.outcome else ()) for cell in line}


# -- Quarto -------------------------------------------------------------------------


CYLINDER_SIDES = 16  # faces drawn around a round piece; piece.css spaces them 360/16 degrees apart


@dataclass(frozen=True)
class PieceLook:
    """What the CSS 3D piece is made of: its trait classes, and its faces when round."""

    classes: str
    round: bool
    hollow: bool
    sides: tuple[int, ...]


def piece_look(number: int) -> PieceLook:
    is_round = number & quarto.SHAPE_BIT != 0
    return PieceLook(
        classes=" ".join(f"piece--{t}" for t in quarto.piece_traits(number)),
        round=is_round,
        hollow=number & quarto.FILL_BIT != 0,
        sides=tuple(range(CYLINDER_SIDES)) if is_round else (),
    )


# Every key the templates look up, even when empty: a key missing from a dict costs Django's
# template engine a failed lookup and a dir() of the dict, on every cell of every rendering.
HINTLESS = {"hint": None, "is_best": False}


def piece(number: int) -> Data:
    return {
        "number": number,
        "name": quarto.piece_name(number),
        "look": piece_look(number),
        "used": False,
        "hint_label": "",
        **HINTLESS,
    }


def quarto_last_cell(state: quarto.State, last: Hashable | None) -> int | None:
    """The cell of the newest action when it was a placement (it gets the landing animation)."""
    return last.cell if isinstance(last, quarto.Place) else None


def quarto_board(state: quarto.State, last: Hashable | None, my_turn: bool) -> Data:
    winning = winning_cells(state)
    new_cell = quarto_last_cell(state, last)
    can_place = my_turn and state.phase == quarto.PLACE
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
                    "is_winning": index in winning,
                    "is_new": index == new_cell,
                    "label": f"{name}: {quarto.piece_name(held)}" if held is not None else f"{name}: empty",
                    **HINTLESS,
                }
            )
        rows.append(cells)
    return {
        "rows": rows,
        "in_hand": piece(state.in_hand) if state.in_hand is not None else None,
        # All 16 slots, so a piece keeps its place in the tray as others leave it.
        "tray": [piece(p) if p in available else {"number": p, "used": True} for p in quarto.PIECES],
        "available_count": len(available),
        "can_place": can_place,
        "can_give": my_turn and state.phase == quarto.GIVE,
        "phase": state.phase,
    }


# -- the grid games: cells owned by seats, shown as symbols ---------------------------


def grid_cells(
    state: Any, targets: dict[int, str], landing: set[int], last_cell: int | None
) -> dict[int, Data]:
    """Every cell by index: owner, symbol, the move a click sends, and its label."""
    winning = winning_cells(state)
    cells = {}
    for index, owner in enumerate(state.board):
        name = cell_name(index, state.width)
        symbol = GRID_SYMBOLS[owner] if owner is not None else ""
        cells[index] = {
            "index": index,
            "name": name,
            "owner": owner,
            "symbol": symbol,
            "move": targets.get(index),
            "is_winning": index in winning,
            "is_new": index == last_cell,
            "is_landing": index in landing,
            "label": f"{name}: {symbol or 'empty'}"
            + (f", plays {targets[index]}" if index in targets and targets[index] != name else ""),
            "tab_skip": False,
            **HINTLESS,
        }
    return cells


def grid_data(state: Any, cells: dict[int, Data]) -> Data:
    return {
        "rows": [[cells[i] for i in row] for row in rows_top_first(state.width, state.height)],
        "width": state.width,
        "files": [cell_name(f, state.width)[0] for f in range(state.width)],
        "symbols": GRID_SYMBOLS[: state.num_players],
    }


def cell_targets(state: Any) -> dict[int, str]:
    """Cell index -> the move text a click on it sends, for games whose moves name a cell."""
    return {m.cell: str(m) for m in state.legal_moves()}


def marked_cell(state: Any, last: Hashable | None) -> int | None:
    """The newest mark's cell, for games whose moves name a cell."""
    return int(last.cell) if last is not None else None  # type: ignore[attr-defined]


def tictactoe_board(state: tictactoe.State, last: Hashable | None, my_turn: bool) -> Data:
    cells = grid_cells(state, cell_targets(state) if my_turn else {}, set(), marked_cell(state, last))
    return grid_data(state, cells)


def connect_targets(state: connect.State) -> dict[int, str]:
    if state.gravity:
        # Any cell of a droppable column drops a stone into it.
        return {
            rank * state.width + column: str(state.move_at(rank * state.width + column))
            for column in state.droppable_columns
            for rank in range(state.height)
        }
    return {state.target_of(m): str(m) for m in state.legal_moves()}


def connect_last_cell(state: connect.State, last: Hashable | None) -> int | None:
    return state.last_cell


def connect_board(state: connect.State, last: Hashable | None, my_turn: bool) -> Data:
    # Where a stone would land, on the page of the player to move only: elsewhere the
    # rings would look like cells to click.
    landing = set(state.legal_targets) if state.gravity and my_turn else set()
    cells = grid_cells(state, connect_targets(state) if my_turn else {}, landing, state.last_cell)
    for index, cell in cells.items():
        # Every cell of a column drops the same stone: the keyboard stops once a column,
        # at its landing cell (up to 7 Tab stops on a Connect Four board, not 42).
        cell["tab_skip"] = bool(cell["move"]) and bool(landing) and index not in landing
    data = grid_data(state, cells)
    data["droppable"] = {cell_name(c, state.width)[0] for c in state.droppable_columns} if my_turn else set()
    return data


def ultimate_last_cell(state: ultimate.State, last: Hashable | None) -> int | None:
    return state.last_move.cell if state.last_move else None


def ultimate_board(state: ultimate.State, last: Hashable | None, my_turn: bool) -> Data:
    cells = grid_cells(state, cell_targets(state) if my_turn else {}, set(), ultimate_last_cell(state, last))
    data = grid_data(state, cells)
    data["small_boards"] = ultimate_boards(state, cells, my_turn)
    return data


def ultimate_boards(state: ultimate.State, cells: dict[int, Data], my_turn: bool) -> list[list[Data]]:
    """The nine small boards as rows of boards (top first), each with its cells top row first."""
    allowed = set(state.allowed_boards)
    won_lines = {b for line in state.winning_boards for b in line}
    rows = []
    for board_row in (2, 1, 0):
        row = []
        for board_col in range(3):
            small = board_row * 3 + board_col
            owner = state.board_owners[small]
            board_cells = ultimate.BOARD_CELLS[small]
            row.append(
                {
                    "index": small,
                    "name": ultimate.BOARD_NAMES[small],
                    "status": state.board_status(small),
                    "owner": owner if owner != ultimate.DRAWN else None,
                    "symbol": GRID_SYMBOLS[owner] if owner is not None and owner != ultimate.DRAWN else "",
                    "is_allowed": small in allowed and not state.is_over(),
                    "is_mine_to_play": my_turn and small in allowed,
                    "is_winning": small in won_lines,
                    "rows": [[cells[board_cells[r * 3 + c]] for c in range(3)] for r in (2, 1, 0)],
                }
            )
        rows.append(row)
    return rows
