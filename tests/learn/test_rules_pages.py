"""The rules pages: one for every game of the catalog, with example positions drawn by the
game's own partials; linked from the home page's cards, the game page and the lobby."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.test import Client

from games import catalog
from games.services import moves as services

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("kind", list(catalog.CATALOG))
def test_every_game_has_a_rules_page_with_example_boards(client: Client, kind: str) -> None:
    spec = catalog.get(kind)
    response = client.get(f"/rules/{kind}/")
    assert response.status_code == 200
    html = response.content.decode()
    assert f"Rules of {spec.title}" in html
    assert re.search(r'<meta name="description" content="How to play [^"]+"', html)
    examples = re.findall(r'<figure class="example">(.*?)</figure>', html, re.S)
    assert examples, f"{kind}'s rules show no example position"
    for example in examples:
        assert 'role="group" aria-label="Board"' in example or 'aria-label="Pieces"' in example
        assert "<figcaption" in example
    # Read-only: no control of an example is live.
    assert not re.search(r'<figure class="example">.*?<button(?![^>]*disabled)[^>]*>.*?</figure>', html, re.S)
    assert "<script" not in html.split("</head>")[1].replace('src="/static/js/', "")  # no script needed


def test_each_rules_template_lives_in_its_games_package() -> None:
    for kind in catalog.CATALOG:
        assert (ROOT / "games" / "kinds" / kind / "templates" / "kinds" / f"{kind}_rules.html").exists()


def test_quarto_rules_show_the_sections_of_the_game(client: Client) -> None:
    html = client.get("/rules/quarto/").content.decode()
    for heading in ("The four traits", "Placing and giving", "The ten lines", "A win", "The 2x2 variant"):
        assert f">{heading}</h2>" in html
    assert html.count('class="tray__slot"') >= 16  # the sixteen pieces, in the tray
    assert html.count("board__cell is-winning") >= 8  # the won file, and the won 2x2 square


def test_ultimate_rules_show_where_the_next_move_goes(client: Client) -> None:
    html = client.get("/rules/ultimate/").content.decode()
    assert "Sent to a board" in html
    assert html.count("ultimate__board is-open is-allowed") >= 2  # the centre board, then the top right


def test_an_unknown_game_has_no_rules_page(client: Client) -> None:
    assert client.get("/rules/chess/").status_code == 404


def test_the_index_lists_every_game(client: Client) -> None:
    html = client.get("/rules/").content.decode()
    for kind in catalog.CATALOG:
        assert f'href="/rules/{kind}/"' in html


def test_the_home_cards_link_each_games_rules_and_the_lesson(client: Client) -> None:
    html = client.get("/").content.decode()
    for kind, spec in catalog.CATALOG.items():
        card = html.split(f"game-card--{kind}", 1)[1].split("</section>", 1)[0]
        assert f'href="/rules/{kind}/"' in card, spec.title
    quarto_card = html.split("game-card--quarto", 1)[1].split("</section>", 1)[0]
    assert 'href="/learn/quarto/"' in quarto_card


def test_the_lobby_links_each_games_rules(client: Client) -> None:
    html = client.get("/lobby/").content.decode()
    for kind in catalog.CATALOG:
        assert f'href="/rules/{kind}/"' in html


def test_the_game_page_links_its_rules(client: Client) -> None:
    for kind in catalog.CATALOG:
        created = services.create_game(kind, {}, opponent="human", player_id="p-rules")
        html = client.get(created.game.get_absolute_url()).content.decode()
        assert f'href="/rules/{kind}/"' in html
