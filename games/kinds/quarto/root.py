"""The root of a Quarto search: the actions of one position and what is known of each.

:class:`Root` turns an action into the "place, then give" positions the compiled search
values; :func:`search_actions` values several actions, on :data:`ROOT_WORKERS`
threads or as many as asked, the threads sharing the root's table (the compiled search
releases the GIL, so on two cores two actions are searched at the same time).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass

from games.ai.base import DRAW, LOSS, WIN

from .rules import Action, Place, State
from .solver import WIN as WIN_SCORE
from .solver import Position, Solver, encode, place

# Threads valuing a position's actions. They share one table, so two spend the CPU of
# one and answer in about half the time; on a 2-core machine kept busy by two other
# processes two were still faster than one (docs/performance.md, "Two threads, one table").
ROOT_WORKERS = 2
PLAYOUT_RATE = 300_000  # careful-random games per second, a floor measured mid-game
MIN_PLAYOUTS = 8


def _bits(mask: int) -> list[int]:
    return [i for i in range(16) if mask >> i & 1]


@dataclass
class Bounds:
    """What is known of an action's score (for its mover): ``low <= score <= high``."""

    low: int = -1000
    high: int = 1000

    @property
    def exact(self) -> bool:
        return self.low == self.high

    @property
    def outcome(self) -> str | None:
        if self.low >= WIN_SCORE:
            return WIN
        if self.high <= -WIN_SCORE:
            return LOSS
        if self.low >= 0 and self.high <= 0:
            return DRAW
        return None

    def add(self, value: int, alpha: int, beta: int, full: bool) -> None:
        """Record a fail-soft search result ``value`` for window (alpha, beta)."""
        if not full:
            # A depth-limited search proves only wins and losses.
            if value >= WIN_SCORE and value > alpha:
                self.low = max(self.low, value)
            if value <= -WIN_SCORE and value < beta:
                self.high = min(self.high, value)
            return
        if value > alpha:
            self.low = max(self.low, value)
        if value < beta:
            self.high = min(self.high, value)


# --- the root of the search -------------------------------------------------------------


class Root:
    """The actions of one position, with what the search has learnt about each."""

    def __init__(self, sol: Solver, state: State) -> None:
        self.sol = sol
        self.state = state
        self.position: Position = encode(state)
        self.n = len(state.empty_cells)
        self.hand = state.in_hand

    def terminal_value(self, action: Action) -> int | None:
        """The exact score of an action decided at once, else ``None``."""
        avail = self.position[2]
        n = self.n
        if isinstance(action, Place):
            assert self.hand is not None
            if self.sol.winning_cells(self.position, self.hand) >> action.cell & 1:
                return WIN_SCORE + n - 1
            if n == 1:
                return 0
            after = place(self.position, action.cell, self.hand)
            if avail & ~self.sol.dangerous(after) == 0:
                return -(WIN_SCORE + n - 2)
            return None
        if self.sol.dangerous(self.position) >> action.piece & 1:
            return -(WIN_SCORE + n - 1)
        return None

    def children(self, action: Action) -> list[tuple[Position, int]]:
        """The "place, then give" positions to search below an action (opponent to place)."""
        if isinstance(action, Place):
            assert self.hand is not None
            after = place(self.position, action.cell, self.hand)
            traits, occ, avail = after
            safe = avail & ~self.sol.dangerous(after)
            return [((traits, occ, avail & ~(1 << q)), q) for q in _bits(safe)]
        traits, occ, avail = self.position
        return [((traits, occ, avail & ~(1 << action.piece)), action.piece)]

    def playout_score(self, action: Action, count: int, seed: int) -> float:
        """Mean careful-random result of a non-terminal action for its mover."""
        scores = [
            -self.sol.playouts(pos, hand, count, seed + i)
            for i, (pos, hand) in enumerate(self.children(action))
        ]
        return max(scores) if scores else -1.0

    def playout_scores(self, actions: Sequence[Action], seconds: float, seed: int) -> dict[Action, float]:
        children = sum(len(self.children(a)) for a in actions)
        count = max(MIN_PLAYOUTS, int(seconds * PLAYOUT_RATE / max(children, 1)))
        return {a: self.playout_score(a, count, seed) for a in actions}

    def search(
        self, action: Action, alpha: int, beta: int, depth: int, deadline: int, min_nodes: int = 0
    ) -> tuple[int, bool]:
        """Fail-soft value of a non-terminal action; ``(value, aborted)``. The search stops
        at ``deadline`` (monotonic nanoseconds), but only after ``min_nodes`` nodes per child."""
        best = -1000
        for position, hand in self.children(action):
            if min_nodes <= 0 and time.monotonic_ns() >= deadline:
                return 0, True
            result = self.sol.search(
                position, hand, -beta, -max(alpha, best), depth, deadline=deadline, min_nodes=min_nodes
            )
            if result.aborted:
                return 0, True
            best = max(best, -result.value)
            if best >= beta:
                break
        return best, False


def first_bounds(root: Root, actions: list[Action]) -> tuple[dict[Action, Bounds], list[Action]]:
    """Exact bounds for the actions decided at once; the others, still to search."""
    bounds = {a: Bounds() for a in actions}
    undecided: list[Action] = []
    for action in actions:
        value = root.terminal_value(action)
        if value is None:
            undecided.append(action)
        else:
            bounds[action] = Bounds(value, value)
    return bounds, undecided


def search_actions(
    root: Root,
    actions: Sequence[Action],
    alpha: int,
    beta: int,
    depth: int,
    deadline: int,
    workers: int = ROOT_WORKERS,
) -> dict[Action, tuple[int, bool]]:
    """``Root.search`` of every action with the same window: ``{action: (value, aborted)}``.

    The calling thread searches with ``root``'s solver; up to ``workers - 1`` more
    threads each search with a twin of it (the same table), and every thread takes the
    next action left.
    """
    pending = list(reversed(actions))
    results: dict[Action, tuple[int, bool]] = {}
    errors: list[BaseException] = []
    lock = threading.Lock()

    def run(own: Root) -> None:
        while True:
            with lock:
                if not pending or errors:
                    return
                action = pending.pop()
            results[action] = own.search(action, alpha, beta, depth, deadline)

    def helper() -> None:
        try:
            run(Root(root.sol.twin(), root.state))
        except BaseException as exc:  # re-raised in the calling thread
            with lock:
                errors.append(exc)

    threads = [threading.Thread(target=helper, daemon=True) for _ in range(min(workers, len(actions)) - 1)]
    for thread in threads:
        thread.start()
    try:
        run(root)
    finally:
        for thread in threads:
            thread.join()
    if errors:
        raise errors[0]
    return results
