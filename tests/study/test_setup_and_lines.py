"""The analysis board's set-up by clicks (every click a link carrying the whole set-up)
and its move list with branches (a variation kept beside the main line, every action a
link back to its position), all in the address, without JavaScript."""

from __future__ import annotations

import re
from html import unescape
from typing import Any

import pytest
from django.test import Client

from games import catalog
from games.models import Game
from study import lines

pytestmark = pytest.mark.django_db(transaction=True)

URL = "/analysis/quarto/"


@pytest.fixture(autouse=True)
def _warm(settings: Any) -> None:
    catalog.player_of("quarto").warm_up()
    settings.HINT_BUDGET = 1.0


def links(html: str, attribute: str) -> dict[str, str]:
    """Each link's address by its data attribute (a cell, a pen, a side)."""
    return {
        value: unescape(href)
        for href, value in re.findall(rf'<a class="[^"]*" href="([^"]+)" {attribute}="([^"]+)"', html)
    }


def test_a_position_is_set_up_by_clicks_and_analysed() -> None:
    client = Client()
    page = client.get(URL, {"edit": ""}).content.decode()
    assert len(links(page, "data-cell")) == 16 and len(links(page, "data-pen")) == 17
    # piece 5 on a1, piece 3 on d4, piece 8 in hand, player 1 to act
    page = client.get(links(page, "data-pen")["5"]).content.decode()
    page = client.get(links(page, "data-cell")["a1"]).content.decode()
    page = client.get(links(page, "data-pen")["3"]).content.decode()
    page = client.get(links(page, "data-cell")["d4"]).content.decode()
    page = client.get(links(page, "data-pen")["8"]).content.decode()
    hand = re.search(r'href="([^"]+)" data-hand="put"', page)
    assert hand
    page = client.get(unescape(hand.group(1))).content.decode()
    assert "<code>...3/..../..../5... 8 1</code>" in page
    # two placed, one in hand: player 2 places it (the rules say so until the side is right)
    assert "In this position player 2 acts, not player 1." in page
    page = client.get(links(page, "data-side")["2"]).content.decode()
    assert "<code>...3/..../..../5... 8 2</code>" in page and "Not yet a position" not in page
    # moving a piece takes it from where it was: piece 3 from d4 to b2
    moved = client.get(links(client.get(links(page, "data-pen")["3"]).content.decode(), "data-cell")["b2"])
    assert "<code>..../..../.3../5... 8 2</code>" in moved.content.decode()
    analyse = re.search(r'href="([^"]+)">Analyse this position', page)
    assert analyse
    board = client.get(unescape(analyse.group(1)))
    html = board.content.decode()
    assert board.status_code == 200 and "Player 2 to place" in html
    assert 'aria-current="step">The set-up position' in html
    assert Game.objects.count() == 0


def test_the_side_to_act_is_checked_by_the_rules_with_a_sentence() -> None:
    client = Client()
    page = client.get(URL, {"edit": "5.../..../..../.... 8 1", "pen": "0"}).content.decode()
    assert "Not yet a position a game reaches" not in page  # one piece placed, one in hand: player 1
    page = client.get(links(page, "data-side")["2"]).content.decode()
    assert "In this position player 1 acts, not player 2." in page
    analyse = re.search(r'href="([^"]+)">Analyse this position', page)
    assert analyse
    response = client.get(unescape(analyse.group(1)))
    assert response.status_code == 400
    assert "In this position player 1 acts, not player 2." in response.content.decode()


@pytest.mark.parametrize(
    "query",
    [
        {"edit": "nonsense"},
        {"edit": "55../..../..../.... - 1"},
        {"edit": "", "pen": "16"},
        {"edit": "", "pen": "x"},
        {"edit": "", "pen": "\u00b2"},  # a digit to str.isdigit(), not to int()
    ],
)
def test_a_set_up_it_cannot_read_is_a_400_with_a_sentence(query: dict[str, str]) -> None:
    response = Client().get(URL, query)
    assert response.status_code == 400
    assert 'class="status__error" role="alert"' in response.content.decode()


def test_a_game_set_up_by_its_actions_says_so() -> None:
    response = Client().get("/analysis/connect/", {"edit": ""})
    assert response.status_code == 400 and "set up by playing" in response.content.decode()


def test_keep_extends_the_line_played_at_its_end_and_opens_variations() -> None:
    main = ["5", "a1", "3"]
    assert lines.keep([], ["5"]) == [["5"]]
    assert lines.keep([main], ["5", "a1"]) == [main]  # going back keeps the line
    assert lines.keep([main], [*main, "b2"]) == [[*main, "b2"]]  # played at its end: extended
    assert lines.keep([main], ["5", "a1", "4"]) == [main, ["5", "a1", "4"]]  # a variation beside it
    two = [main, ["5", "a1", "4"]]
    assert lines.keep(two, ["5", "a1", "4", "c3"]) == [main, ["5", "a1", "4", "c3"]]
    many = [main] + [["5", "a1", str(n)] for n in range(4, 4 + lines.MAX_LINES)]
    kept = lines.read(lines.text(many), ["5", "a1", "15"])
    assert kept[0] == main and len(kept) == lines.MAX_LINES and kept[-1] == ["5", "a1", "15"]


def test_a_variation_is_kept_beside_the_main_line_and_each_action_links_back() -> None:
    client = Client()
    # the main line 5, b2, 3; then back to ply 2 and another give, 4: a variation
    address = "/analysis/quarto/?advanced=0&moves="
    for moves, move in (("", "5"), ("5", "b2"), ("5,b2", "3")):
        response = client.post(
            URL, {"moves": moves, "lines": "5,b2" if moves == "5,b2" else "", "move": move}
        )
        assert response.status_code == 302
    assert response["Location"] == address + "5%2Cb2%2C3"
    response = client.post(URL, {"moves": "5,b2", "lines": "5,b2,3", "move": "4"})
    assert response["Location"] == address + "5%2Cb2%2C4&lines=5%2Cb2%2C3%3B5%2Cb2%2C4"
    html = client.get(response["Location"]).content.decode()
    line = html[html.index("analysis__line") : html.index("</ol>\n    <p")]
    assert re.search(r'<a href="[^"]*moves=5%2Cb2%2C3[^"]*">3\. ', line)  # the main line's third action
    variation = line[line.index("analysis__variation") :]
    current = re.search(r'<a href="([^"]*)" aria-current="step">3\. ', variation)
    assert current and "lines=5%2Cb2%2C3%3B5%2Cb2%2C4" in current.group(1)
    # a click on the main line's action goes back there with both lines kept
    back = re.search(r'<a href="([^"]*moves=5%2Cb2%2C3&amp;[^"]*)">3\. ', line)
    assert back
    page = client.get(unescape(back.group(1))).content.decode()
    assert "analysis__variation" in page and 'name="lines" value="5,b2,3;5,b2,4"' in page


def test_the_best_placement_outlines_its_cell_and_the_piece_in_hand() -> None:
    """Drawn by the page's style: the best cell's control carries the best hint, and the
    piece in hand is outlined while a placement is the best action."""
    html = Client().get(URL, {"position": ".157/b.e0/d2.c/..9a_8_1"}).content.decode()
    best = (
        r'<button class="board__cell[^>]*>\s*<span class="board__name"[^>]*>\w+</span>'
        r'\s*<span class="hint[^"]*is-best'
    )
    assert re.search(best, html)
    assert 'class="tray__slot tray__slot--hand" data-piece="8"' in html
