"""The settings page: preferences kept on the account, closing the account."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from accounts.models import Account
from games.models import Game, Seat
from games.services import players

pytestmark = pytest.mark.django_db
User = get_user_model()
PASSWORD = "a-long-pass-phrase"


@pytest.fixture
def alice(client: Client) -> Account:
    data = {"username": "alice", "password1": PASSWORD, "password2": PASSWORD}
    assert client.post("/accounts/signup/", data).status_code == 302
    return Account.objects.get(user__username="alice")


def test_settings_need_a_log_in(client: Client) -> None:
    answer = client.get("/accounts/settings/")
    assert answer.status_code == 302
    assert answer["Location"].startswith("/accounts/login/")


def test_preferences_are_kept_on_the_account(client: Client, alice: Account) -> None:
    page = client.get("/accounts/settings/").content.decode()
    assert "Your display name is your username, <strong>alice</strong>" in page
    answer = client.post("/accounts/settings/", {"show_coordinates": "on", "sound": "on"})
    assert answer.status_code == 303
    alice.refresh_from_db()
    assert (alice.show_coordinates, alice.sound, alice.confirm_resign) == (True, True, False)


def test_closing_needs_the_password_and_a_wrong_one_changes_nothing(client: Client, alice: Account) -> None:
    answer = client.post("/accounts/close/", {"password": "not it"})
    assert answer.status_code == 400
    assert "That is not your password." in answer.content.decode()
    alice.refresh_from_db()
    assert alice.closed is None and alice.user.is_active


def test_a_closed_account_keeps_its_games_as_a_deleted_player(
    client: Client, alice: Account, no_ai_reply: None
) -> None:
    data = {"kind": "quarto", "opponent": "ai", "level": "casual", "seat": "first"}
    client.post("/games/new", data)
    game = Game.objects.get()
    answer = client.post("/accounts/close/", {"password": PASSWORD})
    assert answer.status_code == 303
    assert "_auth_user_id" not in client.session
    seat = Seat.objects.get(game=game, index=0)
    assert seat.user is None and seat.called == "deleted player"
    assert Client().get(f"/api/v1/games/{game.pk}").json()["seats"][0]["user"] is None
    # It cannot log in again, and nobody else takes its name.
    again = Client()
    again.post("/accounts/login/", {"login": "alice", "password": PASSWORD})
    assert "_auth_user_id" not in again.session
    taken = again.post(
        "/accounts/signup/", {"username": "Alice", "password1": PASSWORD, "password2": PASSWORD}
    )
    assert taken.status_code == 200
    assert User.objects.count() == 1


def test_an_account_closed_in_one_browser_holds_no_seat_in_another(
    client: Client, alice: Account, no_ai_reply: None
) -> None:
    other = Client()
    other.post("/accounts/login/", {"login": "alice", "password": PASSWORD})
    other.post("/games/new", {"kind": "quarto", "opponent": "ai", "level": "casual", "seat": "first"})
    game = Game.objects.get()
    # The other browser's identity is remembered for its socket...
    assert players.identify(other.session) == alice.player_id
    assert client.post("/accounts/close/", {"password": PASSWORD}).status_code == 303
    # ...and no longer stands once the account is closed from this one.
    assert players.identify(other.session) is None
    answer = other.post(f"/games/{game.pk}/move", {"move": "0", "ply": "0"})
    game.refresh_from_db()
    assert game.ply == 0 and answer.status_code in (200, 302, 303, 403)
