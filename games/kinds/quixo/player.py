"""Quixo players: alpha-beta search over bitboards.

A position is two 25-bit masks, X's cubes and O's; a push moves the bits of its path one
place with a shift and a mask (:data:`SHIFTS`). The estimate adds up, over the twelve
lines, what each side holds of a line the other has not entered (a cube more in such a
line counts three times as much). A win is proved when the search reaches it within its
depth; values are otherwise estimates.

Levels, weakest first (measured in docs/performance.md, "The computer's levels' ratings"):

- ``beginner``: any legal push.
- ``casual``: makes a line at once when it can, never pushes the opponent a line it can
  see, else any push.
- ``club``: looks two pushes ahead.
- ``strong``: looks ahead as deep as its budget allows, at least three pushes (four or
  more when there is time).
"""

from __future__ import annotations

import math
import random
import time

from games.ai.base import LOSS, WIN, ActionValue

from .rules import ALL_PUSHES, CELLS, PATHS, WIN_LINES, Push, State

LEVELS = ("beginner", "casual", "club", "strong")
WON = 1_000_000  # a line made; less the plies it takes, so sooner is better
WEIGHTS = (0, 1, 3, 9, 27, 0)  # what holding k cubes of an open line is worth
LINES = tuple(sum(1 << i for i in line) for line in WIN_LINES)
DEPTHS = {"club": 2, "strong": 6}
STRONG_FLOOR = 3  # the strong level's least depth, whatever the budget


def _shift(take: int, end: int) -> tuple[int, int, int, int, Push]:
    """A push as masks: (its path, the cells that receive a neighbour's cube, the shift
    that brings it, the end's bit)."""
    path = PATHS[take, end]
    step = path[1] - path[0]
    receiving = sum(1 << cell for cell in path[:-1])
    return sum(1 << cell for cell in path), receiving, step, 1 << end, Push(take, end)


SHIFTS = tuple(_shift(move.take, move.end) for move in ALL_PUSHES)
TAKE_BITS = tuple(1 << move.take for move in ALL_PUSHES)


def masks(state: State) -> tuple[int, int]:
    x = sum(1 << i for i in range(CELLS) if state.board[i] == 0)
    o = sum(1 << i for i in range(CELLS) if state.board[i] == 1)
    return x, o


def push(mine: int, theirs: int, index: int) -> tuple[int, int]:
    """(mine, theirs) after the mover's push number ``index`` of :data:`SHIFTS`."""
    path, receiving, step, end, _ = SHIFTS[index]
    if step > 0:
        mine = (mine & ~path) | ((mine >> step) & receiving)
        theirs = (theirs & ~path) | ((theirs >> step) & receiving)
    else:
        mine = (mine & ~path) | ((mine << -step) & receiving)
        theirs = (theirs & ~path) | ((theirs << -step) & receiving)
    return mine | end, theirs


def has_line(cubes: int) -> bool:
    return any(cubes & line == line for line in LINES)


def moves_of(theirs: int) -> list[int]:
    """The pushes open to the mover: any cube not the opponent's."""
    return [i for i, bit in enumerate(TAKE_BITS) if not theirs & bit]


def estimate(mine: int, theirs: int) -> int:
    score = 0
    for line in LINES:
        m, t = mine & line, theirs & line
        if not t:
            score += WEIGHTS[m.bit_count()]
        elif not m:
            score -= WEIGHTS[t.bit_count()]
    return score


def ended(mine: int, theirs: int, plies: int) -> int | None:
    """The value for the mover who just pushed, when the push ended the game: their
    opponent's line loses for them even beside their own."""
    if has_line(theirs):
        return -(WON - plies)
    if has_line(mine):
        return WON - plies
    return None


class OutOfTime(Exception):
    pass


