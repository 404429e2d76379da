"""The fast Quarto solver against a plain reference solver, and its symmetric keys."""

from __future__ import annotations

import random

import pytest

from games.ai.clock import CHECK_MASK, deadline_ns
from games.kinds.quarto import bits as qb
from games.kinds.quarto import leaves as ql
from games.kinds.quarto import tables as qt
from games.kinds.quarto.player import analyse, warm_up
from games.kinds.quarto.rules import CELLS, State
from games.kinds.quarto.solver import FULL_DEPTH, Solver, encode

from .quarto_helpers import WIN_SCORE, random_position, reference_action_score, reference_score


def _describe(state: State, score: int) -> tuple[str, int]:
    n = len(state.empty_cells)
    first = 1 if state.in_hand is not None else 0
    if score >= WIN_SCORE:
        return "win", 2 * (n - (score - WIN_SCORE)) - first
    if score <= -WIN_SCORE:
        return "loss", 2 * (n - (-score - WIN_SCORE)) - first
    return "draw", 2 * n - first


@pytest.mark.parametrize(("phase", "advanced"), [("place", False), ("give", False), ("place", True)])
def test_analyse_agrees_with_reference(phase: str, advanced: bool) -> None:
    warm_up()  # the compiled search loaded first: its loading would eat the budget (as servers do at start)
    rng = random.Random(f"ref-{phase}-{advanced}")
    for i in range(20):
        state = random_position(rng, (4 if phase == "place" else 3) + i % 3, phase, advanced)
        values = analyse(state, budget=5.0)
        assert [v.move for v in values] == state.legal_moves()
        for v in values:
            expected = _describe(state, reference_action_score(state, v.move))
            assert v.exact, (state, v)
            assert (v.value, v.distance) == expected, (state, v)


def test_search_score_agrees_with_reference_full_window() -> None:
    rng = random.Random(7)
    sol = Solver(tt_bits=12)
    for i in range(40):
        state = random_position(rng, 4 + i % 3)
        assert state.in_hand is not None
        position = encode(state)
        expected = reference_score(state)
        result = sol.search(position, state.in_hand, -1000, 1000, FULL_DEPTH, 1 << 40)
        assert result.value == expected, state
        # Null windows around the value agree too (fail-soft bounds).
        low = sol.search(position, state.in_hand, expected - 1, expected, FULL_DEPTH, 1 << 40)
        assert low.value >= expected
        high = sol.search(position, state.in_hand, expected, expected + 1, FULL_DEPTH, 1 << 40)
        assert high.value <= expected


@pytest.mark.slow
@pytest.mark.parametrize("advanced", [False, True])
def test_four_cell_leaf_agrees_with_reference(advanced: bool) -> None:
    rng = random.Random(f"leaf-{advanced}")
    sol = Solver(advanced, tt_bits=10)
    t = sol.tables
    tables = (t.threat, t.pieces_with, t.spread, sol.stats)
    # With the 2x2 squares random play seldom reaches four empty cells undecided: finding
    # one such position takes about a second, so that variant checks fewer.
    for _ in range(20 if advanced else 60):
        state = random_position(rng, 4, advanced=advanced)
        assert state.in_hand is not None
        position = (*encode(state), state.in_hand)
        expected = reference_score(state)
        assert ql.value_four(*position, -1000, 1000, *tables) == expected, state
        assert ql.value_four(*position, expected - 1, expected, *tables) >= expected, state
        assert ql.value_four(*position, expected, expected + 1, *tables) <= expected, state
        # The analysis's window: win, draw or loss.
        outcome = ql.value_four(*position, -1, 1, *tables)
        assert (outcome > 0) == (expected > 0) and (outcome < 0) == (expected < 0), state


def _transformed(state: State, perm: tuple[int, ...], transform: qt.PieceTransform) -> State:
    board = qt.transform_board(state.board, perm, transform)
    assert state.in_hand is not None
    return State(board=board, in_hand=qt.transform_piece(state.in_hand, transform), advanced=state.advanced)


def _key(state: State, symt: qt.IntArray) -> tuple[int, int]:
    traits, occ, _ = encode(state)
    assert state.in_hand is not None
    k1, k2 = qb.canonical_key(traits, occ, state.in_hand, symt)
    return int(k1), int(k2)


