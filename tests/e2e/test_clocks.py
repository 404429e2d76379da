"""A 15-second tic-tac-toe game between two people, each in their own browser, watched by a
third: the first-move countdown, both clocks beside the players, the side to move's clock
ticking down on every page (tenths under ten seconds, low time marked and said once to
screen readers), and the player who waits losing on time, seen on all three pages without
a reload. The server decides the flag (its sweep every 0.2 s here); the pages only count.
Screenshots of a ticking clock at phone and laptop size go to /tmp/shots-clock-*.png."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import embedded_server
from .pages import TIMEOUT, all_at_ply, live, people, play_cell, take_seat, watch_for_errors

pytestmark = pytest.mark.browser

PHONE = {"width": 360, "height": 740}
LAPTOP = {"width": 1366, "height": 768}


@pytest.fixture(scope="module")
def clock_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The embedded set-up whose clock sweep runs every 0.2 s."""
    yield from embedded_server(
        tmp_path_factory, "clocks", {"CLOCK_SWEEP": "0.2", "WS_PRESENCE_DELAY": "0.2"}, computer=False
    )


def invite_with_clock(page: Any, server: str, minutes: str, increment: str) -> str:
    """A tic-tac-toe game against a friend with a custom clock, from the home page; the invite link."""
    page.goto(server + "/")
    card = page.locator(".game-card--tictactoe")
    custom = card.locator(".new-game__custom")
    expect(custom).to_be_hidden()  # only for "Custom", without a script
    card.locator("select[name=opponent]").select_option("human")
    card.locator("select[name=seat]").select_option("first")
    card.locator("select[name=clock]").select_option("custom")
    expect(custom).to_be_visible()
    card.locator("input[name=clock_minutes]").fill(minutes)
    card.locator("input[name=clock_increment]").fill(increment)
    card.locator("button[type=submit]").click()
    invite = page.locator("#invite-url")
    invite.wait_for()
    return str(invite.input_value())


def fits(page: Any) -> bool:
    return bool(page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth"))


def test_the_player_who_waits_loses_on_time_on_every_page(clock_server: str, browser: Any) -> None:
    x, o, watcher = pages = people(browser, 3)
    errors = watch_for_errors({"X": x, "O": o, "spectator": watcher})
    invite = invite_with_clock(x, clock_server, "0.25", "0")
    take_seat(o, invite)
    x.wait_for_selector("#status:not(:has(#invite-url))", timeout=TIMEOUT)
    watcher.goto(x.url)
    all_at_ply(pages, 0)
    for page in pages:
        live(page)
        expect(page.locator(".clocks__label")).to_have_text("¼+0 · casual")
        expect(page.locator(".clock .clock__time")).to_have_text(["0:15", "0:15"])
        page.evaluate("() => { window.notReloaded = true; }")
    expect(x.locator(".clocks__first")).to_contain_text("You have")
    expect(watcher.locator(".clocks__first")).to_contain_text("Player 1 (X) has")
    # The first move's countdown runs (30 s by default); the clocks themselves wait.
    expect(x.locator(".clocks__left")).to_have_text(re.compile(r"^(2\d|1\d|\d) s$"), timeout=TIMEOUT)
    expect(x.locator(".clock .clock__time").first).to_have_text("0:15")

    play_cell(x, "b2", [o, watcher])
    play_cell(o, "a1", [x, watcher])
    clocks = {page: page.locator(".clock") for page in pages}
    for page, faces in clocks.items():
        expect(page.locator(".clocks__first")).to_have_count(0)
        expect(faces.first).to_have_class(re.compile(r"\bis-to-move\b"))
        expect(faces.nth(1)).not_to_have_class(re.compile(r"\bis-to-move\b"))
        # X's clock ticks without a push, down from 0:15 (a slow machine may be at tenths already).
        ticked = re.compile(r"^0:(1[0-4]|0\d\.\d)$")
        expect(faces.first.locator(".clock__time")).to_have_text(ticked, timeout=TIMEOUT)

    for size, name in ((PHONE, "phone"), (LAPTOP, "laptop")):
        x.set_viewport_size(size)
        x.locator("#clocks").scroll_into_view_if_needed()
        assert fits(x), f"the game page scrolls sideways at {size}"
        x.screenshot(path=f"/tmp/shots-clock-{name}.png")

    for faces in clocks.values():
        expect(faces.first.locator(".clock__time")).to_have_text(re.compile(r"^0:0\d\.\d$"), timeout=TIMEOUT)
        expect(faces.first).to_have_class(re.compile(r"\bis-low\b"))
        expect(faces.nth(1).locator(".clock__time")).to_have_text("0:15")
    expect(x.locator("#clock-alert")).to_have_text(re.compile(r"^You have \d+ seconds? left\.$"))
    spectator_told = re.compile(r"^Player 1 \(X\) has \d+ seconds? left\.$")
    expect(watcher.locator("#clock-alert")).to_have_text(spectator_told)
    x.screenshot(path="/tmp/shots-clock-low.png")

    ends = {
        x: "You ran out of time: Player 2 (O) wins.",
        o: "Player 1 (X) ran out of time: you win.",
        watcher: "Player 1 (X) ran out of time: Player 2 (O) wins.",
    }
    for page, text in ends.items():
        expect(page.locator(".status__text")).to_have_text(text, timeout=TIMEOUT)
        expect(page.locator(".status__line")).to_have_class(re.compile(r"\bis-over\b"))
        expect(clocks[page].locator(".clock__time")).to_have_text(["0:00.0", "0:15"])
        expect(clocks[page].first).not_to_have_class(re.compile(r"\bis-to-move\b"))
        assert page.evaluate("() => window.notReloaded === true"), "the page was reloaded"
    x.screenshot(path="/tmp/shots-clock-over.png")
    assert errors == []
