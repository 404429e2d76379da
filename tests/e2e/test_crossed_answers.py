"""Answers and pushes can cross: the answer to a click may reach the page after the push
of the computer's reply to that click (a slow network, a busy server). The page keeps the
newest position it was given, whichever way it came."""

from __future__ import annotations

import json
import time
import urllib.request
from typing import Any

import pytest

from .pages import new_game, record_frames, wait_for_frame

pytestmark = pytest.mark.browser


def api_ply(server: str, game_id: str) -> int:
    with urllib.request.urlopen(f"{server}/api/v1/games/{game_id}", timeout=10) as response:
        return int(json.load(response)["ply"])


def test_a_late_answer_does_not_undo_the_computer_s_pushed_reply(server: str, quiet_page: Any) -> None:
    page = quiet_page
    frames = record_frames(page)
    url = new_game(page, server, "tictactoe", {}, level="beginner")
    game_id = url.rstrip("/").rsplit("/", 1)[-1]
    wait_for_frame(page, frames)  # the socket is live: the reply will be pushed
    held: list[Any] = []

    def hold_the_answer(route: Any) -> None:
        # The move reaches the server and is played; its answer is kept back until the
        # computer has replied and that reply was pushed to the page.
        held.append(route.fetch())
        deadline = time.monotonic() + 20
        while api_ply(server, game_id) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        page.wait_for_selector(".status__line[data-ply='2']", timeout=20000)
        route.fulfill(response=held[0])

    page.route("**/move", hold_the_answer)
    page.locator(".grid__cell.is-playable").first.click()
    page.wait_for_selector(".status__line[data-ply='2'].is-my-turn", timeout=20000)
    page.wait_for_function("() => window.htmx && !document.querySelector('.htmx-request')")
    page.wait_for_timeout(300)  # the late answer has been handled
    assert held, "the move's answer was not held back"
    assert api_ply(server, game_id) == 2
    line = page.locator(".status__line")
    assert line.get_attribute("data-ply") == "2", "the late answer put the page back before the reply"
    assert "Your turn" in line.inner_text()
    assert page.locator(".grid__cell.is-playable").count() == 7


def test_a_click_after_the_pushed_reply_is_sent_while_the_last_answer_is_late(
    server: str, quiet_page: Any
) -> None:
    """One move request at a time (a double click is one move), but once the reply to the
    last move has been pushed, its late answer is not waited for: the next click plays."""
    page = quiet_page
    frames = record_frames(page)
    url = new_game(page, server, "tictactoe", {}, level="beginner")
    game_id = url.rstrip("/").rsplit("/", 1)[-1]
    wait_for_frame(page, frames)
    late: list[Any] = []

    def keep_the_first_answer(route: Any) -> None:
        if late:
            route.continue_()
            return
        late.append((route, route.fetch()))  # played on the server; its answer is kept back

    page.route("**/move", keep_the_first_answer)
    page.locator(".grid__cell.is-playable").first.click()
    page.wait_for_selector(".status__line[data-ply='2'].is-my-turn", timeout=20000)
    assert late, "the first move's answer was not kept back"
    page.locator(".grid__cell.is-playable").first.click()
    page.wait_for_selector(".status__line[data-ply='4']", timeout=20000)
    assert api_ply(server, game_id) == 4
    route, response = late[0]
    route.fulfill(response=response)  # the first answer, at last: older than the page
    page.wait_for_function("() => !document.querySelector('.htmx-request')")
    page.wait_for_timeout(300)
    assert page.locator(".status__line").get_attribute("data-ply") == "4"
