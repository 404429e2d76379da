"""Personal API tokens: made and revoked from a logged-in session, shown once, stored
hashed; a token acts for its account in every game it holds a seat in."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from accounts.models import Account, ApiToken
from games.models import Game, Seat

pytestmark = pytest.mark.django_db
PASSWORD = "a-long-pass-phrase"


def signed_up(username: str) -> Client:
    client = Client(enforce_csrf_checks=True)
    page = client.get("/accounts/signup/")
    token = page.cookies["csrftoken"].value
    data = {"username": username, "password1": PASSWORD, "password2": PASSWORD, "csrfmiddlewaretoken": token}
    assert client.post("/accounts/signup/", data).status_code == 302
    client.get("/")  # a fresh CSRF cookie after the log-in rotated it
    return client


def csrf(client: Client) -> dict[str, str]:
    return {"X-CSRFToken": client.cookies["csrftoken"].value}


def make_token(client: Client, name: str = "bot") -> Any:
    return client.post(
        "/api/v1/account/tokens", {"name": name}, content_type="application/json", headers=csrf(client)
    )


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_a_token_is_made_from_a_session_shown_once_and_stored_hashed() -> None:
    client = signed_up("alice")
    answer = make_token(client)
    assert answer.status_code == 201
    token = answer.json()["token"]
    assert token.startswith("qsp_") and answer.json()["name"] == "bot"
    row = ApiToken.objects.get()
    assert row.token_hash != token and token not in row.token_hash
    assert token not in client.get("/accounts/settings/").content.decode()
    me = Client().get("/api/v1/account", headers=bearer(token)).json()
    assert me["username"] == "alice" and me["bot"] is False and me["tokens"] == ["bot"]


@pytest.mark.parametrize(
    ("name", "status", "code"),
    [("", 400, "bad_name"), ("x" * 41, 400, "bad_name"), ("bot", 409, "duplicate_name")],
)
def test_bad_token_names_are_refused_and_change_nothing(name: str, status: int, code: str) -> None:
    client = signed_up("alice")
    make_token(client)
    answer = make_token(client, name)
    assert (answer.status_code, answer.json()["error"]) == (status, code)
    assert ApiToken.objects.count() == 1


def test_tokens_need_a_session_and_its_csrf_header() -> None:
    anonymous = Client()
    answer = anonymous.post("/api/v1/account/tokens", {"name": "x"}, content_type="application/json")
    assert (answer.status_code, answer.json()["error"]) == (401, "not_logged_in")
    client = signed_up("alice")
    answer = client.post("/api/v1/account/tokens", {"name": "x"}, content_type="application/json")
    assert (answer.status_code, answer.json()["error"]) == (403, "csrf_failed")
    assert not ApiToken.objects.exists()


def test_a_token_creates_games_as_its_account_and_plays_them(no_ai_reply: None) -> None:
    client = signed_up("alice")
    token = make_token(client).json()["token"]
    bot = Client()
    created = bot.post(
        "/api/v1/games",
        {"game": "quarto", "opponent": "ai", "seat": "first"},
        content_type="application/json",
        headers=bearer(token),
    )
    assert created.status_code == 201
    assert created.json()["token"] is None
    game_id = created.json()["id"]
    assert created.json()["state"]["seats"][0]["user"] == "alice"
    move = bot.post(
        f"/api/v1/games/{game_id}/moves",
        {"move": "15", "ply": 0},
        content_type="application/json",
        headers=bearer(token),
    )
    assert move.status_code == 200, move.content
    # The same seat is the account's in the browser too.
    assert client.get(f"/games/{game_id}/").status_code == 200
    assert Seat.objects.get(game_id=game_id, index=0).user is not None


def test_a_token_plays_in_a_game_the_account_took_in_the_browser(no_ai_reply: None) -> None:
    client = signed_up("alice")
    data = {"kind": "quarto", "opponent": "ai", "level": "casual", "seat": "first"}
    client.post("/games/new", {**data, "csrfmiddlewaretoken": client.cookies["csrftoken"].value})
    game = Game.objects.get()
    token = make_token(client).json()["token"]
    move = Client().post(
        f"/api/v1/games/{game.pk}/moves",
        {"move": "15", "ply": 0},
        content_type="application/json",
        headers=bearer(token),
    )
    assert move.status_code == 200, move.content


def test_a_revoked_token_is_refused_with_401() -> None:
    client = signed_up("alice")
    token = make_token(client).json()["token"]
    assert client.delete("/api/v1/account/tokens/bot", headers=csrf(client)).status_code == 204
    answer = Client().get("/api/v1/account", headers=bearer(token))
    assert (answer.status_code, answer.json()["error"]) == (401, "unknown_token")
    again = client.delete("/api/v1/account/tokens/bot", headers=csrf(client))
    assert (again.status_code, again.json()["error"]) == (404, "not_found")


def test_a_banned_accounts_token_is_refused() -> None:
    client = signed_up("alice")
    token = make_token(client).json()["token"]
    Account.objects.update(banned=True)
    answer = Client().post(
        "/api/v1/games",
        {"game": "quarto", "opponent": "ai"},
        content_type="application/json",
        headers=bearer(token),
    )
    assert (answer.status_code, answer.json()["error"]) == (401, "unknown_token")
    assert not Game.objects.exists()
    assert Client().get("/api/v1/account", headers=bearer(token)).status_code == 401


def test_the_settings_page_shows_a_new_token_once_and_revokes_it() -> None:
    client = signed_up("alice")
    form = {"csrfmiddlewaretoken": client.cookies["csrftoken"].value}
    made = client.post("/accounts/settings/tokens/", {**form, "name": "my bot"})
    assert made.status_code == 201
    html = made.content.decode()
    token = html.split('id="new-token">')[1].split("<")[0]
    assert token.startswith("qsp_")
    assert Client().get("/api/v1/account", headers=bearer(token)).status_code == 200
    refused = client.post("/accounts/settings/tokens/", {**form, "name": "my bot"})
    assert refused.status_code == 409 and "already have a token named" in refused.content.decode()
    assert 'value="my bot"' in refused.content.decode()
    client.post("/accounts/settings/tokens/revoke/", {**form, "name": "my bot"})
    assert Client().get("/api/v1/account", headers=bearer(token)).status_code == 401
