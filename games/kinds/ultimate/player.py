"""Ultimate Tic-Tac-Toe players: Monte Carlo tree search (UCT) on a compiled core.

The search itself is in :mod:`games.kinds.ultimate.core` (numba): a compact array position,
random playouts and a flat-array tree, run in chunks of iterations so that this module
can stop it when the time budget is spent. Nothing here is exact except an immediate
win, so the top level is called ``master``, not ``perfect``.

Levels, weakest first:

- ``beginner``: a random legal move (but it takes a win in one).
- ``casual``: UCT with 300 iterations.
- ``club``: UCT with 3,000 iterations.
- ``expert``: UCT for half the time budget.
- ``master``: UCT for the whole budget, with playouts that take game-winning moves.

:func:`reference_move` is the plain UCT player used as the yardstick in
``bench/ultimate_match.py``: UCB1 with c = sqrt(2), uniform random playouts, a fixed
number of simulations.
"""

from __future__ import annotations

import math
import random
import time

import numpy as np
import numpy.typing as npt

from games.ai.base import WIN, ActionValue

from . import core
from .rules import BOARD_CELLS, BOARD_OF, INNER_OF, Mark, State

LEVELS = ("beginner", "casual", "club", "expert", "master")
FIXED_ITERATIONS = {"casual": 300, "club": 3_000}
MASTER_EXPLORATION = 1.0
PLAIN_EXPLORATION = math.sqrt(2.0)
CHUNK = 2_000
MAX_NODES = 2_000_000


def to_core(state: State) -> npt.NDArray[np.int64]:
    """The compact position of the compiled core."""
    arr = core.new_state()
    for cell, owner in enumerate(state.board):
        if owner is not None:
            arr[core.X_MASKS + 9 * owner + BOARD_OF[cell]] |= 1 << INNER_OF[cell]
    for b, owner in enumerate(state.board_owners):
        if owner is None:
            continue
        arr[core.CLOSED] |= 1 << b
        if owner >= 0:
            arr[core.META + owner] |= 1 << b
    if state.last_move is not None and state.is_board_open(INNER_OF[state.last_move.cell]):
        arr[core.NEXT] = INNER_OF[state.last_move.cell]
    arr[core.TO_MOVE] = state.to_move
    if state.outcome is not None:
        arr[core.RESULT] = core.DRAW if state.outcome.winner is None else state.outcome.winner
    return arr


