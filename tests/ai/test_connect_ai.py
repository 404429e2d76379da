"""Connect-N players: exact solving against known results and a brute-force oracle,
agreement of the two searches, time budget, multi-player sanity and strength."""

from __future__ import annotations

import random
import time
from functools import cache

import pytest

from games.ai.base import DRAW, LOSS, WIN
from games.kinds.connect import book as connect_book
from games.kinds.connect import player as ai
from games.kinds.connect import rules as connect

from .helpers import match_scores

ai.warm_up()


def best_value(state: connect.State, budget: float = 5.0) -> str | None:
    results = ai.analyse(state, budget)
    assert results[0].exact
    return results[0].value


@pytest.mark.parametrize(
    ("options", "value"),
    [
        ({"width": 4, "height": 4, "n": 4}, DRAW),
        ({"width": 5, "height": 4, "n": 4}, DRAW),
        ({"width": 6, "height": 4, "n": 4}, LOSS),  # second player wins
        ({"width": 5, "height": 4, "n": 3}, WIN),
        ({"width": 3, "height": 3, "n": 3, "gravity": False}, DRAW),
        ({"width": 4, "height": 3, "n": 3, "gravity": False}, WIN),
        ({"width": 4, "height": 4, "n": 3, "gravity": False}, WIN),
    ],
)
def test_known_game_values(options: dict[str, int | bool], value: str) -> None:
    assert best_value(connect.initial_state(**options)) == value  # type: ignore[arg-type]


@cache
def brute(state: connect.State) -> int:
    """Minimax value for the side to move, through the engine: 1 win, 0 draw, -1 loss."""
    if state.outcome is not None:
        return 0 if state.outcome.is_draw else -1
    return max(-brute(state.play(m)) for m in state.legal_moves())


def random_position(rng: random.Random, stones: int, **options: int | bool) -> connect.State:
    while True:
        state = connect.initial_state(**options)  # type: ignore[arg-type]
        for _ in range(stones):
            state = state.play(rng.choice(state.legal_moves()))
            if state.is_over():
                break
        if not state.is_over():
            return state


def test_solver_agrees_with_brute_force() -> None:
    rng = random.Random(4)
    names = {1: WIN, 0: DRAW, -1: LOSS}
    for _ in range(20):
        state = random_position(rng, rng.randrange(6, 10), width=4, height=4, n=3 + rng.randrange(2))
        for item in ai.analyse(state, 5.0):
            assert item.exact
            assert item.value == names[-brute(state.play(item.move))], (str(state), str(item.move))


@cache
def brute_exact(state: connect.State) -> tuple[int, int]:
    """(1 win / 0 draw / -1 loss for the side to move, plies to the end) under best play:
    the winner hurries, the loser holds out."""
    if state.outcome is not None:
        return (0 if state.outcome.is_draw else -1), 0
    results = []
    for move in state.legal_moves():
        value, plies = brute_exact(state.play(move))
        results.append((-value, plies + 1))
    return max(results, key=lambda r: (r[0], -r[1] if r[0] > 0 else r[1]))


def test_exact_distances_agree_with_brute_force() -> None:
    """Scores count stones to the end, so an off-by-one in the solver shows up here
    (it does not in win / draw / loss)."""
    rng = random.Random(12)
    names = {1: WIN, 0: DRAW, -1: LOSS}
    for _ in range(25):
        options = rng.choice([{"width": 4, "height": 4, "n": 3}, {"width": 5, "height": 4, "n": 4}])
        state = random_position(rng, rng.randrange(7, 11), **options)
        for item in ai.analyse(state, 5.0):
            value, plies = brute_exact(state.play(item.move))
            assert (item.value, item.distance) == (names[-value], plies + 1), (str(state), str(item.move))
        found = ai.solve_best(state, 5.0)
        assert found is not None
        column, score = found
        value, plies = brute_exact(state)
        assert brute_exact(state.play(connect.Drop(column))) == (-value, plies - 1)
        assert ai.solver_distance(state, score) == plies


def test_solver_and_heuristic_search_agree_near_the_end() -> None:
    rng = random.Random(8)
    for _ in range(15):
        state = random_position(rng, 35)
        solved = {str(a.move): a.value for a in ai.analyse(state, 5.0)}
        found = ai.deepen(state, 5.0, every_value=True)
        assert found.complete
        searched = {
            str(state.move_at(c)): ai._action_from_search(state, c, v, True).value
            for c, v in zip(found.cells, found.values, strict=True)
        }
        assert solved == searched


