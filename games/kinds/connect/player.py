"""Connect-N players.

The kernels are compiled with numba (see :mod:`games.kinds.connect.core`); this module turns
engine states into their inputs and their scores into moves and :class:`ActionValue`.

How the top level (``master``) thinks, by kind of game:

* Two players, gravity, board small enough for a 64-bit bitboard with a spare bit per
  column (``(height + 1) * width <= 64``: Connect Four and every smaller board): on the
  7x6 board the first plies come from the opening book (:mod:`games.kinds.connect.book`).
  Past it, the solver (negamax, alpha-beta, transposition table, iterative null-window
  search) first looks for win / draw / loss only, then for the exact score. A move found
  so is game-theoretically best (with the exact score: the fastest win, else a draw, else
  the slowest loss). The solver gets a short first try, then an iterative-deepening
  heuristic search finds a fallback move, then the solver goes on until nearly the whole
  budget is spent (:func:`master_move`); the fallback is played if it did not finish.
  Where each applies, by number of stones: ``bench/connect_timing.py`` and
  ``docs/performance.md``.
* Everything else (no gravity, larger boards, three or four players): iterative-deepening
  alpha-beta on a cell array within the time budget; with three or four players it is a
  paranoid search (every opponent is assumed to play against the mover). Proven wins (and,
  for two players, proven losses; draws when the search reached the end of the game) are
  reported as exact.

Levels, weakest first: ``beginner`` (random, but takes a win in one), ``casual`` (looks
two plies ahead), ``club`` (four plies), ``expert`` (heuristic search with half the
time budget, no solver), ``master`` (the above).
"""

from __future__ import annotations

import random
import threading
import time
from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt

from games.ai.base import DRAW, LOSS, WIN, ActionValue
from games.ai.clock import deadline_ns

from . import book, core
from .bitboard import bitboards, fits_bitboard
from .rules import Drop, Move, State, all_lines, initial_state

LEVELS = ("beginner", "casual", "club", "expert", "master")
FIXED_DEPTH = {"casual": 2, "club": 4}
SOLVER_SHARE = 0.6  # of the analysis budget, for the exact scores (the rest for the heuristic search)
# The top level's move, as shares of its budget: a first try of the solver, the heuristic
# search's fallback move, then the solver again until SOLVE_UNTIL of the budget has passed.
QUICK_SOLVE_SHARE = 0.15
SEARCH_SHARE = 0.25
SOLVE_UNTIL = 0.95
PROVEN = core.WIN_SCORE - 100_000
NEAR_ONLY_ABOVE = 25  # without gravity, bigger boards only consider cells near the stones
_tt_lock = threading.Lock()
_shared_tt: dict[tuple[int, int, int], npt.NDArray[np.uint64]] = {}


# --- exact solver (bitboards, see connect_bitboard) -------------------------------------


class _Table:
    """The shared transposition table when free, else a small private one (thread safety)."""

    def __init__(self, state: State) -> None:
        self.key = (state.width, state.height, state.n)
        self.locked = _tt_lock.acquire(blocking=False)
        if self.locked:
            if self.key not in _shared_tt:
                _shared_tt.clear()
                _shared_tt[self.key] = np.zeros(core.TT_SIZE, dtype=np.uint64)
            self.entries = _shared_tt[self.key]
        else:
            self.entries = np.zeros(core.SMALL_TT_SIZE, dtype=np.uint64)

    def __enter__(self) -> _Table:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.locked:
            _tt_lock.release()


def solve_columns(state: State, seconds: float) -> dict[int, int] | None:
    """Exact score of every droppable column, or None if the time ran out.

    A score s > 0 means the mover wins with their s-th-from-last possible stone; 0 a draw.
    """
    pos, mask = bitboards(state)
    stats = core.new_stats(deadline_ns(seconds))
    out = np.zeros(state.width, dtype=np.int64)
    with _Table(state) as table:
        core.solve_children(
            pos, mask, state.ply, state.width, state.height, state.n, table.entries, stats, out
        )
    if stats[core.ABORTED]:
        return None
    return {c: int(out[c]) for c in state.droppable_columns}


def solve_best(state: State, seconds: float, weak: bool = False) -> tuple[int, int] | None:
    """(a best column, its exact score), or None if the time ran out. With ``weak``, the
    score is only 1 (win), 0 (draw) or -1 (loss), and the search is cheaper.

    One search of the position rather than one per column (:func:`solve_columns`): the
    root value bounds every child, so losing moves are refuted, not measured.
    """
    pos, mask = bitboards(state)
    stats = core.new_stats(deadline_ns(seconds))
    best = np.zeros(1, dtype=np.int64)
    with _Table(state) as table:
        score = core.solve_best(
            pos, mask, state.ply, state.width, state.height, state.n, table.entries, stats, best, weak
        )
    if stats[core.ABORTED]:
        return None
    return int(best[0]), int(score)


