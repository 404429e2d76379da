"""Boards drawn as text, for the terminal player.

:func:`draw` works for any grid game from ``board``, ``width`` and ``height`` (see
:func:`games.formats.serializers.geometry`): files as letters along the top, ranks as numbers
down the side, top rank first, a seat's cell as the game's symbol for it. Each game's
entry may name a :class:`TextLook`: how a cell reads, how the board splits into blocks
(drawn with box lines) and a few lines under the board (a piece in hand, say).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from games.engine.grid import FILES, rows_top_first
from games.formats.serializers import geometry

EMPTY = "."


def symbol(seat: int, symbols: Sequence[str] = ()) -> str:
    """The game's symbol for a seat, else its number (1 for the first)."""
    return symbols[seat] if seat < len(symbols) else str(seat + 1)


@dataclass(frozen=True)
class TextLook:
    """How a game's board reads as text, where it differs from one symbol per owned cell."""

    cell: Callable[[Any, int], str] | None = None
    block: int = 0  # draw a box line every ``block`` files and ranks
    cell_width: int = 1
    notes: Callable[[Any], list[str]] | None = None


def draw(state: Any, look: TextLook = TextLook(), symbols: Sequence[str] = ()) -> str:
    width, height = geometry(state)

    def owner_symbol(state: Any, index: int) -> str:
        owner = state.board[index]
        return EMPTY if owner is None else symbol(owner, symbols)

    text_of = look.cell or owner_symbol
    cells = {i: text_of(state, i) for i in range(width * height)}
    size = max(look.cell_width, *(len(t) for t in cells.values()))
    margin = len(str(height))

    def split(items: list[str], joint: str) -> str:
        if not look.block:
            return " ".join(items)
        groups = [" ".join(items[i : i + look.block]) for i in range(0, len(items), look.block)]
        return f" {joint} ".join(groups)

    header = " " * (margin + 2) + split([FILES[f].rjust(size) for f in range(width)], "│")
    lines = [header]
    rows = rows_top_first(width, height)
    for r, row in enumerate(rows):
        rank = height - r
        if look.block and r and r % look.block == 0:
            rule = split(["─" * size] * width, "┼").replace(" ", "─")
            lines.append(" " * (margin + 1) + "─" + rule + "─")
        lines.append(f"{str(rank).rjust(margin)}  " + split([cells[i].rjust(size) for i in row], "│"))
    if look.notes:
        lines += look.notes(state)
    return "\n".join(lines)
