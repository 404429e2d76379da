"""Cell names shared by the grid games: files a, b, c... left to right, ranks 1, 2, 3...
bottom to top. Cell index = rank_index * width + file_index, so index 0 is the
bottom-left corner."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

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
        raise BadNotation(
            text,
            "a cell name such as a1 (files a-%(file)s, ranks 1-%(rank)s)",
            file=FILES[width - 1],
            rank=height,
        )
    file = ord(match.group(1)) - ord("a")
    rank = int(match.group(2)) - 1
    if not (0 <= file < width and 0 <= rank < height):
        raise IllegalMove(
            "out_of_bounds",
            "%(cell)s is off the board: files a-%(file)s, ranks 1-%(rank)s.",
            cell=text.strip(),
            file=FILES[width - 1],
            rank=height,
        )
    return rank * width + file


def parse_cell_or(text: str, width: int, height: int, notation: str, **words: Any) -> int:
    """:func:`parse_cell`, whose notation error names the game's own notation instead (a
    template, filled with ``words``)."""
    try:
        return parse_cell(text if isinstance(text, str) else "", width, height)
    except BadNotation:
        raise BadNotation(text, notation, **words) from None


def lines(width: int, height: int, n: int) -> tuple[tuple[int, ...], ...]:
    """Every run of ``n`` cells in a straight line: rows (bottom rank first), then columns
    (left file first), then rising and falling diagonals; each run's cells in index order.

    On a square board with ``n`` equal to its side these are the familiar eight (3x3) or
    ten (4x4) lines: ranks, files, and the two long diagonals.
    """
    rows = tuple(
        tuple(r * width + f + k for k in range(n)) for r in range(height) for f in range(width - n + 1)
    )
    columns = tuple(
        tuple((r + k) * width + f for k in range(n)) for f in range(width) for r in range(height - n + 1)
    )
    rising = tuple(
        tuple((r + k) * width + f + k for k in range(n))
        for r in range(height - n + 1)
        for f in range(width - n + 1)
    )
    falling = tuple(
        tuple((r + k) * width + f - k for k in range(n))
        for r in range(height - n + 1)
        for f in range(n - 1, width)
    )
    return rows + columns + rising + falling


def blocks(width: int, height: int, side: int, step: int) -> tuple[tuple[int, ...], ...]:
    """The ``side`` x ``side`` squares of cells whose corners lie ``step`` apart, bottom-left
    first, rank by rank; each square's cells bottom rank first, as a small board numbers them.

    ``step == side`` tiles the board (Ultimate's small boards); ``step == 1`` gives every
    overlapping square (Quarto's 2x2 wins).
    """
    return tuple(
        tuple((r + i) * width + f + j for i in range(side) for j in range(side))
        for r in range(0, height - side + 1, step)
        for f in range(0, width - side + 1, step)
    )


def lines_through(cells: int, table: Sequence[tuple[int, ...]]) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """For each of ``cells`` cells, the lines of ``table`` that contain it, in their order."""
    return tuple(tuple(line for line in table if cell in line) for cell in range(cells))


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
        raise IllegalMove(
            "out_of_bounds", "There is no cell %(cell)s: cells are a1-%(last)s.", cell=cell, last=last
        )
    owner = board[cell]
    if owner is not None:
        raise IllegalMove(
            "occupied",
            "%(cell)s is already taken by %(owner)s.",
            cell=cell_name(cell, width),
            owner=symbols[owner],
        )


def read_marks(rows: Sequence[str], width: int, symbols: Sequence[str]) -> tuple[int | None, ...]:
    """The board drawn by ``rows`` of symbols and ``.``, top rank first (any case)."""
    height = len(rows)
    board: list[int | None] = [None] * (width * height)
    for r, row in enumerate(rows):
        for c, char in enumerate(row.upper()):
            if char != ".":
                board[(height - 1 - r) * width + c] = symbols.index(char)
    return tuple(board)


def read_square(text: str, size: int, symbols: Sequence[str]) -> tuple[int | None, ...]:
    """The board of a square grid game drawn as text: ``size`` rows of ``size`` symbols and
    ``.``, top rank first, blanks ignored (what ``from_ascii`` reads)."""
    rows = ["".join(line.split()) for line in text.strip().splitlines()]
    if len(rows) != size or any(len(r) != size for r in rows):
        raise ValueError(f"need {size} rows of {size} marks")
    return read_marks(rows, size, symbols)


def draw_marks(board: Sequence[int | None], width: int, symbols: Sequence[str]) -> list[list[str]]:
    """Rows of symbols and ``.``, top rank first: what :func:`read_marks` reads."""
    return [
        ["." if (owner := board[i]) is None else symbols[owner] for i in row]
        for row in rows_top_first(width, len(board) // width)
    ]
