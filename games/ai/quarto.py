"""Quarto players, position analysis and game review.

Public API (what the web layer calls):

- :data:`LEVELS`, weakest first: ``beginner`` (random cell, random piece), ``casual``
  (takes an immediate win, never gives a piece that wins at once when another piece
  exists), ``club`` (looks two placements ahead, picks at random among the actions it
  cannot tell apart), ``expert`` (two placements ahead, ranks those actions by
  careful-random playouts, solves exactly from 6 empty cells), ``perfect`` (exact
  whenever it can solve the position within the budget, tried from 13 empty cells
  down; before that, deepening search and playouts).
- :func:`choose_move` returns one action: a :class:`Place` in the place phase, a
  :class:`Give` in the give phase.
- :func:`analyse` values every legal action; :func:`review` judges every action of a
  game record; :func:`warm_up` loads the compiled search so the first move is fast.

The search (see :mod:`.quarto_search`) thinks in "place, then give" nodes; a Place
action is worth its best following give. Values are exact (win/draw/loss and the
number of plies to the end) when proved within the budget, else an estimate.
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from games.engine.quarto import RULES, Action, Give, Place, State, safe_pieces, winning_cells

from .base import DRAW, LOSS, WIN, ActionValue, ReviewEntry, review_game
from .clock import deadline_ns
from .quarto_solver import FULL_DEPTH, Position, Solver, encode, place, solver

LEVELS = ("beginner", "casual", "club", "expert", "perfect")

_WIN_SCORE = 100  # quarto_search.WIN: a win leaving e empty cells scores WIN + e.
_MIN_NODES = 200_000  # the first, shallow iteration always gets this many, whatever the clock


@dataclass(frozen=True)
class _Level:
    """How a level plays: ``depths`` are the placements searched beyond the current
    action, in turn; ``exact_from`` is the number of empty cells from which the level
    solves exactly (after its shallow iterations); ``playouts`` is the share of the
    budget spent on careful-random games that rank the actions the search cannot tell
    apart; without them, ``forcing_first`` tries the most forcing actions first, and
    ties go to the first found (the actions are shuffled first, so ties are random)."""

    depths: tuple[int, ...]
    exact_from: int
    playouts: float = 0.0
    forcing_first: bool = False


_SEARCH_LEVELS = {
    "club": _Level(depths=(1, 2), exact_from=0),
    "expert": _Level(depths=(1, 2), exact_from=6, playouts=0.1),
    "perfect": _Level(depths=tuple(range(1, FULL_DEPTH)), exact_from=13, playouts=0.5),
}
_PLAYOUT_RATE = 300_000  # careful-random games per second, a floor measured mid-game
_MIN_PLAYOUTS = 8


# --- small helpers on engine states -------------------------------------------------


def _check(state: State, level: str | None = None) -> None:
    if level is not None and level not in LEVELS:
        raise ValueError(f"unknown Quarto level {level!r}; levels: {', '.join(LEVELS)}")
    if state.is_over():
        raise ValueError("the game is over: there is no move to choose")


def _bits(mask: int) -> list[int]:
    return [i for i in range(16) if mask >> i & 1]


# --- scores ---------------------------------------------------------------------------


def _plies(state: State, empty_after: int) -> int:
    """Actions from ``state`` until the placement that leaves ``empty_after`` cells empty."""
    n = len(state.empty_cells)
    placements = n - empty_after
    return 2 * placements - 1 if state.in_hand is not None else 2 * placements


def _describe(state: State, score: int) -> tuple[str, int]:
    """(value, distance in plies) of an exact score for the player to move in ``state``."""
    if score >= _WIN_SCORE:
        return WIN, _plies(state, score - _WIN_SCORE)
    if score <= -_WIN_SCORE:
        return LOSS, _plies(state, -score - _WIN_SCORE)
    return DRAW, _plies(state, 0)


@dataclass
class _Bounds:
    """What is known of an action's score (for its mover): ``low <= score <= high``."""

    low: int = -1000
    high: int = 1000

    @property
    def exact(self) -> bool:
        return self.low == self.high

    @property
    def outcome(self) -> str | None:
        if self.low >= _WIN_SCORE:
            return WIN
        if self.high <= -_WIN_SCORE:
            return LOSS
        if self.low >= 0 and self.high <= 0:
            return DRAW
        return None

    def add(self, value: int, alpha: int, beta: int, full: bool) -> None:
        """Record a fail-soft search result ``value`` for window (alpha, beta)."""
        if not full:
            # A depth-limited search proves only wins and losses.
            if value >= _WIN_SCORE and value > alpha:
                self.low = max(self.low, value)
            if value <= -_WIN_SCORE and value < beta:
                self.high = min(self.high, value)
            return
        if value > alpha:
            self.low = max(self.low, value)
        if value < beta:
            self.high = min(self.high, value)


# --- the root of the search -------------------------------------------------------------


