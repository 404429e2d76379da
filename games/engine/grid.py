"""Cell names shared by the grid games: files a, b, c... left to right, ranks 1, 2, 3...
bottom to top. Cell index = rank_index * width + file_index, so index 0 is the
bottom-left corner."""

from __future__ import annotations

import re

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
