"""Ultimate Tic-Tac-Toe's board as plain data for its partials: the 9x9 cells and the nine
small boards they make. Pure: no Django, no markup."""

from __future__ import annotations

from collections.abc import Hashable

from games.formats.action_words import say as _
from games.formats.boards import Data, cell_targets, grid_cells, grid_data

from . import rules as ultimate

SYMBOLS = ("X", "O")


def where_played(state: ultimate.State, last: Hashable | None) -> int | None:
    return state.last_move.cell if state.last_move else None


def board_data(state: ultimate.State, last: Hashable | None, my_turn: bool) -> Data:
    targets = cell_targets(state) if my_turn else {}
    cells = grid_cells(state, targets, set(), where_played(state, last), SYMBOLS)
    data = grid_data(state, cells, SYMBOLS)
    data["small_boards"] = small_boards(state, cells, my_turn)
    return data


def small_boards(state: ultimate.State, cells: dict[int, Data], my_turn: bool) -> list[list[Data]]:
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
            status = state.board_status(small)
            symbol = SYMBOLS[owner] if owner is not None and owner != ultimate.DRAWN else ""
            is_allowed = small in allowed and not state.is_over()
            row.append(
                {
                    "index": small,
                    "label": board_label(small, status, symbol, is_allowed),
                    "status": status,
                    "owner": owner if owner != ultimate.DRAWN else None,
                    "symbol": symbol,
                    "is_allowed": is_allowed,
                    "is_mine_to_play": my_turn and small in allowed,
                    "is_winning": small in won_lines,
                    "rows": [[cells[board_cells[r * 3 + c]] for c in range(3)] for r in (2, 1, 0)],
                }
            )
        rows.append(row)
    return rows


def board_label(small: int, status: str, symbol: str, allowed: bool) -> str:
    """What a screen reader says of a small board: its name, whether it is open, won (by
    whom) or drawn, and whether the mover may play in it."""
    words = {"board": ultimate.board_name(small).said(_), "symbol": symbol}
    if status == "won":
        label = _("%(board)s: won by %(symbol)s") % words
    elif status == "drawn":
        label = _("%(board)s: drawn") % words
    else:
        label = _("%(board)s: open") % words
    return label + _(", playable") if allowed else label
