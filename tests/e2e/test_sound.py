"""The game page's sounds: off until asked for (a visitor's button kept in the browser, an
account's preference), then a move, the end and a chat line each play theirs. The page's
calls to play() are recorded in place of the speaker."""

from __future__ import annotations

from typing import Any

import pytest

from .pages import TIMEOUT, at_ply, new_game

pytestmark = pytest.mark.browser
PASSWORD = "a-long-pass-phrase"
RECORD = """
window.__played = [];
HTMLMediaElement.prototype.play = function () {
  window.__played.push(this.src.split("/").pop().split(".")[0]);
  return Promise.resolve();
};
"""


def played(page: Any) -> list[str]:
    return list(page.evaluate("window.__played"))


def move(page: Any) -> None:
    """One tic-tac-toe move on our turn; then the computer's reply is on the page."""
    ply = int(page.locator(".status__line").get_attribute("data-ply"))
    page.locator(".grid__cell.is-playable").first.click()
    at_ply(page, ply + 2)


def resign(page: Any) -> None:
    page.locator(".actions__confirm > summary").click()
    page.get_by_role("button", name="Yes, resign").click()
    page.wait_for_selector(".status__line.is-over", timeout=TIMEOUT)


def test_a_visitor_turns_sound_on_and_hears_moves_and_the_end(contexts: Any, server: str) -> None:
    page = contexts(360, 800)
    page.add_init_script(RECORD)
    new_game(page, server, "tictactoe", {})
    toggle = page.locator("#sound-toggle")
    assert toggle.is_visible() and toggle.get_attribute("aria-pressed") == "false"
    move(page)
    assert played(page) == []  # off until asked for

    toggle.click()
    assert toggle.get_attribute("aria-pressed") == "true" and toggle.inner_text() == "Sound: on"
    assert played(page) == ["move"]  # the press itself, so the browser lets later sounds play
    move(page)
    page.wait_for_function("window.__played.length >= 2", timeout=TIMEOUT)
    assert set(played(page)[1:]) == {"move"}
    resign(page)
    page.wait_for_function("window.__played.includes('end')", timeout=TIMEOUT)

    # Kept in this browser: the next page plays at once.
    new_game(page, server, "tictactoe", {})
    assert page.locator("#sound-toggle").get_attribute("aria-pressed") == "true"
    move(page)
    page.wait_for_function("window.__played.includes('move')", timeout=TIMEOUT)


def test_an_account_s_preference_decides(contexts: Any, server: str) -> None:
    page = contexts(1366, 800)
    page.add_init_script(RECORD)
    page.goto(server + "/accounts/signup/")
    page.fill("input[name=username]", "listener")
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.locator("main button[type=submit]").click()
    page.wait_for_selector(".site-header a:has-text('listener')")
    new_game(page, server, "tictactoe", {})
    assert page.locator("#sound-toggle").count() == 0  # the settings page decides
    move(page)
    assert played(page) == []

    page.goto(server + "/accounts/settings/")
    page.check("input[name=sound]")
    page.locator("form:has(input[name=sound]) button[type=submit]").click()
    page.wait_for_selector(".messages")
    new_game(page, server, "tictactoe", {})
    move(page)
    page.wait_for_function("window.__played.includes('move')", timeout=TIMEOUT)
    resign(page)
    page.wait_for_function("window.__played.includes('end')", timeout=TIMEOUT)


def test_without_javascript_no_sound_button_is_shown(contexts: Any, server: str, browser: Any) -> None:
    page = contexts(360, 800)
    new_game(page, server, "tictactoe", {})
    context = browser.new_context(java_script_enabled=False, viewport={"width": 360, "height": 800})
    try:
        plain = context.new_page()
        plain.goto(page.url)
        assert plain.locator("#sound-toggle").count() == 1  # in the page, for the script to show
        assert not plain.locator("#sound-toggle").is_visible()  # a button that could do nothing
    finally:
        context.close()
