"""The admin's accounts: listed with their games, banned or closed from the list, the bot flag."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from accounts import services as account_services
from accounts.models import Account, ApiToken
from games.models import Game
from games.services import moves as services

pytestmark = pytest.mark.django_db
User = get_user_model()
PASSWORD = "a-long-pass-phrase"


@pytest.fixture
def alice() -> tuple[Client, Account]:
    browser = Client()
    data = {"username": "alice", "password1": PASSWORD, "password2": PASSWORD}
    assert browser.post("/accounts/signup/", data).status_code == 302
    return browser, Account.objects.get(user__username="alice")


@pytest.fixture
def admin_client(client: Client) -> Client:
    User.objects.create_superuser("admin", "admin@example.com", "pw")
    client.login(username="admin", password="pw")
    return client


def new_game(browser: Client) -> Game:
    """A game against the computer, started on the pages by ``browser``."""
    browser.post("/games/new", {"kind": "quarto", "opponent": "ai", "level": "casual", "seat": "first"})
    return Game.objects.get()


def test_accounts_are_listed_with_their_games(
    admin_client: Client, alice: tuple[Client, Account], no_ai_reply: None
) -> None:
    browser, account = alice
    game = new_game(browser)
    listing = admin_client.get("/admin/accounts/account/").content.decode()
    assert "alice" in listing
    page = admin_client.get(f"/admin/accounts/account/{account.pk}/change/").content.decode()
    assert f'href="/admin/games/game/{game.pk}/change/"' in page


def test_the_admin_sets_the_bot_flag(admin_client: Client, alice: tuple[Client, Account]) -> None:
    _, account = alice
    url = f"/admin/accounts/account/{account.pk}/change/"
    assert admin_client.post(url, {"bot": "on"}).status_code == 302
    account.refresh_from_db()
    assert account.bot and not account.banned


def test_a_ban_ends_log_in_tokens_and_games_in_play(
    admin_client: Client, alice: tuple[Client, Account], no_ai_reply: None
) -> None:
    browser, account = alice
    game = new_game(browser)
    token = account_services.create_token(account, "bot")
    assert Client().get("/api/v1/account", headers={"Authorization": f"Bearer {token}"}).status_code == 200
    changed = admin_client.post(
        "/admin/accounts/account/", {"action": "ban", "_selected_action": [account.pk]}
    )
    assert changed.status_code == 302
    account.refresh_from_db()
    game.refresh_from_db()
    assert account.banned and not account.user.is_active
    assert ApiToken.objects.filter(account=account).count() == 0
    assert game.status == Game.Status.ABORTED and "banned" in (game.result or {})["detail"]
    # Its browser no longer acts for the seat, and it cannot log in again.
    refused = browser.post(f"/games/{game.pk}/move", {"move": "0", "ply": "0"})
    game.refresh_from_db()
    assert game.ply == 0 and refused.status_code in (200, 302, 303)
    again = Client()
    again.post("/accounts/login/", {"login": "alice", "password": PASSWORD})
    assert "_auth_user_id" not in again.session
    assert Client().get("/api/v1/account", headers={"Authorization": f"Bearer {token}"}).status_code == 401


def test_closing_from_the_admin_keeps_the_games(
    admin_client: Client, alice: tuple[Client, Account], no_ai_reply: None
) -> None:
    browser, account = alice
    game = new_game(browser)
    services.play_move(game.pk, services.Actor(player_id=account.player_id), "0", 0)
    admin_client.post("/admin/accounts/account/", {"action": "close", "_selected_action": [account.pk]})
    account.refresh_from_db()
    game.refresh_from_db()
    assert account.closed is not None and game.ply == 1 and game.status == Game.Status.PLAYING
    assert game.seat_list[0].called == "deleted player"
