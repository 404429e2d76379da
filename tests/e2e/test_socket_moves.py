"""Moves from the game page travel on its WebSocket, as lichess does: no HTTP post while the
socket is open; every page (the other player's, a spectator's) is updated by the push; a
refusal is said on the page that sent the move, and only there; a frame the socket
swallows is resent as a post and plays once. (Pages without JavaScript post the form:
tests/e2e/test_viewer_side.py; a closed socket posts too: tests/e2e/test_network.py.)"""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from typing import Any
from urllib.parse import parse_qsl

import pytest

from .network import Gate
from .pages import (
    TIMEOUT,
    all_at_ply,
    close,
    invite_friend,
    live,
    people,
    play_cell,
    take_seat,
    watch_for_errors,
)

pytestmark = pytest.mark.browser


class Watched:
    """What a page sends: its HTTP move posts and the move frames on its socket."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.posts: list[Any] = []
        self.frames: list[dict[str, Any]] = []
        page.on("request", lambda r: self.posts.append(r) if r.url.endswith("/move") else None)
        page.on("websocket", lambda ws: ws.on("framesent", self._sent))

    def _sent(self, payload: Any) -> None:
        frame = json.loads(payload) if isinstance(payload, str) and payload.startswith("{") else {}
        if "move" in frame:
            self.frames.append(frame)


@pytest.fixture
def three(browser: Any) -> Iterator[tuple[list[Any], list[str]]]:
    """Three people (two players and a spectator, by the test's choice), and their errors."""
    pages = people(browser, 3)
    errors = watch_for_errors(dict(zip(["X", "O", "spectator"], pages, strict=True)))
    yield pages, errors
    close(pages)
    assert not errors, errors[:5]


def moves_of(server: str, page: Any) -> list[str]:
    game_id = page.url.rstrip("/").rsplit("/", 1)[-1]
    with urllib.request.urlopen(f"{server}/api/v1/games/{game_id}", timeout=10) as response:
        return list(json.load(response)["moves"])


def sit_down(server: str, x: Any, o: Any, spectator: Any) -> None:
    take_seat(o, invite_friend(x, server, "tictactoe"))
    spectator.goto(o.url)
    for page in (x, o, spectator):
        live(page)
    all_at_ply([x, o, spectator], 0)


def test_clicks_and_keys_play_on_the_socket_and_every_page_follows(
    server: str, three: tuple[list[Any], list[str]]
) -> None:
    (x, o, spectator), _ = three
    watched = [Watched(page) for page in (x, o, spectator)]
    sit_down(server, x, o, spectator)
    play_cell(x, "a1", [o, spectator])
    play_cell(o, "b1", [x, spectator])
    play_cell(x, "a2", [o, spectator])
    # By the keyboard: the focused cell, Enter (static/js/keys.js keeps the place).
    o.wait_for_selector(".status__line.is-my-turn", timeout=TIMEOUT)
    o.locator(".grid__cell[data-cell='b2']").focus()
    o.keyboard.press("Enter")
    all_at_ply([x, o, spectator], 4)
    play_cell(x, "a3", [o, spectator])
    for page in (x, o, spectator):
        page.wait_for_selector(".status__line.is-over", timeout=TIMEOUT)
    assert x.locator(".status__text").inner_text() == "You win!"
    assert spectator.locator(".status__text").inner_text() == "Player 1 (X) wins!"
    assert [w.posts for w in watched] == [[], [], []], "a move was posted over HTTP"
    assert [f["move"] for f in watched[0].frames] == ["a1", "a2", "a3"]
    assert [f["move"] for f in watched[1].frames] == ["b1", "b2"]
    assert [f["ply"] for f in watched[0].frames + watched[1].frames] == [0, 2, 4, 1, 3]
    assert watched[2].frames == []
    assert moves_of(server, x) == ["a1", "b1", "a2", "b2", "a3"]


def test_a_refused_socket_move_is_said_on_its_page_only(
    server: str, browser: Any, three: tuple[list[Any], list[str]]
) -> None:
    """The same person in a second tab that missed the push of their move clicks on the old
    position: the move is stale, and that tab alone says so (with the current position)."""
    (x, o, spectator), errors = three
    second = x.context.new_page()
    errors.extend(watch_for_errors({"X again": second}))
    gate = Gate(second, keep=0)
    watched = Watched(second)
    sit_down(server, x, o, spectator)
    second.goto(x.url)
    live(second)
    second.wait_for_selector(".status__line.is-my-turn[data-ply='0']", timeout=TIMEOUT)
    gate.mute = True  # the second tab misses what follows
    play_cell(x, "a1", [o, spectator])
    gate.mute = False
    assert second.locator(".status__line").get_attribute("data-ply") == "0"
    second.locator(".grid__cell[data-cell='c3']").click()
    error = second.locator(".status__error")
    error.wait_for(timeout=TIMEOUT)
    assert "The game has moved on" in error.inner_text()
    assert second.locator(".status__line").get_attribute("data-ply") == "1"  # the refusal's position
    assert [f["move"] for f in watched.frames] == ["c3"] and watched.posts == []
    for page in (x, o, spectator):
        assert page.locator(".status__error").count() == 0
    assert moves_of(server, x) == ["a1"]
    second.close()


def test_a_frame_the_socket_swallows_is_played_once_over_http(
    server: str, three: tuple[list[Any], list[str]]
) -> None:
    (x, o, spectator), _ = three
    gate = Gate(x, keep=1)  # X's first move frame never reaches the server
    watched = Watched(x)  # the frames that reach the server (through the gate)
    sit_down(server, x, o, spectator)
    play_cell(x, "a1", [o, spectator])  # a few seconds later, over HTTP
    assert len(gate.held) == 1 and watched.frames == []
    (post,) = watched.posts
    form = dict(parse_qsl(post.post_data))
    assert (form["move"], form["ply"], form["resent"]) == ("a1", "0", "1")
    assert x.locator(".status__error").count() == 0
    play_cell(o, "b1", [x, spectator])
    play_cell(x, "a2", [o, spectator])  # on the socket again
    assert len(watched.posts) == 1 and [f["move"] for f in watched.frames] == ["a2"]
    assert moves_of(server, x) == ["a1", "b1", "a2"]
