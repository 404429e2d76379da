"""The exact Quarto search against a plain one, and the root's actions valued in parallel.

The plain search is the same negamax without the transposition table and without the
replies-first move ordering: any difference in value would come from those.
"""

from __future__ import annotations

import random

import pytest

from games.kinds.quarto.root import Root, first_bounds, search_actions
from games.kinds.quarto.rules import Action, State
from games.kinds.quarto.solver import FULL_DEPTH, NO_LIMIT, Solver, encode

from .quarto_helpers import random_position


def _plain(advanced: bool) -> Solver:
    sol = Solver(advanced, tt_bits=10)
    sol.tt_min = 99
    sol.order_min = 99
    return sol


def _fast(advanced: bool, order_min: int) -> Solver:
    sol = Solver(advanced, tt_bits=16)
    sol.order_min = order_min
    return sol


@pytest.mark.parametrize("advanced", [False, True])
def test_full_window_values_agree_with_the_plain_search(advanced: bool) -> None:
    rng = random.Random(f"exact-{advanced}")
    plain = _plain(advanced)
    fast = [_fast(advanced, order_min) for order_min in (4, 6, 8)]
    for i in range(12):
        state = random_position(rng, 8 + i % 3, advanced=advanced)
        assert state.in_hand is not None
        position = encode(state)
        expected = plain.search(position, state.in_hand, -1000, 1000, FULL_DEPTH).value
        for sol in fast:
            # The tables are kept from one position to the next, as in a game.
            assert sol.search(position, state.in_hand, -1000, 1000, FULL_DEPTH).value == expected, state
            low = sol.search(position, state.in_hand, expected - 1, expected, FULL_DEPTH).value
            high = sol.search(position, state.in_hand, expected, expected + 1, FULL_DEPTH).value
            assert low >= expected >= high, state


def _scores(state: State, sol: Solver, workers: int) -> dict[Action, int]:
    root = Root(sol, state)
    actions = list(state.legal_moves())
    bounds, pending = first_bounds(root, actions)
    found = search_actions(root, pending, -1000, 1000, FULL_DEPTH, NO_LIMIT, workers)
    scores = {a: bounds[a].low for a in actions if a not in found}
    for action, (value, aborted) in found.items():
        assert not aborted
        scores[action] = value
    return scores


@pytest.mark.parametrize("advanced", [False, True])
def test_every_action_valued_in_parallel_as_by_the_plain_search(advanced: bool) -> None:
    rng = random.Random(f"actions-{advanced}")
    for i in range(4):
        state = random_position(rng, 8 + i % 2, advanced=advanced)
        expected = _scores(state, _plain(advanced), workers=1)
        assert _scores(state, _fast(advanced, 6), workers=2) == expected, state
        assert len(expected) == len(state.empty_cells)
