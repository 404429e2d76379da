"""Tic-tac-toe's position notation: the board and the side to act.

``"x.o/.x./... o"``: the three ranks top first, separated by ``/``, each three cells from
file a to c, ``x``, ``o`` or ``.``; then the side to act, ``x`` or ``o``. Capitals are
read too; fields are separated by blanks (or ``_``, for addresses).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.engine.grid import rows_top_first
from games.engine.positions import Notation, PositionError, read_form, read_ranks, write_ranks
from games.engine.refusals import gettext_noop

from .rules import CELL_NAMES, CELLS, CROSS, NOUGHT, SIZE, WIN_LINES, State, outcome_of

SYNTAX = gettext_noop(
    'three ranks of three cells (top first, "/" between, x, o or ".") and the side to act '
    '(x or o), e.g. "x.o/.x./... o"'
)
_RANK = r"[xoXO.]{3}"
_FORM = re.compile(rf"^({_RANK})/({_RANK})/({_RANK})[ _]+([xoXO])$")
ROWS = rows_top_first(SIZE, SIZE)
MARKS = "xo"


@dataclass(frozen=True)
class Fields:
    board: tuple[int | None, ...]
    side: int


def read(text: str) -> Fields:
    match = read_form(_FORM, text, SYNTAX)
    board = read_ranks([rank.lower() for rank in match.groups()[:SIZE]], ROWS, MARKS.index)
    return Fields(board, MARKS.index(match.group(4).lower()))


def setup(fields: Fields, options: Mapping[str, Any]) -> list[str]:
    """X's and O's marks in turn; on a won board the winner's mark that every winning
    line shares comes last."""
    board = fields.board
    crosses = [c for c in range(CELLS) if board[c] == CROSS]
    noughts = [c for c in range(CELLS) if board[c] == NOUGHT]
    if len(crosses) - len(noughts) not in (0, 1):
        raise PositionError(
            "unreachable", "X moves first and the players alternate: X has as many marks as O, or one more."
        )
    outcome = outcome_of(board, WIN_LINES)
    if outcome is not None and outcome.winner is not None:
        mine = crosses if outcome.winner == CROSS else noughts
        if len(mine) != max(len(crosses), len(noughts)) or (outcome.winner == NOUGHT) != (
            len(crosses) == len(noughts)
        ):
            winner = MARKS[outcome.winner].upper()
            raise PositionError(
                "unreachable", "%(winner)s won, so moved last: the counts say otherwise.", winner=winner
            )
        last = next((c for c in mine if outcome_of(_without(board, c)) is None), None)
        if last is None:
            raise PositionError("unreachable", "No single mark made every win on this board.")
        mine.remove(last)
        mine.append(last)
    moves: list[str] = []
    for index in range(len(crosses)):
        moves.append(CELL_NAMES[crosses[index]])
        if index < len(noughts):
            moves.append(CELL_NAMES[noughts[index]])
    return moves


def _without(board: tuple[int | None, ...], cell: int) -> tuple[int | None, ...]:
    return tuple(None if i == cell else p for i, p in enumerate(board))


def side(fields: Fields) -> int:
    return fields.side


def format_position(state: State) -> str:
    ranks = write_ranks(state.board, ROWS, MARKS.__getitem__)
    return f"{ranks} {MARKS[state.to_move]}"


def setup_moves(state: State) -> list[str]:
    return setup(Fields(state.board, state.to_move), {})


NOTATION = Notation(
    read=read,
    setup=setup,
    side=side,
    format=format_position,
    setup_moves=setup_moves,
    syntax=SYNTAX,
)
