"""Quixo's rules against Gigamic's published rules: take a blank cube or your own from the
edge, push it back in from an end of its row or column but not where it was taken, five
in a line wins, making the opponent's line loses, even with your own at the same time."""

from __future__ import annotations

import random

import pytest

from games.engine.base import BadNotation, IllegalMove
from games.kinds.quixo import rules
from games.kinds.quixo.rules import from_ascii, parse_move


def play(*moves: str) -> rules.State:
    state = rules.initial_state()
    for text in moves:
        state = state.play(parse_move(text))
    return state


def test_sixteen_edge_cubes_corners_go_in_two_ways_the_others_three() -> None:
    assert len(rules.EDGE) == 16 and len(rules.ALL_PUSHES) == 4 * 2 + 12 * 3
    assert [rules.CELL_NAMES[e] for e in rules.ENDS[0]] == ["e1", "a5"]  # a1
    assert [rules.CELL_NAMES[e] for e in rules.ENDS[1]] == ["a1", "e1", "b5"]  # b1
    assert [rules.CELL_NAMES[e] for e in rules.ENDS[10]] == ["a1", "e3", "a5"]  # a3
    assert len(rules.initial_state().legal_moves()) == 44


@pytest.mark.parametrize(
    ("text", "code"),
    [("c3-c1", "not_edge"), ("a1-a1", "not_an_end"), ("b1-b3", "not_an_end"), ("a1-e5", "not_an_end")],
)
def test_only_edge_cubes_only_to_an_end_of_their_line_not_their_place(text: str, code: str) -> None:
    with pytest.raises(IllegalMove) as refused:
        parse_move(text)
    assert refused.value.code == code


@pytest.mark.parametrize("text", ["a1e1", "a1-", "z9-a1", "", "a1-e1-e5"])
def test_unreadable_moves_are_notation_errors(text: str) -> None:
    with pytest.raises((BadNotation, IllegalMove)):
        parse_move(text)


def test_moves_read_in_any_case_and_with_other_separators() -> None:
    assert parse_move(" A1 - E1 ") == parse_move("a1:e1") == parse_move("a1>e1") == rules.Push(0, 4)
    assert str(parse_move("A1:E1")) == "a1-e1"


def test_the_cube_turns_to_the_mover_and_the_line_slides_towards_the_gap() -> None:
    state = play("a1-e1")
    assert str(state) == ". . . . .\n. . . . .\n. . . . .\n. . . . .\n. . . . X"
    state = play("a1-e1", "b1-a1")  # O takes b1 (blank) and pushes it in at a1: a1 slides to b1
    assert state.board[:5] == (1, None, None, None, 0)
    state = play("a1-e1", "b1-a1", "e1-e5")  # X takes its e1 up column e: e2..e5 slide down
    assert state.board[4] is None and state.board[24] == 0


def test_an_opponents_cube_cannot_be_taken() -> None:
    state = play("a1-e1")
    with pytest.raises(IllegalMove) as refused:
        state.play(parse_move("e1-a1"))
    assert refused.value.code == "not_yours"
    assert all(move.take != 4 for move in state.legal_moves())


def test_ones_own_cube_can_be_taken_again() -> None:
    state = play("a1-e1", "c5-c1")
    assert rules.Push(4, 24) in state.legal_moves()  # X takes its e1 again


def test_five_in_a_line_wins() -> None:
    state = play(*["a5-a1", "e5-e1"] * 4, "a5-a1")
    assert state.outcome is not None and state.outcome.winner == rules.CROSS
    assert state.outcome.lines == ((0, 5, 10, 15, 20),)
    assert state.legal_moves() == []


def test_a_push_making_both_lines_loses_for_the_mover() -> None:
    before = from_ascii(
        """
        . X X X X
        O . . . .
        O . . . .
        O . . . .
        X O O O O
        """,
        to_move=rules.CROSS,
    )
    after = before.play(parse_move("a1-a5"))  # column a slides down: O's row 1 and X's row 5
    assert rules.lines_of(after.board, rules.CROSS) and rules.lines_of(after.board, rules.NOUGHT)
    assert after.outcome is not None and after.outcome.winner == rules.NOUGHT
    assert after.outcome.lines == ((0, 1, 2, 3, 4),)


def test_only_the_opponents_line_made_loses() -> None:
    before = from_ascii(
        """
        . . . . .
        O . . . .
        O . . . .
        O . . . .
        . O O O O
        """,
        to_move=rules.CROSS,
    )
    after = before.play(parse_move("a1-a5"))  # X slides O's a2 down into a1
    assert after.outcome is not None and after.outcome.winner == rules.NOUGHT


def test_a_game_without_a_line_is_drawn_at_the_limit() -> None:
    state = rules.State(ply=rules.MAX_PLIES - 1)
    after = state.play(parse_move("b1-b5"))
    assert after.outcome is not None and after.outcome.winner is None


def test_random_games_end_and_their_ascii_round_trips() -> None:
    rng = random.Random(5)
    for _ in range(30):
        state = rules.initial_state()
        while not state.is_over():
            state = state.play(rng.choice(state.legal_moves()))
            copy = from_ascii(str(state), **rules.ascii_keywords(state))
            assert copy == state
