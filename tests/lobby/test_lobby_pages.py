"""The lobby's pages without JavaScript: seeks made, listed, accepted and cancelled by
forms; quick pairing by two clicks; the waiting page moving to the game."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games.models import Game
from lobby.models import PoolEntry, Seek

pytestmark = pytest.mark.django_db


def visitor() -> Client:
    client = Client()
    assert client.get("/lobby/").status_code == 200
    return client


def test_a_seek_made_listed_accepted_and_both_taken_to_the_game() -> None:
    alice, bob = visitor(), visitor()
    made = alice.post(
        "/lobby/seeks", {"game": "tictactoe", "clock": "3+2", "mode": "casual", "seat": "first"}
    )
    assert made.status_code == 303 and made["Location"].startswith("/lobby/wait?seek=")
    seek = Seek.objects.get()
    waiting = alice.get(made["Location"])
    assert waiting.status_code == 200 and b'http-equiv="refresh"' in waiting.content
    page = bob.get("/lobby/").content.decode()
    assert f'data-seek="{seek.pk}"' in page and "Anonymous" in page and "3+2" in page
    assert 'data-seek="' not in bob.get("/lobby/?game=quarto").content.decode()
    taken = bob.post(f"/lobby/seeks/{seek.pk}/accept")
    game = Game.objects.get()
    assert taken.status_code == 303 and taken["Location"] == f"/games/{game.pk}/"
    assert alice.get(made["Location"])["Location"] == f"/games/{game.pk}/"
    assert game.seat_list[0].player_id == alice.session["player_id"]


def test_a_refused_seek_keeps_the_form_and_says_why_beside_the_field() -> None:
    alice = visitor()
    answer = alice.post(
        "/lobby/seeks", {"game": "connect", "connect.width": "99", "clock": "unlimited", "seat": "second"}
    )
    page = answer.content.decode()
    assert answer.status_code == 400 and 'class="seek-form__error"' in page
    assert 'name="connect.width" min="3" max="12" value="99"' in page or 'value="99"' in page
    assert '<option value="second" selected>' in page
    rated = alice.post("/lobby/seeks", {"game": "tictactoe", "clock": "3+2", "mode": "rated"})
    assert rated.status_code == 400 and "log in" in rated.content.decode()
    assert not Seek.objects.exists()


def test_accepting_ones_own_seek_says_so() -> None:
    alice = visitor()
    alice.post("/lobby/seeks", {"game": "tictactoe", "clock": "3+2"})
    seek = Seek.objects.get()
    answer = alice.post(f"/lobby/seeks/{seek.pk}/accept", follow=True)
    assert "your own seek" in answer.content.decode() and not Game.objects.exists()


def test_cancel_from_the_waiting_page() -> None:
    alice = visitor()
    alice.post("/lobby/seeks", {"game": "tictactoe", "clock": "3+2"})
    seek = Seek.objects.get()
    assert visitor().post(f"/lobby/seeks/{seek.pk}/cancel").status_code == 303
    assert Seek.objects.get().status == Seek.Status.OPEN
    alice.post(f"/lobby/seeks/{seek.pk}/cancel")
    assert Seek.objects.get().status == Seek.Status.CANCELLED


def test_quick_pairing_one_click_waits_a_second_cancels_and_two_players_meet() -> None:
    alice, bob = visitor(), visitor()
    first = alice.post("/lobby/pairing", {"game": "tictactoe", "clock": "1+0"})
    assert first["Location"] == "/lobby/wait"
    assert "1 waiting" in bob.get("/lobby/").content.decode()
    assert "waiting…" in alice.get("/lobby/").content.decode()
    alice.post("/lobby/pairing", {"game": "tictactoe", "clock": "1+0"})
    assert not PoolEntry.objects.exists()
    alice.post("/lobby/pairing", {"game": "tictactoe", "clock": "1+0"})
    paired = bob.post("/lobby/pairing", {"game": "tictactoe", "clock": "1+0"})
    game = Game.objects.get()
    assert paired["Location"] == f"/games/{game.pk}/"
    assert alice.get("/lobby/wait")["Location"] == f"/games/{game.pk}/"
    assert bob.get("/lobby/wait")["Location"] == "/lobby/"


def test_a_rated_seek_by_an_account_shows_its_rating(client: Client) -> None:
    User.objects.create_user("alice", password="a-long-pass-phrase")
    client.login(username="alice", password="a-long-pass-phrase")
    client.post("/lobby/seeks", {"game": "tictactoe", "clock": "3+2", "mode": "rated"})
    assert Seek.objects.get().rated
    assert "alice (1500?)" in visitor().get("/lobby/").content.decode()


def test_the_home_page_links_to_the_lobby(client: Client) -> None:
    assert 'href="/lobby/"' in client.get("/").content.decode()


def test_bad_clock_text_is_refused_beside_the_field(settings: Any) -> None:
    answer = visitor().post("/lobby/seeks", {"game": "tictactoe", "clock": "99d"})
    assert answer.status_code == 400 and "seek-form__error" in answer.content.decode()


def test_a_rating_range_from_an_anonymous_player_is_refused_beside_the_field() -> None:
    answer = visitor().post("/lobby/seeks", {"game": "tictactoe", "clock": "3+2", "rating_min": "1400"})
    page = answer.content.decode()
    assert answer.status_code == 400
    assert (
        "A rating range is for accounts" in page
        and 'name="rating_min" min="0" max="4000" value="1400"' in page
    )
    assert not Seek.objects.exists()


def test_the_admin_lists_seeks_and_pool_entries(client: Client) -> None:
    User.objects.create_superuser("root", password="a-long-pass-phrase")
    client.login(username="root", password="a-long-pass-phrase")
    visitor().post("/lobby/seeks", {"game": "tictactoe", "clock": "3+2"})
    visitor().post("/lobby/pairing", {"game": "tictactoe", "clock": "1+0"})
    assert "tictactoe" in client.get("/admin/lobby/seek/").content.decode()
    assert "tictactoe:1+0" in client.get("/admin/lobby/poolentry/").content.decode()


def test_looking_at_the_lobby_makes_no_session(settings: Any) -> None:
    assert settings.SESSION_COOKIE_NAME not in Client().get("/lobby/").cookies


def test_a_correspondence_seek_is_said_to_last() -> None:
    alice = visitor()
    made = alice.post("/lobby/seeks", {"game": "tictactoe", "clock": "3d"})
    page = alice.get(made["Location"]).content.decode()
    assert "stays offered until someone accepts it" in page and "closing it cancels" not in page
    blitz = alice.post("/lobby/seeks", {"game": "tictactoe", "clock": "3+2"})
    assert "closing it cancels" in alice.get(blitz["Location"]).content.decode()


def test_the_home_page_opens_with_quick_pairing_and_the_ways_to_play(client: Client) -> None:
    html = client.get("/").content.decode()
    top = html[html.index('id="home-pairing-title"') : html.index('id="play-computer"')]
    assert top.count('data-pool="') >= 4 * 5, "a game x time-control grid"
    assert 'action="/lobby/pairing"' in top
    for way in ("Create a game", "Play the computer", "Play a friend"):
        assert way in top
    assert "sessionid" not in client.cookies, "looking makes no session"
    answer = client.post("/lobby/pairing", {"game": "tictactoe", "clock": "3+2"})
    assert answer.status_code in (302, 303)
    again = client.get("/").content.decode()
    assert "waiting…" in again[again.index('id="home-pairing-title"') :]
