"""The cousins in headless Chromium: whole games against the computer, by clicks only."""

from __future__ import annotations

from typing import Any

import pytest

from games import catalog

from .pages import click_and_wait, new_game, result, wait_for_turn

pytestmark = pytest.mark.browser


def play_out(page: Any) -> str:
    """Click the first playable cell whenever it is our turn, until the game ends."""
    page.evaluate("window.stillTheSamePage = true")
    loads: list[str] = []  # the page's own loads from here on: none is expected
    page.on(
        "request",
        lambda r: loads.append(f"{r.method} {r.url} {r.headers}") if r.resource_type == "document" else None,
    )
    for _ in range(100):
        if not wait_for_turn(page):
            assert page.evaluate("window.stillTheSamePage") is True, f"the page reloaded: {loads}"
            return result(page)
        click_and_wait(page, page.locator(".grid__cell.is-playable").first)
    raise AssertionError("the game did not end")


def assert_finished(page: Any, text: str, line: int) -> None:
    """The page names the result, and a win lights its line."""
    assert "wins" in text or "win!" in text or "Draw" in text, text
    if "Draw" not in text:
        assert page.locator(".grid__cell.is-winning").count() >= line


@pytest.mark.parametrize("level", catalog.get("tictactoe").levels)
def test_tictactoe_to_the_end_against_each_level(server: str, quiet_page: Any, level: str) -> None:
    page = quiet_page
    new_game(page, server, "tictactoe", {}, level)
    text = play_out(page)
    assert_finished(page, text, 3)
    if level == "perfect":
        assert "You win" not in text


@pytest.mark.parametrize("level", catalog.get("connect").levels)
def test_connect_four_to_the_end_against_each_level(server: str, quiet_page: Any, level: str) -> None:
    page = quiet_page
    new_game(page, server, "connect", {}, level)
    assert page.locator(".grid__cell.is-landing").count() == 7  # where a stone would land, a column each
    assert_finished(page, play_out(page), 4)


def test_four_player_connect_with_three_computers(server: str, quiet_page: Any) -> None:
    page = quiet_page
    new_game(page, server, "connect", {"players": "4", "width": "7", "height": "6"}, "casual")
    assert page.locator(".players__item").count() == 4
    result_text = play_out(page)
    assert "wins" in result_text or "Draw" in result_text


@pytest.mark.parametrize("level", catalog.get("ultimate").levels)
def test_ultimate_to_the_end_against_each_level(server: str, quiet_page: Any, level: str) -> None:
    page = quiet_page
    new_game(page, server, "ultimate", {}, level)
    assert page.locator(".ultimate__board.is-allowed").count() == 9  # the first move is free
    text = play_out(page)
    assert "wins" in text or "win!" in text or "Draw" in text, text