class _Root:
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
                return _WIN_SCORE + n - 1
            if n == 1:
                return 0
            after = place(self.position, action.cell, self.hand)
            if avail & ~self.sol.dangerous(after) == 0:
                return -(_WIN_SCORE + n - 2)
            return None
        if self.sol.dangerous(self.position) >> action.piece & 1:
            return -(_WIN_SCORE + n - 1)
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
        count = max(_MIN_PLAYOUTS, int(seconds * _PLAYOUT_RATE / max(children, 1)))
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


def _forcing_order(root: _Root, actions: list[Action]) -> list[Action]:
    """Actions ordered by the solver's move ordering (most forcing first)."""
    if root.hand is None:
        return actions
    pairs = root.sol.ordered_pairs(root.position, root.hand)
    if isinstance(pairs, tuple):
        pairs = [pairs]
    rank: dict[int, int] = {}
    for i, (cell, _piece) in enumerate(pairs):
        rank.setdefault(cell, i)
    return sorted(actions, key=lambda a: rank.get(a.cell, 999) if isinstance(a, Place) else 0)


def _first_bounds(root: _Root, actions: list[Action]) -> tuple[dict[Action, _Bounds], list[Action]]:
    """Exact bounds for the actions decided at once; the others, still to search."""
    bounds = {a: _Bounds() for a in actions}
    undecided: list[Action] = []
    for action in actions:
        value = root.terminal_value(action)
        if value is None:
            undecided.append(action)
        else:
            bounds[action] = _Bounds(value, value)
    return bounds, undecided


def _choose_by_search(state: State, level: _Level, budget: float, rng: random.Random) -> tuple[Action, bool]:
    """The chosen action, and whether it was chosen by an exact (full-depth) search."""
    deadline = deadline_ns(budget)
    with solver(state.advanced) as sol:
        root = _Root(sol, state)
        actions: list[Action] = list(state.legal_moves())
        bounds, live = _first_bounds(root, actions)
        wins = [a for a in actions if bounds[a].low >= _WIN_SCORE]
        if wins:
            return max(wins, key=lambda a: bounds[a].low), True
        if not live:  # every action loses at once
            return rng.choice(actions), True
        rng.shuffle(live)
        if level.playouts > 0:
            # Playouts guide the opening; within reach of the exact search they only
            # choose between equal actions, so they get a small, capped share.
            share = level.playouts * budget if root.n > level.exact_from else min(0.1 * budget, 0.1)
            scores = root.playout_scores(live, share, rng.randrange(1 << 30))
            live.sort(key=lambda a: -scores[a])
        elif level.forcing_first:
            live = _forcing_order(root, live)
        depths = list(level.depths)
        if root.n <= level.exact_from:
            depths = [d for d in depths if d <= 2] + [FULL_DEPTH]
        chosen = live[0]
        exact = False
        for iteration, depth in enumerate(depths):
            full = depth >= root.n
            best: Action | None = None
            best_value = -1000
            aborted = False
            for action in live:
                alpha = max(-1, best_value)
                value, aborted = root.search(
                    action, alpha, 1, depth, deadline, _MIN_NODES if iteration == 0 else 0
                )
                if aborted:
                    break
                bounds[action].add(value, alpha, 1, full)
                if best is None or value > best_value:
                    best, best_value = action, value
                    if best_value >= 1:
                        break
            proven_lost = [a for a in live if bounds[a].high <= -_WIN_SCORE]
            if aborted or best is None:
                # Keep what the unfinished iteration proved: a win or a draw beats a
                # guess, and a guess beats an action now known to lose.
                proven = [a for a in live if bounds[a].low >= 0]
                if proven:
                    chosen = max(proven, key=lambda a: bounds[a].low)
                elif chosen in proven_lost and len(proven_lost) < len(live):
                    chosen = next(a for a in live if a not in proven_lost)
                break
            chosen = best
            exact = full or best_value >= 1 or len(proven_lost) == len(live)
            if exact:
                break
            # Search the best first next time; drop actions already proven lost.
            live = [best] + [a for a in live if a is not best and a not in proven_lost]
        return chosen, exact


def _casual(state: State, rng: random.Random) -> Action:
    if state.in_hand is not None:
        wins = winning_cells(state, state.in_hand)
        if wins:
            return Place(rng.choice(wins))
        # Prefer a cell after which some piece is still safe to give.
        safe_cells = [c for c in state.empty_cells if safe_pieces(state.play(Place(c)))]
        return Place(rng.choice(safe_cells or list(state.empty_cells)))
    safe = safe_pieces(state)
    return Give(rng.choice(safe or list(state.available)))


def choose_move(state: State, level: str, budget: float = 1.0, rng: random.Random | None = None) -> Action:
    """One action for the side to move, thinking for at most about ``budget`` seconds.

    Raises ``ValueError`` for an unknown level or a finished game.
    """
    _check(state, level)
    rng = rng or random.Random()
    if level == "beginner":
        return rng.choice(state.legal_moves())
    if level == "casual":
        return _casual(state, rng)
    return _choose_by_search(state, _SEARCH_LEVELS[level], budget, rng)[0]


