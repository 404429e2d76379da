"""Accounts in a real browser: a name that lasts across browsers, an anonymous past carried
in, and a personal token used by a bot, then revoked."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any

import pytest

from .pages import new_game

pytestmark = pytest.mark.browser
PASSWORD = "a-long-pass-phrase"


def sign_up(page: Any, server: str, name: str) -> None:
    page.goto(server + "/accounts/signup/")
    page.fill("input[name=username]", name)
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.locator("form:has(input[name=password2]) button[type=submit]").click()
    page.wait_for_selector(f".site-header a:has-text('{name}')")


def log_in(page: Any, server: str, name: str) -> None:
    page.goto(server + "/accounts/login/")
    page.fill("input[name=login]", name)
    page.fill("input[name=password]", PASSWORD)
    page.locator("form:has(input[name=login]) button[type=submit]").click()
    page.wait_for_selector(f".site-header a:has-text('{name}')")


def fits(page: Any) -> bool:
    return bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"))


def api(server: str, path: str, token: str, body: dict[str, Any] | None = None) -> tuple[int, Any]:
    data = json.dumps(body).encode() if body is not None else None
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    request = urllib.request.Request(server + path, data, headers, method="POST" if data else "GET")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as refused:
        return refused.code, json.load(refused)


def test_a_game_follows_its_account_to_another_browser(server: str, contexts: Any) -> None:
    first = contexts(360)
    sign_up(first, server, "alice")
    assert fits(first)
    game = new_game(first, server, "quarto", {})
    first.locator(".site-header button", has_text="Log out").click()
    first.wait_for_selector(".site-header a:has-text('Log in')")
    first.goto(game)
    assert first.locator(".status__line.is-my-turn").count() == 0  # logged out: a spectator

    other = contexts()  # another browser, knowing nothing of the first
    log_in(other, server, "alice")
    other.goto(server + "/@/alice")
    other.locator(".profile__playing a").first.click()
    other.wait_for_url(game)
    other.wait_for_selector(".status__line.is-my-turn")  # the seat is hers again


def test_an_anonymous_game_is_carried_into_a_new_account(server: str, contexts: Any) -> None:
    page = contexts(360)
    game = new_game(page, server, "tictactoe", {})
    sign_up(page, server, "bob")
    page.goto(server + "/@/bob")
    assert fits(page)
    assert page.locator(f".profile__playing a[href='{game.removeprefix(server)}']").count() == 1


def test_a_personal_token_plays_for_a_bot_until_it_is_revoked(server: str, contexts: Any) -> None:
    page = contexts()
    sign_up(page, server, "carol-bot")
    page.goto(server + "/accounts/settings/")
    page.fill("input[name=name]", "my bot")
    page.locator("button", has_text="Create token").click()
    token = page.locator("#new-token").inner_text().strip()
    assert token.startswith("qsp_")

    status, me = api(server, "/api/v1/account", token)
    assert status == 200 and me["username"] == "carol-bot"
    status, created = api(
        server, "/api/v1/games", token, {"game": "tictactoe", "opponent": "ai", "seat": "first"}
    )
    assert status == 201 and created["token"] is None  # the personal token is the key
    game_id = created["id"]
    status, moved = api(server, f"/api/v1/games/{game_id}/moves", token, {"move": "b2", "ply": 0})
    assert status == 200 and moved["ply"] >= 1
    assert moved["seats"][0]["user"] == "carol-bot"

    page.goto(server + "/accounts/settings/")
    page.locator("button[aria-label='Revoke my bot']").click()
    page.wait_for_selector("text=No tokens.")
    status, refused = api(server, "/api/v1/account", token)
    assert status == 401 and refused["error"] == "unknown_token"
