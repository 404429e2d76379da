"""The skip link, the log-in and sign-up pages and the game page's preferences in Chromium:
what a keyboard, a phone (360 px) and a laptop (1366 px) meet. Screenshots of the entrance
pages go to test-results/ for a look."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from .conftest import ROOT, embedded_server
from .pages import new_game
from .test_accessibility import violations

pytestmark = pytest.mark.browser
PASSWORD = "a-long-pass-phrase"
SHOTS = ROOT / "test-results" / "entrance"
TOUCH = 44  # px: the touch target the site's buttons and fields keep


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """No computer needed: the games here are resigned before anyone moves."""
    yield from embedded_server(tmp_path_factory, "entrance", computer=False)


def test_the_first_tab_reaches_the_skip_link_and_it_jumps_to_the_pages_main(contexts: Any, site: str) -> None:
    page = contexts(1366, 800)
    page.goto(site + "/lobby/")
    skip = page.locator(".skip-link")
    assert skip.bounding_box()["y"] + skip.bounding_box()["height"] < 0  # out of sight until focused
    page.keyboard.press("Tab")
    focused = page.evaluate("[document.activeElement.className, document.activeElement.textContent]")
    assert focused == ["skip-link", "Skip to content"]
    box = skip.bounding_box()
    assert box["y"] >= 0 and box["height"] >= TOUCH  # shown, and big enough, once focused
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.closest('main#main') !== null")


def tabs_to(page: Any, text: str) -> int:
    tabs = 0
    while page.evaluate("document.activeElement.textContent") != text:
        page.keyboard.press("Tab")
        tabs += 1
        assert tabs < 60, f"{text!r} not reached"
    return tabs


def test_the_home_page_skips_to_its_new_game_cards(contexts: Any, site: str) -> None:
    page = contexts(1366, 800)
    page.goto(site + "/")
    assert tabs_to(page, "Skip to a new game") == 2  # the second stop, after "Skip to content"
    assert page.locator(".skip-link:focus").bounding_box()["y"] >= 0
    page.keyboard.press("Enter")
    # the Quarto card's links (its rules, the lesson), its fields, then its button
    assert tabs_to(page, "New Quarto game") <= 10


@pytest.mark.parametrize("width", [360, 1366])
@pytest.mark.parametrize("path", ["/accounts/login/", "/accounts/signup/"])
def test_the_entrance_pages_fit_and_have_full_size_controls(
    contexts: Any, site: str, width: int, path: str
) -> None:
    page = contexts(width, 800)
    page.goto(site + path)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    button = page.locator("main button[type=submit]")
    assert button.bounding_box()["height"] >= TOUCH
    for field in page.locator("main input:not([type=hidden]):not([type=checkbox])").all():
        assert field.bounding_box()["height"] >= TOUCH
    for box in page.locator("main input[type=checkbox]").all():  # beside its label
        assert box.bounding_box()["height"] >= 24
    SHOTS.mkdir(parents=True, exist_ok=True)
    name = path.strip("/").replace("/", "-")
    page.screenshot(path=str(SHOTS / f"{name}-{width}.png"), full_page=True)
    assert violations(page) == []
    if path.endswith("signup/"):
        assert page.get_by_text("3 to 20 letters, digits").is_visible()  # before any error
        page.fill("input[name=username]", "ab")
        page.fill("input[name=password1]", PASSWORD)
        page.fill("input[name=password2]", PASSWORD)
        page.evaluate("document.querySelector('input[name=username]').removeAttribute('minlength')")
        button.click()
        page.wait_for_selector(".errorlist")
        assert page.input_value("input[name=username]") == "ab"
        page.screenshot(path=str(SHOTS / f"{name}-error-{width}.png"), full_page=True)
        assert violations(page) == []


def test_the_game_page_resigns_at_once_and_hides_coordinates_when_the_account_says_so(
    contexts: Any, site: str
) -> None:
    page = contexts(1366, 800)
    page.goto(site + "/accounts/signup/")
    page.fill("input[name=username]", "prefs")
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.locator("main button[type=submit]").click()
    page.wait_for_selector(".site-header a:has-text('prefs')")
    url = new_game(page, site, "quarto", {}, scripts=False)
    assert page.locator(".board__name").first.is_visible()
    assert page.locator(".actions__confirm summary").is_visible()
    assert not page.locator(".actions__resign-now").is_visible()
    page.goto(site + "/accounts/settings/")
    for name in ("show_coordinates", "confirm_resign"):
        page.uncheck(f"input[name={name}]")
    page.locator("form:has(input[name=confirm_resign]) button[type=submit]").click()
    page.goto(url)
    assert not page.locator(".board__name").first.is_visible()
    assert not page.locator(".actions__confirm").is_visible()
    page.locator(".actions__resign-now button").click()
    page.wait_for_selector("text=You resigned")
