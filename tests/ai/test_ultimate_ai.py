"""Ultimate Tic-Tac-Toe players: the compiled position agrees with the engine, random
playouts match the published statistics, and the search finds the obvious."""

from __future__ import annotations

import random
import time

import numpy as np
import pytest

from games.kinds.ultimate import core
from games.kinds.ultimate import player as ai
from games.kinds.ultimate import rules as u

from .helpers import match_scores

ai.warm_up()


def test_core_agrees_with_the_engine_move_by_move() -> None:
    rng = random.Random(5)
    buf = np.zeros(81, dtype=np.int64)
    for _ in range(30):
        state = u.initial_state()
        arr = ai.to_core(state)
        while not state.is_over():
            count = core.legal_moves(arr, buf)
            assert sorted(ai.to_mark(int(m)).cell for m in buf[:count]) == sorted(
                m.cell for m in state.legal_moves()
            )
            move = rng.choice(state.legal_moves())
            core.apply_move(arr, ai.to_core_move(move), core.WIN)
            state = state.play(move)
            assert np.array_equal(arr, ai.to_core(state))
        expected = (
            core.DRAW if state.outcome is None or state.outcome.winner is None else state.outcome.winner
        )
        assert arr[core.RESULT] == expected


def test_random_playout_statistics() -> None:
    x, o, draws, moves = core.random_playouts(core.new_state(), 20_000, 99, False, core.WIN)
    games = x + o + draws
    # Published: first player about 41 %, second 37 %, draws 22 %, about 59 moves.
    assert 0.39 < x / games < 0.43 and 0.35 < o / games < 0.39 and 0.20 < draws / games < 0.25
    assert 57 < moves / games < 61


def test_immediate_wins_and_analysis_cover_the_position() -> None:
    rng = random.Random(12)
    found_wins = 0
    for _ in range(40):
        state = u.initial_state()
        while not state.is_over() and state.ply < 40:
            state = state.play(rng.choice(state.legal_moves()))
        if state.is_over():
            continue
        for move in ai.immediate_wins(state):
            found_wins += 1
            after = state.play(move)
            assert after.outcome is not None and after.outcome.winner == state.to_move
    assert found_wins > 0
    results = ai.analyse(state, 0.1)
    assert sorted(str(a.move) for a in results) == sorted(str(m) for m in state.legal_moves())


def test_master_finishes_a_won_game() -> None:
    text = """
        . . . | . . . | . . .
        . . . | . . . | . . .
        . . . | . . . | . . .

        . . . | . . . | . . .
        . . . | . . . | . . .
        . . . | . O . | . . .

        O O . | O O . | . . .
        . . . | . . . | . . .
        X X X | X X X | X X .
    """
    state = u.from_ascii(text, last_move="e4", to_move=0)
    # X is sent to board 1 (bottom, won): free choice; i1 wins the game.
    assert ai.choose_move(state, "master", budget=0.1) == u.parse_move("i1")
    best = ai.analyse(state, 0.1)[0]
    assert best.exact and best.value == "win" and str(best.move) == "i1"


@pytest.mark.parametrize("level", ai.LEVELS)
def test_levels_return_legal_moves_in_time(level: str) -> None:
    state = u.from_moves("e5 e4")
    started = time.process_time()  # used, not waited (a busy machine)
    move = ai.choose_move(state, level, budget=0.3, rng=random.Random(1))
    assert time.process_time() - started < 0.8
    assert move in state.legal_moves()
    assert ai.reference_move(state, 500, random.Random(2)) in state.legal_moves()


def test_master_beats_random() -> None:
    rng = random.Random(6)
    assert match_scores(ai, u.initial_state(), "master", "beginner", 2, rng, budget=0.05) == [1] * 2


def test_search_speed() -> None:
    assert ai.playouts_per_second(0.3) > 10_000  # about 60,000-90,000 on the 2-core machine
