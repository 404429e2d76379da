"""An arena in real browsers: four accounts, each in a browser context of its own, join it
from its page, are taken to their games by the page that follows them, play, and a fifth
visitor watching the tournament's page sees the standings change live; the game pages then
take the players on to their next games by themselves. The same page is
checked at phone and desktop widths (screenshots kept in the test's folder)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .conftest import Processes, embedded_env
from .pages import TIMEOUT, one_move_then_resign, watch_for_errors
from .test_accessibility import violations

pytestmark = [pytest.mark.browser, pytest.mark.slow]
PASSWORD = "a-long-pass-phrase"
NAMES = ("ann", "bob", "cid", "dan")

SEED = f"""
from django.contrib.auth.models import User
from accounts.services import account_of
from tournaments import services
staff = User.objects.create_user("boss", is_staff=True)
for name in {NAMES!r}:
    account_of(User.objects.create_user(name, password={PASSWORD!r}))
services.create(staff, kind="arena", game="tictactoe", clock={{"initial": 180, "increment": 2}}, minutes=30,
                name="Browser Arena")
"""


@pytest.fixture(scope="module")
def arena_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    folder = tmp_path_factory.mktemp("arena")
    processes = Processes(folder, embedded_env(folder, {"TOURNAMENT_TICK": "0.5"}))
    processes.migrate()
    processes.manage("shell", "-c", SEED)
    url = processes.daphne("daphne")
    try:
        yield url, folder
    finally:
        processes.stop()


def logged_in(browser: Any, server: str, name: str) -> Any:
    page = browser.new_context(viewport={"width": 1200, "height": 900}).new_page()
    page.goto(server + "/accounts/login/")
    page.fill("input[name=login]", name)
    page.fill("input[name=password]", PASSWORD)
    page.locator("form:has(input[name=login]) button[type=submit]").click()
    page.wait_for_selector(f".site-header a:has-text('{name}')", timeout=TIMEOUT)
    return page


def score_of(page: Any, name: str) -> str:
    return str(page.locator(f"tr[data-player='{name}'] .standings__score").inner_text())


def test_four_accounts_play_an_arena_and_the_standings_follow(
    arena_server: tuple[str, Path], browser: Any
) -> None:
    server, folder = arena_server
    players = {name: logged_in(browser, server, name) for name in NAMES}
    watcher = browser.new_context(viewport={"width": 1366, "height": 900}).new_page()
    errors = watch_for_errors({**players, "watcher": watcher})

    watcher.goto(server + "/tournaments/")
    watcher.locator("a", has_text="Browser Arena").click()
    watcher.wait_for_url("**/tournaments/*/", timeout=TIMEOUT)
    tournament = watcher.url
    for name, page in players.items():
        page.goto(tournament)
        page.get_by_role("button", name="Join").click()
        page.wait_for_selector(".tournament__follow", timeout=TIMEOUT)
        watcher.wait_for_selector(f"tr[data-player='{name}']", timeout=TIMEOUT)  # pushed live
    for page in players.values():
        page.locator(".tournament__follow").click()
    for page in players.values():
        page.wait_for_url("**/games/*/", timeout=TIMEOUT)  # the following page took them there
    games: dict[str, list[str]] = {}
    for name, page in players.items():
        games.setdefault(page.url, []).append(name)
    assert sorted(len(pair) for pair in games.values()) == [2, 2]
    watcher.wait_for_selector(".standings__playing >> nth=3", timeout=TIMEOUT)

    winners = []
    for pair in games.values():
        first, second = (players[name] for name in pair)
        winner = one_move_then_resign(first, second)
        winners.append(pair[0] if winner is first else pair[1])
    for name in NAMES:
        expected = "2" if name in winners else "0"
        watcher.wait_for_selector(
            f"tr[data-player='{name}'] .standings__score[data-score='{expected}']", timeout=TIMEOUT
        )
    watcher.screenshot(path=str(folder / "arena-1366.png"), full_page=True)

    # The game pages follow their players on to the next game by themselves: the two
    # winners meet next, the two losers too.
    for name, page in players.items():
        before = next(url for url, pair in games.items() if name in pair)
        # A predicate on the address, not a script string: the site's policy forbids eval.
        page.wait_for_url(lambda url, before=before: url != before and "/games/" in url, timeout=TIMEOUT)
    assert players[winners[0]].url == players[winners[1]].url
    assert players[winners[0]].locator(".game__tournament", has_text="Browser Arena").count() == 1
    # bypass_csp: axe's injected script (tests/e2e/test_accessibility.py).
    phone = browser.new_context(viewport={"width": 360, "height": 800}, bypass_csp=True).new_page()
    phone.goto(tournament)
    phone.wait_for_selector(".standings__fire, .standings__score", timeout=TIMEOUT)
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, f"the page is {width} px wide on a 360 px phone"
    phone.screenshot(path=str(folder / "arena-360.png"), full_page=True)
    assert violations(phone) == []
    assert not errors, errors
