"""Quarto's position notation: the board, the piece in hand and the side to act.

``"0a../..3./..../.... 5 1"``: the four ranks top (rank 4) first, separated by ``/``,
each four cells from file a to d, a piece as one hexadecimal digit (0-9, a-f: pieces
0-15) or ``.`` for an empty cell; then the piece in hand (``-`` when the side to act
must give); then the side to act, 1 or 2. Letters may be capitals when read; they are
written small. Fields are separated by blanks (or ``_``, for addresses).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.engine.grid import rows_top_first
from games.engine.positions import Notation, PositionError, read_form, read_ranks, write_ranks
from games.engine.refusals import gettext_noop

from .rules import CELL_NAMES, CELLS, RULES, SIZE, State, outcome_of, winning_lines

SYNTAX = gettext_noop(
    'four ranks of four cells (top first, "/" between, a piece 0-f or "."), the piece in hand '
    '(0-f or "-") and the side to act (1 or 2), e.g. "0a../..3./..../.... 5 1"'
)
_RANK = r"[0-9a-fA-F.]{4}"
_FORM = re.compile(rf"^({_RANK})/({_RANK})/({_RANK})/({_RANK})[ _]+([0-9a-fA-F-])[ _]+([12])$")
ROWS = rows_top_first(SIZE, SIZE)


@dataclass(frozen=True)
class Fields:
    board: tuple[int | None, ...]
    in_hand: int | None
    side: int


def read(text: str) -> Fields:
    match = read_form(_FORM, text, SYNTAX)
    board = read_ranks(match.groups()[:SIZE], ROWS, _piece)
    hand = None if match.group(5) == "-" else int(match.group(5), 16)
    pieces = [p for p in board if p is not None] + ([hand] if hand is not None else [])
    repeated = sorted({p for p in pieces if pieces.count(p) > 1})
    if repeated:
        raise PositionError(
            "bad_notation", "Piece %(piece)s is there twice: each piece exists once.", piece=repeated[0]
        )
    return Fields(board, hand, int(match.group(6)) - 1)


def _piece(char: str) -> int:
    return int(char, 16)


def setup(fields: Fields, options: Mapping[str, Any]) -> list[str]:
    """Give each piece on the board and place it, cell by cell; on a won board, the cell
    every winning line shares comes last (else an earlier placement would have won)."""
    advanced = bool(RULES.clean_options(options)["advanced"])
    board = fields.board
    filled = [cell for cell in range(CELLS) if board[cell] is not None]
    if None not in board and fields.in_hand is not None:
        raise PositionError("unreachable", "The board is full: there is no cell for the piece in hand.")
    won = outcome_of(board, 0, winning_lines(advanced))
    if won is not None and won.winner is not None:
        if fields.in_hand is not None:
            raise PositionError("unreachable", "The game is won on the board: no piece can be in hand.")
        last = _last_cell(board, filled, advanced)
        filled = [c for c in filled if c != last] + [last]
    moves: list[str] = []
    for cell in filled:
        moves += [str(board[cell]), CELL_NAMES[cell]]
    if fields.in_hand is not None:
        moves.append(str(fields.in_hand))
    return moves


def _last_cell(board: Sequence[int | None], filled: list[int], advanced: bool) -> int:
    for cell in filled:
        before = tuple(None if i == cell else p for i, p in enumerate(board))
        if outcome_of(before, 0, winning_lines(advanced)) is None:
            return cell
    raise PositionError("unreachable", "No single placement made every win on this board.")


def side(fields: Fields) -> int:
    return fields.side


def format_position(state: State) -> str:
    ranks = write_ranks(state.board, ROWS, "{:x}".format)
    hand = "-" if state.in_hand is None else f"{state.in_hand:x}"
    return f"{ranks} {hand} {state.to_move + 1}"


def setup_moves(state: State) -> list[str]:
    return setup(Fields(state.board, state.in_hand, state.to_move), {"advanced": state.advanced})


NOTATION = Notation(
    read=read,
    setup=setup,
    side=side,
    format=format_position,
    setup_moves=setup_moves,
    syntax=SYNTAX,
)
