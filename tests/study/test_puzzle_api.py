"""Puzzles over the API: the next puzzle, attempts that continue, solve and fail, and the
first try of an account moving both ratings (Glicko-2)."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client

from accounts.services import create_token
from games import catalog
from study import puzzle_rules
from study.models import Puzzle, PuzzleAttempt, PuzzleRating
from tests.api.api_helpers import auth, error_of, post
from tests.ratings.helpers import new_account

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _loaded() -> None:
    catalog.player_of("quarto").warm_up()
    call_command("load_puzzles")


def one(*themes: str) -> Puzzle:
    for puzzle in Puzzle.objects.order_by("key"):
        if list(puzzle.themes) == list(themes) and len(puzzle.answer) == 1:
            return puzzle
    raise AssertionError(f"no puzzle with themes {themes}")


def attempt(client: Client, puzzle: Puzzle, moves: list[str], token: str | None = None) -> Any:
    return post(client, f"/api/v1/puzzles/{puzzle.key}/attempt", {"moves": moves}, token)


def wrong_first(puzzle: Puzzle) -> str:
    state = catalog.get(puzzle.kind).rules.replay(puzzle.options, puzzle.moves)
    return next(str(m) for m in state.legal_moves() if str(m) not in puzzle.answer)


def test_next_gives_a_puzzle_near_1500_to_anyone(client: Client) -> None:
    response = client.get("/api/v1/puzzles/next?game=quarto")
    assert response.status_code == 200
    body = response.json()
    assert set(body) == {"id", "game", "options", "moves", "position", "to_move", "rating", "themes"}
    ratings = sorted(abs(p.rating - 1500) for p in Puzzle.objects.all())
    assert abs(body["rating"] - 1500) <= ratings[19] + 1
    assert error_of(client.get("/api/v1/puzzles/next?game=chess")) == (400, "unknown_game")


def test_a_win_in_one_is_solved_by_its_answer_and_failed_otherwise(client: Client) -> None:
    puzzle = one("win_in_1")
    body = attempt(client, puzzle, [puzzle.answer[0]]).json()
    assert body == {"status": "solved", "reply": [], "refutation": [], "rating": None}
    failed = attempt(client, puzzle, [wrong_first(puzzle)]).json()
    assert failed["status"] == "failed" and failed["refutation"]


def test_a_win_in_two_continues_with_the_stubborn_reply(client: Client) -> None:
    puzzle = one("win_in_2")
    first = attempt(client, puzzle, [puzzle.answer[0]]).json()
    assert first["status"] == "continue" and first["reply"] == []  # now give a piece
    state = catalog.get("quarto").rules.replay(puzzle.options, [*puzzle.moves, puzzle.answer[0]])
    gives = [v.text for v in puzzle_rules.solve("quarto", state) if v.value == "win"]
    second = attempt(client, puzzle, [puzzle.answer[0], gives[0]]).json()
    assert second["status"] == "continue" and len(second["reply"]) == 2  # the site places, then gives
    moves = [puzzle.answer[0], gives[0], *second["reply"]]
    state = catalog.get("quarto").rules.replay(puzzle.options, [*puzzle.moves, *moves])
    win = next(v.text for v in puzzle_rules.solve("quarto", state) if v.value == "win" and v.distance == 1)
    assert attempt(client, puzzle, [*moves, win]).json()["status"] == "solved"
    # a reply other than the site's is refused
    assert error_of(attempt(client, puzzle, [puzzle.answer[0], gives[0], "a1"]))[1] in (
        "not_the_reply",
        "occupied",
    )


@pytest.mark.parametrize(
    ("moves", "code"),
    [
        (["zz"], "bad_notation"),
        (["99"], "out_of_bounds"),
        ([1], "invalid_request"),
        (["a1"] * 41, "invalid_request"),
    ],
)
def test_bad_attempts_are_refused(client: Client, moves: list[Any], code: str) -> None:
    response = attempt(client, one("win_in_1"), moves)
    assert error_of(response)[1] in (code, "wrong_phase", "occupied")
    assert error_of(response)[0] == 400


def test_an_unknown_puzzle_is_a_404(client: Client) -> None:
    assert error_of(post(client, "/api/v1/puzzles/nope/attempt", {"moves": []})) == (404, "not_found")


def test_an_accounts_first_try_moves_both_ratings_once(client: Client) -> None:
    account = new_account("solver")
    token = create_token(account, "puzzles")
    puzzle = one("win_in_1")
    before = puzzle.rating
    body = attempt(client, puzzle, [puzzle.answer[0]], token).json()
    assert body["status"] == "solved" and body["rating"]["change"] > 0
    puzzle.refresh_from_db()
    assert puzzle.rating < before and puzzle.plays == 1
    row = PuzzleRating.objects.get(user=account.user, kind="quarto")
    assert row.rating > 1500 and row.attempts == 1
    # a second try changes nothing
    again = attempt(client, puzzle, [wrong_first(puzzle)], token).json()
    assert again["status"] == "failed" and again["rating"] is None
    assert PuzzleAttempt.objects.filter(user=account.user).count() == 1
    # a failed first try lowers the account's rating, raises the puzzle's
    other = one("win_in_2")
    other_before = other.rating
    failed = attempt(client, other, [wrong_first(other)], token).json()
    assert failed["status"] == "failed" and failed["rating"]["change"] < 0
    other.refresh_from_db()
    assert other.rating > other_before
    # the next puzzle is one the account has not tried
    tried = {puzzle.key, other.key}
    for _ in range(5):
        response = client.get("/api/v1/puzzles/next?game=quarto", headers=auth(token))
        assert response.json()["id"] not in tried


def test_an_unknown_token_is_refused(client: Client) -> None:
    response = client.get("/api/v1/puzzles/next?game=quarto", headers=auth("nope"))
    assert error_of(response) == (401, "unknown_token")
