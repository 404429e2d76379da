"""Two people play Quarto through the invite link, each in their own browser context, while
a third context watches: a draw offer declined, a takeback accepted, a chat exchange, a
resignation and a rematch that all three pages follow; then one player closes their page,
the other sees them gone and, once the (shortened) abandonment time has passed, claims
the win."""

from __future__ import annotations

import re
from typing import Any

import pytest

from .pages import invite_friend, take_seat

pytestmark = pytest.mark.browser

TIMEOUT = 10000


def at_ply(page: Any, ply: int) -> None:
    page.wait_for_selector(f".status__line[data-ply='{ply}']", timeout=TIMEOUT)


def act(page: Any) -> None:
    """One action on our turn, like a person: give the first free piece or place on the
    first free cell; then wait for the page to show the next position."""
    page.wait_for_selector(".status__line.is-my-turn", timeout=TIMEOUT)
    ply = int(page.locator(".status__line").get_attribute("data-ply"))
    if page.locator(".tray.is-giving").count():
        page.locator("button.tray__slot:not([disabled])").first.click()
    else:
        page.locator(".board__cell.is-playable").first.click()
    at_ply(page, ply + 1)


def presence(page: Any, text: str) -> None:
    page.locator("#presence", has_text=text).wait_for(timeout=TIMEOUT)


def test_two_people_and_a_spectator_through_a_whole_evening(quick_abandon_server: str, browser: Any) -> None:
    server = quick_abandon_server
    contexts = [browser.new_context(viewport={"width": 1200, "height": 900}) for _ in range(3)]
    errors: list[str] = []
    a, b, watcher = (c.new_page() for c in contexts)
    for name, page in (("A", a), ("B", b), ("spectator", watcher)):
        page.on("pageerror", lambda error, name=name: errors.append(f"{name}: {error}"))
        page.on(
            "console",
            lambda m, name=name, page=page: (
                errors.append(f"{name} {page.url}: {m.text}") if m.type == "error" else None
            ),
        )

    # A invites, B takes the seat through the link, a spectator opens the game.
    take_seat(b, invite_friend(a, server, "quarto"))
    b.wait_for_selector(".tray")
    watcher.goto(a.url)
    a.wait_for_selector("#seats:not(:has(#invite-url))", timeout=TIMEOUT)
    presence(a, "Player 2 is connected.")
    presence(b, "1 watching.")

    act(a)  # A's first turn is a give only
    act(b)
    act(b)
    act(a)
    act(a)
    at_ply(watcher, 5)

    # A draw offer, declined.
    a.get_by_role("button", name="Offer draw").click()
    b.locator(".actions__offer", has_text="asks for a draw").wait_for(timeout=TIMEOUT)
    watcher.locator(".actions__offer", has_text="asks for a draw").wait_for(timeout=TIMEOUT)
    b.get_by_role("button", name="Decline").click()
    a.get_by_role("button", name="Offer draw").wait_for(timeout=TIMEOUT)
    assert a.locator(".actions__offer").count() == 0

    # B plays a turn, asks to take it back; A accepts: everyone is back at ply 5.
    act(b)
    act(b)
    at_ply(a, 7)
    b.get_by_role("button", name="Take back").click()
    a.locator(".actions__offer", has_text="asks for a takeback").wait_for(timeout=TIMEOUT)
    a.get_by_role("button", name="Accept").click()
    for page in (a, b, watcher):
        at_ply(page, 5)
        page.locator(".actions__count", has_text="Takebacks: 1").wait_for(timeout=TIMEOUT)

    # A chat exchange the spectator reads.
    a.fill("#chat-text", "good luck")
    a.locator("#chat-form button").click()
    for page in (b, watcher):
        page.locator("#chat .chat__line", has_text="good luck").wait_for(timeout=TIMEOUT)
    b.fill("#chat-text", "you too")
    b.locator("#chat-form button").click()
    for page in (a, watcher):
        page.locator("#chat .chat__line", has_text="you too").wait_for(timeout=TIMEOUT)

    # B resigns.
    b.locator(".actions__confirm > summary").click()
    b.get_by_role("button", name="Yes, resign").click()
    for page in (a, b, watcher):
        page.wait_for_selector(".status__line.is-over", timeout=TIMEOUT)
    assert "resigned: you win" in a.locator(".status__text").inner_text()

    # A offers a rematch, B accepts: both pages move to it, the spectator follows the link.
    first = a.url
    a.get_by_role("button", name="Rematch").click()
    b.locator(".actions__offer", has_text="asks for a rematch").wait_for(timeout=TIMEOUT)
    b.get_by_role("button", name="Accept").click()
    link = watcher.get_by_role("link", name="Go to the rematch")
    link.wait_for(timeout=TIMEOUT)
    link.click()
    for page in (a, b, watcher):
        page.wait_for_url(lambda url: url != first and re.search(r"/games/\d+/$", url) is not None)
    assert a.url == b.url == watcher.url

    # Sides swapped: B opens the rematch.
    b.wait_for_selector(".tray.is-giving", timeout=TIMEOUT)
    act(b)
    act(a)
    act(a)
    at_ply(watcher, 3)
    presence(a, "Player 1 is connected.")

    # B closes the page: A sees them gone, then may claim the win.
    b.context.close()
    presence(a, "Player 1 is not connected.")
    presence(watcher, "Player 1 is not connected.")
    claim = a.get_by_role("button", name="Claim the win")
    claim.wait_for(timeout=TIMEOUT)
    assert watcher.get_by_role("button", name="Claim the win").count() == 0
    claim.click()
    a.locator(".status__text", has_text="left: you win").wait_for(timeout=TIMEOUT)
    watcher.wait_for_selector(".status__line.is-over", timeout=TIMEOUT)
    for context in (contexts[0], contexts[2]):
        context.close()
    assert not errors, errors[:5]
