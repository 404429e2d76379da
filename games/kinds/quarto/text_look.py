"""Quarto's board as text, for the terminal player: a cell shows its piece's number;
under the board, the piece in hand and the pieces left. Pure (no Django)."""

from __future__ import annotations

from games.formats.textboard import EMPTY, TextLook

from . import rules as quarto


def cell(state: quarto.State, index: int) -> str:
    piece = state.board[index]
    return EMPTY if piece is None else str(piece)


def notes(state: quarto.State) -> list[str]:
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


LOOK = TextLook(cell=cell, notes=notes, cell_width=2)
