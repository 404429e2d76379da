"""In a real browser, on a phone (360x740) and on a laptop (1366x900): the finished game,
History, Replay and Review pages fit the screen (no sideways scrolling, every link of a
table on screen or in its own scroll box) and keep a side margin; the replay's move
list shows the current move; the arrow-key tip is shown only where there is a mouse."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

pytestmark = pytest.mark.browser

PHONE = {"width": 360, "height": 740}
LAPTOP = {"width": 1366, "height": 900}
# A Connect Four game of 38 plies (O wins on the last): a move list longer than its box.
LONG_GAME = "aaaaaabbbbbbcdcccccdeddddeeeeeffffffgg"


def import_record(server: str, game: str, moves: list[str]) -> int:
    """A finished game from its record (POST /api/v1/records); its id."""
    record = {"format": "quarto-site-record/1", "game": game, "players": ["Ann", "Bob"], "moves": moves}
    request = urllib.request.Request(
        server + "/api/v1/records",
        json.dumps(record).encode(),
        {"Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        return int(json.load(response)["id"])


@pytest.fixture(scope="module")
def game(server: str) -> int:
    return import_record(server, "connect", list(LONG_GAME))


def _sized(browser: Any, size: str) -> Iterator[Any]:
    french = {"locale": "fr-FR", "extra_http_headers": {"Accept-Language": "fr"}}
    context = browser.new_context(
        viewport=LAPTOP if size == "laptop" else PHONE, **(french if size.endswith("French") else {})
    )
    yield context.new_page()
    context.close()


@pytest.fixture(params=["phone", "laptop"])
def sized(request: pytest.FixtureRequest, browser: Any) -> Iterator[Any]:
    """A page at phone or laptop size (with the site's Content-Security-Policy)."""
    yield from _sized(browser, request.param)


@pytest.fixture(params=["phone", "laptop", "phone in French"])
def any_sized(request: pytest.FixtureRequest, browser: Any) -> Iterator[Any]:
    """The same, and a phone in French (longer words)."""
    yield from _sized(browser, request.param)


def fits(page: Any) -> dict[str, Any]:
    """The page's width against the window's, where its heading starts, and the margins
    left and right of its content."""
    return dict(
        page.evaluate(
            """() => {
                const main = document.querySelector("main").getBoundingClientRect();
                return {
                    scroll: document.documentElement.scrollWidth,
                    window: window.innerWidth,
                    left: document.querySelector("main h1").getBoundingClientRect().left,
                    margins: [main.left, window.innerWidth - main.right],
                };
            }"""
        )
    )


def on_screen(page: Any, selector: str) -> list[str]:
    """The elements matching ``selector`` that reach past the window's right edge."""
    return list(
        page.evaluate(
            """(selector) => [...document.querySelectorAll(selector)]
                .filter((e) => e.getBoundingClientRect().right > window.innerWidth)
                .map((e) => e.textContent.trim())""",
            selector,
        )
    )


def test_pages_fit_the_screen_with_a_margin(server: str, game: int, any_sized: Any) -> None:
    sized = any_sized
    pages = {
        "game": (f"/games/{game}/", ".status__again .button"),
        "history": ("/games/history", ".history__table a"),
        "replay": (f"/games/{game}/replay?ply=20", ".replay__nav .button, .replay__moves a"),
        "review": (f"/games/{game}/review", ".review__scroll"),
    }
    for name, (path, parts) in pages.items():
        sized.goto(server + path)
        if name == "review":
            sized.wait_for_selector(".review__table", timeout=30000)
        size = fits(sized)
        assert size["scroll"] <= size["window"], f"{name} scrolls sideways: {size}"
        assert size["left"] >= 12, f"{name} has no side margin: {size}"
        assert sized.locator(parts).count() > 0, name
        assert on_screen(sized, parts) == [], f"{name}: cut off at {size['window']} px"
        left, right = size["margins"]
        assert abs(left - right) <= 1, f"{name} is not centred: {size}"


def current_in_view(page: Any) -> bool:
    """The current move lies inside the visible part of the move list."""
    return bool(
        page.evaluate(
            """() => {
                const list = document.querySelector(".replay__moves").getBoundingClientRect();
                const move = document.querySelector(".replay__moves .is-current").getBoundingClientRect();
                return move.top >= list.top - 1 && move.bottom <= list.bottom + 1;  // less than a pixel off
            }"""
        )
    )


def test_replay_keeps_the_current_move_in_view(server: str, game: int, sized: Any) -> None:
    replay = f"{server}/games/{game}/replay"
    moves = sized.locator(".replay__moves")
    for ply in (34, 2, 38):
        sized.goto(f"{replay}?ply={ply}")
        assert moves.evaluate("list => list.scrollHeight > list.clientHeight")  # a scroll box
        assert sized.locator(".replay__moves .is-current").inner_text().startswith(f"{ply}. ")
        assert current_in_view(sized), ply
        assert sized.evaluate("window.scrollY") == 0  # the list scrolled, not the page
    sized.goto(f"{replay}?ply=3")
    sized.keyboard.press("End")
    sized.wait_for_url(f"{replay}?ply=38")
    assert current_in_view(sized) and sized.evaluate("window.scrollY") == 0
    sized.goto(replay)  # the last ply by default
    assert sized.locator(".replay__ply").inner_text() == "Ply 38 of 38" and current_in_view(sized)


def test_arrow_key_tip_only_with_a_mouse(server: str, game: int, browser: Any) -> None:
    replay = f"{server}/games/{game}/replay"
    phone = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    laptop = browser.new_context(viewport=LAPTOP)
    try:
        for context, shown in ((phone, False), (laptop, True)):
            page = context.new_page()
            page.goto(replay)
            assert page.locator(".replay__hint").is_visible() is shown
    finally:
        phone.close()
        laptop.close()
