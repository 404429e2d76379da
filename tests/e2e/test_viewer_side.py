"""In a real browser: a game without JavaScript reaches the computer's reply, and the
end of a game is told from each side (winner, loser, spectator), live."""

from __future__ import annotations

from typing import Any

import pytest

from .pages import invite_friend, new_game, take_seat

pytestmark = pytest.mark.browser


def test_without_javascript_the_computer_s_reply_arrives_by_waiting(server: str, browser: Any) -> None:
    context = browser.new_context(java_script_enabled=False, viewport={"width": 1200, "height": 900})
    page = context.new_page()
    new_game(page, server, "quarto", {}, level="beginner", scripts=False)
    assert page.locator(".tray.is-giving").count() == 1
    # A plain form post: the page comes back with the computer to move ...
    with page.expect_navigation():
        page.locator("button.tray__slot:not([disabled])").first.click()
    # ... and refreshes itself until its reply is there: our turn, its piece on the board.
    page.wait_for_selector(".status__line.is-my-turn", timeout=20000)
    assert page.locator(".board__cell .board__piece").count() == 1
    assert page.locator(".tray__slot--hand").count() == 1
    assert "Your turn: place the piece you were given." in page.locator(".status__text").inner_text()
    # Our placement and give are plain form posts too; the next reply arrives the same way.
    with page.expect_navigation():
        page.locator(".board__cell.is-playable").first.click()
    with page.expect_navigation():
        page.locator("button.tray__slot:not([disabled])").first.click()
    page.wait_for_selector(".status__line.is-my-turn", timeout=20000)
    assert page.locator(".board__cell .board__piece").count() == 3
    context.close()


def test_the_end_is_told_from_each_side(server: str, browser: Any) -> None:
    contexts = [browser.new_context(viewport={"width": 1200, "height": 900}) for _ in range(3)]
    x, o, spectator = (c.new_page() for c in contexts)
    invite = invite_friend(x, server, "tictactoe")
    assert x.locator("button[data-copy=invite-url]").is_visible()  # the Copy button, with JavaScript
    take_seat(o, invite)
    o.wait_for_selector(".grid__cell")
    # The creator's page drops the open seat and the invite as soon as the friend joins.
    x.wait_for_function("!document.querySelector('#invite-url')", timeout=10000)
    assert "open seat" not in x.locator("#seats").inner_text()
    spectator.goto(o.url)
    assert spectator.locator("#invite-url").count() == 0
    for player, cell in [(x, "a1"), (o, "a2"), (x, "b1"), (o, "b2"), (x, "c1")]:
        player.wait_for_selector(f'.grid__cell.is-playable[data-cell="{cell}"]', timeout=10000)
        player.locator(f'.grid__cell[data-cell="{cell}"]').click()
    expected = {x: "You win!", o: "You lose: Player 1 (X) wins.", spectator: "Player 1 (X) wins!"}
    for viewer, text in expected.items():
        viewer.wait_for_selector(".status__line.is-over", timeout=10000)
        assert viewer.locator(".status__text").inner_text() == text
        assert viewer.locator("a", has_text="Review the game").count() == 1
    for context in contexts:
        context.close()
