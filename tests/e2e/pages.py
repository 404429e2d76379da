"""What a person does on a game page, for the browser tests."""

from __future__ import annotations

from typing import Any

TURN_OR_END = "document.querySelector('.status__line.is-my-turn, .status__line.is-over') !== null"
TIMEOUT = 20000


def new_game(page: Any, server: str, kind: str, fields: dict[str, str], level: str = "") -> str:
    """A game against the computer where we move first, from the home page; its address."""
    page.goto(server + "/")
    card = page.locator(f".game-card--{kind}")
    if level:
        card.locator("select[name=level]").select_option(level)
    card.locator("select[name=seat]").select_option("first")
    for name, value in fields.items():
        card.locator(f"input[name={name}]").fill(value)
    card.locator("button[type=submit]").click()
    page.wait_for_selector(".status__line.is-my-turn")
    return str(page.url)


def invite_friend(page: Any, server: str, kind: str) -> str:
    """A game against a friend where we move first, from the home page; the invite link."""
    page.goto(server + "/")
    card = page.locator(f".game-card--{kind}")
    card.locator("select[name=opponent]").select_option("human")
    card.locator("select[name=seat]").select_option("first")
    card.locator("button[type=submit]").click()
    invite = page.locator("#invite-url")
    invite.wait_for()
    return str(invite.input_value())


def take_seat(page: Any, invite: str) -> None:
    """Open an invite link and take the open seat."""
    page.goto(invite)
    page.locator("button", has_text="Take the open seat").click()


def wait_for_turn(page: Any) -> bool:
    """Wait until it is our turn or the game is over; True while the game goes on."""
    page.wait_for_function(TURN_OR_END, timeout=TIMEOUT)
    return bool(page.locator(".status__line.is-over").count() == 0)


def click_and_wait(page: Any, target: Any) -> None:
    """Click, then wait until the position on the page has moved on."""
    ply = page.locator(".status__line").get_attribute("data-ply")
    target.click()
    page.wait_for_function(
        f"document.querySelector('.status__line').dataset.ply !== '{ply}'", timeout=TIMEOUT
    )


def result(page: Any) -> str:
    return str(page.locator(".status__text").inner_text())
