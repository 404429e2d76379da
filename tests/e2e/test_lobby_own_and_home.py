"""The lobby in real browsers: a player's own seek in the pushed list shows "yours" and
Cancel (the list is the same bytes for every page: lobby.js marks it), and the home
page's quick-pairing counts change live; a keyboard user's focus on a pushed control stays
on it (htmx's socket swaps would drop it to the page's start)."""

from __future__ import annotations

from typing import Any

import pytest

from .pages import TIMEOUT, people, watch_for_errors

pytestmark = pytest.mark.browser


def test_ones_own_seek_in_the_pushed_list_and_live_counts_on_the_home_page(
    quick_abandon_server: str, browser: Any
) -> None:
    server = quick_abandon_server  # no computer needed
    alice, bob, dave = people(browser, 3)
    errors = watch_for_errors({"alice": alice, "bob": bob, "dave": dave})

    alice.goto(server + "/lobby/")
    form = alice.locator(".seek-form")
    form.locator("select[name=game]").select_option("tictactoe")
    form.locator("select[name=clock]").select_option("3d")  # lasts without its waiting page
    form.locator("button[type=submit]").click()
    alice.wait_for_url("**/lobby/wait?seek=*", timeout=TIMEOUT)
    seek = alice.url.rsplit("=", 1)[1]
    alice.goto(server + "/lobby/")
    alice.wait_for_selector("body[data-socket='open']", state="attached", timeout=TIMEOUT)

    alice.locator(f".seeks__item[data-seek='{seek}'] button").focus()  # on her Cancel, by keyboard
    bob.goto(server + "/lobby/")
    bob.locator(f".seeks__item[data-seek='{seek}'] .seeks__accept").wait_for(timeout=TIMEOUT)
    assert "Accept" in bob.locator(f".seeks__item[data-seek='{seek}']").inner_text()
    form = bob.locator(".seek-form")
    form.locator("select[name=game]").select_option("tictactoe")
    form.locator("select[name=clock]").select_option("5d")
    form.locator("button[type=submit]").click()  # a change: every lobby page gets the list again
    bob.wait_for_url("**/lobby/wait?seek=*", timeout=TIMEOUT)
    other = bob.url.rsplit("=", 1)[1]

    alice.locator(f".seeks__item[data-seek='{other}']").wait_for(timeout=TIMEOUT)  # the pushed list
    own = alice.locator(f".seeks__item[data-seek='{seek}']")
    assert "yours" in own.inner_text() and "Cancel" in own.inner_text() and "Accept" not in own.inner_text()
    assert "Accept" in alice.locator(f".seeks__item[data-seek='{other}']").inner_text()
    assert alice.evaluate("document.activeElement.dataset.focus") == f"seek {seek}"  # the new list's

    dave.goto(server + "/")
    dave.wait_for_selector("body[data-socket='open']", state="attached", timeout=TIMEOUT)
    pool_button = "button[data-pool='tictactoe:1+0']"
    dave.locator(pool_button).focus()
    bob.goto(server + "/")
    bob.locator(pool_button).click()
    bob.wait_for_url("**/lobby/wait", timeout=TIMEOUT)
    dave.locator(f"{pool_button} .pools__count[data-count='1']").wait_for(timeout=TIMEOUT)  # live, no reload
    assert dave.evaluate("document.activeElement.dataset.pool") == "tictactoe:1+0"  # still on it

    alice.set_viewport_size({"width": 360, "height": 800})  # "yours", when it lapses: still fits
    assert alice.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    own.locator("button").click()  # Alice cancels from the pushed list (its form signed by lobby.js)
    alice.wait_for_url("**/lobby/", timeout=TIMEOUT)
    alice.locator(f".seeks__item[data-seek='{seek}']").wait_for(state="detached", timeout=TIMEOUT)
    assert errors == []


def test_a_seek_made_in_another_tab_is_marked_yours(quick_abandon_server: str, browser: Any) -> None:
    server = quick_abandon_server
    context = browser.new_context()  # one browser, two tabs
    try:
        lobby, maker = context.new_page(), context.new_page()
        lobby.goto(server + "/lobby/")
        lobby.wait_for_selector("body[data-socket='open']", state="attached", timeout=TIMEOUT)
        maker.goto(server + "/lobby/")
        form = maker.locator(".seek-form")
        options = form.locator(".seek-form__options")
        form.locator("select[name=game]").select_option("connect")  # only the chosen game's options
        assert [o.get_attribute("data-kind") for o in options.all() if o.is_visible()] == ["connect"]
        form.locator("select[name=game]").select_option("tictactoe")
        assert not any(o.is_visible() for o in options.all())
        form.locator("select[name=clock]").select_option("3d")
        form.locator("button[type=submit]").click()
        maker.wait_for_url("**/lobby/wait?seek=*", timeout=TIMEOUT)
        seek = maker.url.rsplit("=", 1)[1]
        own = lobby.locator(f".seeks__item.is-mine[data-seek='{seek}']")  # pushed, then marked
        own.wait_for(timeout=TIMEOUT)
        text = own.inner_text()
        assert "yours" in text and "Cancel" in text and "Accept" not in text
        own.locator("button").focus()
        maker.get_by_role("button", name="Cancel").click()  # cancelled from the other tab
        lobby.locator(f".seeks__item[data-seek='{seek}']").wait_for(state="detached", timeout=TIMEOUT)
        assert lobby.evaluate("document.activeElement.id") == "lobby-seeks"  # the list, not the page's start
    finally:
        context.close()
