"""Quarto: 16 pieces with four binary traits on a 4x4 board.

A turn is two actions: place the piece you were given, then give your opponent one
of the remaining pieces. The first action of the game is a give. Four pieces in a
row, column or diagonal that share a trait (both values count) win for the player
who placed the fourth. With ``advanced=True`` any 2x2 square wins as well.

Pieces are the integers 0-15; see :data:`TRAITS` for the bits.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from games.engine.base import (
    GameRules,
    IllegalMove,
    OptionSpec,
    Outcome,
    check_playing,
    check_turn,
    clean_by_specs,
)
from games.engine.grid import blocks, cell_name, lines, lines_through, parse_cell_or, rows_top_first
from games.engine.refusals import Words

SIZE = 4
CELLS = SIZE * SIZE
PIECES = tuple(range(16))
ALL_PIECES_MASK = 0xFFFF
CELL_NAMES = tuple(cell_name(i, SIZE) for i in range(CELLS))

# (bit, name when 0, name when 1), in the order used in piece names.
TRAITS = (
    (2, "short", "tall"),
    (0, "light", "dark"),
    (3, "square", "round"),
    (1, "solid", "hollow"),
)
SHAPE_BIT, HEIGHT_BIT, FILL_BIT, COLOUR_BIT = 8, 4, 2, 1

WIN_LINES = lines(SIZE, SIZE, SIZE)  # ranks, files, the two diagonals
SQUARES = blocks(SIZE, SIZE, 2, 1)  # every 2x2 square: wins too with the advanced rule
LINES_THROUGH = lines_through(CELLS, WIN_LINES)
SQUARES_THROUGH = lines_through(CELLS, SQUARES)

PLACE, GIVE = "place", "give"


def piece_traits(piece: int) -> tuple[str, ...]:
    """The four trait words of a piece, e.g. ``("tall", "dark", "round", "hollow")``."""
    return tuple(one if piece >> bit & 1 else zero for bit, zero, one in TRAITS)


def piece_name(piece: int) -> str:
    return " ".join(piece_traits(piece))


def shared_traits(pieces: tuple[int, ...]) -> tuple[str, ...]:
    """The trait words every piece of a full line has in common (empty if none)."""
    common_ones = ALL_PIECES_MASK
    common_zeros = ALL_PIECES_MASK
    for p in pieces:
        common_ones &= p
        common_zeros &= ~p
    words = []
    for bit, zero, one in TRAITS:
        if common_ones >> bit & 1:
            words.append(one)
        elif common_zeros >> bit & 1:
            words.append(zero)
    return tuple(words)


def is_quarto(a: int, b: int, c: int, d: int) -> bool:
    """True when four pieces share at least one trait value."""
    return bool((a & b & c & d) | (~a & ~b & ~c & ~d & 0xF))


@dataclass(frozen=True)
class Place:
    cell: int

    def __str__(self) -> str:
        return CELL_NAMES[self.cell]


@dataclass(frozen=True)
class Give:
    piece: int

    def __str__(self) -> str:
        return str(self.piece)


Action = Place | Give

_PIECE_RE = re.compile(r"^[0-9]+$")


def parse_move(text: str) -> Action:
    """``"7"`` gives piece 7; ``"b3"`` places the piece in hand on b3."""
    stripped = text.strip() if isinstance(text, str) else ""
    if _PIECE_RE.match(stripped):
        piece = int(stripped)
        if piece not in PIECES:
            raise IllegalMove("out_of_bounds", "There is no piece %(piece)s: pieces are 0-15.", piece=piece)
        return Give(piece)
    return Place(parse_cell_or(stripped, SIZE, SIZE, "a piece number 0-15 to give or a cell a1-d4 to place"))


@dataclass(frozen=True)
class State:
    board: tuple[int | None, ...] = (None,) * CELLS
    in_hand: int | None = None
    to_move: int = 0
    advanced: bool = False
    outcome: Outcome | None = None

    num_players = 2
    width = SIZE
    height = SIZE

    @property
    def phase(self) -> str:
        return GIVE if self.in_hand is None else PLACE

    @property
    def available(self) -> tuple[int, ...]:
        """Pieces neither on the board nor in hand, in number order."""
        used = {p for p in self.board if p is not None}
        if self.in_hand is not None:
            used.add(self.in_hand)
        return tuple(p for p in PIECES if p not in used)

    @property
    def empty_cells(self) -> tuple[int, ...]:
        return tuple(i for i, p in enumerate(self.board) if p is None)

    def is_over(self) -> bool:
        return self.outcome is not None

    def legal_moves(self) -> list[Action]:
        if self.outcome is not None:
            return []
        if self.in_hand is None:
            return [Give(p) for p in self.available]
        return [Place(c) for c in self.empty_cells]

    def play(self, move: Action, player: int | None = None) -> State:
        check_playing(self)
        check_turn(self, player)
        if isinstance(move, Give):
            return self._give(move.piece)
        if isinstance(move, Place):
            return self._place(move.cell)
        raise TypeError(f"not a Quarto action: {move!r}")

    def _give(self, piece: int) -> State:
        if self.in_hand is not None:
            raise IllegalMove(
                "wrong_phase",
                "Place %(name)s (piece %(piece)s) before giving a piece.",
                name=Words(piece_traits(self.in_hand)),
                piece=self.in_hand,
            )
        if piece not in PIECES:
            raise IllegalMove("out_of_bounds", "There is no piece %(piece)s: pieces are 0-15.", piece=piece)
        if piece not in self.available:
            raise IllegalMove(
                "piece_unavailable",
                "Piece %(piece)s (%(name)s) is already used.",
                piece=piece,
                name=Words(piece_traits(piece)),
            )
        return replace(self, in_hand=piece, to_move=1 - self.to_move)

    def _place(self, cell: int) -> State:
        if self.in_hand is None:
            raise IllegalMove("wrong_phase", "Give your opponent a piece first; there is nothing to place.")
        if not 0 <= cell < CELLS:
            raise IllegalMove("out_of_bounds", "There is no cell %(cell)s.", cell=cell)
        if self.board[cell] is not None:
            raise IllegalMove("occupied", "%(cell)s is already taken.", cell=CELL_NAMES[cell])
        board = self.board[:cell] + (self.in_hand,) + self.board[cell + 1 :]
        lines = winning_lines_through(cell, self.advanced)
        return replace(self, board=board, in_hand=None, outcome=outcome_of(board, self.to_move, lines))

    def __str__(self) -> str:
        return to_ascii(self)


def winning_lines(advanced: bool) -> tuple[tuple[int, ...], ...]:
    """Every line that wins: the ten lines, and the nine 2x2 squares with the advanced rule."""
    return WIN_LINES + (SQUARES if advanced else ())


def winning_lines_through(cell: int, advanced: bool) -> tuple[tuple[int, ...], ...]:
    """The winning lines (see :func:`winning_lines`) that hold ``cell``."""
    return LINES_THROUGH[cell] + (SQUARES_THROUGH[cell] if advanced else ())


def outcome_of(
    board: tuple[int | None, ...], mover: int, lines: tuple[tuple[int, ...], ...]
) -> Outcome | None:
    """How ``board`` has ended when ``mover`` placed last, looking for a win among ``lines``
    (after a placement, the lines through its cell are enough); ``None`` while it goes on."""
    won = []
    for line in lines:
        pieces = [p for p in (board[i] for i in line) if p is not None]
        if len(pieces) == SIZE and is_quarto(*pieces):
            won.append(line)
    if won:
        shared: list[str] = []
        for line in won:
            for word in shared_traits(tuple(p for p in (board[i] for i in line) if p is not None)):
                if word not in shared:
                    shared.append(word)
        return Outcome(winner=mover, lines=tuple(won), shared=tuple(shared))
    if None not in board:
        return Outcome(winner=None)
    return None


def winning_cells(state: State, piece: int) -> list[int]:
    """Empty cells where placing ``piece`` wins at once."""
    board = state.board
    wins = []
    for cell in range(CELLS):
        if board[cell] is not None:
            continue
        lines = winning_lines_through(cell, state.advanced)
        for line in lines:
            others = [p for p in (board[i] for i in line if i != cell) if p is not None]
            if len(others) == len(line) - 1 and is_quarto(piece, others[0], others[1], others[2]):
                wins.append(cell)
                break
    return wins


def safe_pieces(state: State) -> list[int]:
    """Pieces the opponent cannot win with at once."""
    return [p for p in state.available if not winning_cells(state, p)]


def initial_state(advanced: bool = False) -> State:
    return State(advanced=advanced)


OPTIONS = (OptionSpec("advanced", "Advanced rule: a 2x2 square also wins", "bool", False),)


def clean_options(options: Mapping[str, Any]) -> dict[str, Any]:
    return clean_by_specs(options, OPTIONS)


def from_ascii(text: str, in_hand: int | None = None, to_move: int = 0, advanced: bool = False) -> State:
    """A position from four lines of four tokens, top rank first: a piece number or ``.``.

    The outcome is worked out from the board; a won board is won by the player who placed
    last (the one to give when no piece is in hand).
    """
    rows = [line.split() for line in text.strip().splitlines()]
    if len(rows) != SIZE or any(len(r) != SIZE for r in rows):
        raise ValueError("need four rows of four tokens")
    board: list[int | None] = [None] * CELLS
    for r, tokens in enumerate(rows):
        for c, token in enumerate(tokens):
            if token != ".":
                board[(SIZE - 1 - r) * SIZE + c] = int(token)
    cells = tuple(board)
    placed_last = to_move if in_hand is None else 1 - to_move
    return State(
        board=cells,
        in_hand=in_hand,
        to_move=to_move,
        advanced=advanced,
        outcome=outcome_of(cells, placed_last, winning_lines(advanced)),
    )


def to_ascii(state: State) -> str:
    """The board as :func:`from_ascii` reads it, top rank first: piece numbers and ``.``."""
    return "\n".join(
        " ".join(("." if (piece := state.board[i]) is None else str(piece)).rjust(2) for i in row)
        for row in rows_top_first(SIZE, SIZE)
    )


def ascii_keywords(state: State) -> dict[str, Any]:
    return {"in_hand": state.in_hand, "to_move": state.to_move, "advanced": state.advanced}


RULES: GameRules[State, Action] = GameRules(
    kind="quarto",
    title="Quarto",
    initial_state=initial_state,
    parse_move=parse_move,
    clean_options=clean_options,
    default_options={"advanced": False},
    options=OPTIONS,
    from_ascii=from_ascii,
    ascii_keywords=ascii_keywords,
)
