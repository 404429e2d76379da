"""Tic-tac-toe rules: counts from the literature, table tests, errors and properties."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from functools import cache

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.engine.base import BadNotation, IllegalMove, OptionError
from games.kinds.tictactoe import rules as ttt

from .marks import play_cells


def test_reachable_positions_match_the_literature() -> None:
    positions = ttt.reachable_positions()
    assert len(positions) == 5478
    assert len({s.board for s in positions}) == 5478
    over = [s for s in positions if s.is_over()]
    assert len(positions) - len(over) == 4520
    assert len(over) == 958
    results = Counter(s.outcome.winner for s in over if s.outcome is not None)
    assert results == {0: 626, 1: 316, None: 16}


@cache
def games_from(state: ttt.State) -> Counter[tuple[int | None, int]]:
    """(winner, length) -> number of distinct games continuing from ``state``."""
    if state.outcome is not None:
        return Counter({(state.outcome.winner, state.ply): 1})
    total: Counter[tuple[int | None, int]] = Counter()
    for move in state.legal_moves():
        total.update(games_from(state.play(move)))
    return total


def test_game_count_matches_the_literature() -> None:
    games = games_from(ttt.initial_state())
    assert sum(games.values()) == 255_168
    by_winner: Counter[int | None] = Counter()
    by_length: Counter[int] = Counter()
    for (winner, length), count in games.items():
        by_winner[winner] += count
        by_length[length] += count
    assert by_winner == {0: 131_184, 1: 77_904, None: 46_080}
    assert by_length == {5: 1_440, 6: 5_328, 7: 47_952, 8: 72_576, 9: 127_872}


@pytest.mark.parametrize(
    ("board", "winner", "lines"),
    [
        ("XXX\nOO.\n...", 0, [(6, 7, 8)]),
        ("X..\nXOO\nX..", 0, [(0, 3, 6)]),
        ("O.X\n.OX\nX.O", 1, [(2, 4, 6)]),
        ("X.O\nXO.\nO.X", 1, [(0, 4, 8)]),
        ("XOX\nXOO\nOXX", None, []),
        ("XXX\nXOO\nXOO", 0, [(6, 7, 8), (0, 3, 6)]),
    ],
)
def test_outcomes_from_ascii(board: str, winner: int | None, lines: list[tuple[int, ...]]) -> None:
    state = ttt.from_ascii(board)
    assert state.outcome is not None
    assert state.outcome.winner == winner
    assert sorted(state.outcome.lines) == sorted(lines)
    assert state.legal_moves() == []


def test_completing_two_lines_at_once_reports_both() -> None:
    state = ttt.from_ascii("XX.\nOOX\nOOX", to_move=0)
    assert state.outcome is None
    after = state.play(ttt.parse_move("c3"))
    assert after.outcome is not None and after.outcome.winner == 0
    assert sorted(after.outcome.lines) == [(2, 5, 8), (6, 7, 8)]


def test_open_position_and_turns() -> None:
    state = ttt.from_ascii("X..\n.O.\n..X")
    assert state.to_move == 1 and state.outcome is None
    assert [str(m) for m in state.legal_moves()] == ["a1", "b1", "a2", "c2", "b3", "c3"]
    assert ttt.to_ascii(state) == "X . .\n. O .\n. . X"


POSITION_CASES = [("a1", 0), ("C3", 8), (" b2 ", 4), ("TL", 6), ("tc", 7), ("Tr", 8), ("l", 3), ("C", 4)]
POSITION_CASES += [("r", 5), ("bl", 0), ("BC", 1), ("br", 2)]


@pytest.mark.parametrize(("text", "cell"), POSITION_CASES)
def test_parse_move(text: str, cell: int) -> None:
    move = ttt.parse_move(text)
    assert move == ttt.Mark(cell)
    assert str(move) == ttt.CELL_NAMES[cell]


@pytest.mark.parametrize("text", ["", "zz", "1a", "centre", "b", "b22x", "t l"])
def test_bad_notation(text: str) -> None:
    with pytest.raises(BadNotation) as info:
        ttt.parse_move(text)
    assert info.value.code == "bad_notation"


@pytest.mark.parametrize("text", ["d1", "a4", "a0", "c10"])
def test_out_of_bounds_text(text: str) -> None:
    with pytest.raises(IllegalMove) as info:
        ttt.parse_move(text)
    assert info.value.code == "out_of_bounds"


def test_error_codes() -> None:
    state = ttt.initial_state().play(ttt.parse_move("b2"))
    cases: list[tuple[Callable[[], object], str]] = [
        (lambda: state.play(ttt.Mark(4)), "occupied"),
        (lambda: state.play(ttt.Mark(9)), "out_of_bounds"),
        (lambda: state.play(ttt.Mark(-1)), "out_of_bounds"),
        (lambda: state.play(ttt.Mark(0), player=0), "not_your_turn"),
        (lambda: ttt.from_ascii("XXX\nOO.\n...").play(ttt.Mark(3)), "game_over"),
    ]
    for action, code in cases:
        with pytest.raises(IllegalMove) as info:
            action()
        assert info.value.code == code, code
        assert info.value.message
    assert state.play(ttt.Mark(0), player=1).board[0] == 1


def test_options() -> None:
    assert ttt.RULES.clean_options({}) == {}
    assert ttt.RULES.new_state() == ttt.initial_state()
    assert ttt.RULES.kind == "tictactoe" and ttt.RULES.title == "Tic-tac-toe"
    with pytest.raises(OptionError):
        ttt.RULES.clean_options({"size": 4})


def test_replay_and_states_are_values() -> None:
    state = ttt.RULES.replay({}, ["C", "a1", "tl", "c1", "b1", "a2", "C2"])
    assert state.outcome is None
    before = ttt.initial_state()
    before.play(ttt.Mark(0))
    assert before == ttt.initial_state()


def check_invariants(state: ttt.State) -> None:
    xs, os = state.board.count(0), state.board.count(1)
    assert xs - os in (0, 1)
    assert state.to_move == (0 if xs == os else 1)
    naive = [
        line
        for line in ttt.WIN_LINES
        if state.board[line[0]] is not None and len({state.board[i] for i in line}) == 1
    ]
    if naive:
        assert state.outcome is not None and state.outcome.winner == state.board[naive[0][0]]
    elif None not in state.board:
        assert state.outcome is not None and state.outcome.is_draw
    else:
        assert state.outcome is None
        assert len(state.legal_moves()) == state.board.count(None)
    for move in state.legal_moves():
        assert ttt.parse_move(str(move)) == move


def test_random_playouts() -> None:
    rng = random.Random(7)
    for _ in range(300):
        state = ttt.initial_state()
        check_invariants(state)
        while not state.is_over():
            state = state.play(rng.choice(state.legal_moves()))
            check_invariants(state)


@given(st.lists(st.integers(min_value=0, max_value=8), max_size=12))
def test_any_sequence_of_cells(cells: list[int]) -> None:
    play_cells(ttt.initial_state(), ttt.Mark, cells, ("occupied", "game_over"), check_invariants)
