"""A whole game of Quarto against the computer in French, on a 360 px phone: every word
the page shows is French, but for names and notation; the header keeps its links on one
line."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from playwright.sync_api import expect

from .pages import TIMEOUT, invite_friend, live
from .test_play_quarto import play_to_the_end

pytestmark = pytest.mark.browser

# Names and notation: the site's and the games' names, the languages' own names in the
# switcher, the cells, the record's format.
ALLOWED = {
    "quarto",
    "site",
    "json",
    "anglais",
    "français",
    "deutsch",
    "español",
    "tic-tac-toe",
    "connect-n",
    "ultimate",
}
CELL = re.compile(r"^[a-d][1-4]$")
WORD = re.compile("[^\\W\\d_]+(?:[\u2019'-][^\\W\\d_]+)*")


def french_words() -> set[str]:
    """Every word the French catalogs say (the pages' and the scripts'): what a French page may show."""
    folder = Path(settings.BASE_DIR) / "locale" / "fr" / "LC_MESSAGES"
    text = (folder / "django.po").read_text("utf-8") + (folder / "djangojs.po").read_text("utf-8")
    lines = text.splitlines()
    said = [line for line in lines if line.startswith(("msgstr", '"'))]
    words = {w.lower() for line in said for w in WORD.findall(re.sub(r"%\(\w+\)s|<[^>]+>", " ", line))}
    return words | {part for w in words for part in re.split("[\u2019'-]", w)}


def foreign(text: str, known: set[str]) -> list[str]:
    """The words of ``text`` neither French (as the catalog says them) nor allowed."""
    found = []
    for word in WORD.findall(text):
        low = word.lower()
        parts = re.split("[\u2019'-]", low)
        if (
            len(low) == 1
            or low in known
            or low in ALLOWED
            or CELL.match(low)
            or all(p in known for p in parts if p)
        ):
            continue
        found.append(word)
    return found


def test_a_whole_game_in_french_at_360_px(server: str, browser: Any, tmp_path: Path) -> None:
    context = browser.new_context(
        viewport={"width": 360, "height": 740},
        locale="fr-FR",
        extra_http_headers={"Accept-Language": "fr-FR,fr;q=0.9"},
        bypass_csp=True,
    )
    page = context.new_page()
    known = french_words()
    page.goto(server + "/")
    assert page.locator("html").get_attribute("lang") == "fr"
    # The header: its links on one line each, none wider than the phone.
    page.screenshot(
        path=str(tmp_path / "header-fr-360.png"), clip={"x": 0, "y": 0, "width": 360, "height": 160}
    )
    links = page.locator(".site-header__link")
    for index in range(links.count()):
        box = links.nth(index).bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 360, links.nth(
            index
        ).inner_text()
        assert box["height"] < 2 * 18 * 1.3, f"{links.nth(index).inner_text()!r} wraps"
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert foreign(page.locator("main").inner_text(), known) == []

    card = page.locator(".game-card--quarto")
    card.locator("select[name=level]").select_option("beginner")
    card.locator("select[name=seat]").select_option("first")
    card.locator("button[type=submit]").click()
    page.wait_for_selector(".tray.is-giving")
    live(page)
    assert "Vous commencez." in page.locator("#status").inner_text()
    seen = [page.locator("body").inner_text()]
    page.locator("button.tray__slot:not([disabled])").first.click()
    page.wait_for_selector(".status__line.is-my-turn", timeout=15000)
    seen.append(page.locator("body").inner_text())
    result = play_to_the_end(page)
    seen.append(page.locator("body").inner_text())
    assert any(words in result for words in ("Vous gagnez", "Vous perdez", "Partie nulle")), result
    assert page.locator("button", has_text="Rejouer").is_visible()
    for text in seen:
        assert foreign(text, known) == [], text
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    context.close()


def test_a_word_the_script_builds_is_french(server: str, browser: Any) -> None:
    """The copy button's answer comes from the script (static/js/copy.js), its word from the
    French catalog the page links."""
    context = browser.new_context(
        locale="fr-FR", extra_http_headers={"Accept-Language": "fr-FR,fr;q=0.9"}, bypass_csp=True
    )
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    # A push may replace the invite box (and its button) just after the click, before the
    # word could be read from it: every word a copy button shows is recorded as it appears.
    context.add_init_script(SAID_BY_COPY_BUTTONS)
    page = context.new_page()
    invite_friend(page, server, "tictactoe")
    copy = page.locator("button[data-copy]")
    expect(copy).to_have_text("Copier", timeout=TIMEOUT)
    copy.click()
    page.wait_for_function("window.copyWords.includes('Copié')", timeout=TIMEOUT)
    assert "Copied" not in page.evaluate("window.copyWords")
    context.close()


SAID_BY_COPY_BUTTONS = """
window.copyWords = [];
new MutationObserver(function () {
  document.querySelectorAll("[data-copy]").forEach(function (button) {
    var word = button.textContent.trim();
    if (window.copyWords.indexOf(word) < 0) { window.copyWords.push(word); }
  });
}).observe(document, {subtree: true, childList: true, characterData: true});
"""
