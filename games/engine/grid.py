"""Cell names shared by the grid games: files a, b, c... left to right, ranks 1, 2, 3...
bottom to top. Cell index = rank_index * width + file_index, so index 0 is the
bottom-left corner."""

from __future__ import annotations

import re
from collections.abc import Sequence

from .base import BadNotation, IllegalMove

FILES = "abcdefghijkl"
_CELL_RE = re.compile(r"^([a-z])([0-9]{1,2})$")


def cell_name(index: int, width: int) -> str:
    rank, file = divmod(index, width)
    return f"{FILES[file]}{rank + 1}"


def parse_cell(text: str, width: int, height: int) -> int:
    """The index of a cell name like ``"b3"``; case and surrounding blanks are ignored."""
    match = _CELL_RE.match(text.strip().lower())
    if not match:
        raise BadNotation(text, f"a cell name such as a1 (files a-{FILES[width - 1]}, ranks 1-{height})")
    file = ord(match.group(1)) - ord("a")
    rank = int(match.group(2)) - 1
    if not (0 <= file < width and 0 <= rank < height):
        raise IllegalMove(
            "out_of_bounds",
            f"{text.strip()} is off the board: files a-{FILES[width - 1]}, ranks 1-{height}.",
        )
    return rank * width + file


def rows_top_first(width: int, height: int) -> list[list[int]]:
    """Cell indices in reading order, top rank first, as boards are drawn."""
    return [[rank * width + file for file in range(width)] for rank in reversed(range(height))]


def with_mark(board: tuple[int | None, ...], cell: int, seat: int) -> tuple[int | None, ...]:
    """``board`` with ``cell`` given to ``seat``."""
    return (*board[:cell], seat, *board[cell + 1 :])


def check_free(board: tuple[int | None, ...], cell: int, width: int, symbols: Sequence[str]) -> None:
    """Refuse a cell that is off the board or already marked."""
    if not 0 <= cell < len(board):
        last = cell_name(len(board) - 1, width)
        raise IllegalMove("out_of_bounds", f"There is no cell {cell}: cells are a1-{last}.")
    owner = board[cell]
    if owner is not None:
        raise IllegalMove("occupied", f"{cell_name(cell, width)} is already taken by {symbols[owner]}.")


def read_marks(rows: Sequence[str], width: int, symbols: Sequence[str]) -> tuple[int | None, ...]:
    """The board drawn by ``rows`` of symbols and ``.``, top rank first (any case)."""
    height = len(rows)
    board: list[int | None] = [None] * (width * height)
    for r, row in enumerate(rows):
        for c, char in enumerate(row.upper()):
            if char != ".":
                board[(height - 1 - r) * width + c] = symbols.index(char)
    return tuple(board)


def draw_marks(board: Sequence[int | None], width: int, symbols: Sequence[str]) -> list[list[str]]:
    """Rows of symbols and ``.``, top rank first: what :func:`read_marks` reads."""
    return [
        ["." if (owner := board[i]) is None else symbols[owner] for i in row]
        for row in rows_top_first(width, len(board) // width)
    ]
