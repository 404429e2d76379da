"""The Content-Security-Policy holds in a real browser: no page logs a violation."""

from __future__ import annotations

from typing import Any

import pytest

from .pages import new_game

pytestmark = pytest.mark.browser

# Collects every violation the page reports, from its first script on.
LISTEN = """
window.cspViolations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.cspViolations.push(e.violatedDirective + " " + e.blockedURI + " " + (e.sample || ""));
});
"""


def violations(page: Any, console: list[str]) -> list[str]:
    found: list[str] = page.evaluate("window.cspViolations")
    return found + [m for m in console if "Content Security Policy" in m or "Content-Security-Policy" in m]


@pytest.mark.parametrize(
    ("kind", "fields"),
    [("quarto", {}), ("connect", {"width": "9"}), ("ultimate", {})],
)
def test_a_game_page_logs_no_csp_violation(
    browser: Any, server: str, kind: str, fields: dict[str, str]
) -> None:
    # A context that keeps the policy (the shared fixture bypasses it), and waits that
    # evaluate nothing in the page (wait_for_function would be refused by the policy).
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    try:
        run(context.new_page(), server, kind, fields)
    finally:
        context.close()


def wait_for_ply_after(page: Any, ply: str | None) -> None:
    for _ in range(200):
        if page.locator(".status__line").get_attribute("data-ply") != ply:
            return
        page.wait_for_timeout(50)
    raise AssertionError("the position did not move on")


def run(page: Any, server: str, kind: str, fields: dict[str, str]) -> None:
    console: list[str] = []
    page.on("console", lambda message: console.append(message.text))
    page.add_init_script(LISTEN)
    new_game(page, server, kind, fields)
    assert "script-src 'self'" in str(page.request.get(server + "/").headers["content-security-policy"])
    # htmx answers a click and the socket pushes the computer's reply, under the policy.
    ply = page.locator(".status__line").get_attribute("data-ply")
    page.locator(".tray__slot:not([disabled]), .grid__cell.is-playable").first.click()
    wait_for_ply_after(page, ply)
    page.wait_for_selector(".status__line.is-my-turn")
    if kind == "quarto":  # round pieces are turned by classes now, not inline --i
        angle = page.evaluate(
            "getComputedStyle(document.querySelector('.piece--round .piece__side:nth-child(5)'))"
            ".getPropertyValue('--i').trim()"
        )
        assert angle == "4"
    if kind == "connect":
        columns = "getComputedStyle(document.querySelector('.grid')).getPropertyValue('--columns')"
        assert page.evaluate(columns).strip() == "9"
    assert violations(page, console) == []


def test_a_game_between_friends_logs_no_csp_violation(browser: Any, server: str) -> None:
    """The invite, the join and the pushes it causes on both pages, under the policy."""
    creator_context = browser.new_context(viewport={"width": 1200, "height": 900})
    friend_context = browser.new_context(viewport={"width": 360, "height": 740})
    try:
        pages = [creator_context.new_page(), friend_context.new_page()]
        consoles: list[list[str]] = [[], []]
        for page, console in zip(pages, consoles, strict=True):
            page.on("console", lambda message, console=console: console.append(message.text))
            page.add_init_script(LISTEN)
        creator, friend = pages
        creator.goto(server + "/")
        card = creator.locator(".game-card--quarto")
        card.locator("select[name=opponent]").select_option("human")
        card.locator("select[name=seat]").select_option("first")
        card.locator("button[type=submit]").click()
        invite = creator.locator("#invite-url").input_value()
        friend.goto(invite)
        friend.get_by_role("button", name="Take the open seat").click()
        creator.locator(".tray.is-giving").wait_for()  # the join, pushed to the creator
        ply = friend.locator(".status__line").get_attribute("data-ply")
        creator.locator(".tray__slot:not([disabled])").first.click()
        wait_for_ply_after(friend, ply)  # the give, pushed to the friend
        friend.locator("#presence", has_text="connected").wait_for()  # presence, pushed a moment later
        creator.wait_for_timeout(1000)
        for page, console in zip(pages, consoles, strict=True):
            assert violations(page, console) == []
    finally:
        creator_context.close()
        friend_context.close()


def test_the_account_pages_log_no_csp_violation(browser: Any, server: str) -> None:
    """allauth's pages in the site's layout, the profile and the settings, under the policy."""
    context = browser.new_context(viewport={"width": 360, "height": 740})
    try:
        page = context.new_page()
        console: list[str] = []
        page.on("console", lambda message: console.append(message.text))
        page.add_init_script(LISTEN)
        for path in ("/accounts/login/", "/accounts/password/reset/", "/accounts/signup/"):
            page.goto(server + path)
        page.fill("input[name=username]", "csp-check")
        page.fill("input[name=password1]", "a-long-pass-phrase")
        page.fill("input[name=password2]", "a-long-pass-phrase")
        page.locator("form:has(input[name=password2]) button[type=submit]").click()
        page.locator(".site-header a", has_text="csp-check").wait_for()
        for path in ("/@/csp-check", "/accounts/settings/"):
            page.goto(server + path)
            assert violations(page, console) == [], path
    finally:
        context.close()