# --- analysis -----------------------------------------------------------------------------


def analyse(state: State, budget: float = 1.0) -> list[ActionValue]:
    """Every legal action of the side to move with its value, in legal-move order.

    Exact values (win/draw/loss and the distance in plies to the end of the game, with
    best play from both sides) where proved within ``budget`` seconds; otherwise
    ``exact=False`` with ``value`` "win"/"loss" when a result is proved but its distance
    is not, and otherwise ``value=None`` and ``score`` an estimate in [-1, 1]: the mean
    result of careful-random games (take a win at once, never give a winning piece when
    a safe one exists) from the action on. About a fifth of the budget (at most 0.5 s)
    goes to those games when some actions stay unproved.
    """
    _check(state)
    deadline = deadline_ns(0.8 * budget)
    actions: list[Action] = list(state.legal_moves())
    with solver(state.advanced) as sol:
        root = _Root(sol, state)
        bounds, pending = _first_bounds(root, actions)
        depths = [1, 2, 3] + ([FULL_DEPTH] if root.n <= 13 else list(range(4, FULL_DEPTH + 1)))
        first = True
        for depth in depths:
            full = depth >= root.n
            aborted = False
            for action in pending:
                if bounds[action].outcome is not None:
                    continue
                value, aborted = root.search(action, -1, 1, depth, deadline, _MIN_NODES if first else 0)
                if aborted:
                    break
                bounds[action].add(value, -1, 1, full)
            first = False
            if aborted or full:
                break
        # Distances of the proved wins and losses, while time remains.
        for action in pending:
            b = bounds[action]
            if b.exact or b.outcome not in (WIN, LOSS) or time.monotonic_ns() >= deadline:
                continue
            alpha, beta = (
                (_WIN_SCORE - 1, _WIN_SCORE + 16) if b.outcome == WIN else (-_WIN_SCORE - 16, 1 - _WIN_SCORE)
            )
            value, aborted = root.search(action, alpha, beta, FULL_DEPTH, deadline)
            if not aborted:
                b.add(value, alpha, beta, True)
        # Estimates for what stays unknown: careful-random playouts.
        unknown = [a for a in pending if bounds[a].outcome is None]
        estimates = root.playout_scores(unknown, min(0.2 * budget, 0.5), seed=len(state.empty_cells))
    return [_action_value(state, a, bounds[a], estimates.get(a, 0.0)) for a in actions]


def _action_value(state: State, action: Action, b: _Bounds, estimate: float = 0.0) -> ActionValue:
    outcome = b.outcome
    if b.exact and outcome is not None:
        value, distance = _describe(state, b.low)
        return ActionValue(
            action, value, True, distance, 1.0 if value == WIN else -1.0 if value == LOSS else 0.0
        )
    if outcome == WIN:
        return ActionValue(action, WIN, False, None, 1.0)
    if outcome == LOSS:
        return ActionValue(action, LOSS, False, None, -1.0)
    if outcome == DRAW:
        return ActionValue(action, DRAW, True, _plies(state, 0), 0.0)
    return ActionValue(action, None, False, None, estimate)


# --- review ---------------------------------------------------------------------------------


def review(
    options: Mapping[str, object], moves: Sequence[str], budget_per_position: float = 0.5
) -> list[ReviewEntry]:
    """Judge every action of a game record (action texts as in ``parse_move``).

    Verdicts compare the action played with the best action of the same position,
    using the values :func:`analyse` proves within ``budget_per_position`` seconds
    (see :func:`.base.review_game`):

    - ``"blunder"``: the proved result class drops (a won position to a draw or a loss,
      or a drawn one to a loss);
    - ``"inaccuracy"``: the class is kept but a win is made slower or a loss faster;
    - ``"best"``: nothing better is known;
    - ``None``: the values needed are not proved (typically early in the game).
    """
    return review_game(RULES.new_state(dict(options)), RULES.parse_move, moves, analyse, budget_per_position)


def warm_up() -> float:
    """Load the compiled search and run a tiny solve; returns the seconds taken.

    The compiled code is cached on disk (numba's ``cache=True``: next to the sources, or
    in ``NUMBA_CACHE_DIR`` when that is set), so only the very first start compiles
    (several seconds); later processes load it. Call this once when a server starts.
    """
    start = time.perf_counter()
    state = RULES.replay({}, ["0", "a1", "1", "b1", "2", "c2", "4", "d3", "8"])
    for advanced in (False,):
        with solver(advanced) as sol:
            root = _Root(sol, state)
            root.sol.ordered_pairs(root.position, 8)
            for action in state.legal_moves()[:2]:
                if root.terminal_value(action) is None:
                    root.search(action, -1, 1, FULL_DEPTH, deadline_ns(5.0), 10_000)
    return time.perf_counter() - start