@pytest.mark.parametrize("advanced", [False, True])
def test_every_symmetry_gives_the_same_key(advanced: bool) -> None:
    perms = qt.board_symmetries(advanced)
    assert len(perms) == (8 if advanced else 32)
    transforms = qt.piece_transforms()
    assert len(transforms) == 384
    symt = qt.symmetry_byte_tables(advanced)
    rng = random.Random(3)
    for empties in (13, 10, 7):
        state = random_position(rng, empties, advanced=advanced)
        key = _key(state, symt)
        for perm in perms:
            for transform in transforms:
                assert _key(_transformed(state, perm, transform), symt) == key


def test_symmetries_preserve_lines_and_are_distinct() -> None:
    for advanced in (False, True):
        perms = qt.board_symmetries(advanced)
        assert len(set(perms)) == len(perms)
        assert all(sorted(p) == list(range(CELLS)) for p in perms)
    # The standard game has the inside-out and middle swaps; the 2x2 variant does not.
    inside_out = tuple(r * 4 + c for r in (1, 0, 3, 2) for c in (1, 0, 3, 2))
    assert inside_out in qt.board_symmetries(False)
    assert inside_out not in qt.board_symmetries(True)


def test_different_positions_get_different_keys() -> None:
    symt = qt.symmetry_byte_tables(False)
    rng = random.Random(5)
    a = random_position(rng, 10)
    assert a.in_hand is not None
    other = next(p for p in a.available)
    b = State(board=a.board, in_hand=other)
    # Different pieces in hand may be symmetric; check one that cannot be: a different board.
    c = State(board=random_position(rng, 9).board, in_hand=a.in_hand)
    assert _key(a, symt) != _key(c, symt)
    assert isinstance(_key(b, symt), tuple)


def test_symmetric_positions_have_the_same_value() -> None:
    rng = random.Random(11)
    perms = qt.board_symmetries(False)
    transforms = qt.piece_transforms()
    sol = Solver(tt_bits=14)
    for _ in range(6):
        state = random_position(rng, 9)
        assert state.in_hand is not None
        expected = sol.search(encode(state), state.in_hand, -1000, 1000, FULL_DEPTH, 1 << 40).value
        for _ in range(8):
            image = _transformed(state, rng.choice(perms), rng.choice(transforms))
            fresh = Solver(tt_bits=10)
            assert image.in_hand is not None
            value = fresh.search(encode(image), image.in_hand, -1000, 1000, FULL_DEPTH, 1 << 40).value
            assert value == expected


def test_node_limit_aborts() -> None:
    rng = random.Random(2)
    state = random_position(rng, 14)
    assert state.in_hand is not None
    result = Solver(tt_bits=10).search(encode(state), state.in_hand, -1, 1, FULL_DEPTH, 1000)
    assert result.aborted
    # A few more when the last placements are counted in bulk.
    assert 1000 < result.nodes <= 1000 + 64


def test_deadline_aborts_a_long_search() -> None:
    state = random_position(random.Random(4), 15)
    assert state.in_hand is not None
    sol = Solver(tt_bits=12)
    result = sol.search(encode(state), state.in_hand, -1, 1, FULL_DEPTH, deadline=deadline_ns(0.05))
    assert result.aborted
    assert result.seconds < 0.05 + 0.25


def test_a_passed_deadline_stops_after_the_node_floor() -> None:
    state = random_position(random.Random(4), 15)
    assert state.in_hand is not None
    sol = Solver(tt_bits=12)
    past = deadline_ns(-1.0)
    # The clock is first read after CHECK_MASK + 1 nodes (a few more when the last
    # placements are counted in bulk).
    quick = sol.search(encode(state), state.in_hand, -1, 1, FULL_DEPTH, deadline=past)
    assert quick.aborted
    assert CHECK_MASK < quick.nodes <= CHECK_MASK + 64
    floor = 20_000
    floored = sol.search(encode(state), state.in_hand, -1, 1, FULL_DEPTH, deadline=past, min_nodes=floor)
    assert floored.aborted
    assert floor < floored.nodes <= floor + CHECK_MASK + 64
