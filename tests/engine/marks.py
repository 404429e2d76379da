"""What the mark games' property tests share: any sequence of cells, played or refused."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from games.engine.base import IllegalMove


def play_cells(
    state: Any,
    mark: Callable[[int], Any],
    cells: Iterable[int],
    codes: tuple[str, ...],
    check: Callable[[Any], None],
) -> Any:
    """Play each cell in turn, checking ``check`` after each: a refusal carries one of
    ``codes`` and its code is true of the position."""
    for cell in cells:
        try:
            state = state.play(mark(cell))
        except IllegalMove as error:
            assert error.code in codes
            if error.code == "occupied":
                assert state.board[cell] is not None
            if error.code == "game_over":
                assert state.is_over()
        check(state)
    return state
