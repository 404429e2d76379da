"""Pages and HTMX partials, with and without JavaScript."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from games.models import Game, Move

pytestmark = pytest.mark.django_db(transaction=True)

HTMX = {"HX-Request": "true"}


def start(client: Client, seat: str = "first", **extra: str) -> Game:
    data = {"kind": "quarto", "opponent": "ai", "level": "casual", "seat": seat, **extra}
    response = client.post("/games/new", data)
    assert response.status_code == 303
    game = Game.objects.latest("created")
    assert response["Location"] == game.get_absolute_url()
    return game


def test_home_lists_the_new_game_form(client: Client) -> None:
    response = client.get("/")
    html = response.content.decode()
    assert response.status_code == 200
    assert 'name="level"' in html and "beginner" in html and "casual" in html
    assert 'name="advanced"' in html
    assert "htmx-2.min.js" in html and "hx-ws-2.min.js" in html


def test_new_game_page_shows_board_tray_and_status(client: Client) -> None:
    game = start(client)
    response = client.get(game.get_absolute_url())
    html = response.content.decode()
    assert f'ws-connect="/ws/games/{game.pk}/"' in html
    assert html.count('class="board__cell') == 16
    assert html.count('aria-label="Give piece') == 16
    assert "You start." in html
    assert "choose the piece your opponent must place" in html
    assert 'class="card tray is-giving"' in html


def test_advanced_option_is_stored(client: Client) -> None:
    game = start(client, advanced="on")
    assert game.options == {"advanced": True}


def test_htmx_move_returns_out_of_band_partials(client: Client, no_ai_reply: None) -> None:
    game = start(client)
    response = client.post(f"/games/{game.pk}/move", {"move": "15", "ply": "0"}, headers=HTMX)
    html = response.content.decode()
    assert response.status_code == 200
    for part in ("board", "pieces", "status"):
        assert f'<div id="{part}" hx-swap-oob="innerHTML">' in html
    assert "The computer is thinking" in html
    assert 'class="spinner"' in html
    assert Move.objects.get(game=game).text == "15"


def test_computer_reply_is_in_the_next_render(client: Client) -> None:
    game = start(client)
    client.post(f"/games/{game.pk}/move", {"move": "15", "ply": "0"}, headers=HTMX)
    html = client.get(f"/games/{game.pk}/partials").content.decode()
    assert "Your turn: place the piece you were given." in html
    assert len(re.findall(r'class="board__cell[^"]*is-playable', html)) == 15
    assert 'data-piece="15"' in html  # on the board now, drawn from the same piece partial


def test_errors_come_back_in_the_status_line_and_change_nothing(client: Client, no_ai_reply: None) -> None:
    game = start(client)
    response = client.post(f"/games/{game.pk}/move", {"move": "a1", "ply": "0"}, headers=HTMX)
    assert response.status_code == 200
    assert 'role="alert"' in response.content.decode()
    assert "Give your opponent a piece first" in response.content.decode()
    response = client.post(f"/games/{game.pk}/move", {"move": "3", "ply": "7"}, headers=HTMX)
    assert "moved on" in response.content.decode()
    response = client.post(f"/games/{game.pk}/move", {"move": "3"}, headers=HTMX)
    assert "reload the page" in response.content.decode()
    assert Move.objects.count() == 0


def test_without_javascript_forms_post_and_redirect(client: Client, no_ai_reply: None) -> None:
    game = start(client)
    response = client.post(f"/games/{game.pk}/move", {"move": "3", "ply": "0"})
    assert response.status_code == 302 and response["Location"] == game.get_absolute_url()
    response = client.post(f"/games/{game.pk}/move", {"move": "3", "ply": "0"}, follow=True)
    assert "moved on" in response.content.decode()
    assert Move.objects.count() == 1


def test_spectator_sees_the_game_but_cannot_move(client: Client, no_ai_reply: None) -> None:
    game = start(client)
    spectator = Client()
    html = spectator.get(game.get_absolute_url()).content.decode()
    assert "You to" not in html and "Your turn" not in html
    response = spectator.post(f"/games/{game.pk}/move", {"move": "3", "ply": "0"}, headers=HTMX)
    assert "You do not hold a seat" in response.content.decode()
    assert Move.objects.count() == 0


def test_unknown_game_is_404(client: Client) -> None:
    assert client.get("/games/999/").status_code == 404
    assert client.post("/games/999/move", {"move": "1", "ply": "0"}).status_code == 404


def test_play_again_starts_a_new_game_with_the_same_settings(client: Client) -> None:
    game = start(client, advanced="on")
    response = client.post(f"/games/{game.pk}/again", headers=HTMX)
    assert response.status_code == 200 and "HX-Redirect" in response
    again = Game.objects.latest("created")
    assert again.pk != game.pk and again.options == {"advanced": True} and again.ai_level == "casual"


def test_invite_link_seats_a_friend(client: Client) -> None:
    response = client.post("/games/new", {"kind": "quarto", "opponent": "human", "seat": "first"})
    game = Game.objects.latest("created")
    assert "Waiting for a friend" in client.get(response["Location"]).content.decode()
    own = client.get(f"/join/{game.invite_code}").content.decode()  # the creator opens the link
    assert "You already play in this game" in own and "Take the open seat" not in own
    friend = Client()
    assert "Take the open seat" in friend.get(f"/join/{game.invite_code}").content.decode()
    friend.post(f"/join/{game.invite_code}")
    game.refresh_from_db()
    assert game.status == Game.Status.PLAYING
    assert "Your opponent starts." in friend.get(game.get_absolute_url()).content.decode()


def test_bad_new_game_form_is_refused_with_a_message(client: Client) -> None:
    response = client.post(
        "/games/new", {"kind": "quarto", "opponent": "ai", "level": "godlike"}, follow=True
    )
    assert "level must be one of" in response.content.decode()
    assert Game.objects.count() == 0
