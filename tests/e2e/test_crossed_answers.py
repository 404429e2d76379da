"""Answers and pushes can cross. With moves on the socket a click's answer is the push, on
the one ordered socket; but a click the socket does not answer within a few seconds is
resent as a form post, and that answer may reach the page after the push of the computer's
reply (a slow network, a busy server), while the frame itself may reach the server after
its resend. The page keeps the newest position it was given, whichever way it came, and a
move is played once."""

from __future__ import annotations

import json
import time
import urllib.request
from typing import Any

import pytest

from .network import Gate
from .pages import live, new_game

pytestmark = pytest.mark.browser


def api_ply(server: str, game_id: str) -> int:
    with urllib.request.urlopen(f"{server}/api/v1/games/{game_id}", timeout=10) as response:
        return int(json.load(response)["ply"])


def moves_posted(page: Any) -> list[Any]:
    posts: list[Any] = []
    page.on("request", lambda r: posts.append(r) if r.url.endswith("/move") else None)
    return posts


def test_a_late_answer_does_not_undo_the_computer_s_pushed_reply(server: str, quiet_page: Any) -> None:
    """The resent post's answer is held back until the computer's reply was pushed."""
    page = quiet_page
    gate = Gate(page)  # the move frame never reaches the server: the page resends it as a post
    url = new_game(page, server, "tictactoe", {}, level="beginner")
    game_id = url.rstrip("/").rsplit("/", 1)[-1]
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
    assert len(gate.held) == 1
    assert api_ply(server, game_id) == 2
    line = page.locator(".status__line")
    assert line.get_attribute("data-ply") == "2", "the late answer put the page back before the reply"
    assert "Your turn" in line.inner_text()
    assert page.locator(".grid__cell.is-playable").count() == 7


def test_a_click_after_the_pushed_reply_is_sent_while_the_last_answer_is_late(
    server: str, quiet_page: Any
) -> None:
    """One move at a time (a double click is one move), but once the reply to the last
    move has been pushed, its late answer is not waited for: the next click plays (on the
    socket)."""
    page = quiet_page
    gate = Gate(page)
    posts = moves_posted(page)
    url = new_game(page, server, "tictactoe", {}, level="beginner")
    game_id = url.rstrip("/").rsplit("/", 1)[-1]
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
    assert len(posts) == 1 and len(gate.held) == 1  # the second move went on the socket
    route, response = late[0]
    route.fulfill(response=response)  # the first answer, at last: older than the page
    page.wait_for_function("() => !document.querySelector('.htmx-request')")
    page.wait_for_timeout(300)
    assert page.locator(".status__line").get_attribute("data-ply") == "4"


def test_a_socket_move_that_arrives_after_its_resend_plays_once_and_says_nothing(
    server: str, quiet_page: Any
) -> None:
    """The frame is late, not lost: the resent post plays the move, the computer replies,
    and then the frame reaches the server, stale. It is not applied again, and the page is
    not told that the game moved on: that was its own move."""
    page = quiet_page
    gate = Gate(page)
    posts = moves_posted(page)
    url = new_game(page, server, "tictactoe", {}, level="beginner")
    game_id = url.rstrip("/").rsplit("/", 1)[-1]
    page.locator(".grid__cell.is-playable").first.click()
    page.wait_for_selector(".status__line[data-ply='2'].is-my-turn", timeout=20000)
    assert len(posts) == 1 and len(gate.held) == 1
    gate.release()  # the late frame, for ply 0
    live(page)
    # The next click goes on the same socket after it: once it is answered, so was the late one.
    page.locator(".grid__cell.is-playable").first.click()
    page.wait_for_selector(".status__line[data-ply='4'].is-my-turn, .status__line.is-over", timeout=20000)
    assert api_ply(server, game_id) == 4
    assert len(posts) == 1
    assert not [frame for frame in gate.received if "status__error" in frame]
    assert page.locator(".status__error").count() == 0