def solver_distance(state: State, score: int) -> int:
    """Plies from now to the end of the game for an exact solver score of a move."""
    if score == 0:
        return state.cells - state.ply
    cells = state.cells
    mover_wins = score > 0
    s = abs(score)
    # The winning stone is the (m+1)-th stone, m of the winner's parity.
    parity = state.ply % 2 if mover_wins else (state.ply + 1) % 2
    m = cells + 1 - 2 * s
    if m % 2 != parity:
        m -= 1
    return m - state.ply + 1


# --- heuristic search (cell arrays) -----------------------------------------------------


@cache
def _windows(width: int, height: int, n: int) -> npt.NDArray[np.int64]:
    return np.array(all_lines(width, height, n), dtype=np.int64).reshape(-1, n)


@cache
def _weights(n: int) -> npt.NDArray[np.int64]:
    return np.array([0] + [4 ** (k - 1) for k in range(1, n + 1)], dtype=np.int64)


def _near_only(state: State) -> bool:
    return not state.gravity and state.cells > NEAR_ONLY_ABOVE


def _root_cells(state: State) -> list[int]:
    if state.gravity or not _near_only(state):
        return list(state.legal_targets)
    board = np.array([-1 if o is None else o for o in state.board], dtype=np.int8)
    heights = np.zeros(state.width, dtype=np.int64)
    out = np.zeros(state.cells, dtype=np.int64)
    count = core._candidates(board, heights, state.width, state.height, False, True, out)
    return [int(c) for c in out[:count]]


@dataclass
class Deepening:
    cells: list[int]
    values: list[int]
    depth: int
    complete: bool  # the last depth reached the end of the game everywhere
    every_value: bool  # the values are exact for that depth (not bounds)


def deepen(state: State, seconds: float, every_value: bool, max_depth: int | None = None) -> Deepening:
    """Iterative deepening until the time (as a node budget) runs out; the deepest finished result."""
    board = np.array([-1 if o is None else o for o in state.board], dtype=np.int8)
    cells = _root_cells(state)
    empty = state.cells - state.ply
    limit_depth = min(empty, max_depth) if max_depth else empty
    windows = _windows(state.width, state.height, state.n)
    weights = _weights(state.n)
    near = _near_only(state)
    started = time.perf_counter()
    deadline = deadline_ns(seconds)
    result = Deepening(cells, [0] * len(cells), 0, False, every_value)
    for depth in range(1, limit_depth + 1):
        # Depth 1 always finishes, so there is a move however short the time.
        stats = core.new_stats(deadline if depth > 1 else core.NO_LIMIT)
        roots = np.array(cells, dtype=np.int64)
        out = np.zeros(len(cells), dtype=np.int64)
        core.search_generic(
            board, state.width, state.height, state.n, state.gravity, state.num_players, state.to_move, depth,
            roots, windows, weights, stats, out, every_value, near, 2,
        )  # fmt: skip
        if stats[core.ABORTED]:
            break
        values = [int(v) for v in out]
        order = sorted(range(len(cells)), key=lambda i: -values[i])
        cells = [cells[i] for i in order]
        values = [values[i] for i in order]
        result = Deepening(cells, values, depth, depth >= empty and not near, every_value)
        if values and values[0] >= PROVEN and not every_value:
            break  # a proven win: deeper search cannot improve the choice
        elapsed = time.perf_counter() - started
        if elapsed > seconds / 3:
            break
    return result


def _move_for(state: State, cell: int) -> Move:
    return state.move_at(cell)


def _action_from_search(state: State, cell: int, value: int, complete: bool) -> ActionValue:
    move = _move_for(state, cell)
    two = state.num_players == 2
    if value >= PROVEN:
        return ActionValue(move, WIN, True, distance=int(core.WIN_SCORE - value), score=1.0)
    if value <= -PROVEN:
        if two:
            return ActionValue(move, LOSS, True, distance=int(core.WIN_SCORE + value), score=-1.0)
        return ActionValue(move, None, False, score=-1.0)
    if complete and two:
        return ActionValue(move, DRAW, True, distance=state.cells - state.ply, score=0.0)
    return ActionValue(move, None, False, score=round(value / (abs(value) + 200.0), 4))


# --- public API -------------------------------------------------------------------------


