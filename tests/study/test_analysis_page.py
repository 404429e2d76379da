"""The analysis board's page: any position (empty, shared in the address, from a finished
game), every action with its value best first, the best one outlined on the board, a
click that moves along by a form post, the explorer; bad input is a 400 that says why;
nothing is written to the games."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client

from games import catalog
from games.models import Game
from tests.api.api_helpers import SECOND_WINS, play_through, two_players
from tests.kinds import KINDS, random_moves

pytestmark = pytest.mark.django_db(transaction=True)

URL = "/analysis/quarto/"
# Quarto with 5 cells empty and piece 8 in hand for player 1 (tests/study/test_analysis_board.py).
NEAR_END = ".157/b.e0/d2.c/..9a 8 1"


@pytest.fixture(autouse=True)
def _warm(settings: Any) -> None:
    catalog.player_of("quarto").warm_up()
    settings.HINT_BUDGET = 1.0


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def value_rows(html: str) -> list[str]:
    return [text_of(row).strip() for row in re.findall(r'<li class="analysis__row.*?</li>', html, re.S)]


def test_the_empty_board_lists_every_give_as_a_proved_draw() -> None:
    response = Client().get(URL)
    html = response.content.decode()
    assert response.status_code == 200
    assert "Player 1 to choose a piece to give" in text_of(html)
    rows = value_rows(html)
    # The opening book proves every first give a draw: exact, no estimate.
    assert len(rows) == 16 and all("draws" in row and "estimate" not in row for row in rows), rows
    # the pieces to give are the tray's buttons, all enabled, inside the page's one form
    assert len(re.findall(r'<button class="tray__slot[^"]*" type="submit" name="move"', html)) == 16
    assert Game.objects.count() == 0


def test_a_shared_position_is_valued_exactly_best_first_and_outlined() -> None:
    response = Client().get(URL, {"position": NEAR_END.replace(" ", "_")})
    html = response.content.decode()
    assert response.status_code == 200
    rows = value_rows(html)
    assert sorted(r.split()[0] for r in rows) == ["a1", "a4", "b1", "b3", "c2"]
    assert not any("estimate" in row for row in rows)
    # wins first (soonest), then draws, then losses (latest)
    order = {"wins": 0, "draws": 1, "loses": 2}
    classes = [order[next(w for w in row.split() if w in order)] for row in rows]
    assert classes == sorted(classes)
    best = rows[0].split()[0]
    assert "best" in rows[0]
    # the best cell is outlined on the board: its control carries the best hint and says so
    cell = re.search(rf'<button class="board__cell[^>]*value="{best}"[^>]*>.*?</button>', html, re.S)
    assert cell and "hint" in cell.group(0) and "is-best" in cell.group(0)
    assert "best move" in cell.group(0)
    assert f"Best: {best}" in text_of(html)
    # the share link carries the notation
    assert "?position=.157/b.e0/d2.c/..9a_8_1" in html


def test_a_click_posts_and_moves_along() -> None:
    client = Client()
    response = client.post(URL, {"moves": "5,b2", "advanced": "0", "move": "3"})
    assert response.status_code == 302
    assert response["Location"] == "/analysis/quarto/?advanced=0&moves=5%2Cb2%2C3"
    page = client.get(response["Location"]).content.decode()
    assert "Player 1 to place" in text_of(page)
    # the way here links each step back, and a take-back link goes one action back (the
    # line played is kept, to come back along it)
    assert 'href="/analysis/quarto/?advanced=0&amp;moves=5%2Cb2&amp;lines=5%2Cb2%2C3"' in page
    assert Game.objects.count() == 0


@pytest.mark.parametrize(
    ("data", "code_words"),
    [
        ({"moves": "5,b2", "move": "b2"}, "Action 3 (b2)"),
        ({"moves": "5,b2", "move": "zz"}, "Action 3"),
        ({"moves": "5", "move": "3"}, "Action 2"),
    ],
)
def test_an_illegal_click_is_a_400_that_says_why(data: dict[str, str], code_words: str) -> None:
    response = Client().post(URL, data)
    assert response.status_code == 400
    assert 'class="status__error" role="alert"' in response.content.decode()
    assert code_words in text_of(response.content.decode())


@pytest.mark.parametrize(
    "query",
    [
        {"position": "not a position"},
        {"position": "..../..../..../.... 5 1"},  # the wrong side to act
        {"advanced": "NaN"},
        {"advanced": "1e309"},
        {"moves": "a1" + ",a1" * 1500},
        {"moves": "5,b2,99"},
    ],
)
def test_bad_addresses_are_400s_with_a_sentence(query: dict[str, str]) -> None:
    response = Client().get(URL, query)
    assert response.status_code == 400
    assert 'class="status__error" role="alert"' in response.content.decode()
    assert Game.objects.count() == 0


@pytest.mark.parametrize(
    "query", [{"width": "--7"}, {"width": "\u00b2"}, {"n": "-\u00b2"}, {"players": "--3"}]
)
def test_an_option_that_is_no_whole_number_is_a_400_with_a_sentence(query: dict[str, str]) -> None:
    response = Client().get("/analysis/connect/", query)
    assert response.status_code == 400
    assert "a whole number, not" in text_of(response.content.decode())


def test_a_root_that_is_no_number_opens_at_the_start() -> None:
    response = Client().get(URL, {"moves": "5,b2", "root": "\u00b2"})
    assert response.status_code == 200


def test_an_unknown_game_is_a_404() -> None:
    assert Client().get("/analysis/chess/").status_code == 404


def test_a_game_without_notation_is_analysed_from_its_actions() -> None:
    response = Client().get("/analysis/connect/", {"moves": "d1"})
    html = response.content.decode()
    assert response.status_code == 200
    assert len(value_rows(html)) == 7 and "?position=" not in html


def test_a_finished_game_opens_at_any_ply_and_its_pages_link_here(client: Client) -> None:
    game_id, one, two = two_players(client)
    play_through(client, game_id, SECOND_WINS, {0: one, 1: two})
    game = Game.objects.get(pk=game_id)
    assert game.is_finished
    response = client.get(f"/analysis/game/{game_id}/", {"ply": 3})
    assert response.status_code == 302
    assert response["Location"] == "/analysis/quarto/?advanced=0&moves=" + "%2C".join(SECOND_WINS[:3])
    # the explorer below the board counts this game's action from here
    page = client.get(response["Location"]).content.decode()
    explorer = page[page.index("analysis__explorer") :]
    assert f"<td>{SECOND_WINS[3]}</td><td>1</td>" in explorer
    replay = client.get(f"/games/{game_id}/replay", {"ply": 5}).content.decode()
    assert f'href="/analysis/game/{game_id}/?ply=5"' in replay
    assert (
        f"/analysis/game/{game_id}/" in client.get(f"/games/{game_id}/review", follow=True).content.decode()
    )
    # a game still playing is not opened this way
    playing, _, _ = two_players(client)
    assert client.get(f"/analysis/game/{playing}/").status_code == 404
    assert "/analysis/game/" not in client.get(f"/games/{playing}/replay").content.decode()


@pytest.mark.parametrize("kind", KINDS)
def test_every_game_opens_on_the_analysis_board_and_plays_a_listed_action(kind: str, settings: Any) -> None:
    settings.HINT_BUDGET = 0.2
    client = Client()
    moves = random_moves(kind, {}, 7, stop_after=2)
    response = client.get(f"/analysis/{kind}/", {"moves": ",".join(moves)})
    html = response.content.decode()
    assert response.status_code == 200
    rows = value_rows(html)
    spec = catalog.get(kind)
    state = spec.rules.replay(spec.rules.clean_options({}), moves)
    assert len(rows) == (len(list(state.legal_moves())) if spec.capabilities.analysis else 0)
    first = re.search(r'<button class="analysis__play" type="submit" name="move" value="([^"]+)"', html)
    assert first
    moved = client.post(f"/analysis/{kind}/", {"moves": ",".join(moves), "move": first.group(1)})
    assert moved.status_code == 302 and client.get(moved["Location"]).status_code == 200


def test_the_home_page_leads_to_the_analysis_board_and_the_puzzles() -> None:
    html = Client().get("/").content.decode()
    assert 'href="/analysis/quarto/"' in html and 'href="/puzzles/?game=quarto"' not in html  # none loaded
    call_command("load_puzzles", verbosity=0)
    assert 'href="/puzzles/?game=quarto"' in Client().get("/").content.decode()
