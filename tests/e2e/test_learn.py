"""The guided first game of Quarto in a real browser on a phone (360 px): the five steps
played by clicks, a wrong action answered with its word first; once with JavaScript
(htmx swaps the lesson in place) and once without (plain form posts), then the keyboard
alone; the page never scrolls sideways and the last step starts a game against the
beginner. The rules pages fit the phone too."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from games import catalog

from .test_accounts import fits

pytestmark = pytest.mark.browser

PHONE = {"width": 360, "height": 740}
# Each step: a wrong action (a piece number or a cell) with a part of its word, then a right one.
STEPS = [
    ("4", "is tall", "3"),
    ("a4", "not on the diagonal", "b2"),
    ("a1", "still open", "d2"),
    ("5", "wins at once on d2", "0"),
    ("a1", "No four pieces share a trait", "c4"),
]


@pytest.fixture(params=["scripts", "no-scripts"])
def phone(request: pytest.FixtureRequest, browser: Any) -> Iterator[tuple[bool, Any]]:
    scripts = request.param == "scripts"
    context = browser.new_context(viewport=PHONE, java_script_enabled=scripts)
    yield scripts, context.new_page()
    context.close()


def control(page: Any, action: str) -> Any:
    """The board's cell or the tray's piece for an action's text."""
    if action.isdigit():
        return page.locator(f".tray__slot[value='{action}']")
    return page.locator(f".board__cell[data-cell='{action}']")


def test_the_five_steps_on_a_phone(server: str, phone: tuple[bool, Any]) -> None:
    scripts, page = phone
    page.goto(server + "/learn/quarto/")
    for number, (wrong, word, right) in enumerate(STEPS, start=1):
        page.wait_for_selector(f"text=Step {number} of 5")
        assert fits(page), f"step {number} scrolls sideways"
        page.evaluate("window.lessonMark = 1")  # gone after a page load, kept by an htmx swap
        control(page, wrong).click()
        page.wait_for_selector(f".lesson__word--wrong:has-text('{word}')")
        assert page.locator(".lesson__step").inner_text().startswith(f"Step {number} of 5")
        control(page, right).click()
        page.wait_for_selector(".lesson__word--right")
        assert page.locator(".lesson__word--wrong").count() == 0
        assert page.evaluate("window.lessonMark === 1") == scripts
        if number < len(STEPS):
            page.locator("a[rel=next]").click()
    assert page.locator(".board__cell.is-winning").count() == 4
    assert fits(page)
    page.get_by_role("button", name="Play the beginner").click()
    page.wait_for_url("**/games/*/")
    assert "beginner" in page.content()


def test_the_lesson_by_keyboard(server: str, browser: Any) -> None:
    """Tab reaches the tray's pieces and Enter gives one, as a click would."""
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    try:
        page.goto(server + "/learn/quarto/")
        control(page, "3").focus()
        page.keyboard.press("Enter")
        page.wait_for_selector(".lesson__word--right")
        page.locator("a[rel=next]").focus()
        page.keyboard.press("Enter")
        page.wait_for_selector("text=Step 2 of 5")
        control(page, "b2").focus()
        page.keyboard.press("Enter")
        page.wait_for_selector(".lesson__word--right")
    finally:
        context.close()


def test_every_rules_page_fits_a_phone_without_scripts(server: str, browser: Any) -> None:
    context = browser.new_context(viewport=PHONE, java_script_enabled=False)
    page = context.new_page()
    try:
        for kind in catalog.CATALOG:
            page.goto(f"{server}/rules/{kind}/")
            assert page.locator("figure.example").count() >= 1, kind
            assert fits(page), f"the rules of {kind} scroll sideways on a phone"
    finally:
        context.close()
