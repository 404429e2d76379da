"""Connect-N: take turns placing stones on a width x height grid; ``n`` of your stones
*consecutive* in a row, column or diagonal win (a longer row holding ``n`` scattered
stones is not a win). A full board without such a line is a draw.

With ``gravity`` (the default) a stone is dropped into a column and lands on the
lowest empty cell of it (ranks count from the bottom, so the lowest empty rank); the
move is the column letter, ``"d"``. Without gravity any empty cell may be taken and
the move is the cell name, ``"d3"``. Two to four players move in turn (seat 0 first).

The defaults are Connect Four: 7 columns, 6 rows, four in a row, gravity, two players.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from games.engine.base import (
    BadNotation,
    GameRules,
    IllegalMove,
    OptionError,
    OptionSpec,
    Outcome,
    check_playing,
    check_turn,
    reject_unknown,
)
from games.engine.grid import FILES, cell_name, draw_marks, parse_cell, read_marks, with_mark

MIN_SIZE, MAX_SIZE = 3, 12
MIN_PLAYERS, MAX_PLAYERS = 2, 4
DEFAULTS: dict[str, Any] = {"width": 7, "height": 6, "n": 4, "gravity": True, "players": 2}
OPTIONS = (
    OptionSpec("width", "Width", "int", DEFAULTS["width"], MIN_SIZE, MAX_SIZE),
    OptionSpec("height", "Height", "int", DEFAULTS["height"], MIN_SIZE, MAX_SIZE),
    OptionSpec("n", "In a row", "int", DEFAULTS["n"], MIN_SIZE, MAX_SIZE),
    OptionSpec("players", "Players", "int", DEFAULTS["players"], MIN_PLAYERS, MAX_PLAYERS),
    OptionSpec("gravity", "Gravity (stones fall, as in Connect Four)", "bool", DEFAULTS["gravity"]),
)
OPTION_NAMES = tuple(DEFAULTS)
SYMBOLS = ("X", "O", "A", "B")
# (file step, rank step): horizontal, vertical, rising diagonal, falling diagonal.
DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))


@dataclass(frozen=True)
class Drop:
    """Drop a stone into a column (gravity games). ``column`` is the file index."""

    column: int

    def __str__(self) -> str:
        return FILES[self.column]


@dataclass(frozen=True)
class Place:
    """Put a stone on a cell (games without gravity)."""

    file: int
    rank: int

    def __str__(self) -> str:
        return f"{FILES[self.file]}{self.rank + 1}"


Move = Drop | Place


def parse_move(text: str) -> Move:
    """``"d"`` drops into column d; ``"d3"`` names a cell. Case and blanks are ignored.

    Board size is not known here, so only the largest board (a-l, 1-12) is checked;
    :meth:`State.play` checks the real one.
    """
    stripped = text.strip().lower() if isinstance(text, str) else ""
    if len(stripped) == 1 and stripped.isalpha() and stripped.isascii():
        column = ord(stripped) - ord("a")
        if column >= MAX_SIZE:
            raise IllegalMove(
                "out_of_bounds", "There is no column %(column)s: columns are a-l at most.", column=stripped
            )
        return Drop(column)
    try:
        index = parse_cell(stripped, MAX_SIZE, MAX_SIZE)
    except BadNotation:
        raise BadNotation(text, "a column letter such as d, or a cell name such as d3") from None
    rank, file = divmod(index, MAX_SIZE)
    return Place(file, rank)


@cache
def lines_through(width: int, height: int, n: int, cell: int) -> tuple[tuple[int, ...], ...]:
    """Every run of ``n`` consecutive cells containing ``cell``."""
    rank, file = divmod(cell, width)
    found = []
    for df, dr in DIRECTIONS:
        for back in range(n):
            f0, r0 = file - back * df, rank - back * dr
            f1, r1 = f0 + (n - 1) * df, r0 + (n - 1) * dr
            if 0 <= f0 < width and 0 <= f1 < width and 0 <= r0 < height and 0 <= r1 < height:
                found.append(tuple((r0 + k * dr) * width + f0 + k * df for k in range(n)))
    return tuple(found)


@cache
def all_lines(width: int, height: int, n: int) -> tuple[tuple[int, ...], ...]:
    """Every run of ``n`` consecutive cells on the board (the ``WIN_LINES`` of a size)."""
    seen: dict[tuple[int, ...], None] = {}
    for cell in range(width * height):
        for line in lines_through(width, height, n, cell):
            seen.setdefault(line, None)
    return tuple(seen)


def winning_runs(
    board: tuple[int | None, ...], width: int, height: int, n: int, cell: int
) -> list[tuple[int, ...]]:
    """The maximal runs of at least ``n`` same-owner stones through ``cell`` (longest first kept whole)."""
    owner = board[cell]
    if owner is None:
        return []
    rank, file = divmod(cell, width)
    runs = []
    for df, dr in DIRECTIONS:
        ends: list[list[int]] = []
        for sign in (-1, 1):
            side = []
            f, r = file + sign * df, rank + sign * dr
            while 0 <= f < width and 0 <= r < height and board[r * width + f] == owner:
                side.append(r * width + f)
                f, r = f + sign * df, r + sign * dr
            ends.append(side)
        run = (*reversed(ends[0]), cell, *ends[1])
        if len(run) >= n:
            runs.append(run)
    return runs


def outcome_of(
    board: tuple[int | None, ...], width: int, height: int, n: int, cells: Iterable[int]
) -> Outcome | None:
    """How ``board`` has ended: won by the owner of the first of ``cells`` that lies on a
    winning run (with every such run through it), else drawn when full, else ``None``.

    After a move, the cell it filled is enough.
    """
    for cell in cells:
        runs = winning_runs(board, width, height, n, cell)
        if runs:
            return Outcome(winner=board[cell], lines=tuple(runs))
    if None not in board:
        return Outcome(winner=None)
    return None


def open_columns(board: tuple[int | None, ...], width: int, height: int) -> tuple[int, ...]:
    """Columns (file indices) whose top cell is still empty."""
    top = (height - 1) * width
    return tuple(c for c in range(width) if board[top + c] is None)


@dataclass(frozen=True)
class State:
    width: int = 7
    height: int = 6
    n: int = 4
    gravity: bool = True
    num_players: int = 2
    board: tuple[int | None, ...] = ()
    to_move: int = 0
    outcome: Outcome | None = None
    last_cell: int | None = None

    def __post_init__(self) -> None:
        if not self.board:
            object.__setattr__(self, "board", (None,) * (self.width * self.height))
        elif len(self.board) != self.width * self.height:
            raise ValueError(f"a {self.width}x{self.height} board has {self.width * self.height} cells")

    @property
    def cells(self) -> int:
        return self.width * self.height

    @property
    def ply(self) -> int:
        return self.cells - self.board.count(None)

    def is_over(self) -> bool:
        return self.outcome is not None

    def cell_index(self, file: int, rank: int) -> int:
        return rank * self.width + file

    def cell_name(self, cell: int) -> str:
        return cell_name(cell, self.width)

    def landing_cell(self, column: int) -> int | None:
        """Where a stone dropped into ``column`` lands (the lowest empty rank), or None if full."""
        for rank in range(self.height):
            cell = rank * self.width + column
            if self.board[cell] is None:
                return cell
        return None

    @property
    def droppable_columns(self) -> tuple[int, ...]:
        """Columns (file indices) that still take a stone; empty when the game is over."""
        if self.outcome is not None:
            return ()
        return open_columns(self.board, self.width, self.height)

    @property
    def legal_targets(self) -> tuple[int, ...]:
        """Cells a stone may end on this turn: the landing cells with gravity, else every empty cell."""
        if self.outcome is not None:
            return ()
        if self.gravity:
            return tuple(c for c in (self.landing_cell(col) for col in range(self.width)) if c is not None)
        return tuple(i for i, owner in enumerate(self.board) if owner is None)

    def move_at(self, cell: int) -> Move:
        """The move a click on ``cell`` stands for: its column with gravity, else the cell."""
        rank, file = divmod(cell, self.width)
        return Drop(file) if self.gravity else Place(file, rank)

    def legal_moves(self) -> list[Move]:
        if self.outcome is not None:
            return []
        if self.gravity:
            return [Drop(c) for c in self.droppable_columns]
        return [Place(i % self.width, i // self.width) for i, owner in enumerate(self.board) if owner is None]

    def target_of(self, move: Move) -> int:
        """The cell index ``move`` would fill; raises :class:`IllegalMove` as :meth:`play` would."""
        letters = f"a-{FILES[self.width - 1]}"
        if isinstance(move, Drop):
            if not self.gravity:
                raise IllegalMove(
                    "cell_required",
                    "Stones do not fall in this game: name a cell such as %(cell)s.",
                    cell=f"{move}1",
                )
            if not 0 <= move.column < self.width:
                raise IllegalMove(
                    "out_of_bounds",
                    "There is no column %(column)s: columns are %(letters)s.",
                    column=str(move),
                    letters=letters,
                )
            cell = self.landing_cell(move.column)
            if cell is None:
                raise IllegalMove(
                    "column_full", "Column %(column)s is full: choose another column.", column=str(move)
                )
            return cell
        if isinstance(move, Place):
            if not (0 <= move.file < self.width and 0 <= move.rank < self.height):
                raise IllegalMove(
                    "out_of_bounds",
                    "%(cell)s is off the board: files %(letters)s, ranks 1-%(rank)s.",
                    cell=str(move),
                    letters=letters,
                    rank=self.height,
                )
            cell = move.rank * self.width + move.file
            if self.board[cell] is not None:
                raise IllegalMove("occupied", "%(cell)s is already taken.", cell=str(move))
            if self.gravity:
                landing = self.landing_cell(move.file)
                if landing != cell:
                    if landing is None:
                        raise IllegalMove(
                            "not_landing_cell",
                            "Stones fall here: column %(column)s is full, not %(cell)s.",
                            column=FILES[move.file],
                            cell=str(move),
                        )
                    raise IllegalMove(
                        "not_landing_cell",
                        "Stones fall here: column %(column)s takes its next stone on %(landing)s, "
                        "not %(cell)s.",
                        column=FILES[move.file],
                        landing=self.cell_name(landing),
                        cell=str(move),
                    )
            return cell
        raise TypeError(f"not a connect-N move: {move!r}")

    def play(self, move: Move, player: int | None = None) -> State:
        check_playing(self)
        check_turn(self, player)
        cell = self.target_of(move)
        return self.play_cell(cell)

    def play_cell(self, cell: int) -> State:
        """Put the mover's stone on ``cell`` (assumed legal: no checks). For search and replay speed."""
        mover = self.to_move
        board = with_mark(self.board, cell, mover)
        outcome = outcome_of(board, self.width, self.height, self.n, (cell,))
        return State(
            width=self.width,
            height=self.height,
            n=self.n,
            gravity=self.gravity,
            num_players=self.num_players,
            board=board,
            to_move=(mover + 1) % self.num_players,
            outcome=outcome,
            last_cell=cell,
        )

    def __str__(self) -> str:
        return to_ascii(self)


