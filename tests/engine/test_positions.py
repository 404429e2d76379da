"""Position notations: every reachable position round-trips, bad text is refused with a
code and a sentence, and a position the rules cannot reach is refused too."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import catalog
from games.engine.positions import PositionError
from games.kinds.quarto import rules as quarto
from games.kinds.quarto.position import NOTATION as QUARTO
from games.kinds.tictactoe import rules as tictactoe
from games.kinds.tictactoe.position import NOTATION as TICTACTOE

WITH_NOTATION = sorted(kind for kind, spec in catalog.CATALOG.items() if spec.notation)


def random_game(kind: str, options: Mapping[str, Any], seed: int, length: int) -> Any:
    rng = random.Random(seed)
    state = catalog.get(kind).rules.new_state(options)
    for _ in range(length):
        if state.is_over():
            break
        state = state.play(rng.choice(state.legal_moves()))
    return state


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(WITH_NOTATION), st.booleans(), st.integers(0, 10**9), st.integers(0, 33))
def test_reachable_positions_round_trip(kind: str, advanced: bool, seed: int, length: int) -> None:
    spec = catalog.get(kind)
    assert spec.notation is not None
    options = {"advanced": advanced} if kind == "quarto" else {}
    state = random_game(kind, options, seed, length)
    text = spec.notation.format(state)
    again = spec.notation.parse(spec.rules, text, options)
    assert (again.board, again.to_move, again.is_over()) == (state.board, state.to_move, state.is_over())
    assert getattr(again, "in_hand", None) == getattr(state, "in_hand", None)
    assert (state.outcome and state.outcome.winner) == (again.outcome and again.outcome.winner)
    assert spec.notation.format(again) == text
    # the setup actions replay through the rules to the same position
    assert spec.notation.format(spec.rules.replay(options, spec.notation.setup_moves(state))) == text


def test_quarto_notation_reads_as_documented() -> None:
    state = QUARTO.parse(quarto.RULES, "0a../..3./..../.... 5 1")
    assert state.board[12] == 0 and state.board[13] == 10 and state.board[10] == 3
    assert state.in_hand == 5 and state.to_move == 0
    assert QUARTO.format(state) == "0a../..3./..../.... 5 1"
    assert QUARTO.parse(quarto.RULES, "0A../..3./..../.... 5 1") == state
    assert QUARTO.parse(quarto.RULES, "0a../..3./..../...._5_1") == state
    assert QUARTO.format(quarto.initial_state()) == "..../..../..../.... - 1"


def test_tictactoe_notation_reads_as_documented() -> None:
    state = TICTACTOE.parse(tictactoe.RULES, "x.o/.x./... o")
    assert state.board[6] == 0 and state.board[8] == 1 and state.board[4] == 0 and state.to_move == 1


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("", "bad_notation"),
        ("..../..../..../....", "bad_notation"),
        ("..../..../..../.... - 3", "bad_notation"),
        ("..../..../..../..g. - 1", "bad_notation"),
        ("...../..../..../.... - 1", "bad_notation"),
        ("0.../..../..../...0 - 1", "bad_notation"),  # piece 0 twice
        ("0.../..../..../.... 0 2", "bad_notation"),  # in hand and on the board
        ("..../..../..../.... - 2", "wrong_side"),
        ("..../..../..../.... 5 1", "wrong_side"),
        ("0.../..../..../.... 5 2", "wrong_side"),
        ("0.../..../..../.... 5 " + "1" * 300, "bad_notation"),
        ("0123/..../..../.... - 2", "wrong_side"),  # seat 1 placed the fourth piece
        ("0123/..../..../.... 5 1", "unreachable"),  # won with a piece in hand
        ("0123/4567/89ab/cdef 5 1", "bad_notation"),  # 5 twice
    ],
)
def test_quarto_bad_positions(text: str, code: str) -> None:
    with pytest.raises(PositionError) as caught:
        QUARTO.parse(quarto.RULES, text)
    assert caught.value.code == code, caught.value.message
    assert caught.value.message.endswith(".")


def test_a_won_quarto_board_is_reached_with_the_shared_cell_last() -> None:
    # rank 4 full of pieces 0, 1, 2, 3 (all short: a win), placed by seat 0 as the 4th placement
    state = QUARTO.parse(quarto.RULES, "0123/..../..../.... - 1")
    assert state.outcome is not None and state.outcome.winner == 0
    # two crossing winning lines: only their shared cell can have been placed last
    crossing = QUARTO.parse(quarto.RULES, "0123/4.../8.../f... - 2")
    assert crossing.outcome is not None
    assert QUARTO.setup_moves(crossing)[-1] == "a4"


def test_quarto_options_matter() -> None:
    square = "01../45../..../.... - 1"  # a 2x2 square of pieces sharing traits
    assert not QUARTO.parse(quarto.RULES, square).is_over()
    assert QUARTO.parse(quarto.RULES, square, {"advanced": True}).outcome.winner == 0


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("xxx/.../... x", "unreachable"),
        ("xx./.../... o", "unreachable"),
        ("x../.../... x", "wrong_side"),
        ("xxx/ooo/... x", "unreachable"),
        ("x../... o", "bad_notation"),
        ("x../.../..z o", "bad_notation"),
    ],
)
def test_tictactoe_bad_positions(text: str, code: str) -> None:
    with pytest.raises(PositionError) as caught:
        TICTACTOE.parse(tictactoe.RULES, text)
    assert caught.value.code == code, caught.value.message


def test_every_reachable_tictactoe_position_round_trips() -> None:
    for state in tictactoe.reachable_positions():
        text = TICTACTOE.format(state)
        assert TICTACTOE.parse(tictactoe.RULES, text).board == state.board


def test_not_text_is_refused() -> None:
    with pytest.raises(PositionError) as caught:
        QUARTO.parse(quarto.RULES, 5)  # type: ignore[arg-type]
    assert caught.value.code == "bad_notation"
