"""Quixo (Gigamic): five in a line on a 5x5 board of cubes, moved by pushing.

Every cube starts blank. On a turn a player takes a cube from the edge of the board that
is blank or shows their own symbol (never the opponent's), turns it to their symbol and
pushes it back in from an end of the same row or column, sliding the cubes between one
place along; it may not go back where it was taken. A corner cube has two ends to go in
from, any other edge cube three. Five of a symbol in a row, column or long diagonal wins;
a push that makes a line of the opponent's symbol loses, even when it makes the mover's
own line at the same time (Gigamic's rules).

X is seat 0 and moves first. A move names the cube taken and the end it goes back in
from: ``"a1-e1"`` takes a1 and pushes it in at e1, sliding b1..e1 one place towards a1.

Gigamic's rules set no end to a game without a line; here a game is drawn after
:data:`MAX_PLIES` moves, so that every game ends.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from typing import Any

from games.engine.base import (
    BadNotation,
    GameRules,
    IllegalMove,
    Outcome,
    check_playing,
    check_turn,
    no_options,
)
from games.engine.grid import cell_name, draw_marks, lines, parse_cell, read_square
from games.engine.refusals import Phrase, gettext_noop

SIZE = 5
CELLS = SIZE * SIZE
CELL_NAMES = tuple(cell_name(i, SIZE) for i in range(CELLS))
SYMBOLS = ("X", "O")
CROSS, NOUGHT = 0, 1
MAX_PLIES = 200

WIN_LINES = lines(SIZE, SIZE, SIZE)  # five ranks, five files, the two long diagonals
EDGE = tuple(i for i in range(CELLS) if i // SIZE in (0, SIZE - 1) or i % SIZE in (0, SIZE - 1))
NOTATION = gettext_noop("a cube on the edge and the end it goes back in from, such as a1-e1")
_MOVE_RE = re.compile(r"^\s*([a-z][0-9]{1,2})\s*[-:>]\s*([a-z][0-9]{1,2})\s*$")


def _ends(cell: int) -> tuple[int, ...]:
    """The ends a cube taken from ``cell`` can go back in from: the ends of its row and of
    its column, but not ``cell`` itself."""
    rank, file = divmod(cell, SIZE)
    ends = []
    if rank in (0, SIZE - 1):  # its row's ends
        ends += [rank * SIZE, rank * SIZE + SIZE - 1]
    else:
        ends += [rank * SIZE] if file == SIZE - 1 else [rank * SIZE + SIZE - 1]
    if file in (0, SIZE - 1):  # its column's ends
        ends += [file, (SIZE - 1) * SIZE + file]
    else:
        ends += [(SIZE - 1) * SIZE + file] if rank == 0 else [file]
    return tuple(sorted(e for e in set(ends) if e != cell))


ENDS = {cell: _ends(cell) for cell in EDGE}


def _path(take: int, end: int) -> tuple[int, ...]:
    """The cells from ``take`` to ``end`` along their shared row or column, both included."""
    step = 1 if take // SIZE == end // SIZE else SIZE
    step = step if end > take else -step
    return tuple(range(take, end + step, step))


PATHS = {(take, end): _path(take, end) for take in EDGE for end in ENDS[take]}


@dataclass(frozen=True)
class Push:
    """Take the cube on ``take`` and push it back in from ``end``."""

    take: int
    end: int

    def __str__(self) -> str:
        return f"{CELL_NAMES[self.take]}-{CELL_NAMES[self.end]}"


ALL_PUSHES = tuple(Push(take, end) for take in EDGE for end in ENDS[take])


def _either(names: list[str]) -> str | Phrase:
    """ "a1 or e5 or a5", said in the reader's language."""
    if len(names) == 1:
        return names[0]
    return Phrase("%(first)s or %(rest)s", first=names[0], rest=_either(names[1:]))


def parse_move(text: str) -> Push:
    """``"a1-e1"`` (``:`` or ``>`` also separate the two cells; case and blanks ignored)."""
    match = _MOVE_RE.match(text.lower()) if isinstance(text, str) else None
    if not match:
        raise BadNotation(text, NOTATION)
    take, end = (parse_cell(part, SIZE, SIZE) for part in match.groups())
    if take not in ENDS:
        raise IllegalMove(
            "not_edge", "%(cell)s is not on the edge: only edge cubes are taken.", cell=CELL_NAMES[take]
        )
    if end not in ENDS[take]:
        raise IllegalMove(
            "not_an_end",
            "A cube taken from %(cell)s goes back in from %(ends)s, not %(end)s.",
            cell=CELL_NAMES[take],
            ends=_either([CELL_NAMES[e] for e in ENDS[take]]),
            end=CELL_NAMES[end],
        )
    return Push(take, end)


