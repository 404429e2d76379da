"""Around the game in headless Chromium: a takeback, a resignation, then a rematch."""

from __future__ import annotations

import re
from typing import Any

import pytest

from .pages import TIMEOUT, click_and_wait, new_game, result

pytestmark = pytest.mark.browser


def test_takeback_resign_and_rematch_against_the_computer(server: str, quiet_page: Any) -> None:
    page = quiet_page
    new_game(page, server, "tictactoe", {}, level="beginner")
    first_url = page.url

    page.locator(".grid__cell.is-playable").first.click()
    page.wait_for_selector(".status__line.is-my-turn[data-ply='2']", timeout=TIMEOUT)
    click_and_wait(page, page.get_by_role("button", name="Take back"))
    page.wait_for_selector(".status__line.is-my-turn[data-ply='0']", timeout=TIMEOUT)
    assert page.locator(".actions__count").inner_text() == "Takebacks: 1"

    page.locator(".actions__confirm > summary").click()
    page.get_by_role("button", name="Yes, resign").click()
    page.wait_for_selector(".status__line.is-over", timeout=TIMEOUT)
    assert result(page).startswith("You resigned")

    page.get_by_role("button", name="Rematch").click()
    page.wait_for_url(lambda url: url != first_url and re.search(r"/games/\d+/$", url) is not None)
    # Seats swapped: the computer opens the rematch, then it is our turn.
    page.wait_for_selector(".status__line.is-my-turn[data-ply='1']", timeout=TIMEOUT)
    page.goto(first_url)
    assert page.get_by_role("link", name="Go to the rematch").is_visible()