def analyse(state: State, budget: float = 1.0) -> list[ActionValue]:
    """Every legal move with its value for the side to move, best first (exact where proven)."""
    if state.is_over():
        return []
    if fits_bitboard(state):
        scores = solve_columns(state, budget * SOLVER_SHARE)
        if scores is not None:
            names = {True: WIN, False: LOSS}
            items = []
            for col, score in scores.items():
                value = DRAW if score == 0 else names[score > 0]
                items.append(
                    ActionValue(
                        Drop(col),
                        value,
                        True,
                        distance=solver_distance(state, score),
                        score=0.0 if score == 0 else float(np.sign(score)),
                    )
                )
            items.sort(key=lambda a: (-scores[a.move.column], abs(a.move.column - (state.width - 1) / 2)))
            return items
        budget *= 1 - SOLVER_SHARE
    found = deepen(state, budget, every_value=True)
    items = [
        _action_from_search(state, c, v, found.complete)
        for c, v in zip(found.cells, found.values, strict=True)
    ]
    seen = {str(a.move) for a in items}
    # Cells the search skipped (far from every stone) are listed last, unvalued.
    items += [ActionValue(m, None, False) for m in state.legal_moves() if str(m) not in seen]
    return items


def _random_with_wins(state: State, rng: random.Random) -> Move:
    for move in state.legal_moves():
        child = state.play(move)
        if child.outcome is not None and child.outcome.winner == state.to_move:
            return move
    return rng.choice(state.legal_moves())


def _best_of(found: Deepening, rng: random.Random) -> int:
    """A best cell: at random among equal values when every value is exact, else the first."""
    best = found.values[0]
    ties = [c for c, v in zip(found.cells, found.values, strict=True) if v == best]
    return rng.choice(ties) if found.every_value else ties[0]


def _solved_column(state: State, seconds: float) -> int | None:
    """A game-theoretically best column if the solver finds one within ``seconds``, else None.

    The weak search (win / draw / loss) finishes several times sooner than the exact one,
    so it runs first; the exact search then starts from its table entries and, if it
    finishes, picks the fastest win or the slowest loss. In a lost position the weak
    search's move is no better than any other, so that case gives None unless the exact
    search finished.
    """
    started = time.perf_counter()
    weak = solve_best(state, seconds, weak=True)
    if weak is None:
        return None
    left = seconds - (time.perf_counter() - started)
    exact = solve_best(state, left) if left > 0 else None
    if exact is not None:
        return exact[0]
    return weak[0] if weak[1] >= 0 else None


def master_move(state: State, budget: float, rng: random.Random) -> tuple[Move, str]:
    """The top level's move, and where it came from: ``book``, ``solver`` or ``search``.

    On solvable boards: the book; else a short try of the solver (enough for most
    positions from the middle game on); else a heuristic search for a fallback move, then
    the solver again, on the table its first try filled, until nearly the whole budget is
    spent. Proving a draw can take the solver several times longer than finding a win,
    and in the positions it cannot finish the heuristic move is often not best, so the
    solver gets the larger share (``bench/connect_timing.py``).
    """
    started = time.perf_counter()

    def until(share: float) -> float:
        return budget * share - (time.perf_counter() - started)

    if fits_bitboard(state):
        booked = book.best_column(state)
        if booked is not None:
            return Drop(booked), "book"
        column = _solved_column(state, until(QUICK_SOLVE_SHARE))
        if column is not None:
            return Drop(column), "solver"
        fallback = deepen(state, budget * SEARCH_SHARE, every_value=False)
        column = _solved_column(state, until(SOLVE_UNTIL))
        if column is not None:
            return Drop(column), "solver"
        return _move_for(state, _best_of(fallback, rng)), "search"
    found = deepen(state, max(until(1.0), 0.05), every_value=False)
    return _move_for(state, _best_of(found, rng)), "search"


def choose_move(state: State, level: str, budget: float = 1.0, rng: random.Random | None = None) -> Move:
    """One move for the side to move within about ``budget`` seconds."""
    if state.is_over():
        raise ValueError("the game is over")
    rng = rng or random.Random()
    if level == "beginner":
        return _random_with_wins(state, rng)
    if level in FIXED_DEPTH:
        found = deepen(state, budget, every_value=True, max_depth=FIXED_DEPTH[level])
        return _move_for(state, _best_of(found, rng))
    if level == "expert":
        found = deepen(state, budget / 2, every_value=False)
        return _move_for(state, _best_of(found, rng))
    if level == "master":
        return master_move(state, budget, rng)[0]
    raise ValueError(f"unknown connect-N level {level!r}; levels: {', '.join(LEVELS)}")


def warm_up() -> float:
    """Compile (or load from numba's cache) every kernel and read the opening book; returns
    the seconds it took."""
    started = time.perf_counter()
    book.lookup(initial_state())  # reads the opening book (about 40 ms)
    small = initial_state(width=4, height=4, n=3)
    solve_columns(small, 10.0)
    deepen(initial_state(width=4, height=4, n=3, gravity=False), 0.05, every_value=True)
    deepen(initial_state(width=6, height=6, n=4, gravity=False), 0.05, every_value=False)
    deepen(small, 0.05, every_value=False)
    return time.perf_counter() - started
