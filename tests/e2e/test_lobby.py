"""The lobby in real browsers: two strangers meet through quick pairing and play a whole
game; then one offers a game, a third accepts it from the lobby list, and a fourth page
sees the list change live (the seek appears, then goes), without reloading."""

from __future__ import annotations

from typing import Any

import pytest

from .pages import TIMEOUT, all_at_ply, people, result, watch_for_errors

pytestmark = pytest.mark.browser


def lobby_live(page: Any, server: str) -> None:
    page.goto(server + "/lobby/")
    page.wait_for_selector("body[data-socket='open']", state="attached", timeout=TIMEOUT)


def first_and_second(pages: list[Any]) -> tuple[Any, Any]:
    """The two players' pages in seat order (whoever's turn it is at ply 0 starts)."""
    pages[0].wait_for_selector(".status__line[data-ply='0']", timeout=TIMEOUT)
    pages[0].wait_for_function(
        "document.querySelector('.status__line.is-my-turn, .status__line:not(.is-my-turn)') !== null"
    )
    mine = pages[0].locator(".status__line.is-my-turn").count() > 0
    return (pages[0], pages[1]) if mine else (pages[1], pages[0])


def test_strangers_meet_in_the_lobby(server: str, browser: Any) -> None:
    alice, bob, carol, dave = people(browser, 4)
    errors = watch_for_errors({"alice": alice, "bob": bob, "carol": carol, "dave": dave})
    lobby_live(dave, server)
    pool_button = "button[data-pool='tictactoe:1+0']"

    # Quick pairing: Alice waits; Dave's lobby shows one waiting; Bob's click pairs them.
    alice.goto(server + "/lobby/")
    alice.locator(pool_button).click()
    alice.wait_for_url("**/lobby/wait", timeout=TIMEOUT)
    dave.locator(f"{pool_button} .pools__count[data-count='1']").wait_for(timeout=TIMEOUT)
    bob.goto(server + "/lobby/")
    bob.locator(pool_button).click()
    bob.wait_for_url("**/games/*/", timeout=TIMEOUT)
    alice.wait_for_url(bob.url, timeout=TIMEOUT)  # the waiting page moved by itself
    dave.locator(f"{pool_button} .pools__count[data-count='0']").wait_for(state="attached", timeout=TIMEOUT)

    # A whole game: the first seat takes the bottom row.
    all_at_ply([alice, bob], 0)
    first, second = first_and_second([alice, bob])
    for page, cell in [(first, "a1"), (second, "a2"), (first, "b1"), (second, "b2"), (first, "c1")]:
        page.wait_for_selector(".status__line.is-my-turn", timeout=TIMEOUT)
        ply = int(page.locator(".status__line").get_attribute("data-ply"))
        page.locator(f".grid__cell.is-playable[data-cell='{cell}']").click()
        all_at_ply([alice, bob], ply + 1)
    for page in (alice, bob):
        page.wait_for_selector(".status__line.is-over", timeout=TIMEOUT)
    assert "win" in result(first).lower() or "won" in result(first).lower()

    # A seek: Alice offers a game; Dave's list shows it live; Carol accepts it from hers.
    alice.goto(server + "/lobby/")
    form = alice.locator(".seek-form")
    form.locator("select[name=game]").select_option("tictactoe")
    form.locator("select[name=clock]").select_option("3+2")
    form.locator("button[type=submit]").click()
    alice.wait_for_url("**/lobby/wait?seek=*", timeout=TIMEOUT)
    row = dave.locator("#lobby-seek-list .seeks__item[data-kind='tictactoe']")
    row.wait_for(timeout=TIMEOUT)
    assert "Anonymous" in row.inner_text() and "3+2" in row.inner_text()
    shots(dave, server)
    carol.goto(server + "/lobby/")
    carol.locator("#lobby-seek-list .seeks__accept").first.click()
    carol.wait_for_url("**/games/*/", timeout=TIMEOUT)
    alice.wait_for_url(carol.url, timeout=TIMEOUT)
    row.wait_for(state="detached", timeout=TIMEOUT)  # gone from Dave's list, live
    all_at_ply([alice, carol], 0)
    assert errors == []


def shots(page: Any, server: str) -> None:
    """The lobby with a seek in its list, at a phone's width and a laptop's."""
    for width, height in ((360, 740), (1366, 900)):
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_function(f"window.innerWidth === {width}")
        page.screenshot(path=f"/tmp/shots-lobby-{width}.png", full_page=True)
        root = "document.documentElement"
        overflow = page.evaluate(f"{root}.scrollWidth - {root}.clientWidth")
        assert overflow <= 0, f"the lobby scrolls sideways at {width} px"
    page.set_viewport_size({"width": 1200, "height": 900})
