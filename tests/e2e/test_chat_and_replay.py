"""In a real browser, with the site's Content-Security-Policy: a chat line from one
player appears for the other and for a spectator, live; the finished game is replayed
with the links and the arrow keys."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from .pages import invite_friend, take_seat

pytestmark = pytest.mark.browser

TIMEOUT = 10000


def test_chat_between_players_and_replay_with_links_and_keys(server: str, browser: Any) -> None:
    contexts = [browser.new_context(viewport={"width": 1200, "height": 900}) for _ in range(3)]
    errors: list[str] = []
    x, o, spectator = (c.new_page() for c in contexts)
    for page in (x, o, spectator):
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    take_seat(o, invite_friend(x, server, "tictactoe"))
    o.wait_for_selector(".grid__cell")
    spectator.goto(o.url)
    x.wait_for_selector("#status:not(:has(#invite-url))", timeout=TIMEOUT)

    # The name field takes letters of any script and apostrophes, as the server does.
    field = x.locator("#seat-name")
    valid = {
        name: field.evaluate("(e, v) => { e.value = v; return e.checkValidity(); }", name)
        for name in ("Zoë", "O'Neil", "Søren K.", "Ann!", "<b>")
    }
    assert valid == {"Zoë": True, "O'Neil": True, "Søren K.": True, "Ann!": False, "<b>": False}
    assert "apostrophes" in str(field.get_attribute("title"))

    # A name that passes for the site is refused beside the field, the name as typed kept.
    x.fill("#seat-name", "Moderator")
    x.locator(".game__name button").click()
    x.wait_for_selector("#seat-name-error", timeout=TIMEOUT)
    assert "would pass for the site" in x.locator("#seat-name-error").inner_text()
    assert x.locator("#seat-name").input_value() == "Moderator"

    # X names itself, then says hello: O and the spectator see it without reloading.
    x.fill("#seat-name", "Xena")
    x.locator(".game__name button").click()
    x.wait_for_selector("text=You are Xena", timeout=TIMEOUT)
    x.fill("#chat-text", "hello <b>there</b>")
    x.locator("#chat-form button").click()
    x.wait_for_selector("#chat .chat__line.is-mine", timeout=TIMEOUT)
    # The form's answer swaps in a fresh form; the socket's push of the line may come first.
    expect(x.locator("#chat-text")).to_have_value("", timeout=TIMEOUT)
    for viewer in (o, spectator):
        line = viewer.locator("#chat .chat__line", has_text="hello <b>there</b>")
        line.wait_for(timeout=TIMEOUT)
        assert line.locator(".chat__who").inner_text() == "Xena:"
    assert spectator.locator("#chat-form").count() == 0
    assert "Spectators read the chat" in spectator.locator(".chat__note").inner_text()
    o.fill("#chat-text", "hi Xena")
    o.locator("#chat-form button").click()
    x.locator("#chat .chat__line", has_text="hi Xena").wait_for(timeout=TIMEOUT)

    for player, cell in [(x, "a1"), (o, "a2"), (x, "b1"), (o, "b2"), (x, "c1")]:
        player.wait_for_selector(f'.grid__cell.is-playable[data-cell="{cell}"]', timeout=TIMEOUT)
        player.locator(f'.grid__cell[data-cell="{cell}"]').click()
    spectator.wait_for_selector(".status__line.is-over", timeout=TIMEOUT)

    # The replay: linked from the finished game; the last position first.
    spectator.locator(".status__again a", has_text="Replay").click()
    spectator.wait_for_url(re.compile(r"/replay$"))
    marks = spectator.locator(".replay__board .grid__cell.is-p0, .replay__board .grid__cell.is-p1")
    assert spectator.locator(".replay__ply").inner_text() == "Ply 5 of 5" and marks.count() == 5
    spectator.locator("a[data-replay=first]").click()
    spectator.wait_for_url(re.compile(r"ply=0$"))
    assert marks.count() == 0
    spectator.locator("a[data-replay=next]").click()
    spectator.wait_for_url(re.compile(r"ply=1$"))
    assert marks.count() == 1
    spectator.keyboard.press("ArrowRight")
    spectator.wait_for_url(re.compile(r"ply=2$"))
    assert marks.count() == 2 and spectator.locator(".replay__ply").inner_text() == "Ply 2 of 5"
    spectator.keyboard.press("ArrowLeft")
    spectator.wait_for_url(re.compile(r"ply=1$"))
    spectator.locator(".replay__moves a", has_text="4.").click()
    spectator.wait_for_url(re.compile(r"ply=4$"))
    assert marks.count() == 4
    spectator.goto(spectator.url.split("?")[0] + "?ply=banana")
    assert "is not a ply number" in spectator.locator(".replay__notice").inner_text()
    for context in contexts:
        context.close()
    assert not errors, errors[:5]
