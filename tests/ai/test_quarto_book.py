"""The perfect level's opening book: lookups under symmetry, proved actions, analysis."""

from __future__ import annotations

import json
import random
import time

import pytest

from games.ai.base import DRAW
from games.kinds.quarto import book as opening
from games.kinds.quarto import player
from games.kinds.quarto.book import book, book_move, key_of, parse
from games.kinds.quarto.book_build import ROOT
from games.kinds.quarto.book_walk import covered_replies, keeps_value, play_book_turn
from games.kinds.quarto.rules import Give, Place, State, initial_state
from games.kinds.quarto.solver import Solver, encode
from games.kinds.quarto.tables import board_symmetries, piece_transforms, transform_piece

SECOND_ROOT = key_of(ROOT, 0)


def _transformed(state: State, rng: random.Random) -> State:
    """The image of ``state`` under a random one of the 12,288 symmetries."""
    perm = rng.choice(board_symmetries())
    transform = rng.choice(piece_transforms())
    board: list[int | None] = [None] * 16
    for cell, piece in enumerate(state.board):
        if piece is not None:
            board[perm[cell]] = transform_piece(piece, transform)
    hand = None if state.in_hand is None else transform_piece(state.in_hand, transform)
    return State(tuple(board), hand, state.to_move)


def _after_key(state: State, place: Place, give: Give) -> tuple[int, int]:
    after = state.play(place).play(give)
    assert after.in_hand is not None
    return key_of(encode(after), after.in_hand)


def _second_seat_line(rng: random.Random) -> list[State]:
    """Own turns of the second seat along one book line with random covered replies."""
    if SECOND_ROOT not in book().positions:
        pytest.skip("the book holds no tree for the second seat")
    state = initial_state().play(Give(rng.randrange(16)))
    turns = [state]
    while True:
        after = play_book_turn(state)
        assert after is not None, "the book answers at each of its own turns"
        options = covered_replies(after)
        if not options:
            return turns
        place, give = rng.choice(options)
        state = after.play(place).play(give)
        turns.append(state)


def test_second_seat_lookup_under_symmetry_keeps_the_action() -> None:
    rng = random.Random("book-symmetry")
    for state in _second_seat_line(rng):
        place = book_move(state)
        assert isinstance(place, Place)
        give = book_move(state.play(place))
        assert isinstance(give, Give)
        wanted = _after_key(state, place, give)
        for _ in range(6):
            image = _transformed(state, rng)
            mapped = book_move(image)
            assert isinstance(mapped, Place) and mapped.cell in image.empty_cells
            mapped_give = book_move(image.play(mapped))
            assert isinstance(mapped_give, Give) and mapped_give.piece in image.play(mapped).available
            # A position the book proves at least as good (the same one, up to symmetry).
            got = opening.child_bounds(book(), _after_key(image, mapped, mapped_give))
            proved = opening.child_bounds(book(), wanted)
            assert got is not None and proved is not None and got[0] >= proved[0] >= 0


def test_perfect_plays_the_book_at_once() -> None:
    if SECOND_ROOT not in book().positions:
        pytest.skip("the book holds no tree for the second seat")
    state = initial_state().play(Give(5))
    start = time.perf_counter()
    move = player.choose_move(state, "perfect", budget=1.0)
    assert time.perf_counter() - start < 0.5
    assert move == book_move(state)


def test_sample_of_book_actions_reproved_by_the_solver() -> None:
    """Lines of the first seat's tree down to its deepest own turn (13 empty cells):
    the book's action leaves the opponent at most a draw, proved from an empty table."""
    b = book()
    root = initial_state().play(Give(0))
    rng = random.Random("book-reprove")
    solver = Solver(tt_bits=18)
    checked = 0
    replies = covered_replies(root)
    rng.shuffle(replies)
    for place, give in replies[:4]:
        state = root.play(place).play(give)
        after = play_book_turn(state)
        assert after is not None
        deeper = covered_replies(after)
        if not deeper:
            continue
        p2, g2 = rng.choice(deeper)
        own = after.play(p2).play(g2)
        entry = b.positions[key_of(encode(own), own.in_hand)]  # type: ignore[arg-type]
        assert entry.empty == 13 and entry.low == entry.high
        done = play_book_turn(own)
        assert done is not None
        assert keeps_value(done, solver, entry.low)
        checked += 1
        if checked == 2:
            break
    if not checked:
        pytest.skip("the book holds no first-seat line down to 13 empty cells yet")


@pytest.mark.slow
def test_second_seat_bottom_action_reproved() -> None:
    state = _second_seat_line(random.Random("book-bottom"))[-1]
    assert len(state.empty_cells) == 14
    entry = book().positions[key_of(encode(state), state.in_hand)]  # type: ignore[arg-type]
    after = play_book_turn(state)
    assert after is not None
    assert keeps_value(after, Solver(tt_bits=20), entry.low)


def _both_seats_book() -> opening.Book:
    """A book proving the first give a draw from both sides (the two roots only)."""
    second = {"k": list(SECOND_ROOT), "n": 16, "c": [1, 2], "lo": 0, "hi": 1}
    return parse([json.dumps(second), json.dumps({"first": 0})])


def test_first_give_is_exact_when_both_seats_are_proved(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(opening, "_BOOK", _both_seats_book())
    values = player.analyse(initial_state(), budget=0.2)
    assert len(values) == 16
    assert all(v.exact and v.value == DRAW and v.distance == 32 for v in values)


def test_one_seat_proves_no_value(monkeypatch: pytest.MonkeyPatch) -> None:
    second = {"k": list(SECOND_ROOT), "n": 16, "c": [1, 2], "lo": 0, "hi": 1}
    monkeypatch.setattr(opening, "_BOOK", parse([json.dumps(second)]))
    assert opening.book().children[SECOND_ROOT] == (-1, 0)
    assert book_move(initial_state()) is None
    assert not any(v.exact for v in player.analyse(initial_state(), budget=0.2))


def test_shipped_book_analysis_at_ply_0() -> None:
    proved = book().children.get(SECOND_ROOT) == (0, 0)
    values = player.analyse(initial_state(), budget=0.2)
    assert all(v.exact == proved for v in values)
    if proved:
        assert {v.value for v in values} == {DRAW}


def test_outside_the_book_nothing_is_claimed() -> None:
    assert book_move(initial_state(advanced=True).play(Give(3))) is None
    state = initial_state().play(Give(0)).play(Place(5)).play(Give(15)).play(Place(6))
    state = state.play(Give(3)).play(Place(9)).play(Give(12)).play(Place(10)).play(Give(1))
    assert opening.action_values(state) == {}
    assert book_move(state) is None
