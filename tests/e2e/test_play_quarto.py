"""A whole game of Quarto against the computer, by clicks only, in headless Chromium."""

from __future__ import annotations

from typing import Any

import pytest

from .pages import live

pytestmark = pytest.mark.browser


def play_to_the_end(page: Any) -> str:
    """Click like a person: the first free piece to give, the first free cell to place."""
    for _ in range(40):
        page.wait_for_function(
            "document.querySelector('.status__line.is-my-turn, .status__line.is-over') !== null",
            timeout=15000,
        )
        if page.locator(".status__line.is-over").count():
            return str(page.locator(".status__text").inner_text())
        ply = page.locator(".status__line").get_attribute("data-ply")
        if page.locator(".tray.is-giving").count():
            page.locator("button.tray__slot:not([disabled])").first.click()
        else:
            page.locator(".board__cell.is-playable").first.click()
        page.wait_for_function(
            f"document.querySelector('.status__line').dataset.ply !== '{ply}'", timeout=15000
        )
    raise AssertionError("the game did not end")


def test_a_whole_game_against_the_computer(server: str, quiet_page: Any) -> None:
    page = quiet_page
    page.goto(server + "/")
    page.locator(".game-card--quarto select[name=level]").select_option("beginner")
    page.locator(".game-card--quarto select[name=seat]").select_option("first")
    page.locator(".game-card--quarto button[type=submit]").click()
    page.wait_for_selector(".tray.is-giving")
    live(page)  # a click before the page's scripts run is a plain post and a reload
    assert "You start." in page.locator("#status").inner_text()
    # Marks this document: if the page reloaded, the mark would be gone.
    page.evaluate("window.stillTheSamePage = true")

    page.locator("button.tray__slot:not([disabled])").first.click()
    # The computer's placement and give arrive over the WebSocket.
    page.wait_for_selector(".board__cell .board__piece", timeout=15000)
    page.wait_for_selector(".status__line.is-my-turn", timeout=15000)
    assert page.locator(".tray__slot--hand").count() == 1

    result = play_to_the_end(page)
    assert page.evaluate("window.stillTheSamePage") is True
    assert any(word in result for word in ("You win!", "You lose: the computer wins.", "Draw"))
    if "Draw" not in result:
        assert page.locator(".board__cell.is-winning").count() >= 4
        assert "The line shares" in result
    assert page.locator("button", has_text="Play again").is_visible()

    # The post-game review opens from the finished game and fills its table in.
    review = page.context.new_page()
    review.goto(server + str(page.locator("a", has_text="Review the game").get_attribute("href")))
    review.wait_for_selector(".review__table", timeout=30000)
    assert review.locator(".review__row").count() == int(
        page.locator(".status__line").get_attribute("data-ply")
    )
    review.close()

    finished_url = page.url
    page.locator("button", has_text="Play again").click()
    page.wait_for_url(lambda url: url != finished_url)
    assert page.locator(".board__cell .board__piece").count() <= 1


def test_second_tab_of_a_spectator_updates_live(server: str, page: Any, browser: Any) -> None:
    page.goto(server + "/")
    page.locator(".game-card--quarto select[name=seat]").select_option("first")
    page.locator(".game-card--quarto button[type=submit]").click()
    page.wait_for_selector(".tray.is-giving")
    watcher = browser.new_context().new_page()
    watcher.goto(page.url)
    watcher.wait_for_selector(".board")
    page.locator("button.tray__slot:not([disabled])").first.click()
    watcher.wait_for_selector(".board__cell .board__piece", timeout=15000)
    assert watcher.locator(".board__cell.is-playable").count() == 0
    watcher.context.close()
