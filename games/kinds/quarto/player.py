"""Quarto players, position analysis and game review.

Public API (what the web layer calls):

- :data:`LEVELS`, weakest first: ``beginner`` (random cell, random piece), ``casual``
  (takes an immediate win, never gives a piece that wins at once when another piece
  exists), ``club`` (looks two placements ahead, picks at random among the actions it
  cannot tell apart), ``expert`` (two placements ahead, ranks those actions by
  careful-random playouts, solves exactly from 6 empty cells), ``perfect`` (the
  opening book's proved actions (:mod:`.book`) where the book covers the position,
  then exact from 12 empty cells down, however long the solve takes (about a second of
  CPU at most, beyond the budget on a busy machine), and at 13 when it can solve the
  position within the budget; elsewhere deepening search and playouts).
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

from games.ai.base import DRAW, LOSS, WIN, ActionValue, ReviewEntry, review_game
from games.ai.clock import deadline_ns

from . import book as opening
from .root import Bounds, Root, first_bounds, search_actions
from .rules import RULES, Action, Give, Place, State, safe_pieces, winning_cells
from .solver import FULL_DEPTH, solver

LEVELS = ("beginner", "casual", "club", "expert", "perfect")

_WIN_SCORE = 100  # quarto_search.WIN: a win leaving e empty cells scores WIN + e.
_MIN_NODES = 200_000  # the first, shallow iteration always gets this many, whatever the clock
# Nodes each search of the exact iteration gets whatever the clock, where a level must be
# exact: a 12-empty child needs at most about 0.25 M (docs/performance.md, the book), so a
# starved process waits for the processor rather than guess; the floor only bounds a
# pathological case (about 4 s of CPU).
_EXACT_FLOOR = 20_000_000


@dataclass(frozen=True)
class _Level:
    """How a level plays: ``depths`` are the placements searched beyond the current
    action, in turn; ``exact_from`` is the number of empty cells from which the level
    solves exactly (after its shallow iterations); ``exact_always`` the number from which
    that exact search runs to its end whatever the budget (up to ``_EXACT_FLOOR`` nodes a
    search); ``playouts`` is the share of the budget spent on careful-random games that
    rank the actions the search cannot tell apart; without them, ``forcing_first`` tries
    the most forcing actions first, and ties go to the first found (the actions are
    shuffled first, so ties are random)."""

    depths: tuple[int, ...]
    exact_from: int
    playouts: float = 0.0
    forcing_first: bool = False
    exact_always: int = 0


_SEARCH_LEVELS = {
    "club": _Level(depths=(1, 2), exact_from=0),
    "expert": _Level(depths=(1, 2), exact_from=6, playouts=0.1),
    # The book's last own turns leave at most 12 empty cells at the next: from there on the
    # level is exact, however little processor time the budget's seconds bring.
    "perfect": _Level(depths=tuple(range(1, FULL_DEPTH)), exact_from=13, playouts=0.5, exact_always=12),
}


# --- small helpers on engine states -------------------------------------------------


def _check(state: State, level: str | None = None) -> None:
    if level is not None and level not in LEVELS:
        raise ValueError(f"unknown Quarto level {level!r}; levels: {', '.join(LEVELS)}")
    if state.is_over():
        raise ValueError("the game is over: there is no move to choose")


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


def _forcing_order(root: Root, actions: list[Action]) -> list[Action]:
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


def _choose_by_search(state: State, level: _Level, budget: float, rng: random.Random) -> tuple[Action, bool]:
    """The chosen action, and whether it was chosen by an exact (full-depth) search."""
    deadline = deadline_ns(budget)
    with solver(state.advanced) as sol:
        root = Root(sol, state)
        actions: list[Action] = list(state.legal_moves())
        bounds, live = first_bounds(root, actions)
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
        always = root.n <= level.exact_always
        chosen = live[0]
        exact = False
        for iteration, depth in enumerate(depths):
            full = depth >= root.n
            floor = _EXACT_FLOOR if full and always else _MIN_NODES if iteration == 0 else 0
            best: Action | None = None
            best_value = -1000
            aborted = False
            for action in live:
                alpha = max(-1, best_value)
                value, aborted = root.search(action, alpha, 1, depth, deadline, floor)
                if aborted:
                    break
                bounds[action].add(value, alpha, 1, full)
                if best is None or value > best_value:
                    best, best_value = action, value
                    if best_value >= 1:
                        break
            proven_lost = [a for a in live if bounds[a].high <= -_WIN_SCORE]
            if aborted and always and not full:
                # Out of time before the exact iteration, which runs all the same.
                live = [a for a in live if a not in proven_lost] or live
                continue
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
    if level == "perfect":
        # The opening book's actions are proved: they keep the value (a draw from the
        # start, a win where the opponent erred) until the live search is exact.
        move = opening.book_move(state)
        if move is not None:
            return move
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
    proved = opening.action_values(state)
    if len(proved) == len(state.legal_moves()) and all(lo == hi for lo, hi in proved.values()):
        # The book proves every action (the first give, for one): nothing to search.
        return [_book_value(state, a, proved[a]) for a in state.legal_moves()]
    deadline = deadline_ns(0.8 * budget)
    actions: list[Action] = list(state.legal_moves())
    with solver(state.advanced) as sol:
        root = Root(sol, state)
        bounds, pending = first_bounds(root, actions)
        depths = [1, 2, 3] + ([FULL_DEPTH] if root.n <= 13 else list(range(4, FULL_DEPTH + 1)))
        first = True
        for depth in depths:
            full = depth >= root.n
            aborted = False
            open_actions = [a for a in pending if bounds[a].outcome is None]
            if full and not first:
                # The exact pass: the actions share the cores.
                for action, (value, aborted_one) in search_actions(
                    root, open_actions, -1, 1, depth, deadline
                ).items():
                    aborted = aborted or aborted_one
                    if not aborted_one:
                        bounds[action].add(value, -1, 1, full)
                break
            for action in open_actions:
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
    values = [_action_value(state, a, bounds[a], estimates.get(a, 0.0)) for a in actions]
    return [_book_value(state, v.move, proved[v.move], v) if v.move in proved else v for v in values]


_CLASS_VALUE = {1: WIN, 0: DRAW, -1: LOSS}


def _book_value(
    state: State, action: Action, bounds: tuple[int, int], searched: ActionValue | None = None
) -> ActionValue:
    """An action's value from the book's proved bounds (classes), unless the search
    proved more. A proved draw is exact (it lasts to the full board); a proved win or
    loss is exact in its class but not in its distance."""
    if searched is not None and searched.exact:
        return searched
    low, high = bounds
    if low == high == 0:
        return ActionValue(action, DRAW, True, _plies(state, 0), 0.0)
    if low == high:
        return ActionValue(action, _CLASS_VALUE[low], False, None, float(low))
    if searched is not None:
        return searched
    return ActionValue(action, None, False, None, float(low) if low > -1 else 0.0)


def _action_value(state: State, action: Action, b: Bounds, estimate: float = 0.0) -> ActionValue:
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
    """Load the opening book and the compiled search and run a tiny solve; returns the
    seconds taken.

    The compiled code is cached on disk (numba's ``cache=True``: next to the sources, or
    in ``NUMBA_CACHE_DIR`` when that is set), so only the very first start compiles
    (several seconds); later processes load it. Call this once when a server starts.
    """
    start = time.perf_counter()
    opening.book()  # read the opening book once, before the first game needs it
    state = RULES.replay({}, ["0", "a1", "1", "b1", "2", "c2", "4", "d3", "8"])
    for advanced in (False,):
        with solver(advanced) as sol:
            root = Root(sol, state)
            root.sol.ordered_pairs(root.position, 8)
            for action in state.legal_moves()[:2]:
                if root.terminal_value(action) is None:
                    root.search(action, -1, 1, FULL_DEPTH, deadline_ns(5.0), 10_000)
    return time.perf_counter() - start
