"""Playing with the keyboard alone (Tab, Shift+Tab, the arrows, Enter, Space; never a click) against
the computer: a game is started from the home page, every control reached shows where the
focus is, and after each move the focus stays on the board (or goes to the tray when a
Quarto piece is to be given), so the next move is a key press away."""

from __future__ import annotations

from typing import Any

import pytest

from .pages import TIMEOUT, live, ply_of, watch_for_errors

pytestmark = pytest.mark.browser

# The focused element, and whether something shows it: an outline or a box shadow.
FOCUSED = """() => {
  const element = document.activeElement;
  if (!element || element === document.body) return null;
  const style = getComputedStyle(element);
  const outline = style.outlineStyle !== "none" && parseFloat(style.outlineWidth) > 0;
  return {
    label: element.getAttribute("aria-label") || element.textContent.trim().slice(0, 40),
    shown: outline || style.boxShadow !== "none",
  };
}"""


def focused(page: Any, selector: str) -> bool:
    return bool(page.evaluate("(s) => document.activeElement?.matches(s) ?? false", selector))


def tab_to(page: Any, selector: str, key: str = "Tab") -> None:
    """Press ``key`` until the focus is on ``selector``; every control passed shows its focus."""
    for _ in range(80):
        page.keyboard.press(key)
        where = page.evaluate(FOCUSED)
        assert where is not None, "the focus left the page's controls"
        assert where["shown"], f"the focus on {where['label']!r} is not shown"
        if focused(page, selector):
            return
    raise AssertionError(f"{key} never reached {selector}")


def start_from_home(page: Any, server: str, kind: str) -> None:
    """Choose "I start" on the game's card and submit it, by keyboard."""
    page.goto(server + "/")
    card = f".game-card--{kind}"
    tab_to(page, f"{card} select[name=seat]")
    page.keyboard.press("ArrowDown")  # toss a coin -> I start
    tab_to(page, f"{card} button[type=submit]")
    page.keyboard.press("Enter")
    page.wait_for_selector(".status__line.is-my-turn", timeout=TIMEOUT)
    live(page)


def press_and_wait(page: Any, key: str) -> None:
    """Press ``key`` on the focused control; wait until the page has moved on (the
    computer's reply may follow so fast that the position after ours is not seen)."""
    ply = ply_of(page)
    page.keyboard.press(key)
    page.wait_for_function(
        "(ply) => Number(document.querySelector('.status__line').dataset.ply) > ply", arg=ply, timeout=TIMEOUT
    )


def my_turn_on(page: Any, selector: str) -> None:
    """Our turn again, the focus already on a control of ``selector``, shown."""
    page.wait_for_selector(".status__line.is-my-turn, .status__line.is-over", timeout=TIMEOUT)
    page.wait_for_function(
        "(s) => document.activeElement?.matches(s) ?? false", arg=selector, timeout=TIMEOUT
    )
    where = page.evaluate(FOCUSED)
    assert where["shown"], f"the focus on {where['label']!r} is not shown"


def test_quarto_and_tictactoe_by_keyboard_alone(server: str, browser: Any) -> None:
    context = browser.new_context(viewport={"width": 1200, "height": 900}, bypass_csp=True)
    page = context.new_page()
    errors = watch_for_errors({"player": page})

    # Quarto: the first turn is a give; Tab skips the empty board's disabled cells.
    start_from_home(page, server, "quarto")
    tab_to(page, "button.tray__slot:not([disabled])")
    page.keyboard.press("Tab")
    tab_to(page, "button.tray__slot:not([disabled])", "Shift+Tab")
    given = page.evaluate("document.activeElement.dataset.piece")
    press_and_wait(page, "Enter")
    # The computer places that piece and gives one: the focus waits on the board.
    my_turn_on(page, ".board__cell.is-playable")
    assert page.locator(f".board__piece[data-piece='{given}']").count() == 1
    press_and_wait(page, "Space")
    # Placed: now a piece is to be given, and the focus is in the tray.
    my_turn_on(page, "button.tray__slot:not([disabled])")
    press_and_wait(page, "Enter")
    my_turn_on(page, ".board__cell.is-playable")
    assert ply_of(page) == 7 and page.locator(".board__cell .board__piece").count() == 3

    # Tic-tac-toe to the end: into the board, the arrows one cell too far and back, then a key a turn.
    start_from_home(page, server, "tictactoe")
    tab_to(page, ".grid__cell.is-playable")
    for key in ("ArrowDown", "ArrowRight", "ArrowRight", "ArrowLeft"):
        page.keyboard.press(key)
    assert focused(page, ".grid__cell.is-playable[data-cell='b2']")
    press_and_wait(page, "Enter")
    for turn in range(5):
        page.wait_for_selector(".status__line.is-my-turn, .status__line.is-over", timeout=TIMEOUT)
        if page.locator(".status__line.is-over").count():
            break
        my_turn_on(page, ".grid__cell.is-playable")
        press_and_wait(page, "Space" if turn % 2 else "Enter")
    page.wait_for_selector(".status__line.is-over", timeout=TIMEOUT)
    text = page.locator(".status__text").inner_text()
    assert "win" in text or "Draw" in text, text

    # Connect Four: the arrows go column to column, where each stone would land; after a
    # drop (and the reply) the focus is where the next stone of that column would land.
    start_from_home(page, server, "connect")
    tab_to(page, ".grid__cell.is-playable")  # the board's Tab stop
    stops = [page.evaluate("document.activeElement.dataset.cell")]
    for _ in range(7):
        page.keyboard.press("ArrowRight")
        stops.append(page.evaluate("document.activeElement.dataset.cell ?? null"))
    assert stops == ["a1", "b1", "c1", "d1", "e1", "f1", "g1", "g1"], stops
    page.keyboard.press("Tab")
    assert not focused(page, ".grid__cell")  # one Tab leaves the board
    page.keyboard.press("Shift+Tab")
    for _ in range(3):
        page.keyboard.press("ArrowLeft")
    assert focused(page, ".grid__cell.is-playable[data-cell='d1']")
    for _ in range(2):
        press_and_wait(page, "Enter")
        my_turn_on(page, ".grid__cell.is-landing")
        assert page.evaluate("document.activeElement.dataset.cell")[0] == "d"
    assert page.locator(".grid__cell.is-p0").count() == 2
    context.close()
    assert not errors, errors[:5]
