"""The exact Quarto search against a plain one, and the root's actions valued in parallel.

The plain search is the same negamax without the transposition table and without the
replies-first move ordering: any difference in value would come from those.
"""

from __future__ import annotations

import random

import pytest

from games.kinds.quarto import bits as qb
from games.kinds.quarto import search as qs
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


def test_a_slot_torn_by_two_writers_is_not_read() -> None:
    # Threads valuing one position share a table; one may have written a slot's data
    # word and another its key word. Such a slot must read as empty, never as the
    # position's entry with another's value.
    state = random_position(random.Random("torn"), 9)
    assert state.in_hand is not None
    sol = _fast(False, 6)
    position = encode(state)
    value = sol.search(position, state.in_hand, -1000, 1000, FULL_DEPTH).value
    again = sol.search(position, state.in_hand, -1000, 1000, FULL_DEPTH)
    assert (again.value, again.nodes, int(sol.stats[qs.S_TT_HITS])) == (value, 1, 1)

    traits, occ, _ = position
    k1, k2 = qb.canonical_key(traits, occ, state.in_hand, sol.tables.symt)
    slot = qb.slot(k1, k2, sol.tt1.shape[0] - 1)
    false_value = 105 if value <= 0 else -105
    sol.tt2[slot] = k2 | ((false_value + 128) << 24) | (qs.EXACT << 32) | (16 << 34)
    torn = sol.search(position, state.in_hand, -1000, 1000, FULL_DEPTH)
    assert torn.value == value
    assert torn.nodes > 1
