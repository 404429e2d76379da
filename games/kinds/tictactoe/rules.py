"""Tic-tac-toe: X and O take turns marking cells of a 3x3 grid; three in a row wins.

X is seat 0 and moves first. A move is a cell name (``"b2"``); :func:`parse_move`
also reads the position words TL TC TR L C R BL BC BR (any case), but the canonical
text of a move is always its cell name.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.engine.base import GameRules, Outcome, check_playing, check_turn, no_options
from games.engine.grid import (
    cell_name,
    check_free,
    draw_marks,
    lines,
    lines_through,
    parse_cell_or,
    read_square,
    with_mark,
)
from games.engine.refusals import gettext_noop

SIZE = 3
CELLS = SIZE * SIZE
CELL_NAMES = tuple(cell_name(i, SIZE) for i in range(CELLS))
SYMBOLS = ("X", "O")
CROSS, NOUGHT = 0, 1  # seats: X moves first

WIN_LINES = lines(SIZE, SIZE, SIZE)  # ranks, files, the two diagonals
LINES_THROUGH = lines_through(CELLS, WIN_LINES)

# Position words as seen on the drawn board (top rank first).
POSITIONS = {
    "tl": 6,
    "tc": 7,
    "tr": 8,
    "l": 3,
    "c": 4,
    "r": 5,
    "bl": 0,
    "bc": 1,
    "br": 2,
}


@dataclass(frozen=True)
class Mark:
    """Mark one cell with the mover's symbol."""

    cell: int

    def __str__(self) -> str:
        return CELL_NAMES[self.cell]


def parse_move(text: str) -> Mark:
    """``"b2"`` or a position word such as ``"C"`` or ``"tl"``."""
    stripped = text.strip().lower() if isinstance(text, str) else ""
    if stripped in POSITIONS:
        return Mark(POSITIONS[stripped])
    notation = gettext_noop("a cell a1-c3 or a position TL TC TR L C R BL BC BR")
    return Mark(parse_cell_or(stripped, SIZE, SIZE, notation))


@dataclass(frozen=True)
class State:
    board: tuple[int | None, ...] = (None,) * CELLS
    to_move: int = CROSS
    outcome: Outcome | None = None

    num_players = 2
    width = SIZE
    height = SIZE

    @property
    def empty_cells(self) -> tuple[int, ...]:
        return tuple(i for i, owner in enumerate(self.board) if owner is None)

    @property
    def ply(self) -> int:
        """How many marks are on the board."""
        return CELLS - self.board.count(None)

    def is_over(self) -> bool:
        return self.outcome is not None

    def legal_moves(self) -> list[Mark]:
        if self.outcome is not None:
            return []
        return [Mark(c) for c in self.empty_cells]

    def play(self, move: Mark, player: int | None = None) -> State:
        check_playing(self)
        check_turn(self, player)
        if not isinstance(move, Mark):
            raise TypeError(f"not a tic-tac-toe move: {move!r}")
        cell = move.cell
        check_free(self.board, cell, SIZE, SYMBOLS)
        board = with_mark(self.board, cell, self.to_move)
        return State(board=board, to_move=1 - self.to_move, outcome=outcome_of(board, LINES_THROUGH[cell]))

    def __str__(self) -> str:
        return to_ascii(self)


def outcome_of(
    board: tuple[int | None, ...], lines: tuple[tuple[int, ...], ...] = WIN_LINES
) -> Outcome | None:
    """How ``board`` has ended, looking for a win among ``lines`` (after a move, the lines
    through its cell are enough); ``None`` while it goes on."""
    won = tuple(line for line in lines if board[line[0]] is not None and len({board[i] for i in line}) == 1)
    if won:
        return Outcome(winner=board[won[0][0]], lines=won)
    if None not in board:
        return Outcome(winner=None)
    return None


def initial_state() -> State:
    return State()


def reachable_positions() -> list[State]:
    """Every position that legal play can reach from the start, each once (5,478 of them)."""
    start = initial_state()
    seen = {start.board: start}
    stack = [start]
    while stack:
        state = stack.pop()
        for move in state.legal_moves():
            child = state.play(move)
            if child.board not in seen:
                seen[child.board] = child
                stack.append(child)
    return list(seen.values())


def from_ascii(text: str, to_move: int | None = None) -> State:
    """A position from three rows, top rank first, of ``X``, ``O`` and ``.`` (blanks ignored).

    The side to move defaults to the one the mark counts imply; the outcome is worked
    out from the board.
    """
    cells = read_square(text, SIZE, SYMBOLS)
    if to_move is None:
        to_move = CROSS if cells.count(CROSS) == cells.count(NOUGHT) else NOUGHT
    return State(board=cells, to_move=to_move, outcome=outcome_of(cells))


def to_ascii(state: State) -> str:
    """The board as :func:`from_ascii` reads it, top rank first."""
    return "\n".join(" ".join(row) for row in draw_marks(state.board, SIZE, SYMBOLS))


def ascii_keywords(state: State) -> dict[str, Any]:
    return {"to_move": state.to_move}


RULES: GameRules[State, Mark] = GameRules(
    kind="tictactoe",
    title="Tic-tac-toe",
    initial_state=initial_state,
    parse_move=parse_move,
    clean_options=no_options,
    default_options={},
    from_ascii=from_ascii,
    ascii_keywords=ascii_keywords,
)
