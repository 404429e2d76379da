"""The puzzles' other ways: the daily puzzle (the same for everyone that day, chosen from
the day alone), the streak (each puzzle rated above the last, over at the first miss,
the best kept per browser and per account), and the themes chosen on the page."""

from __future__ import annotations

import datetime
import re

import pytest
from django.core.management import call_command
from django.test import Client

from games import catalog
from study import puzzle_modes
from study.models import Puzzle, PuzzleRating
from tests.ratings.helpers import new_account

from .test_puzzle_pages import text_of, winning

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _loaded() -> None:
    catalog.player_of("quarto").warm_up()
    call_command("load_puzzles", verbosity=0)


def test_the_daily_puzzle_is_the_same_for_everyone_that_day_and_changes_with_the_day() -> None:
    first = Client().get("/puzzles/daily/")
    second = Client().get("/puzzles/daily/", {"game": "quarto"})
    assert first.status_code == 302 and first["Location"] == second["Location"]
    days = [datetime.date(2026, 1, 1) + datetime.timedelta(days=n) for n in range(30)]
    keys = [puzzle_modes.daily("quarto", day).key for day in days]
    assert keys == [puzzle_modes.daily("quarto", day).key for day in days]  # deterministic
    assert len(set(keys)) > 20  # spread over the puzzles
    page = Client().get(first["Location"]).content.decode()
    assert "The puzzle of the day" in page


def wrong_cell(puzzle: Puzzle) -> str:
    state = catalog.get(puzzle.kind).rules.replay(puzzle.options, puzzle.moves)
    return next(str(m) for m in state.legal_moves() if str(m) not in puzzle.answer)


def solve(client: Client, puzzle: Puzzle) -> str:
    """Play the puzzle out with the solver's help; the last page."""
    moves: list[str] = []
    url = f"/puzzles/{puzzle.key}/"
    while True:
        html = client.post(url, {"moves": ",".join(moves), "move": winning(puzzle, moves)}).content.decode()
        if "puzzle__verdict--solved" in html:
            return html
        assert "Keep going" in html
        found = re.search(r'name="moves" value="([^"]*)"', html)
        assert found
        moves = found.group(1).split(",")


@pytest.mark.parametrize("signed_in", [False, True])
def test_a_streak_rises_in_rating_and_ends_at_the_first_miss(signed_in: bool) -> None:
    client = Client()
    user = None
    if signed_in:
        user = new_account("streaker").user
        client.force_login(user)
    shown = []
    for _ in range(2):
        key = client.get("/puzzles/streak/")["Location"].split("/")[2]
        assert client.get("/puzzles/streak/")["Location"].split("/")[2] == key  # a reload keeps it
        puzzle = Puzzle.objects.get(key=key)
        shown.append(puzzle)
        html = solve(client, puzzle)
        assert "Next in the streak" in html
    assert shown[1].rating >= shown[0].rating
    assert "Streak: 2 solved so far" in text_of(html)
    key = client.get("/puzzles/streak/")["Location"].split("/")[2]
    third = Puzzle.objects.get(key=key)
    assert third.rating >= shown[1].rating
    html = client.post(f"/puzzles/{key}/", {"moves": "", "move": wrong_cell(third)}).content.decode()
    assert "Streak over: 2 puzzles solved in a row." in text_of(html)
    assert "Best streak: 2." in text_of(html)
    assert "Start a new streak" in html
    if user is not None:
        assert PuzzleRating.objects.get(user=user, kind="quarto").best_streak == 2
    # a new streak starts from the easiest again; the best is kept
    again = client.get("/puzzles/streak/", {"new": "1"})["Location"].split("/")[2]
    html = client.get(f"/puzzles/{again}/").content.decode()
    assert "Streak: 0 solved so far" in text_of(html) and "Best streak: 2." in text_of(html)


def test_a_theme_is_chosen_and_kept_for_the_next_puzzles() -> None:
    client = Client()
    for _ in range(3):
        key = client.get("/puzzles/", {"game": "quarto", "theme": "win_in_3"})["Location"].split("/")[2]
        assert "win_in_3" in Puzzle.objects.get(key=key).themes
    key = client.get("/puzzles/")["Location"].split("/")[2]  # kept in the session
    assert "win_in_3" in Puzzle.objects.get(key=key).themes
    page = client.get(f"/puzzles/{key}/").content.decode()
    assert re.search(r'theme=win_in_3" aria-current="true">win in 3</a>', page)
    key = client.get("/puzzles/", {"theme": ""})["Location"].split("/")[2]  # any theme again
    assert Puzzle.objects.filter(key=key).exists()


def test_an_unknown_theme_is_a_400_that_names_the_themes() -> None:
    response = Client().get("/puzzles/", {"theme": "mate_in_9"})
    assert response.status_code == 400
    assert "No puzzle has the theme" in text_of(response.content.decode())
    assert "the themes: win_in_1, win_in_2" in text_of(response.content.decode())


def test_the_api_gives_the_daily_puzzle_and_a_themed_one() -> None:
    daily = Client().get("/api/v1/puzzles/daily", {"game": "quarto"}).json()
    assert daily["id"] == puzzle_modes.daily("quarto").key
    themed = Client().get("/api/v1/puzzles/next", {"game": "quarto", "theme": "safe_give"}).json()
    assert "safe_give" in themed["themes"]
    bad = Client().get("/api/v1/puzzles/next", {"game": "quarto", "theme": "nope"})
    assert bad.status_code == 400 and bad.json()["error"] == "bad_theme"