class Search:
    def __init__(self, deadline: float | None) -> None:
        self.deadline = deadline
        self.nodes = 0

    def value(self, mine: int, theirs: int, depth: int, alpha: int, beta: int, plies: int) -> int:
        """Negamax value for the side to move (``mine``), ``depth`` pushes deep."""
        self.nodes += 1
        if self.deadline is not None and self.nodes & 1023 == 0 and time.perf_counter() > self.deadline:
            raise OutOfTime
        if depth == 0:
            return estimate(mine, theirs)
        best = -WON * 2
        for index in moves_of(theirs):
            after_mine, after_theirs = push(mine, theirs, index)
            result = ended(after_mine, after_theirs, plies + 1)
            if result is None:
                result = -self.value(after_theirs, after_mine, depth - 1, -beta, -alpha, plies + 1)
            if result > best:
                best = result
                if result > alpha:
                    alpha = result
                    if alpha >= beta:
                        break
        return best

    def root(self, mine: int, theirs: int, depth: int, order: list[int], every: bool) -> dict[int, int]:
        """Each push's value, ``every`` one exactly (for the analysis), else the best one's
        exactly and the others' as bounds no higher than it (a narrower, faster search)."""
        values = {}
        alpha = -WON * 2
        for index in order:
            after_mine, after_theirs = push(mine, theirs, index)
            result = ended(after_mine, after_theirs, 1)
            if result is None:
                floor = -WON * 2 if every else alpha
                result = -self.value(after_theirs, after_mine, depth - 1, -WON * 2, -floor, 1)
            values[index] = result
            alpha = max(alpha, result)
        return values


def searched(
    state: State,
    max_depth: int,
    budget: float,
    floor: int = 1,
    every: bool = True,
    rng: random.Random | None = None,
) -> tuple[dict[int, int], int]:
    """Each legal push's value from the deepest search finished in ``budget`` seconds
    (``floor`` is finished whatever the budget), and that depth; ``every``: see
    :meth:`Search.root`. The first search's order is shuffled by ``rng``, so that equal
    pushes take turns."""
    mine, theirs = masks(state)
    if state.to_move == 1:
        mine, theirs = theirs, mine
    order = moves_of(theirs)
    if rng is not None:
        rng.shuffle(order)
    deadline = time.perf_counter() + budget
    values: dict[int, int] = {}
    depth = 0
    for d in range(1, max_depth + 1):
        try:
            values = Search(deadline if d > floor else None).root(mine, theirs, d, order, every)
        except OutOfTime:
            break
        depth = d
        order = sorted(values, key=values.__getitem__, reverse=True)
        if abs(values[order[0]]) >= WON - 100 and values[order[0]] > 0:
            break  # a win found: deeper looks only find slower ones
    return values, depth


def _immediate(state: State, rng: random.Random) -> Push:
    """The casual choice: a line now, else a push that hands the opponent no line now."""
    values, _ = searched(state, 2, 0.0, floor=2, rng=rng)
    wins = [i for i, v in values.items() if v >= WON - 1]
    if wins:
        return SHIFTS[rng.choice(wins)][4]
    safe = [i for i, v in values.items() if v > -(WON - 100)]
    return SHIFTS[rng.choice(safe or list(values))][4]


def _best(state: State, depth: int, budget: float, floor: int, rng: random.Random) -> Push:
    values, _ = searched(state, depth, budget, floor, every=False, rng=rng)
    return SHIFTS[max(values, key=values.__getitem__)][4]  # the first of the best: others are bounds


def choose_move(state: State, level: str, budget: float = 1.0, rng: random.Random | None = None) -> Push:
    """One push for the side to move, in about ``budget`` seconds at most for ``strong``."""
    if state.is_over():
        raise ValueError("the game is over")
    rng = rng or random.Random()
    if level == "beginner":
        return rng.choice(state.legal_moves())
    if level == "casual":
        return _immediate(state, rng)
    if level == "club":
        return _best(state, DEPTHS["club"], budget, DEPTHS["club"], rng)
    if level == "strong":
        return _best(state, DEPTHS["strong"], budget, STRONG_FLOOR, rng)
    raise ValueError(f"unknown Quixo level {level!r}; levels: {', '.join(LEVELS)}")


def _value_of(result: int, move: Push) -> ActionValue:
    if abs(result) >= WON - 100:
        plies = WON - abs(result)
        return ActionValue(
            move=move,
            value=WIN if result > 0 else LOSS,
            exact=True,
            distance=plies,
            score=1.0 if result > 0 else -1.0,
        )
    return ActionValue(move=move, value=None, exact=False, score=math.tanh(result / 40))


def analyse(state: State, budget: float = 1.0) -> list[ActionValue]:
    """Every legal push with its value for the side to move, best first: a win or loss
    the search proves, else an estimate in [-1, 1]."""
    if state.is_over():
        return []
    values, _ = searched(state, DEPTHS["strong"], budget, floor=2)
    ranked = sorted(values, key=values.__getitem__, reverse=True)
    return [_value_of(values[i], SHIFTS[i][4]) for i in ranked]


def warm_up() -> float:
    """Nothing to compile or load: one shallow search, for the timing's sake."""
    start = time.perf_counter()
    searched(State(), 1, 1.0)
    return time.perf_counter() - start
