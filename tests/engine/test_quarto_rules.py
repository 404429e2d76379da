"""Quarto rules: lines and traits, the 2x2 variant, every error code, notation."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import BadNotation, IllegalMove
from games.kinds.quarto.rules import (
    CELL_NAMES,
    RULES,
    SQUARES,
    WIN_LINES,
    Give,
    Place,
    State,
    from_ascii,
    initial_state,
    is_quarto,
    parse_move,
    piece_name,
    shared_traits,
)


def finish(board: str, piece: int, cell: str, advanced: bool = False) -> State:
    """Place ``piece`` on ``cell`` of an ASCII position (top rank first)."""
    state = from_ascii(board, in_hand=piece, advanced=advanced)
    return state.play(parse_move(cell))


def test_piece_names_follow_the_bits() -> None:
    assert piece_name(0) == "short light square solid"
    assert piece_name(15) == "tall dark round hollow"
    assert piece_name(0b1000) == "short light round solid"
    assert piece_name(0b0100) == "tall light square solid"
    assert piece_name(0b0010) == "short light square hollow"
    assert piece_name(0b0001) == "short dark square solid"


def test_win_test_counts_shared_zeros_and_ones() -> None:
    assert is_quarto(0b1000, 0b1001, 0b1010, 0b1111)  # all round
    assert is_quarto(0b0000, 0b0001, 0b0010, 0b0011)  # all short and square
    assert not is_quarto(0b0000, 0b1111, 0b0101, 0b1010)
    assert shared_traits((0, 1, 2, 3)) == ("short", "square")
    assert shared_traits((12, 13, 14, 15)) == ("tall", "round")


@pytest.mark.parametrize(
    ("board", "piece", "cell", "line", "shared"),
    [
        # bottom rank, all round (bit 3 set)
        (". . . .\n. . . .\n. . . .\n8 9 10 .", 15, "d1", ("a1", "b1", "c1", "d1"), ("round",)),
        # top rank, all short (bit 2 clear) and square
        ("0 1 2 .\n. . . .\n. . . .\n. . . .", 3, "d4", ("a4", "b4", "c4", "d4"), ("short", "square")),
        # column b, all dark (bit 0 set)
        (". 1 . .\n. 3 . .\n. 5 . .\n. . . .", 15, "b1", ("b1", "b2", "b3", "b4"), ("dark",)),
        # column d, all solid (bit 1 clear)
        (". . . 0\n. . . 4\n. . . 8\n. . . .", 12, "d1", ("d1", "d2", "d3", "d4"), ("light", "solid")),
        # rising diagonal a1-d4, all tall (bit 2 set)
        (". . . .\n. . 5 .\n. 6 . .\n4 . . .", 7, "d4", ("a1", "b2", "c3", "d4"), ("tall", "square")),
        # falling diagonal a4-d1, all light (bit 0 clear) and hollow (bit 1 set)
        ("2 . . .\n. 6 . .\n. . 10 .\n. . . .", 14, "d1", ("a4", "b3", "c2", "d1"), ("light", "hollow")),
    ],
)
def test_every_kind_of_line_wins(
    board: str, piece: int, cell: str, line: tuple[str, ...], shared: tuple[str, ...]
) -> None:
    state = finish(board, piece, cell)
    assert state.outcome is not None
    assert state.outcome.winner == 0
    assert [sorted(CELL_NAMES[i] for i in won) for won in state.outcome.lines] == [sorted(line)]
    assert state.outcome.shared == shared
    assert state.legal_moves() == []


def test_a_full_line_without_a_shared_trait_does_not_win() -> None:
    state = finish(". . . .\n. . . .\n. . . .\n0 15 5 .", 10, "d1")
    assert state.outcome is None


def test_two_lines_at_once_are_both_reported() -> None:
    board = ". . . 8\n. . . 9\n. . . 10\n12 13 14 ."
    state = finish(board, 15, "d1")
    assert state.outcome is not None
    assert len(state.outcome.lines) == 2


def test_square_wins_only_in_the_advanced_variant() -> None:
    board = ". . . .\n. . . .\n8 9 . .\n10 . . ."
    assert finish(board, 11, "b1").outcome is None
    advanced = finish(board, 11, "b1", advanced=True)
    assert advanced.outcome is not None
    assert advanced.outcome.lines == ((0, 1, 4, 5),)
    assert advanced.outcome.shared == ("short", "round")


def test_a_full_board_without_a_line_is_a_draw() -> None:
    # A known drawn arrangement: no row, column or diagonal shares a trait.
    board = "0 7 11 12\n13 10 6 1\n14 9 5 2\n3 4 8 15"
    pieces = [int(t) for t in board.split()]
    state = from_ascii(board.replace(" 15", " ."), in_hand=15)
    full_lines = [[pieces[i] for i in line] for line in WIN_LINES]
    assert not any(is_quarto(*line) for line in full_lines)
    final = state.play(Place(3))
    assert sorted(pieces) == list(range(16))
    assert final.outcome is not None and final.outcome.winner is None


def test_turn_order_give_then_place() -> None:
    state = initial_state()
    assert state.phase == "give" and state.to_move == 0
    state = state.play(Give(5))
    assert state.to_move == 1 and state.phase == "place" and state.in_hand == 5
    state = state.play(Place(0))
    assert state.to_move == 1 and state.phase == "give" and state.board[0] == 5
    state = state.play(Give(6))
    assert state.to_move == 0


@pytest.mark.parametrize(
    ("setup", "action", "code"),
    [
        ([], "a1", "wrong_phase"),
        (["3"], "4", "wrong_phase"),
        (["3", "a1"], "3", "piece_unavailable"),
        (["3", "a1", "4"], "a1", "occupied"),
        (["3", "a1", "4"], "e1", "out_of_bounds"),
        (["3"], "a5", "out_of_bounds"),
        ([], "16", "out_of_bounds"),
    ],
)
def test_every_rule_error_has_a_code_and_changes_nothing(setup: list[str], action: str, code: str) -> None:
    rules = RULES
    state = rules.replay({}, setup)
    before = state
    with pytest.raises(IllegalMove) as info:
        state.play(parse_move(action))
    assert info.value.code == code
    assert info.value.message
    assert state == before


def test_not_your_turn_and_game_over() -> None:
    state = initial_state()
    with pytest.raises(IllegalMove) as info:
        state.play(Give(1), player=1)
    assert info.value.code == "not_your_turn"
    over = finish(". . . .\n. . . .\n. . . .\n8 9 10 .", 15, "d1")
    with pytest.raises(IllegalMove) as info:
        over.play(Give(1))
    assert info.value.code == "game_over"


@pytest.mark.parametrize("text", ["", "x", "a", "1a", "-1", "a1b", "🙂", "aa"])
def test_unreadable_text_is_bad_notation(text: str) -> None:
    with pytest.raises(BadNotation) as info:
        parse_move(text)
    assert info.value.code == "bad_notation"


def test_notation_round_trips() -> None:
    for piece in range(16):
        assert parse_move(str(Give(piece))) == Give(piece)
    for cell, name in enumerate(CELL_NAMES):
        assert str(Place(cell)) == name
        assert parse_move(name) == Place(cell)
        assert parse_move(f" {name.upper()} ") == Place(cell)
    assert CELL_NAMES[0] == "a1" and CELL_NAMES[3] == "d1" and CELL_NAMES[12] == "a4"


def test_lines_tables() -> None:
    assert len(WIN_LINES) == 10
    assert len(SQUARES) == 9
    assert all(len(set(line)) == 4 for line in WIN_LINES + SQUARES)


def test_options_are_checked() -> None:
    rules = RULES
    assert rules.clean_options({}) == {"advanced": False}
    assert rules.clean_options({"advanced": "on"}) == {"advanced": True}
    with pytest.raises(ValueError, match="Unknown option"):
        rules.clean_options({"size": 5})
    with pytest.raises(ValueError, match="true or false"):
        rules.clean_options({"advanced": "maybe"})


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=1000), min_size=32, max_size=32), st.booleans())
def test_random_games_keep_the_invariants(choices: list[int], advanced: bool) -> None:
    state = initial_state(advanced=advanced)
    record = []
    for choice in choices:
        if state.is_over():
            break
        moves = state.legal_moves()
        assert moves, "a running game always has a legal action"
        move = moves[choice % len(moves)]
        new = state.play(move)
        record.append(str(move))
        placed = [p for p in new.board if p is not None]
        assert len(placed) == len(set(placed)), "each piece is used at most once"
        in_play = placed + ([new.in_hand] if new.in_hand is not None else [])
        assert sorted(in_play + list(new.available)) == list(range(16))
        if new.outcome is None:
            assert len(placed) < 16
        state = new
    assert state.is_over(), "32 actions always finish a game"
    assert RULES.replay({"advanced": advanced}, record) == state
