"""Ultimate Tic-Tac-Toe's board as text: nine 3x3 boards in a 9x9 grid, drawn with box
lines, and where the next move may go. Pure (no Django)."""

from __future__ import annotations

from typing import Any

from games.formats.textboard import TextLook

from . import rules as ultimate


def notes(state: Any) -> list[str]:
    if state.is_over():
        return []
    return ["", "Play in: " + ", ".join(ultimate.BOARD_SPANS[small] for small in state.allowed_boards)]


LOOK = TextLook(block=ultimate.SMALL, notes=notes)