def pushed(board: tuple[int | None, ...], move: Push, seat: int) -> tuple[int | None, ...]:
    """The board after ``seat`` takes ``move.take`` and pushes it in at ``move.end``."""
    cells = list(board)
    path = PATHS[move.take, move.end]
    for here, there in itertools.pairwise(path):
        cells[here] = cells[there]
    cells[move.end] = seat
    return tuple(cells)


@dataclass(frozen=True)
class State:
    board: tuple[int | None, ...] = (None,) * CELLS
    to_move: int = CROSS
    outcome: Outcome | None = None
    ply: int = 0

    num_players = 2
    width = SIZE
    height = SIZE

    def is_over(self) -> bool:
        return self.outcome is not None

    def takeable(self, cell: int) -> bool:
        return cell in ENDS and self.board[cell] in (None, self.to_move)

    def legal_moves(self) -> list[Push]:
        if self.outcome is not None:
            return []
        return [move for move in ALL_PUSHES if self.board[move.take] in (None, self.to_move)]

    def play(self, move: Push, player: int | None = None) -> State:
        check_playing(self)
        check_turn(self, player)
        if not isinstance(move, Push):
            raise TypeError(f"not a Quixo move: {move!r}")
        if move.take not in ENDS or move.end not in ENDS[move.take]:
            raise IllegalMove(
                "not_an_end",
                "%(push)s is not a push from an end of the cube's row or column.",
                push=str(move),
            )
        if self.board[move.take] not in (None, self.to_move):
            raise IllegalMove(
                "not_yours",
                "The cube on %(cell)s shows your opponent's symbol: take a blank cube or one of yours.",
                cell=CELL_NAMES[move.take],
            )
        board = pushed(self.board, move, self.to_move)
        ply = self.ply + 1
        return State(
            board=board, to_move=1 - self.to_move, outcome=outcome_of(board, self.to_move, ply), ply=ply
        )

    def __str__(self) -> str:
        return to_ascii(self)


def lines_of(board: tuple[int | None, ...], seat: int) -> tuple[tuple[int, ...], ...]:
    return tuple(line for line in WIN_LINES if all(board[i] == seat for i in line))


def outcome_of(board: tuple[int | None, ...], mover: int, ply: int) -> Outcome | None:
    """How the game stands after ``mover`` pushed: the opponent's line first (it loses the
    game for the mover, whatever else the push made), then the mover's own line."""
    theirs = lines_of(board, 1 - mover)
    if theirs:
        return Outcome(winner=1 - mover, lines=theirs)
    mine = lines_of(board, mover)
    if mine:
        return Outcome(winner=mover, lines=mine)
    if ply >= MAX_PLIES:
        return Outcome(winner=None)
    return None


def initial_state() -> State:
    return State()


def from_ascii(text: str, to_move: int = CROSS, ply: int = 0) -> State:
    """A position from five rows, top rank first, of ``X``, ``O`` and ``.`` (blanks ignored).

    The side to move cannot be told from the cubes (a push may turn none); the outcome is
    worked out as if the side not to move had just pushed."""
    cells = read_square(text, SIZE, SYMBOLS)
    return State(board=cells, to_move=to_move, outcome=outcome_of(cells, 1 - to_move, ply), ply=ply)


def to_ascii(state: State) -> str:
    """The board as :func:`from_ascii` reads it, top rank first."""
    return "\n".join(" ".join(row) for row in draw_marks(state.board, SIZE, SYMBOLS))


def ascii_keywords(state: State) -> dict[str, Any]:
    return {"to_move": state.to_move, "ply": state.ply}


RULES: GameRules[State, Push] = GameRules(
    kind="quixo",
    title="Quixo",
    initial_state=initial_state,
    parse_move=parse_move,
    clean_options=no_options,
    default_options={},
    from_ascii=from_ascii,
    ascii_keywords=ascii_keywords,
)
