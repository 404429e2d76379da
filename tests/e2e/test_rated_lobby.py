"""A rated game through the lobby in real browsers: two accounts with established ratings
meet by a rated 3+2 seek, play it out, both see their rating change on the page, and the
leaderboard and the winner's profile (table and chart) show the new ratings."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from .conftest import Processes, embedded_env
from .pages import TIMEOUT, all_at_ply, watch_for_errors

pytestmark = pytest.mark.browser
PASSWORD = "a-long-pass-phrase"

SEED = f"""
from datetime import timedelta
from django.contrib.auth.models import User
from django.utils import timezone
from accounts.services import account_of
from ratings.models import Rating
for name, rating in (("alice", 1600), ("bob", 1560)):
    user = User.objects.create_user(name, password={PASSWORD!r})
    account_of(user)
    Rating.objects.create(user=user, kind="tictactoe", speed="blitz", rating=rating, rd=60, games=40,
                          last_game=timezone.now() - timedelta(days=1))
"""


@pytest.fixture(scope="module")
def rated_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The embedded set-up with two accounts whose blitz tic-tac-toe ratings are established."""
    folder = tmp_path_factory.mktemp("rated")
    processes = Processes(folder, embedded_env(folder))
    processes.migrate()
    processes.manage("shell", "-c", SEED)
    url = processes.daphne("daphne")
    try:
        yield url
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


def rating_of(page: Any, seat_text: str) -> str:
    return str(page.locator(".clock", has_text=seat_text).locator(".clock__rating").inner_text())


def test_two_accounts_play_a_rated_game_through_the_lobby(rated_server: str, browser: Any) -> None:
    server = rated_server
    alice, bob = logged_in(browser, server, "alice"), logged_in(browser, server, "bob")
    errors = watch_for_errors({"alice": alice, "bob": bob})

    alice.goto(server + "/lobby/")
    form = alice.locator("form.seek-form")
    form.locator("select[name=game]").select_option("tictactoe")
    form.locator("select[name=clock]").select_option("3+2")
    form.locator("input[name=mode][value=rated]").check()
    form.locator("select[name=seat]").select_option("first")
    form.locator("button[type=submit]").click()
    alice.wait_for_url("**/lobby/wait**", timeout=TIMEOUT)

    bob.goto(server + "/lobby/")
    seek = bob.locator(".seeks li", has_text="alice")
    assert "1600" in seek.inner_text() and "rated" in seek.inner_text().lower()
    seek.locator("button", has_text="Accept").click()
    bob.wait_for_url("**/games/*/", timeout=TIMEOUT)
    alice.wait_for_url(bob.url, timeout=TIMEOUT)  # her waiting page moved by itself

    all_at_ply([alice, bob], 0)
    for page in (alice, bob):
        label = page.locator(".clocks__label")
        assert label.inner_text().strip() == "3+2 · rated"
    assert rating_of(alice, "You") == "1600" and rating_of(bob, "You") == "1560"
    for page, cell in [(alice, "a1"), (bob, "a2"), (alice, "b1"), (bob, "b2"), (alice, "c1")]:
        page.wait_for_selector(".status__line.is-my-turn", timeout=TIMEOUT)
        ply = int(page.locator(".status__line").get_attribute("data-ply"))
        page.locator(f".grid__cell.is-playable[data-cell='{cell}']").click()
        all_at_ply([alice, bob], ply + 1)

    # The end pushes each page its change: a plus for the winner, a minus sign for the loser.
    alice.locator(".clock", has_text="You").locator(".clock__rating", has_text="+").wait_for(timeout=TIMEOUT)
    bob.locator(".clock", has_text="You").locator(".clock__rating", has_text="\u2212").wait_for(
        timeout=TIMEOUT
    )
    gained = int(re.search(r"\+(\d+)", rating_of(alice, "You")).group(1))  # type: ignore[union-attr]
    lost = int(re.search(r"\u2212(\d+)", rating_of(bob, "You")).group(1))  # type: ignore[union-attr]
    assert 0 < gained < 30 and 0 < lost < 30, "established ratings move a little"

    board = alice.context.new_page()
    board.goto(server + "/ratings/tictactoe/blitz/")
    rows = board.locator("tbody tr")
    assert rows.nth(0).inner_text().split("\t")[1:3] == ["alice", str(1600 + gained)]
    assert rows.nth(1).inner_text().split("\t")[1:3] == ["bob", str(1560 - lost)]

    board.goto(server + "/@/alice")
    chart = board.locator("img.profile__chart")
    chart.wait_for(timeout=TIMEOUT)
    assert board.evaluate("document.querySelector('img.profile__chart').naturalWidth") > 0
    history = board.locator(".profile__history table").inner_text()
    assert f"+{gained}" in history and str(1600 + gained) in history
    assert errors == []
