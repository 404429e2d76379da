"""Quixo's computer player: the bitboard pushes agree with the rules, it sees a line in one,
never hands one over when it can help it, and the levels are ordered."""

from __future__ import annotations

import random

import pytest

from games.engine.base import Outcome
from games.kinds.quixo import player, rules
from games.kinds.quixo.rules import from_ascii, parse_move

# X to move wins at once, and only so: the blank a5 taken and pushed in at e5 (the top row
# slides left under it).
FOUR_ON_TOP = """
. X X X X
. . . . .
. . . . .
. O . . .
. O O O .
"""


def test_the_bitboard_push_is_the_rules_push() -> None:
    rng = random.Random(3)
    for _ in range(40):
        state = rules.initial_state()
        while not state.is_over():
            move = rng.choice(state.legal_moves())
            mine, theirs = player.masks(state)
            if state.to_move:
                mine, theirs = theirs, mine
            after = player.push(mine, theirs, rules.ALL_PUSHES.index(move))
            state = state.play(move)
            x, o = player.masks(state)
            assert after == ((x, o) if state.to_move == 1 else (o, x))  # (the mover's, the other's)


@pytest.mark.parametrize("level", ["casual", "club", "strong"])
def test_every_level_but_the_beginner_takes_a_win_in_one(level: str) -> None:
    state = from_ascii(FOUR_ON_TOP, to_move=rules.CROSS)
    for seed in range(5):
        move = player.choose_move(state, level, 0.2, random.Random(seed))
        after = state.play(move)
        assert after.outcome is not None and after.outcome.winner == rules.CROSS, move


def test_the_analysis_proves_the_win_and_lists_every_push() -> None:
    state = from_ascii(FOUR_ON_TOP, to_move=rules.CROSS)
    values = player.analyse(state, 0.3)
    assert {str(v.move) for v in values} == {str(m) for m in state.legal_moves()}
    assert values[0].value == "win" and values[0].exact and values[0].distance == 1


def test_casual_never_hands_over_a_line_it_can_avoid() -> None:
    # O to move: taking a1 up column a (a1-a5) slides X's a2 into row 1, five X: O loses.
    state = from_ascii(
        """
        . . . . .
        . . . . .
        . . . . .
        X . . . .
        . X X X X
        """,
        to_move=rules.NOUGHT,
    )
    assert state.play(parse_move("a1-a5")).outcome == Outcome(rules.CROSS, ((0, 1, 2, 3, 4),))
    for seed in range(40):
        move = player.choose_move(state, "casual", 0.1, random.Random(seed))
        after = state.play(move)
        assert after.outcome is None or after.outcome.winner == rules.NOUGHT, move


def test_strong_beats_the_beginner() -> None:
    wins = 0
    for seed in range(4):
        rng = random.Random(seed)
        state = rules.initial_state()
        seats = ("strong", "beginner") if seed % 2 == 0 else ("beginner", "strong")
        while not state.is_over():
            state = state.play(player.choose_move(state, seats[state.to_move], 0.05, rng))
        assert state.outcome is not None
        wins += state.outcome.winner is not None and seats[state.outcome.winner] == "strong"
    assert wins == 4


def test_an_unknown_level_and_a_finished_game_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown Quixo level"):
        player.choose_move(rules.initial_state(), "grandmaster")
    won = rules.initial_state()
    for text in ["a5-a1", "e5-e1"] * 4 + ["a5-a1"]:
        won = won.play(parse_move(text))
    with pytest.raises(ValueError):
        player.choose_move(won, "club")
    assert player.analyse(won) == []