def to_mark(core_move: int) -> Mark:
    return Mark(BOARD_CELLS[core_move // 9][core_move % 9])


def to_core_move(move: Mark) -> int:
    return BOARD_OF[move.cell] * 9 + INNER_OF[move.cell]


class Tree:
    """A search tree rooted at one position, grown in chunks."""

    def __init__(self, state: State, exploration: float, decisive: bool, seed: int, max_nodes: int) -> None:
        self.root = to_core(state)
        self.ints = np.zeros((max_nodes, 5), dtype=np.int32)
        self.floats = np.zeros((max_nodes, 2), dtype=np.float64)
        self.meta = np.zeros(2, dtype=np.int64)
        self.rng = np.array([seed | 1], dtype=np.uint64)
        self.exploration = exploration
        self.decisive = decisive
        core.init_tree(self.root, self.ints, self.floats, self.meta)

    def run(self, iterations: int) -> None:
        core.search(
            self.root,
            self.ints,
            self.floats,
            self.meta,
            iterations,
            self.exploration,
            self.decisive,
            self.rng,
            core.WIN,
        )

    def run_for(self, seconds: float, max_iterations: int | None = None) -> None:
        started = time.perf_counter()
        while time.perf_counter() - started < seconds:
            chunk = CHUNK if max_iterations is None else min(CHUNK, max_iterations - self.iterations)
            if chunk <= 0:
                break
            self.run(chunk)

    @property
    def iterations(self) -> int:
        return int(self.meta[1])

    def children(self) -> list[tuple[int, float, float]]:
        """(core move, visits, mean reward for the mover) of each root child."""
        first, count = int(self.ints[0, core.FIRST]), int(self.ints[0, core.COUNT])
        if first < 0:
            return []
        out = []
        for c in range(first, first + count):
            visits = float(self.floats[c, core.VISITS])
            reward = float(self.floats[c, core.REWARD])
            out.append((int(self.ints[c, core.MOVE]), visits, reward / visits if visits else 0.0))
        return out

    def best(self) -> int:
        return max(self.children(), key=lambda child: (child[1], child[2]))[0]


def _seed(rng: random.Random) -> int:
    return rng.getrandbits(63)


def _nodes_for(iterations: int) -> int:
    return max(1_000, min(MAX_NODES, iterations * 12))


def immediate_wins(state: State) -> list[Mark]:
    arr = to_core(state)
    buf = np.zeros(81, dtype=np.int64)
    count = core.legal_moves(arr, buf)
    return [to_mark(int(m)) for m in buf[:count] if core.wins_game(arr, int(m), core.WIN)]


def reference_move(state: State, simulations: int, rng: random.Random | None = None) -> Mark:
    """Plain UCT: c = sqrt(2), uniform random playouts, ``simulations`` iterations."""
    rng = rng or random.Random()
    tree = Tree(state, PLAIN_EXPLORATION, False, _seed(rng), _nodes_for(simulations))
    tree.run(simulations)
    return to_mark(tree.best())


def search_for(state: State, seconds: float, rng: random.Random, decisive: bool = True) -> Tree:
    """A master-level tree grown for ``seconds``."""
    tree = Tree(state, MASTER_EXPLORATION, decisive, _seed(rng), MAX_NODES)
    tree.run_for(seconds)
    return tree


def choose_move(state: State, level: str, budget: float = 1.0, rng: random.Random | None = None) -> Mark:
    """One move for the side to move within about ``budget`` seconds."""
    if state.is_over():
        raise ValueError("the game is over")
    rng = rng or random.Random()
    wins = immediate_wins(state)
    if wins:
        return wins[0]
    moves = state.legal_moves()
    if level == "beginner" or len(moves) == 1:
        return rng.choice(moves)
    if level in FIXED_ITERATIONS:
        n = FIXED_ITERATIONS[level]
        tree = Tree(state, PLAIN_EXPLORATION, False, _seed(rng), _nodes_for(n))
        tree.run_for(budget, max_iterations=n)
        return to_mark(tree.best())
    if level == "expert":
        return to_mark(search_for(state, budget / 2, rng, decisive=False).best())
    if level == "master":
        return to_mark(search_for(state, budget * 0.95, rng).best())
    raise ValueError(f"unknown Ultimate level {level!r}; levels: {', '.join(LEVELS)}")


def analyse(state: State, budget: float = 1.0) -> list[ActionValue]:
    """Every legal move with its estimated value (mean playout result), most searched first.

    Only a move that wins at once is exact.
    """
    if state.is_over():
        return []
    winning = {m.cell for m in immediate_wins(state)}
    tree = search_for(state, budget, random.Random())
    items = []
    for move, visits, mean in sorted(tree.children(), key=lambda c: (-c[1], -c[2])):
        mark = to_mark(move)
        if mark.cell in winning:
            items.append(ActionValue(mark, WIN, True, distance=1, score=1.0))
        else:
            items.append(ActionValue(mark, None, False, score=round(2 * mean - 1, 4) if visits else None))
    items.sort(key=lambda a: not a.exact)
    return items


def playouts_per_second(seconds: float = 1.0, decisive: bool = False) -> float:
    """Random games from the start position per second in the core (the benchmark figure)."""
    start = core.new_state()
    games = 2_000
    total = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        core.random_playouts(start, games, 12345 + total, decisive, core.WIN)
        total += games
    return total / (time.perf_counter() - started)


def warm_up() -> float:
    """Compile (or load from numba's cache) the kernels; returns the seconds it took."""
    started = time.perf_counter()
    tree = Tree(State(), MASTER_EXPLORATION, True, 1, 10_000)
    tree.run(200)
    Tree(State(), PLAIN_EXPLORATION, False, 1, 10_000).run(200)
    core.random_playouts(core.new_state(), 10, 1, False, core.WIN)
    core.random_playouts(core.new_state(), 10, 1, True, core.WIN)
    return time.perf_counter() - started
