"""On a phone, an offer from the opponent is in the status line, with Accept and Decline
right under it: seen and answered without scrolling."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from .pages import TIMEOUT, invite_friend, live, offer, play_cell, take_seat

pytestmark = pytest.mark.browser

PHONE = {"width": 360, "height": 740}


@pytest.fixture
def two_moves_in(browser: Any, server: str) -> Iterator[tuple[Any, Any]]:
    """Two strangers on phones, X and O, in a tic-tac-toe game after a1 and b2."""
    contexts = [browser.new_context(viewport=PHONE) for _ in range(2)]
    try:
        x, o = (context.new_page() for context in contexts)
        take_seat(o, invite_friend(x, server, "tictactoe"))
        for page in (x, o):
            live(page)
        play_cell(x, "a1", [o])
        play_cell(o, "b2", [x])
        yield x, o
    finally:
        for context in contexts:
            context.close()


def test_an_offer_is_answered_on_a_phone_without_scrolling(two_moves_in: tuple[Any, Any]) -> None:
    x, o = two_moves_in
    for kind, button in (("a draw", "Offer draw"), ("a takeback", "Take back")):
        offer(o, button, [x], kind)
        status = x.locator("#status")
        assert f"asks for {kind}" in status.inner_text()
        x.evaluate("() => window.scrollTo(0, 0)")
        line = x.locator(".status__line").bounding_box()
        for name in ("Accept", "Decline"):
            box = status.get_by_role("button", name=name).bounding_box()
            assert box["y"] + box["height"] <= PHONE["height"], f"{name} is below the fold: {box}"
            assert box["y"] - (line["y"] + line["height"]) < 120, f"{name} is far from the status: {box}"
        status.get_by_role("button", name="Decline").click()
        x.locator(".actions__offer").wait_for(state="detached", timeout=TIMEOUT)


def test_a_keyboard_players_focus_stays_on_the_actions_through_answers_and_pushes(
    two_moves_in: tuple[Any, Any],
) -> None:
    x, o = two_moves_in
    focus = "document.activeElement.dataset.focus || document.activeElement.id"
    x.get_by_role("button", name="Offer draw").focus()
    x.keyboard.press("Enter")  # the answer swaps the actions: "Withdraw" stands in its place
    x.locator(".actions__offer", has_text="You asked for a draw").wait_for(timeout=TIMEOUT)
    x.wait_for_function(f"() => ({focus}) === 'draw'")
    assert x.evaluate("document.activeElement.textContent") == "Withdraw"
    o.locator(".actions__offer").get_by_role("button", name="Decline").click()  # a push to x
    x.locator(".actions__offer").wait_for(state="detached", timeout=TIMEOUT)
    x.wait_for_function("() => document.activeElement !== document.body")  # "Offer draw" or the area
    assert x.evaluate(focus) in ("draw", "status", "actions")
    x.locator(".actions__confirm > summary").focus()
    o.get_by_role("button", name="Take back").click()  # another push to x
    x.locator(".actions__offer", has_text="a takeback").wait_for(timeout=TIMEOUT)
    assert x.evaluate(focus) == "resign"
