"""The post-game review: every action judged, the turning point named."""

from __future__ import annotations

import pytest
from django.test import Client

from games.models import Game
from games.services import play_move

from .helpers import ONE, SECOND_WINS, TWO, two_humans

pytestmark = pytest.mark.django_db(transaction=True)

HTMX = {"HX-Request": "true"}


def finished_game() -> Game:
    game = two_humans()
    for ply, text in enumerate(SECOND_WINS):
        game = play_move(game.pk, ONE if game.state.to_move == 0 else TWO, text, ply)
    return Game.objects.get(pk=game.pk)


def test_review_page_loads_its_table_lazily(client: Client) -> None:
    game = finished_game()
    html = client.get(f"/games/{game.pk}/review").content.decode()
    assert f'hx-get="/games/{game.pk}/review/table"' in html and 'hx-trigger="load"' in html
    assert "<noscript>" in html


def test_review_judges_every_action_and_names_the_turning_point(client: Client) -> None:
    game = finished_game()
    html = client.get(f"/games/{game.pk}/review/table", headers=HTMX).content.decode()
    assert html.count('<tr class="review__row') == len(SECOND_WINS)
    # The solver proves that player 2's give of piece 2 already lost a drawn position;
    # player 1 then threw the win away by giving round piece 11 to a row of three round ones.
    assert "The game turned at ply 11: Player 2 gave the short light square hollow piece (2)" in html
    assert 'class="review__row review__row--blunder is-turning"' in html
    assert html.count("verdict--blunder") >= 2


def test_review_without_javascript_is_a_whole_page(client: Client) -> None:
    game = finished_game()
    html = client.get(f"/games/{game.pk}/review/table").content.decode()
    assert "<html" in html and "review__table" in html


def test_review_waits_for_the_end_of_the_game(client: Client) -> None:
    game = two_humans()
    html = client.get(f"/games/{game.pk}/review/table", headers=HTMX).content.decode()
    assert "The review opens when the game is over" in html
    assert "review__table" not in html


def test_finished_game_links_to_its_review(client: Client) -> None:
    game = finished_game()
    assert f'href="/games/{game.pk}/review"' in client.get(game.get_absolute_url()).content.decode()
