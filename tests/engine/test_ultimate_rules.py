"""Ultimate Tic-Tac-Toe rules: where a move sends the opponent, closed boards, the
outcome, every error code and random-play properties."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.base import BadNotation, IllegalMove, OptionError
from games.kinds.tictactoe.rules import WIN_LINES
from games.kinds.ultimate import rules as u

from .marks import play_cells


def test_board_geometry() -> None:
    assert u.BOARD_CELLS[0] == (0, 1, 2, 9, 10, 11, 18, 19, 20)
    assert u.BOARD_CELLS[8][8] == 80
    assert u.board_of(40) == 4 and u.inner_of(40) == 4
    assert u.board_of(u.parse_move("g9").cell) == 8 and u.inner_of(u.parse_move("g9").cell) == 6
    assert str(u.board_name(6)) == "top-left board (a7-c9)"
    assert sorted(c for b in range(9) for c in u.BOARD_CELLS[b]) == list(range(81))


def test_first_move_free_then_sent() -> None:
    state = u.initial_state()
    assert len(state.legal_moves()) == 81 and state.allowed_boards == tuple(range(9))
    state = state.play(u.parse_move("e5"))  # centre of the centre board
    assert state.allowed_boards == (4,) and state.last_move == u.Mark(40)
    state = state.play(u.parse_move("d4"))  # bottom-left cell of the centre board
    assert state.allowed_boards == (0,)
    assert [str(m) for m in state.legal_moves()] == ["a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"]


def test_wrong_board_names_the_allowed_board() -> None:
    state = u.from_moves("e5")
    with pytest.raises(IllegalMove) as info:
        state.play(u.parse_move("a1"))
    assert info.value.code == "wrong_board"
    assert "centre board (d4-f6)" in info.value.message


def won_board_position() -> u.State:
    # X has won the bottom-left board (a1 b1 c1); O's last move c9 sends X to board 8 (top-right).
    return u.from_ascii(
        """
        . . . | . . . | . . O
        . . . | . . . | . . .
        . . . | . . . | . . .

        . . . | . . . | . . .
        . . . | . O . | . . .
        . . . | . . . | . . .

        . . . | . . . | . . .
        O . . | . . . | . . .
        X X X | . . . | . . .
        """,
        last_move="c9",
    )


def test_won_board_takes_no_moves_and_frees_the_choice() -> None:
    state = won_board_position()
    assert state.board_owners[0] == 0 and state.board_status(0) == "won"
    assert state.board_lines[0] == ((0, 1, 2),)
    assert state.to_move == 0 and state.allowed_boards == (8,)
    after = state.play(u.parse_move("g7"))  # bottom-left cell of board 8 sends O to board 0: won
    assert after.allowed_boards == (1, 2, 3, 4, 5, 6, 7, 8)
    with pytest.raises(IllegalMove) as info:
        after.play(u.parse_move("b3"))
    assert info.value.code == "wrong_board" and "closed" in info.value.message
    assert len(after.legal_moves()) == 8 * 9 - 3


def test_full_board_without_line_is_drawn_and_closed() -> None:
    state = u.from_ascii(
        """
        . . . | . . . | . . .
        . . . | . . . | . . .
        . . . | . . . | . . .

        . . . | . . . | . . .
        . . . | . . . | . . .
        . . . | . . . | . . .

        X O X | . . . | . . .
        X O O | . . . | . . .
        O X X | . . . | . . .
        """,
        last_move="a1",
        to_move=0,
    )
    assert state.board_owners[0] == u.DRAWN and state.board_status(0) == "drawn"
    assert state.board_status(1) == "open" and state.is_board_open(1)
    assert state.allowed_boards == tuple(range(1, 9))


def test_three_boards_in_a_line_win() -> None:
    state = u.from_ascii(
        """
        . . . | . . . | X X X
        . . . | . . . | O O .
        . . . | . . . | . . .

        . . . | X . . | . . .
        . . . | . X . | . O .
        . . . | . . X | . . .

        X . . | . . . | O . .
        . X . | . . . | O . .
        . . X | . . . | . O O
        """
    )
    assert state.outcome is not None and state.outcome.winner == 0
    assert state.winning_boards == ((0, 4, 8),)
    assert set(state.outcome.lines[0]) == {2, 10, 18, 32, 40, 48, 78, 79, 80}
    assert state.legal_moves() == [] and state.allowed_boards == ()


def test_winning_move_and_draw_by_closed_boards() -> None:
    # X wins boards 0 and 1 elsewhere; completing board 2 completes the bottom row of boards.
    state = u.from_ascii(
        """
        . . . | . . . | . . .
        . . . | . . . | . . .
        . . O | . . . | . . .

        . . . | . . . | . . .
        . . . | . . . | . . .
        . . . | . . . | . . .

        O O . | O O . | . . .
        . . . | . . . | . . .
        X X X | X X X | X X .
        """,
        last_move="c7",
        to_move=0,
    )
    assert state.allowed_boards == (2,)
    won = state.play(u.parse_move("i1"))
    assert won.outcome is not None and won.outcome.winner == 0
    assert won.winning_boards == ((0, 1, 2),)
    # Every small board full, none with a line: draw.
    board = ["XOX", "XOO", "OXX"]
    rows = []
    for _ in range(3):
        for line in board:
            rows.append("|".join([line] * 3))
    state = u.from_ascii("\n".join(rows))
    assert state.board_owners == (u.DRAWN,) * 9
    assert state.outcome is not None and state.outcome.is_draw


def test_error_codes() -> None:
    state = u.from_moves("e5 e4")
    cases: list[tuple[Callable[[], object], str]] = [
        (lambda: state.play(u.parse_move("e4")), "occupied"),
        (lambda: state.play(u.Mark(81)), "out_of_bounds"),
        (lambda: u.parse_move("j1"), "out_of_bounds"),
        (lambda: u.parse_move("a10"), "out_of_bounds"),
        (lambda: state.play(u.parse_move("a1")), "wrong_board"),
        (lambda: state.play(u.parse_move("e2"), player=1), "not_your_turn"),
        (lambda: u.from_ascii("\n".join(["XOX|XOX|XOX"] * 9)).play(u.Mark(0)), "game_over"),
    ]
    for action, code in cases:
        with pytest.raises(IllegalMove) as info:
            action()
        assert info.value.code == code, code
    for text in ("", "e", "55", "e 5"):
        with pytest.raises(BadNotation):
            u.parse_move(text)


def test_options() -> None:
    assert u.clean_options({}) == {} and u.RULES.new_state() == u.initial_state()
    assert u.RULES.kind == "ultimate" and u.RULES.title == "Ultimate Tic-Tac-Toe"
    with pytest.raises(OptionError):
        u.clean_options({"count_boards": True})


def naive_owner(state: u.State, small: int) -> int | None:
    cells = u.BOARD_CELLS[small]
    for line in WIN_LINES:
        marks = {state.board[cells[i]] for i in line}
        if len(marks) == 1 and None not in marks:
            return marks.pop()
    return u.DRAWN if all(state.board[c] is not None for c in cells) else None


def check_invariants(state: u.State) -> None:
    xs, os = state.board.count(0), state.board.count(1)
    assert xs - os in (0, 1) and state.to_move == xs - os
    for b in range(9):
        owner = naive_owner(state, b)
        if state.board_owners[b] in (0, 1):
            assert owner is not None  # the first line decides; later marks cannot undo it
        else:
            assert state.board_owners[b] == owner
    allowed = state.allowed_boards
    assert all(state.is_board_open(b) for b in allowed)
    if state.outcome is None:
        assert allowed
        if state.last_move is not None and state.is_board_open(u.inner_of(state.last_move.cell)):
            assert allowed == (u.inner_of(state.last_move.cell),)
    moves = state.legal_moves()
    assert len(moves) == sum(1 for b in allowed for c in u.BOARD_CELLS[b] if state.board[c] is None)
    for move in moves:
        assert u.parse_move(str(move)) == move


def test_random_playouts_and_statistics() -> None:
    rng = random.Random(11)
    results = {0: 0, 1: 0, None: 0}
    lengths = []
    for game in range(200):
        state = u.initial_state()
        while not state.is_over():
            state = state.play(rng.choice(state.legal_moves()))
            if game < 20:
                check_invariants(state)
        assert state.outcome is not None
        results[state.outcome.winner] += 1
        lengths.append(state.ply)
    # Random play: first player about 41%, second 37%, draws 22%; about 59 moves.
    assert 50 < sum(lengths) / len(lengths) < 68
    assert results[0] > 50 and results[1] > 45 and results[None] > 20


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(0, 80), max_size=100))
def test_any_sequence_of_cells(cells: list[int]) -> None:
    play_cells(u.initial_state(), u.Mark, cells, ("occupied", "wrong_board", "game_over"), check_invariants)


def test_small_boards_are_named_by_their_corners() -> None:
    assert u.BOARD_SPANS[4] == "d4-f6" and u.BOARD_SPANS[0] == "a1-c3"