def test_master_plays_exact_moves_in_the_late_game() -> None:
    rng = random.Random(9)
    for _ in range(5):
        state = random_position(rng, 22)
        results = ai.analyse(state, 2.0)
        assert all(a.exact for a in results)
        order = {WIN: 2, DRAW: 1, LOSS: 0}
        best = max(order[a.value] for a in results if a.value)
        move = ai.choose_move(state, "master", budget=2.0)
        chosen = next(a for a in results if a.move == move)
        assert chosen.value is not None and order[chosen.value] == best


def test_distances_of_a_win_in_one_and_a_forced_loss() -> None:
    state = connect.from_ascii(
        ". . . . . . .\n. . . . . . .\n. . . . . . .\n. . . . . . .\nO O . . . . .\nX X X . . . .", to_move=0
    )
    first = ai.analyse(state)[0]
    assert (str(first.move), first.value, first.distance) == ("d", WIN, 1)
    assert ai.choose_move(state, "master") == connect.Drop(3)


def test_master_opens_from_the_book_at_once() -> None:
    started = time.process_time()  # used, not waited (a busy machine)
    assert ai.choose_move(connect.initial_state(), "master", budget=1.0) == connect.Drop(3)
    assert time.process_time() - started < 0.5


def test_master_move_says_where_it_came_from() -> None:
    rng = random.Random(3)
    assert ai.master_move(connect.initial_state(), 1.0, rng) == (connect.Drop(3), "book")
    late = random_position(random.Random(5), 24)
    move, source = ai.master_move(late, 1.0, rng)
    assert source == "solver"
    order = {LOSS: 0, DRAW: 1, WIN: 2}
    values = {a.move: order[a.value] for a in ai.analyse(late, 2.0) if a.value is not None}
    assert values[move] == max(values.values())
    # Five stones, off the book's lines, with 20 ms: the solver cannot finish.
    early = connect.initial_state()
    for letter in "aggab":
        early = early.play(connect.Drop("abcdefg".index(letter)))
    assert connect_book.lookup(early) is None
    move, source = ai.master_move(early, 0.02, rng)
    assert source == "search" and move in early.legal_moves()
    # Other boards have no solver: the heuristic search decides.
    assert ai.master_move(connect.initial_state(gravity=False), 0.05, rng)[1] == "search"


@pytest.mark.parametrize("level", ["expert", "master"])
def test_time_budget_is_respected_after_the_book(level: str) -> None:
    # Nine stones: past the book and usually too early to solve in 0.3 s.
    state = connect.initial_state()
    for letter in "dcdedcbfa":
        state = state.play(connect.Drop("abcdefg".index(letter)))
    started = time.process_time()  # used, not waited (a busy machine)
    move = ai.choose_move(state, level, budget=0.3)
    assert time.process_time() - started < 0.3 + 0.25
    assert move in state.legal_moves()


def test_large_board_without_gravity() -> None:
    state = connect.initial_state(width=12, height=12, n=5, gravity=False)
    for text in ("f6", "a1", "g6", "a2", "h6", "a3"):
        state = state.play(connect.parse_move(text))
    started = time.process_time()  # used, not waited (a busy machine)
    move = ai.choose_move(state, "master", budget=0.5)
    assert time.process_time() - started < 1.5
    assert str(move) in ("e6", "i6", "a4")  # an open four-to-be or the block of a1-a3


def test_three_players_take_a_win_and_block() -> None:
    win_now = connect.from_ascii("......\n......\n......\n......\nX.....\nXOA...", n=3, players=3, to_move=0)
    assert ai.choose_move(win_now, "master", budget=0.3) == connect.Drop(0)
    values = ai.analyse(win_now, 0.3)
    assert values[0].value == WIN and values[0].exact
    block = connect.from_ascii("......\n......\n......\n......\n.O....\nXOA...", n=3, players=3, to_move=0)
    assert ai.choose_move(block, "master", budget=0.3) == connect.Drop(1)


@pytest.mark.parametrize("level", ["casual", "club", "expert"])
def test_levels_return_legal_moves(level: str) -> None:
    rng = random.Random(1)
    state = random_position(rng, 6)
    assert ai.choose_move(state, level, budget=0.2, rng=rng) in state.legal_moves()
    with pytest.raises(ValueError):
        ai.choose_move(state, "wizard")


def test_master_beats_beginner() -> None:
    rng = random.Random(3)
    assert match_scores(ai, connect.initial_state(), "master", "beginner", 4, rng, budget=0.05) == [1] * 4
