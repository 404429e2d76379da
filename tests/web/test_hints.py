"""The hint button: every legal action valued, for the player to move only."""

from __future__ import annotations

import pytest
from django.test import Client

from games.models import Game

pytestmark = pytest.mark.django_db(transaction=True)

HTMX = {"HX-Request": "true"}


def new_game(client: Client, **extra: str) -> Game:
    data = {"kind": "tictactoe", "opponent": "ai", "level": "perfect", "seat": "first", **extra}
    client.post("/games/new", data)
    return Game.objects.latest("created")


def test_hint_values_every_cell_with_icon_and_words(client: Client) -> None:
    game = new_game(client, allow_hints="on")
    assert f'hx-get="/games/{game.pk}/hint"' in client.get(game.get_absolute_url()).content.decode()
    html = client.get(f"/games/{game.pk}/hint", headers=HTMX).content.decode()
    # An empty tic-tac-toe board: every first move draws with perfect play.
    assert html.count('class="hint hint--draw') == 9
    assert html.count("is-best") == 1
    assert "Hint: " in html and "draws" in html
    # Screen readers hear the value in the button's own label, not only a colour.
    assert html.count(', draws"') == 9 and html.count(', best move, draws"') == 1


def test_hint_after_the_computer_replied_values_the_empty_cells_only(client: Client) -> None:
    game = new_game(client, allow_hints="on")
    client.post(f"/games/{game.pk}/move", {"move": "a1", "ply": "0"}, headers=HTMX)
    game.refresh_from_db()
    assert game.ply == 2  # the computer answered
    html = client.get(f"/games/{game.pk}/hint", headers=HTMX).content.decode()
    assert html.count('class="hint hint--') == 7
    assert html.count("is-best") == 1


def test_hints_can_be_turned_off(client: Client) -> None:
    game = new_game(client)  # the checkbox left unticked
    assert not game.allow_hints
    html = client.get(f"/games/{game.pk}/hint", headers=HTMX).content.decode()
    assert "Hints are turned off" in html and "hint--" not in html


def test_only_the_player_to_move_gets_a_hint(client: Client) -> None:
    game = new_game(client, allow_hints="on")
    html = Client().get(f"/games/{game.pk}/hint", headers=HTMX).content.decode()
    assert "Hints are for the player whose turn it is" in html


def test_hint_without_javascript_renders_the_page(client: Client) -> None:
    game = new_game(client, allow_hints="on")
    response = client.get(f"/games/{game.pk}/hint")
    assert response.status_code == 200 and "<html" in response.content.decode()
    assert response.content.decode().count("hint hint--") == 9
