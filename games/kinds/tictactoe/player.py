"""Tic-tac-toe players.

The game has 5,478 reachable positions, so the top level solves the game outright:
plain minimax over board tuples with a memo (filled once, in about 0.1 s, by
:func:`warm_up` or the first call). Values are exact: win, draw or loss with the
number of plies to the end; among equally valued moves the fastest win (or slowest
loss) is chosen, then one at random.

Levels, weakest first:

- ``beginner``: any empty cell.
- ``casual``: wins at once when it can, blocks an immediate threat, else random.
- ``club``: perfect play, except that one move in four is a casual one.
- ``perfect``: never loses, and wins whenever the opponent slips.
"""

from __future__ import annotations

import random
import time
from functools import cache

from games.ai.base import DRAW, LOSS, WIN, ActionValue

from .rules import CELLS, WIN_LINES, Mark, State

LEVELS = ("beginner", "casual", "club", "perfect")
CLUB_SLIP = 0.25

Board = tuple[int | None, ...]


def _has_line(board: Board, seat: int) -> bool:
    return any(board[a] == seat and board[b] == seat and board[c] == seat for a, b, c in WIN_LINES)


@cache
def solve(board: Board, mover: int) -> tuple[int, int]:
    """(value, plies) for ``mover`` to play on a board without a line: 1 win, 0 draw, -1 loss."""
    best: tuple[int, int] | None = None
    for cell in range(CELLS):
        if board[cell] is not None:
            continue
        child = (*board[:cell], mover, *board[cell + 1 :])
        if _has_line(child, mover):
            value, plies = 1, 1
        elif None not in child:
            value, plies = 0, 1
        else:
            reply, reply_plies = solve(child, 1 - mover)
            value, plies = -reply, reply_plies + 1
        if best is None or _better((value, plies), best):
            best = (value, plies)
    if best is None:
        raise ValueError("no move on a full board")
    return best


def _better(a: tuple[int, int], b: tuple[int, int]) -> bool:
    """Is result ``a`` preferable to ``b`` for the mover? Win sooner, lose later."""
    return _rank(a) > _rank(b)


def _rank(result: tuple[int, int]) -> tuple[int, int]:
    value, plies = result
    return (value, -plies if value > 0 else plies)


def move_result(state: State, move: Mark) -> tuple[int, int]:
    """Exact (value, plies) of ``move`` for the side to move."""
    child = state.play(move)
    if child.outcome is not None:
        return (0 if child.outcome.is_draw else 1), 1
    value, plies = solve(child.board, child.to_move)
    return -value, plies + 1


def analyse(state: State, budget: float = 1.0) -> list[ActionValue]:
    """Every legal move with its exact value, best first."""
    names = {1: WIN, 0: DRAW, -1: LOSS}
    results = [(move, move_result(state, move)) for move in state.legal_moves()]
    results.sort(key=lambda item: _rank(item[1]), reverse=True)
    return [
        ActionValue(move=move, value=names[value], exact=True, distance=plies, score=float(value))
        for move, (value, plies) in results
    ]


def immediate_win(state: State, seat: int) -> list[Mark]:
    """Cells where ``seat`` would complete a line at once."""
    wins = []
    for cell in state.empty_cells:
        board = (*state.board[:cell], seat, *state.board[cell + 1 :])
        if _has_line(board, seat):
            wins.append(Mark(cell))
    return wins


def _casual(state: State, rng: random.Random) -> Mark:
    wins = immediate_win(state, state.to_move)
    if wins:
        return rng.choice(wins)
    blocks = immediate_win(state, 1 - state.to_move)
    if blocks:
        return rng.choice(blocks)
    return rng.choice(state.legal_moves())


@cache
def best_cells(board: Board, mover: int) -> tuple[int, ...]:
    """The cells of every best move (memoised: one lookup per position after the first)."""
    state = State(board=board, to_move=mover)
    results = [(move, move_result(state, move)) for move in state.legal_moves()]
    best = max(_rank(result) for _, result in results)
    return tuple(move.cell for move, result in results if _rank(result) == best)


def _perfect(state: State, rng: random.Random) -> Mark:
    return Mark(rng.choice(best_cells(state.board, state.to_move)))


def choose_move(state: State, level: str, budget: float = 1.0, rng: random.Random | None = None) -> Mark:
    """One move for the side to move; ``budget`` (seconds) is far more than any level needs."""
    if state.is_over():
        raise ValueError("the game is over")
    rng = rng or random.Random()
    if level == "beginner":
        return rng.choice(state.legal_moves())
    if level == "casual":
        return _casual(state, rng)
    if level == "club":
        return _casual(state, rng) if rng.random() < CLUB_SLIP else _perfect(state, rng)
    if level == "perfect":
        return _perfect(state, rng)
    raise ValueError(f"unknown tic-tac-toe level {level!r}; levels: {', '.join(LEVELS)}")


def warm_up() -> float:
    """Solve the whole game into the memo; returns the seconds it took."""
    start = time.perf_counter()
    solve((None,) * CELLS, 0)
    return time.perf_counter() - start
