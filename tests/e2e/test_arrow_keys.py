"""Arrow keys on the board and the tray (a roving tabindex, as in the WAI-ARIA grid
pattern): the arrows move between cells and between pieces, Tab between the board, the
tray and the actions, each of which is one Tab stop."""

from __future__ import annotations

from typing import Any

import pytest

from .test_keyboard_play import start_from_home, tab_to

pytestmark = pytest.mark.browser

ACTIVE = "document.activeElement.dataset.cell || document.activeElement.dataset.piece || null"


def keys(page: Any, *pressed: str) -> list[str | None]:
    """Press each key; where the focus is after each."""
    where = []
    for key in pressed:
        page.keyboard.press(key)
        where.append(page.evaluate(ACTIVE))
    return where


def test_arrows_move_on_the_board_and_tab_leaves_it(page: Any, server: str) -> None:
    start_from_home(page, server, "tictactoe")
    tab_to(page, ".grid__cell.is-playable")
    assert page.locator("#board button[tabindex='0']").count() == 1  # one Tab stop
    first = page.evaluate(ACTIVE)
    assert first == "a3"  # the top left cell
    assert keys(page, "ArrowRight", "ArrowRight", "ArrowRight", "ArrowDown", "ArrowLeft", "ArrowUp") == [
        "b3",
        "c3",
        "c3",
        "c2",
        "b2",
        "b3",
    ]
    page.keyboard.press("Tab")
    assert page.evaluate(ACTIVE) is None  # out of the board in one press
    page.keyboard.press("Shift+Tab")
    assert page.evaluate(ACTIVE) == "b3"  # back on the cell it left


def test_arrows_move_in_the_tray(page: Any, server: str) -> None:
    start_from_home(page, server, "quarto")
    tab_to(page, "button.tray__slot:not([disabled])")
    assert page.locator("#pieces button[tabindex='0']").count() == 1
    assert page.evaluate(ACTIVE) == "0"
    assert keys(page, "ArrowRight", "ArrowDown", "ArrowLeft", "ArrowUp") == ["1", "5", "4", "0"]
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.closest('#pieces')") is None


def test_arrows_move_on_the_tilted_quarto_board(page: Any, server: str) -> None:
    start_from_home(page, server, "quarto")
    tab_to(page, "button.tray__slot:not([disabled])")
    page.keyboard.press("Enter")  # give piece 0; the computer places it and gives one
    page.wait_for_selector(".status__line.is-my-turn[data-ply='3']", timeout=20000)
    page.wait_for_function("document.activeElement.matches('.board__cell')", timeout=20000)
    assert page.locator("#board button[tabindex='0']").count() == 1
    start = page.evaluate(ACTIVE)
    taken = page.locator(".board__cell:has(.board__piece)").get_attribute("data-cell")
    moved = keys(page, "ArrowRight", "ArrowDown", "ArrowLeft", "ArrowUp")
    assert taken not in moved and None not in moved
    assert len(set(moved)) >= 3, (start, moved)  # every step lands on another free cell
