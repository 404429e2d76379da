"""Every board at phone and desktop sizes: each visible point of a cell clicks that cell,
nothing overflows or overlaps, and the control the player needs is in view."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ..kinds import boards_to_show
from .pages import new_game, record_frames, wait_for_frame

pytestmark = pytest.mark.browser

PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1366, "height": 850}
WIDTHS = (360, 768, 1280, 1366, 1920)

# The boards to check, from the catalog: a label, the game kind and the new-game form's fields.
BOARDS = boards_to_show()
CELLS = ".board__cell, .grid__cell"
# Screenshots to look at, when SCREENSHOTS names a folder.
SHOTS = Path(os.environ["SCREENSHOTS"]) if os.environ.get("SCREENSHOTS") else None

# For each cell: 5x5 points spread over its box (inside the round cells' outline), the
# ones inside the viewport, and how many of those hit the cell's own button.
HIT_TEST = """(selector) => {
  const out = [];
  for (const cell of document.querySelectorAll(selector)) {
    const r = cell.getBoundingClientRect();
    let sampled = 0, hit = 0;
    const misses = [];
    for (let i = 1; i <= 5; i++) for (let j = 1; j <= 5; j++) {
      const x = r.left + r.width * i / 6, y = r.top + r.height * j / 6;
      if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) continue;
      sampled++;
      const found = document.elementFromPoint(x, y);
      if (found && found.closest(selector) === cell) hit++;
      else misses.push(found ? found.className : null);
    }
    out.push({cell: cell.dataset.cell, sampled, hit, misses: misses.slice(0, 2)});
  }
  return out;
}"""


@pytest.fixture(scope="module")
def games(server: str, browser: Any) -> Iterator[dict[str, str]]:
    """One fresh game per board, by a player who then leaves: later visitors watch it."""
    context = browser.new_context()
    page = context.new_page()
    yield {label: new_game(page, server, kind, fields) for label, (kind, fields) in BOARDS.items()}
    context.close()


def open_page(browser: Any, url: str, viewport: dict[str, int], scheme: str = "light") -> Any:
    context = browser.new_context(viewport=viewport, color_scheme=scheme, reduced_motion="reduce")
    page = context.new_page()
    page.goto(url)
    page.wait_for_selector(CELLS)
    return page


def hit_figures(page: Any) -> tuple[int, int, list[Any]]:
    """Points that hit their cell, points sampled, and the cells with misses."""
    cells = page.evaluate(HIT_TEST, CELLS)
    bad = [c for c in cells if c["hit"] < c["sampled"]]
    return sum(c["hit"] for c in cells), sum(c["sampled"] for c in cells), bad


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
@pytest.mark.parametrize("label", list(BOARDS))
def test_every_visible_point_of_a_cell_clicks_that_cell(
    browser: Any, games: dict[str, str], label: str, viewport: dict[str, int], scheme: str
) -> None:
    page = open_page(browser, games[label], viewport, scheme)
    try:
        board = page.locator("#board")
        board.scroll_into_view_if_needed()
        hit, sampled, bad = hit_figures(page)
        assert sampled > 0
        assert not bad, f"{label}: {hit} of {sampled} points hit their cell; misses: {bad[:4]}"
    finally:
        page.context.close()


# Computed styles that decide whether a piece is drawn in 3D, and its running effects.
PIECE_STYLE = """(el) => {
  const s = getComputedStyle(el);
  return {transform: s.transform, opacity: s.opacity, style: s.transformStyle,
          effects: el.getAnimations().length};
}"""


def test_the_piece_placed_last_stands_like_the_others(server: str, browser: Any) -> None:
    # The test adds a style of its own at the end, which the site's policy would refuse.
    context = browser.new_context(viewport=DESKTOP, bypass_csp=True)
    page = context.new_page()
    try:
        frames = record_frames(page)
        new_game(page, server, "quarto", {})
        # This test is about the landed piece's look: start once the page's socket is live
        # (it sent the position). A move while it connects: test_consumer_join_first.
        wait_for_frame(page, frames)
        page.locator("button.tray__slot:not([disabled])").first.click()
        # The computer places that piece and gives us another (its placement is the newest
        # only until its give, moments later: wait for the piece, not for that).
        page.wait_for_selector(".board__cell .board__piece", timeout=15000)
        page.wait_for_selector(".status__line.is-my-turn", timeout=15000)
        page.locator(".board__cell.is-playable").first.click()
        page.wait_for_selector(".board__cell:not(.is-new) .board__piece", timeout=15000)
        new = page.locator(".board__cell.is-new .board__piece")
        new.wait_for()
        page.wait_for_timeout(1000)  # the drop is over
        settled = page.locator(".board__cell:not(.is-new) .board__piece").first
        assert (
            new.evaluate(PIECE_STYLE)
            == settled.evaluate(PIECE_STYLE)
            == {
                "transform": "none",
                "opacity": "1",
                "style": "preserve-3d",
                "effects": 0,
            }
        )
        # And it looks the same as when it is drawn without ever having dropped.
        box = new.bounding_box()
        lift = box["height"] * 2
        clip = {
            "x": box["x"] - 4,
            "y": box["y"] - lift,
            "width": box["width"] + 8,
            "height": box["height"] + lift + 4,
        }
        landed = page.screenshot(clip=clip)
        page.add_style_tag(content=".board__cell.is-new .board__piece { animation: none; }")
        page.wait_for_timeout(100)
        assert page.screenshot(clip=clip) == landed
    finally:
        context.close()


# Sideways scroll, and where the board, its cells and the side panel lie.
LAYOUT = """() => {
  const rect = (el) => { const r = el.getBoundingClientRect();
    return {left: r.left, right: r.right, top: r.top, bottom: r.bottom}; };
  const cells = [...document.querySelectorAll('.board__cell, .grid__cell')].map(rect);
  return {
    scrollWidth: document.documentElement.scrollWidth, innerWidth,
    // What is drawn: the tilted grid's box for Quarto, the grid itself for the others.
    board: rect(document.querySelector('.board__grid') || document.querySelector('#board').firstElementChild),
    panel: rect(document.querySelector('#pieces').firstElementChild),
    outside: cells.filter(r => r.left < 0 || r.right > innerWidth).length,
  };
}"""


def overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return (
        a["left"] < b["right"]
        and b["left"] < a["right"]
        and a["top"] < b["bottom"]
        and b["top"] < a["bottom"]
    )


@pytest.mark.parametrize("width", WIDTHS)
def test_no_board_overflows_or_overlaps_at_any_width(browser: Any, games: dict[str, str], width: int) -> None:
    context = browser.new_context(viewport={"width": width, "height": 900}, reduced_motion="reduce")
    page = context.new_page()
    try:
        for label, url in games.items():
            page.goto(url)
            page.wait_for_selector(CELLS)
            layout = page.evaluate(LAYOUT)
            assert layout["scrollWidth"] <= layout["innerWidth"], (label, layout)
            assert not overlap(layout["board"], layout["panel"]), (label, layout)
            assert layout["outside"] == 0, (label, layout)
            if SHOTS:
                page.screenshot(path=str(SHOTS / f"{label}-{width}.png"), full_page=True)
    finally:
        context.close()


def test_the_tray_is_in_view_while_giving_on_a_phone(server: str, browser: Any) -> None:
    context = browser.new_context(viewport=PHONE, reduced_motion="reduce")
    page = context.new_page()

    def tray_in_view() -> None:
        page.wait_for_selector(".tray.is-giving", timeout=15000)
        page.evaluate("window.scrollTo(0, 0)")
        # Measured in the page in one go: a push may replace the tray between two calls.
        grid = page.evaluate(
            "(() => { const r = document.querySelector('.tray__grid').getBoundingClientRect();"
            " return {y: r.y, height: r.height}; })()"
        )
        assert grid["y"] >= 0 and grid["y"] + grid["height"] <= PHONE["height"], grid

    try:
        new_game(page, server, "quarto", {})
        tray_in_view()  # the first give
        page.locator("button.tray__slot:not([disabled])").first.click()
        page.wait_for_selector(".board__cell.is-playable", timeout=15000)
        page.locator(".board__cell.is-playable").first.click()
        tray_in_view()  # a give after a placement, under the longer status
        if SHOTS:
            page.screenshot(path=str(SHOTS / "quarto-giving-360.png"))
    finally:
        context.close()


def test_a_used_tray_slot_never_lights_up_under_the_finger(server: str, browser: Any) -> None:
    """A phone keeps :hover where it was tapped: the slot of the piece just given (now an
    empty span) stayed framed in orange as if it could still be chosen."""
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    try:
        new_game(page, server, "quarto", {})
        page.wait_for_selector(".tray.is-giving", timeout=15000)
        slots = page.locator(".tray__grid .tray__slot")
        index = slots.evaluate_all("all => all.findIndex(e => e.matches('button:not(:disabled)'))")
        slots.nth(index).tap()
        used = page.locator(f".tray__grid .tray__slot:nth-child({index + 1}).is-used")
        used.wait_for(timeout=15000)
        page.wait_for_selector(".status__line.is-my-turn", timeout=15000)  # the reply is in
        page.wait_for_timeout(300)  # and its pushes swapped in: the slot stays this element
        used.hover()  # the finger is still there
        assert used.evaluate("e => e.matches(':hover')")
        assert used.evaluate("e => getComputedStyle(e).borderColor") == "rgba(0, 0, 0, 0)"
    finally:
        context.close()
