"""Seats belong to a player id kept in the session, which survives a login."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games.models import Game, Move, Seat, player_fingerprint
from games.services import players

pytestmark = pytest.mark.django_db(transaction=True)


def start(client: Client) -> Game:
    data = {"kind": "quarto", "opponent": "ai", "level": "casual", "seat": "first"}
    assert client.post("/games/new", data).status_code == 303
    return Game.objects.latest("created")


def test_a_player_keeps_their_seat_after_logging_into_the_admin(client: Client, no_ai_reply: None) -> None:
    game = start(client)
    key_before = client.session.session_key
    User.objects.create_superuser("admin", "admin@example.com", "pw")
    login = client.post("/admin/login/", {"username": "admin", "password": "pw", "next": "/admin/"})
    assert login.status_code == 302
    assert client.session.session_key != key_before  # Django rotated the session key
    client.post(f"/games/{game.pk}/move", {"move": "15", "ply": "0"})
    assert Move.objects.filter(game=game).count() == 1


def test_the_seat_holds_a_random_player_id_not_the_session_key(client: Client) -> None:
    game = start(client)
    seat = game.seat_list[0]
    assert seat.player_id == client.session[players.SESSION_FIELD]
    assert seat.player_id != client.session.session_key
    assert len(seat.player_id) == 32


def test_the_admin_shows_a_fingerprint_never_the_player_id(client: Client) -> None:
    game = start(client)
    User.objects.create_superuser("admin", "admin@example.com", "pw")
    client.post("/admin/login/", {"username": "admin", "password": "pw", "next": "/admin/"})
    player = Seat.objects.get(game=game, index=0).player_id  # the account's, since the log-in
    page = client.get(f"/admin/games/game/{game.pk}/change/").content.decode()
    assert player not in page
    assert player_fingerprint(player) in page
    assert str(client.session.session_key) not in page


def test_a_session_from_before_player_ids_keeps_its_seats(client: Client, no_ai_reply: None) -> None:
    session = client.session
    session["seen"] = True
    session.save()
    client.cookies["sessionid"] = str(session.session_key)  # an old session: a key, no player id
    from games.services import moves as services

    game = services.create_game("quarto", {}, opponent="ai", seat="first", player_id=session.session_key).game
    client.post(f"/games/{game.pk}/move", {"move": "15", "ply": "0"})
    assert Move.objects.filter(game=game).count() == 1
    assert client.session[players.SESSION_FIELD] == session.session_key


def test_a_new_session_with_a_key_gets_a_fresh_id_not_its_key(client: Client) -> None:
    session = client.session
    session["seen"] = True
    session.save()
    client.cookies["sessionid"] = str(session.session_key)
    game = start(client)
    assert game.seat_list[0].player_id not in ("", session.session_key)
