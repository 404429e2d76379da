"""Tic-tac-toe players: the top level is exact everywhere; lower levels are beatable."""

from __future__ import annotations

import random
from functools import cache

import pytest

from games.ai.base import DRAW, LOSS, WIN
from games.kinds.tictactoe import player as ai
from games.kinds.tictactoe import rules as ttt

from .helpers import match_scores, play_out


@cache
def engine_value(state: ttt.State) -> int:
    """Minimax value for the side to move, computed through the engine (a second oracle)."""
    if state.outcome is not None:
        return 0 if state.outcome.is_draw else -1
    return max(-engine_value(state.play(m)) for m in state.legal_moves())


def all_open_positions() -> list[ttt.State]:
    return [s for s in ttt.reachable_positions() if not s.is_over()]


def test_perfect_is_optimal_in_every_reachable_position() -> None:
    ai.warm_up()
    positions = all_open_positions()
    assert len(positions) == 4520
    rng = random.Random(1)
    for state in positions:
        move = ai.choose_move(state, "perfect", rng=rng)
        assert -engine_value(state.play(move)) == engine_value(state)


def test_analyse_is_exact() -> None:
    state = ttt.from_ascii("X..\n.O.\n..X")
    results = ai.analyse(state)
    assert len(results) == 6
    names = {1: WIN, 0: DRAW, -1: LOSS}
    for item in results:
        assert item.exact
        assert item.value == names[-engine_value(state.play(item.move))]
    assert ai.analyse(ttt.initial_state())[0].value == DRAW
    win_now = ai.analyse(ttt.from_ascii("XX.\nOO.\n..."))
    assert win_now[0].value == WIN and win_now[0].distance == 1 and str(win_now[0].move) == "c3"


def play(levels: tuple[str, str], rng: random.Random) -> int | None:
    state: ttt.State = play_out(ai, ttt.initial_state(), levels, rng)
    assert state.outcome is not None
    return state.outcome.winner


@pytest.mark.parametrize("weaker", ["beginner", "casual", "club"])
def test_perfect_never_loses_and_beats_weaker_levels(weaker: str) -> None:
    rng = random.Random(5)
    scores = match_scores(ai, ttt.initial_state(), "perfect", weaker, 40, rng)
    assert -1 not in scores
    assert scores.count(1) >= (10 if weaker != "club" else 1)


def test_perfect_against_itself_draws() -> None:
    rng = random.Random(2)
    assert all(play(("perfect", "perfect"), rng) is None for _ in range(10))


def test_casual_wins_and_blocks() -> None:
    rng = random.Random(0)
    assert str(ai.choose_move(ttt.from_ascii("XX.\nOO.\n..."), "casual", rng=rng)) == "c3"
    assert str(ai.choose_move(ttt.from_ascii("XX.\nO..\n..."), "casual", rng=rng)) == "c3"
    with pytest.raises(ValueError):
        ai.choose_move(ttt.initial_state(), "grandmaster")
    assert ai.LEVELS[-1] == "perfect"
