"""With ``prefers-reduced-motion: reduce`` nothing on a game page moves: the winning line
and the tray that asks for a piece keep a still halo instead of a pulse."""

from __future__ import annotations

from typing import Any

import pytest

from .pages import new_game
from .test_narrow_pages import import_record

pytestmark = pytest.mark.browser

RUNNING = "() => document.getAnimations().filter((a) => a.playState === 'running').length"
HALO = """(selector) => {
    const element = document.querySelector(selector);
    return getComputedStyle(element, "::before").boxShadow + " " + getComputedStyle(element).boxShadow;
}"""


@pytest.mark.parametrize("motion", ["reduce", "no-preference"])
def test_no_animation_under_reduced_motion(browser: Any, server: str, motion: str) -> None:
    context = browser.new_context(viewport={"width": 1200, "height": 900}, reduced_motion=motion)
    page = context.new_page()
    try:
        won = import_record(server, "tictactoe", ["a1", "b1", "a2", "b2", "a3"])
        page.goto(f"{server}/games/{won}/")
        page.wait_for_selector(".grid__cell.is-winning")
        running_won = page.evaluate(RUNNING)
        halo = page.evaluate(HALO, ".grid__cell.is-winning")
        new_game(page, server, "quarto", {})
        page.wait_for_selector(".tray.is-giving")
        running_tray = page.evaluate(RUNNING)
        tray = page.evaluate(HALO, ".tray.is-giving")
    finally:
        context.close()
    if motion == "reduce":
        assert (running_won, running_tray) == (0, 0)
        # Still marked: a halo of the winning colour and of the accent stays.
        assert "rgb" in halo.replace("none", "") and "rgb" in tray
    else:  # the same pages do pulse for everyone else: the check above can fail
        assert running_won > 0 and running_tray > 0
