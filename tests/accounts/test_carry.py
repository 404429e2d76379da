"""Carrying the past in: a browser's seats become the account's on sign-up and log-in, and
an account's seats are its own from any browser, through the one identity function."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from accounts import services as accounts
from accounts.models import Account
from games.models import Game, Move, Seat
from games.services import moves as games
from games.services import players

pytestmark = pytest.mark.django_db(transaction=True)
User = get_user_model()
PASSWORD = "a-long-pass-phrase"


def start(client: Client) -> Game:
    data = {"kind": "quarto", "opponent": "ai", "level": "casual", "seat": "first"}
    assert client.post("/games/new", data).status_code == 303
    return Game.objects.latest("created")


def sign_up(client: Client, username: str) -> None:
    data = {"username": username, "password1": PASSWORD, "password2": PASSWORD}
    assert client.post("/accounts/signup/", data).status_code == 302


def log_in(client: Client, username: str) -> None:
    assert client.post("/accounts/login/", {"login": username, "password": PASSWORD}).status_code == 302


def moved(client: Client, game: Game) -> bool:
    before = Move.objects.filter(game=game).count()
    client.post(f"/games/{game.pk}/move", {"move": "15", "ply": str(game.ply)})
    return Move.objects.filter(game=game).count() == before + 1


def test_signing_up_carries_the_browsers_seats_into_the_account(client: Client, no_ai_reply: None) -> None:
    game = start(client)
    sign_up(client, "alice")
    seat = Seat.objects.get(game=game, index=0)
    account = Account.objects.get(user__username="alice")
    assert seat.user == account.user
    assert seat.player_id == account.player_id
    assert seat.name == "alice"
    assert players.player_id(client.session) == account.player_id


def test_an_accounts_seat_is_its_own_from_any_browser_and_not_after_log_out(
    client: Client, no_ai_reply: None
) -> None:
    sign_up(client, "alice")
    game = start(client)
    assert Seat.objects.get(game=game, index=0).user == User.objects.get(username="alice")
    client.post("/accounts/logout/")
    assert not moved(client, game)  # logged out: a spectator
    fresh = Client()
    log_in(fresh, "alice")
    assert moved(fresh, game)


def test_logging_in_carries_an_anonymous_game_in(client: Client, no_ai_reply: None) -> None:
    sign_up(Client(), "bob")
    game = start(client)
    log_in(client, "bob")
    assert Seat.objects.get(game=game, index=0).user == User.objects.get(username="bob")
    assert moved(client, game)


def test_a_log_in_never_moves_a_seat_another_account_holds() -> None:
    alice = User.objects.create_user("alice", password=PASSWORD)
    bob = User.objects.create_user("bob", password=PASSWORD)
    game = games.create_game("quarto", {}, opponent="ai", seat="first", player_id="shared-id").game
    Seat.objects.filter(game=game, index=0).update(user=alice)
    account = accounts.account_of(bob)
    assert account is not None
    assert accounts.carry_seats(account, "shared-id") == set()
    assert Seat.objects.get(game=game, index=0).user == alice


def test_a_banned_or_closed_accounts_browser_loses_its_seats(client: Client, no_ai_reply: None) -> None:
    sign_up(client, "carol")
    game = start(client)
    Account.objects.filter(user__username="carol").update(banned=True)
    assert players.player_id(client.session) is None
    assert not moved(client, game)


def test_the_api_state_names_the_account_of_each_seat(client: Client, no_ai_reply: None) -> None:
    sign_up(client, "dave")
    game = start(client)
    seats = Client().get(f"/api/v1/games/{game.pk}").json()["seats"]
    assert [s["user"] for s in seats] == ["dave", None]
    assert seats[0]["label"] == "dave"


def test_joining_as_an_account_names_the_seat(client: Client) -> None:
    sign_up(client, "erin")
    game = games.create_game("quarto", {}, opponent="human", seat="first", player_id="anon").game
    assert client.get(f"/join/{game.invite_code}").status_code in (200, 302, 303)
    client.post(f"/join/{game.invite_code}")
    seat = Seat.objects.get(game=game, index=1)
    assert seat.user == User.objects.get(username="erin")
    assert seat.name == "erin"