def initial_state(
    width: int = 7, height: int = 6, n: int = 4, gravity: bool = True, players: int = 2
) -> State:
    clean_options({"width": width, "height": height, "n": n, "gravity": gravity, "players": players})
    return State(width=width, height=height, n=n, gravity=gravity, num_players=players)


def clean_options(options: Mapping[str, Any]) -> dict[str, Any]:
    reject_unknown(options, OPTION_NAMES)
    by_name = {spec.name: spec for spec in OPTIONS}
    width = by_name["width"].clean(options)
    height = by_name["height"].clean(options)
    longest = max(width, height)
    n = by_name["n"].clean(options)
    if n > longest:
        raise OptionError(
            "n",
            "n must be from %(low)s to %(high)s on a %(width)sx%(height)s board, not %(n)s.",
            low=MIN_SIZE,
            high=longest,
            width=width,
            height=height,
            n=n,
        )
    gravity = by_name["gravity"].clean(options)
    players = by_name["players"].clean(options)
    return {"width": width, "height": height, "n": n, "gravity": gravity, "players": players}


def from_ascii(
    text: str, n: int = 4, gravity: bool = True, players: int = 2, to_move: int | None = None
) -> State:
    """A position from rows of ``X O A B`` (seats 0-3) and ``.``, top rank first (blanks ignored).

    The side to move defaults to the seat the stone counts imply; the outcome is worked out
    from the board (see :func:`outcome_of`).
    """
    rows = ["".join(line.split()).upper() for line in text.strip().splitlines()]
    height, width = len(rows), len(rows[0])
    if any(len(r) != width for r in rows):
        raise ValueError("rows differ in length")
    cells = read_marks(rows, width, SYMBOLS)
    if to_move is None:
        to_move = (width * height - cells.count(None)) % players
    outcome = outcome_of(cells, width, height, n, range(width * height))
    return State(
        width=width,
        height=height,
        n=n,
        gravity=gravity,
        num_players=players,
        board=cells,
        to_move=to_move,
        outcome=outcome,
    )


def to_ascii(state: State) -> str:
    """The board as :func:`from_ascii` reads it, top rank first."""
    return "\n".join(" ".join(row) for row in draw_marks(state.board, state.width, SYMBOLS))


def ascii_keywords(state: State) -> dict[str, Any]:
    return {"n": state.n, "gravity": state.gravity, "players": state.num_players, "to_move": state.to_move}


RULES: GameRules[State, Move] = GameRules(
    kind="connect",
    title="Connect-N",
    initial_state=initial_state,
    parse_move=parse_move,
    clean_options=clean_options,
    default_options=dict(DEFAULTS),
    options=OPTIONS,
    from_ascii=from_ascii,
    ascii_keywords=ascii_keywords,
)
