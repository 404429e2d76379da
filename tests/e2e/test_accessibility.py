"""axe-core finds no serious or critical accessibility violation on the site's pages: home,
each game of the catalog in play, its replay and its rules, the guided first game, a game
with its clocks running, a finished game's review and History, on a phone and a laptop.

axe-core comes from the npm registry, pinned in tests/e2e/package-lock.json and installed
by ``npm ci --prefix tests/e2e`` (scripts/test); the test injects it from node_modules."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from games import catalog

from .pages import new_game
from .test_narrow_pages import LAPTOP, LONG_GAME, PHONE, import_record

pytestmark = [pytest.mark.browser, pytest.mark.slow]

AXE = Path(__file__).resolve().parent / "node_modules" / "axe-core" / "axe.min.js"
SERIOUS = ("serious", "critical")


@pytest.fixture(params=["phone", "laptop"])
def sized(request: pytest.FixtureRequest, browser: Any) -> Iterator[Any]:
    """A page at phone or laptop size. The site's Content-Security-Policy would refuse the
    injected axe script, so this context alone bypasses it (tests/e2e/test_csp.py checks it)."""
    if not AXE.exists():
        pytest.fail(f"{AXE} is missing: run npm ci --prefix tests/e2e")
    context = browser.new_context(viewport=PHONE if request.param == "phone" else LAPTOP, bypass_csp=True)
    page = context.new_page()
    yield page
    context.close()


def violations(page: Any) -> list[str]:
    """The serious and critical violations axe finds in the page as it stands, one line each."""
    page.add_script_tag(path=str(AXE))
    found = page.evaluate("() => axe.run(document).then((r) => r.violations)")
    return [
        f"{v['id']} ({v['impact']}, {len(v['nodes'])} nodes): {v['help']}: "
        + "; ".join(n["html"][:120] for n in v["nodes"][:3])
        for v in found
        if v["impact"] in SERIOUS
    ]


def clocked_game(page: Any, server: str) -> list[str]:
    """A tic-tac-toe game at 5+3 against the computer, its clocks running: the violations."""
    page.goto(server + "/")
    card = page.locator(".game-card--tictactoe")
    card.locator("select[name=seat]").select_option("second")
    card.locator("select[name=clock]").select_option("5+3")
    card.locator("button[type=submit]").click()
    page.wait_for_selector(".status__line.is-my-turn")
    page.wait_for_selector(".clock.is-to-move")
    return violations(page)


@pytest.fixture(scope="module")
def finished(server: str) -> int:
    return import_record(server, "connect", list(LONG_GAME))


def test_no_serious_violation_on_any_page(server: str, finished: int, sized: Any) -> None:
    found: dict[str, list[str]] = {}
    for kind in catalog.CATALOG:  # every game's page in play and its replay
        url = new_game(sized, server, kind, {})
        found[f"{kind} game"] = violations(sized)
        sized.goto(url.rstrip("/") + "/replay?ply=1")
        found[f"{kind} replay"] = violations(sized)
    found["clocked game"] = clocked_game(sized, server)
    pages = {
        "home": "/",
        "finished game": f"/games/{finished}/",
        "replay": f"/games/{finished}/replay?ply=20",
        "review": f"/games/{finished}/review",
        "history": "/games/history",
        "lobby": "/lobby/",
        "tournaments": "/tournaments/",
    }
    # Every game's rules page, and the guided first game before and after a step.
    pages.update({f"rules of {kind}": f"/rules/{kind}/" for kind in catalog.CATALOG})
    pages.update({"rules": "/rules/", "lesson": "/learn/quarto/"})
    for name, path in pages.items():
        sized.goto(server + path)
        if name == "review":
            sized.wait_for_selector(".review__table", timeout=30000)
        found[name] = violations(sized)
    sized.goto(server + "/learn/quarto/")
    sized.locator(".tray__slot[value='4']").click()  # a wrong piece: the word
    sized.wait_for_selector(".lesson__word--wrong")
    found["lesson, a wrong action"] = violations(sized)
    sized.locator(".tray__slot[value='3']").click()
    sized.wait_for_selector(".lesson__word--right")
    found["lesson, a step done"] = violations(sized)
    assert {name: lines for name, lines in found.items() if lines} == {}
