"""The replay's arrow keys: two quick presses are two steps, and the page says which move it shows."""

from __future__ import annotations

from typing import Any

import pytest

from .test_narrow_pages import LONG_GAME, import_record

pytestmark = pytest.mark.browser


def test_two_quick_presses_step_twice(page: Any, server: str) -> None:
    game = import_record(server, "connect", list(LONG_GAME))
    page.goto(f"{server}/games/{game}/replay?ply=20")
    assert "Move 20 of 38: " in page.locator(".replay__status").inner_text()
    # The steps are taken by this page, never by loading another: a press made while the
    # next page loads, before its script runs, would be lost.
    page.evaluate("window.sameDocument = true")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    page.wait_for_selector(".replay__ply:has-text('Ply 22 of 38')")
    assert page.url.endswith("/replay?ply=22")
    assert "Move 22 of 38: " in page.locator(".replay__status").inner_text()
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    page.wait_for_selector(".replay__ply:has-text('Ply 19 of 38')")
    assert page.url.endswith("/replay?ply=19")
    assert page.evaluate("window.sameDocument === true")


def test_enter_on_previous_steps_back_and_keeps_the_focus_there(page: Any, server: str) -> None:
    game = import_record(server, "connect", list(LONG_GAME))
    page.goto(f"{server}/games/{game}/replay?ply=10")
    page.evaluate("window.sameDocument = true")
    page.locator("a[data-replay='prev']").focus()
    page.keyboard.press("Enter")
    page.wait_for_selector(".replay__ply:has-text('Ply 9 of 38')")
    assert page.evaluate("document.activeElement.dataset.replay") == "prev"  # the next Enter steps again
    page.keyboard.press("Enter")
    page.wait_for_selector(".replay__ply:has-text('Ply 8 of 38')")
    page.locator("a[data-replay='next']").click()
    page.wait_for_selector(".replay__ply:has-text('Ply 9 of 38')")
    assert page.url.endswith("/replay?ply=9")
    assert page.evaluate("window.sameDocument === true")
