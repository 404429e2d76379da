"""Boards drawn as text, for the terminal player.

:func:`draw` works for any grid game from ``board``, ``width`` and ``height`` (see
:func:`games.formats.serializers.geometry`): files as letters along the top, ranks as numbers
down the side, top rank first. Each game's catalog entry may name a :class:`Look`: how a
cell reads, how the board splits into blocks (Ultimate's 3x3 small boards, drawn with box
lines) and a few lines under the board (Quarto's piece in hand and remaining pieces).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from games.engine import quarto, ultimate
from games.engine.grid import FILES, rows_top_first
from games.formats.serializers import geometry

SYMBOLS = ("X", "O", "A", "B")
EMPTY = "."


def symbol(seat: int) -> str:
    return SYMBOLS[seat] if seat < len(SYMBOLS) else str(seat + 1)


@dataclass(frozen=True)
class Look:
    cell: Callable[[Any, int], str] | None = None
    block: int = 0  # draw a box line every ``block`` files and ranks
    cell_width: int = 1
    notes: Callable[[Any], list[str]] | None = None


def owner_symbol(state: Any, index: int) -> str:
    owner = state.board[index]
    return EMPTY if owner is None else symbol(owner)


def draw(state: Any, look: Look = Look()) -> str:
    width, height = geometry(state)
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


# -- Quarto -------------------------------------------------------------------


def _quarto_cell(state: quarto.State, index: int) -> str:
    piece = state.board[index]
    return EMPTY if piece is None else str(piece)


def _quarto_notes(state: quarto.State) -> list[str]:
    lines = [""]
    if state.in_hand is not None:
        lines.append(f"In hand: {state.in_hand} ({quarto.piece_name(state.in_hand)})")
    if state.available:
        lines.append("Available pieces:")
        names = [f"{p:>2} {quarto.piece_name(p)}" for p in state.available]
        lines += [
            "  " + "   ".join(f"{n:<28}" for n in names[i : i + 2]).rstrip() for i in range(0, len(names), 2)
        ]
    return lines


QUARTO = Look(cell=_quarto_cell, notes=_quarto_notes, cell_width=2)


# -- Ultimate Tic-Tac-Toe: nine 3x3 boards in a 9x9 grid ------------------------


def _ultimate_notes(state: Any) -> list[str]:
    if state.is_over():
        return []
    return ["", "Play in: " + ", ".join(ultimate.BOARD_SPANS[small] for small in state.allowed_boards)]


ULTIMATE = Look(block=ultimate.SMALL, notes=_ultimate_notes)
