"""Ultimate Tic-Tac-Toe: nine small tic-tac-toe boards in a 3x3 grid.

The first move is free. Afterwards a move must be made in the small board that matches
the cell (within its small board) the previous move took; if that board is won or full,
the player may move in any open small board. Won or full small boards take no more
moves. Three small boards won in a line win the game; when every small board is closed
without such a line the game is a draw (boards won are not counted).

Cells are named on the 9x9 grid, ``a1``-``i9`` (files left to right, ranks bottom to
top, index = rank * 9 + file). Small boards are numbered 0-8 the same way on the 3x3
grid of boards (0 = bottom-left, 4 = centre, 8 = top-right), and so are the cells
within a small board.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.engine.base import GameRules, IllegalMove, Outcome, check_playing, check_turn, reject_unknown
from games.engine.grid import (
    blocks,
    cell_name,
    check_free,
    draw_marks,
    lines,
    parse_cell_or,
    read_marks,
    with_mark,
)
from games.engine.refusals import Phrase, Words, gettext_noop

SIZE = 9
CELLS = SIZE * SIZE
SMALL = 3  # a small board is SMALL x SMALL cells, and the boards form a SMALL x SMALL grid
BOARDS = SMALL * SMALL
CELL_NAMES = tuple(cell_name(i, SIZE) for i in range(CELLS))
SYMBOLS = ("X", "O")
DRAWN = -1  # in board_owners: a full small board that nobody won
SMALL_LINES = lines(SMALL, SMALL, SMALL)  # within a small board, by the cells' positions 0-8
META_LINES = SMALL_LINES  # lines of small boards, numbered like cells of a small board


def board_of(cell: int) -> int:
    """The small board (0-8) holding a cell of the 9x9 grid."""
    rank, file = divmod(cell, SIZE)
    return (rank // 3) * 3 + file // 3


def inner_of(cell: int) -> int:
    """The position (0-8) of a cell within its small board; it names the board the opponent is sent to."""
    rank, file = divmod(cell, SIZE)
    return (rank % 3) * 3 + file % 3


BOARD_OF = tuple(board_of(c) for c in range(CELLS))
INNER_OF = tuple(inner_of(c) for c in range(CELLS))
# BOARD_CELLS[b][i]: the 9x9 index of cell i of small board b.
BOARD_CELLS = blocks(SIZE, SIZE, SMALL, SMALL)
# BOARD_SPANS[b]: small board b by its corner cells, "d4-f6".
BOARD_SPANS = tuple(f"{CELL_NAMES[cells[0]]}-{CELL_NAMES[cells[-1]]}" for cells in BOARD_CELLS)
# Small board b's name, said in the reader's language (board_name): "top-left board (a7-c9)".
_BOARD_WORDS = (
    gettext_noop("bottom-left board (%(span)s)"),
    gettext_noop("bottom board (%(span)s)"),
    gettext_noop("bottom-right board (%(span)s)"),
    gettext_noop("left board (%(span)s)"),
    gettext_noop("centre board (%(span)s)"),
    gettext_noop("right board (%(span)s)"),
    gettext_noop("top-left board (%(span)s)"),
    gettext_noop("top board (%(span)s)"),
    gettext_noop("top-right board (%(span)s)"),
)


def board_name(small: int) -> Phrase:
    return Phrase(_BOARD_WORDS[small], span=BOARD_SPANS[small])


@dataclass(frozen=True)
class Mark:
    """Mark one cell of the 9x9 grid."""

    cell: int

    def __str__(self) -> str:
        return CELL_NAMES[self.cell]

    @property
    def board(self) -> int:
        return BOARD_OF[self.cell]


def parse_move(text: str) -> Mark:
    return Mark(parse_cell_or(text, SIZE, SIZE, "a cell name a1-i9"))


@dataclass(frozen=True)
class State:
    board: tuple[int | None, ...] = (None,) * CELLS
    board_owners: tuple[int | None, ...] = (None,) * BOARDS
    """Per small board: the seat that won it, :data:`DRAWN` when full without a line, None while open."""
    board_lines: tuple[tuple[tuple[int, ...], ...], ...] = ((),) * BOARDS
    """Per small board: the 9x9 cells of the line(s) that won it."""
    to_move: int = 0
    last_move: Mark | None = None
    outcome: Outcome | None = None

    num_players = 2
    width = SIZE
    height = SIZE

    @property
    def ply(self) -> int:
        return CELLS - self.board.count(None)

    def is_over(self) -> bool:
        return self.outcome is not None

    def is_board_open(self, small: int) -> bool:
        return self.board_owners[small] is None

    def board_status(self, small: int) -> str:
        """``"open"``, ``"won"`` or ``"drawn"``."""
        owner = self.board_owners[small]
        return "open" if owner is None else "drawn" if owner == DRAWN else "won"

    @property
    def open_boards(self) -> tuple[int, ...]:
        return tuple(b for b in range(BOARDS) if self.board_owners[b] is None)

    @property
    def allowed_boards(self) -> tuple[int, ...]:
        """The small boards the side to move may play in (empty once the game is over)."""
        if self.outcome is not None:
            return ()
        if self.last_move is not None:
            target = INNER_OF[self.last_move.cell]
            if self.board_owners[target] is None:
                return (target,)
        return self.open_boards

    @property
    def winning_boards(self) -> tuple[tuple[int, ...], ...]:
        """The lines of small boards that won the game (empty unless won)."""
        if self.outcome is None or self.outcome.winner is None:
            return ()
        w = self.outcome.winner
        return tuple(line for line in META_LINES if all(self.board_owners[b] == w for b in line))

    def legal_moves(self) -> list[Mark]:
        return [Mark(c) for b in self.allowed_boards for c in BOARD_CELLS[b] if self.board[c] is None]

    def play(self, move: Mark, player: int | None = None) -> State:
        check_playing(self)
        check_turn(self, player)
        if not isinstance(move, Mark):
            raise TypeError(f"not an Ultimate Tic-Tac-Toe move: {move!r}")
        cell = move.cell
        check_free(self.board, cell, SIZE, SYMBOLS)
        allowed = self.allowed_boards
        small = BOARD_OF[cell]
        if small not in allowed:
            raise self._elsewhere(cell, small, allowed)
        return self._mark(cell)

    def _elsewhere(self, cell: int, small: int, allowed: tuple[int, ...]) -> IllegalMove:
        words = {"cell": CELL_NAMES[cell], "closed": board_name(small)}
        closed = self.board_owners[small] is not None
        if len(allowed) == 1:
            words["board"] = board_name(allowed[0])
            if closed:
                template = gettext_noop(
                    "%(cell)s is not allowed: the %(closed)s is closed; You must play in the %(board)s."
                )
            else:
                template = gettext_noop("%(cell)s is not allowed: You must play in the %(board)s.")
        else:
            words["boards"] = Words(tuple(board_name(b) for b in allowed), ", ")
            if closed:
                template = gettext_noop(
                    "%(cell)s is not allowed: the %(closed)s is closed; "
                    "You may play in any open board: %(boards)s."
                )
            else:
                template = gettext_noop(
                    "%(cell)s is not allowed: You may play in any open board: %(boards)s."
                )
        return IllegalMove("wrong_board", template, **words)

    def _mark(self, cell: int) -> State:
        mover = self.to_move
        board = with_mark(self.board, cell, mover)
        small = BOARD_OF[cell]
        owner, won = small_board_result(board, small)
        owners = (*self.board_owners[:small], owner, *self.board_owners[small + 1 :])
        lines = (*self.board_lines[:small], won, *self.board_lines[small + 1 :])
        return State(
            board=board,
            board_owners=owners,
            board_lines=lines,
            to_move=1 - mover,
            last_move=Mark(cell),
            outcome=outcome_of(owners, lines),
        )

    def __str__(self) -> str:
        return to_ascii(self)


def small_board_result(
    board: tuple[int | None, ...], small: int
) -> tuple[int | None, tuple[tuple[int, ...], ...]]:
    """(owner, the 9x9 cells of its winning lines) of a small board: the seat with a line
    there (X looked at first), :data:`DRAWN` when full without one, ``None`` while open."""
    cells = BOARD_CELLS[small]
    for seat in (0, 1):
        won = tuple(
            tuple(cells[i] for i in line)
            for line in SMALL_LINES
            if all(board[cells[i]] == seat for i in line)
        )
        if won:
            return seat, won
    if all(board[c] is not None for c in cells):
        return DRAWN, ()
    return None, ()


def outcome_of(
    owners: tuple[int | None, ...], lines: tuple[tuple[tuple[int, ...], ...], ...]
) -> Outcome | None:
    """How the game has ended, from the small boards' owners and winning lines (see
    :func:`small_board_result`): a line of boards won (O looked at last), else a draw once
    every board is closed, else ``None``."""
    outcome: Outcome | None = None
    for seat in (0, 1):
        meta = [line for line in META_LINES if all(owners[b] == seat for b in line)]
        if meta:
            outcome = Outcome(winner=seat, lines=_meta_cells(lines, meta))
    if outcome is None and None not in owners:
        outcome = Outcome(winner=None)
    return outcome


def _meta_cells(
    lines: tuple[tuple[tuple[int, ...], ...], ...], meta: list[tuple[int, ...]]
) -> tuple[tuple[int, ...], ...]:
    """For each winning line of small boards, the 9x9 cells of the lines that won those boards."""
    return tuple(tuple(sorted({c for b in line for small in lines[b] for c in small})) for line in meta)


def initial_state() -> State:
    return State()


def clean_options(options: Mapping[str, Any]) -> dict[str, Any]:
    reject_unknown(options, ())
    return {}


def from_moves(texts: str) -> State:
    """The state after a space-separated list of moves, each checked (:meth:`GameRules.replay`)."""
    return RULES.replay({}, texts.split())


def from_ascii(text: str, last_move: str | None = None, to_move: int | None = None) -> State:
    """A position from nine rows of nine ``X``/``O``/``.`` (top rank first; blanks and ``|`` ignored).

    Small-board owners and the outcome are worked out from the marks; ``last_move``
    (a cell name) fixes where the side to move is sent.
    """
    rows = ["".join(ch for ch in line if ch not in " |") for line in text.strip().splitlines()]
    rows = [r for r in rows if r and set(r) != {"-"} and set(r) != {"+", "-"}]
    if len(rows) != SIZE or any(len(r) != SIZE for r in rows):
        raise ValueError("need nine rows of nine marks")
    cells = read_marks(rows, SIZE, SYMBOLS)
    results = [small_board_result(cells, b) for b in range(BOARDS)]
    owners = tuple(owner for owner, _ in results)
    lines = tuple(won for _, won in results)
    if to_move is None:
        to_move = 0 if cells.count(0) == cells.count(1) else 1
    last = parse_move(last_move) if last_move else None
    return State(
        board=cells,
        board_owners=owners,
        board_lines=lines,
        to_move=to_move,
        last_move=last,
        outcome=outcome_of(owners, lines),
    )


def to_ascii(state: State) -> str:
    """The 9x9 board, top rank first, small boards separated by ``|`` and blank lines."""
    out = []
    for r, marks in enumerate(draw_marks(state.board, SIZE, SYMBOLS)):
        out.append(" | ".join(" ".join(marks[k : k + 3]) for k in (0, 3, 6)))
        if r in (2, 5):
            out.append("")
    return "\n".join(out)


def ascii_keywords(state: State) -> dict[str, Any]:
    last = state.last_move
    return {"last_move": None if last is None else str(last), "to_move": state.to_move}


RULES: GameRules[State, Mark] = GameRules(
    kind="ultimate",
    title="Ultimate Tic-Tac-Toe",
    initial_state=initial_state,
    parse_move=parse_move,
    clean_options=clean_options,
    default_options={},
    from_ascii=from_ascii,
    ascii_keywords=ascii_keywords,
)
