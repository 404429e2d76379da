"""The cousins in headless Chromium: whole games against the computer, by clicks only."""

from __future__ import annotations

from typing import Any

import pytest

from .pages import click_and_wait, result, wait_for_turn

pytestmark = pytest.mark.browser


def start(page: Any, server: str, kind: str, level: str, **fields: str) -> None:
    page.goto(server + "/")
    card = page.locator(f".game-card--{kind}")
    card.locator("select[name=level]").select_option(level)
    card.locator("select[name=seat]").select_option("first")
    for name, value in fields.items():
        card.locator(f"input[name={name}]").fill(value)
    card.locator("button[type=submit]").click()
    page.wait_for_selector(".status__line.is-my-turn")


def play_out(page: Any) -> str:
    """Click the first playable cell whenever it is our turn, until the game ends."""
    page.evaluate("window.stillTheSamePage = true")
    for _ in range(100):
        if not wait_for_turn(page):
            assert page.evaluate("window.stillTheSamePage") is True, "the page reloaded"
            return result(page)
        click_and_wait(page, page.locator(".grid__cell.is-playable").first)
    raise AssertionError("the game did not end")


def test_tictactoe_against_the_perfect_computer_never_wins(server: str, page: Any) -> None:
    start(page, server, "tictactoe", "perfect")
    result = play_out(page)
    assert "You win" not in result
    assert "wins" in result or "Draw" in result
    if "wins" in result:
        assert page.locator(".grid__cell.is-winning").count() == 3


def test_four_player_connect_with_three_computers(server: str, page: Any) -> None:
    start(page, server, "connect", "casual", players="4", width="7", height="6")
    assert page.locator(".players__item").count() == 4
    result_text = play_out(page)
    assert "wins" in result_text or "Draw" in result_text


def test_ultimate_against_the_computer(server: str, page: Any) -> None:
    start(page, server, "ultimate", "beginner")
    assert page.locator(".ultimate__board.is-allowed").count() == 9  # the first move is free
    result_text = play_out(page)
    assert "wins" in result_text or "win!" in result_text or "Draw" in result_text
