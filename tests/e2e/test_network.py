"""Pages that lose their connection: a tab whose network is cut, and the server killed.

Two people play through the invite link, each in their own browser context, while a third
context watches. One tab's connections go through a proxy (tests/e2e/network.py) that can
drop them and refuse new ones; the server is an embedded Daphne that can be SIGKILLed and
started again on the same port with the same SQLite file. Every page must say it is
reconnecting while its socket is down, refuse a click it cannot send with a message, and
come back to the current position by itself (no reload); nothing is lost or applied twice.
"""

from __future__ import annotations

import json
import secrets
import sqlite3
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any
from urllib.parse import parse_qsl

import pytest

from games.models import hash_token

from .conftest import Processes, embedded_env
from .network import Proxy, RestartableServer
from .pages import invite_friend, new_game, take_seat

pytestmark = [pytest.mark.browser, pytest.mark.slow]

# A reconnect comes 2-5 s after the socket closed (htmx.config.wsReconnectDelay in live.js).
TIMEOUT = 15000
RECONNECTING = "Reconnecting"
NOT_SENT = "Your last click got no answer"


@pytest.fixture(scope="module")
def restartable(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RestartableServer]:
    """The embedded set-up on a fixed port, its computer thinking 2 s (threads, no warm-up)."""
    folder = tmp_path_factory.mktemp("restartable")
    settings = {"AI_DELAY": "2", "AI_PROCESSES": "0", "AI_WARM_UP": "0", "WS_PRESENCE_DELAY": "0.2"}
    processes = Processes(folder, embedded_env(folder, settings))
    processes.migrate()
    try:
        yield RestartableServer(processes)
    finally:
        processes.stop()


@pytest.fixture
def site(restartable: RestartableServer) -> RestartableServer:
    """The restartable server, running (a test that failed while it was down left it so)."""
    if restartable.proc.poll() is not None:
        restartable.start()
    return restartable


@pytest.fixture
def proxy(site: RestartableServer) -> Iterator[Proxy]:
    """A proxy to the site, for the one tab whose network the test cuts."""
    made = Proxy(site.port)
    yield made
    made.cut()


class Tab:
    """One browser context and its page, with what the test watches on it."""

    def __init__(self, browser: Any, name: str) -> None:
        self.name = name
        self.context = browser.new_context(viewport={"width": 1200, "height": 900}, bypass_csp=True)
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.loads = 0
        self.frames = 0  # received on the newest socket
        self.sent: list[dict[str, Any]] = []  # the move frames the page sent on its sockets
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.on("load", self._loaded)
        self.page.on("websocket", self._opened)

    def _loaded(self, _: Any) -> None:
        self.loads += 1

    def _opened(self, socket: Any) -> None:
        self.frames = 0
        socket.on("framereceived", self._received)
        socket.on("framesent", self._sent)

    def _sent(self, payload: Any) -> None:
        frame = json.loads(payload) if isinstance(payload, str) and payload.startswith("{") else {}
        if "move" in frame:
            self.sent.append(frame)

    def _received(self, _: Any) -> None:
        self.frames += 1

    def ply(self) -> int:
        return int(self.page.locator(".status__line").get_attribute("data-ply"))

    def at_ply(self, ply: int) -> None:
        self.page.wait_for_selector(f".status__line[data-ply='{ply}']", timeout=TIMEOUT)

    def live(self) -> None:
        """The socket is open: the notice is hidden and the newest socket sent the position."""
        self.page.wait_for_selector("#live-status[hidden]", state="attached", timeout=TIMEOUT)
        deadline = time.monotonic() + TIMEOUT / 1000
        while not self.frames:
            assert time.monotonic() < deadline, f"{self.name}: the socket sent nothing"
            self.page.wait_for_timeout(50)

    def notice(self) -> str:
        status = self.page.locator("#live-status")
        return "" if status.get_attribute("hidden") is not None else str(status.inner_text())

    def says(self, text: str) -> None:
        self.page.locator("#live-status:not([hidden])", has_text=text).wait_for(timeout=TIMEOUT)

    def marks(self) -> dict[str, int]:
        """Each marked cell of the page's board and the seat whose mark it is (class is-pN)."""
        cells = self.page.locator(".grid__cell[data-cell]").evaluate_all(
            "cells => cells.map(c => [c.dataset.cell, c.className])"
        )
        return {
            name: int(mark[len("is-p") :])
            for name, classes in cells
            for mark in classes.split()
            if mark.startswith("is-p") and mark[len("is-p") :].isdigit()
        }

    def playable(self) -> Any:
        return self.page.locator(".grid__cell.is-playable")

    def close(self) -> None:
        self.context.close()


@pytest.fixture
def tabs(browser: Any) -> Iterator[Any]:
    made: list[Tab] = []

    def tab(name: str) -> Tab:
        made.append(Tab(browser, name))
        return made[-1]

    yield tab
    for each in made:
        each.close()
    errors = [f"{t.name}: {e}" for t in made for e in t.errors]
    assert not errors, errors[:5]


def api(url: str, body: dict[str, Any] | None = None, token: str = "") -> tuple[int, dict[str, Any]]:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data, headers, method="GET" if data is None else "POST")
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)


def state(site: RestartableServer, game_id: int) -> dict[str, Any]:
    status, body = api(f"{site.url}/api/v1/games/{game_id}")
    assert status == 200, body
    return body


def marks_of(state: dict[str, Any]) -> dict[str, int]:
    return {sq["cell"]: sq["owner"] for row in state["board"] for sq in row if sq["owner"] is not None}


def game_id_of(tab: Tab) -> int:
    return int(tab.page.url.rstrip("/").rsplit("/", 1)[1])


def shows(tabs: list[Tab], game: dict[str, Any]) -> None:
    """Every page shows the game's current position, its socket open."""
    for tab in tabs:
        tab.at_ply(game["ply"])
        tab.live()
        assert tab.marks() == marks_of(game), tab.name


def test_a_tab_cut_off_catches_up_by_itself_and_its_offline_click_is_never_applied(
    site: RestartableServer, tabs: Any, proxy: Proxy
) -> None:
    a, b, watcher = tabs("A"), tabs("B"), tabs("spectator")
    # B invites; A takes the seat through the proxy, the only way A's tab reaches the server.
    invite = invite_friend(b.page, site.url, "tictactoe")
    take_seat(a.page, invite.replace(site.url, proxy.url))
    game_id = game_id_of(a)
    watcher.page.goto(b.page.url)
    for tab in (a, b, watcher):
        tab.at_ply(0)
        tab.live()
    loads = a.loads

    # B's turn. A's network goes: its page says so at once, and keeps saying so while its
    # polls fail; it cannot know that B moves meanwhile.
    proxy.cut()
    a.says(RECONNECTING)
    b.playable().first.click()
    watcher.at_ply(1)
    with a.page.expect_event("requestfailed", lambda r: "/partials" in r.url, timeout=TIMEOUT):
        pass
    assert a.notice().startswith(RECONNECTING), a.notice()
    assert a.ply() == 0

    # Restored: the page catches up by itself, to A's turn.
    proxy.restore()
    a.at_ply(1)
    a.live()
    assert a.page.locator(".status__line.is-my-turn").count() == 1

    # A's turn, and the network goes again: A's click is not sent, and says so.
    proxy.cut()
    a.says(RECONNECTING)
    with a.page.expect_request(lambda r: r.url.endswith("/move")) as offline:
        a.playable().first.click()
    a.says(NOT_SENT)
    assert state(site, game_id)["ply"] == 1
    assert a.ply() == 1

    # Back: the notice goes, the position is the same; A's next click plays once, on the
    # socket now that it is open again.
    proxy.restore()
    a.live()
    assert a.ply() == 1
    posts = []
    a.page.on("request", lambda r: posts.append(r) if r.url.endswith("/move") else None)
    a.sent.clear()
    a.playable().last.dblclick()  # the second click comes while the first is on its way
    a.at_ply(2)
    assert len(a.sent) == 1 and not posts, (a.sent, [r.post_data for r in posts])
    assert a.page.locator(".status__error").count() == 0, a.page.locator(".status__error").inner_text()
    game = state(site, game_id)
    assert game["ply"] == 2 and len(game["moves"]) == 2

    # The click made offline, had the browser sent it late, and the one that played,
    # posted again: each is refused as stale and changes nothing.
    offline_form = dict(parse_qsl(offline.value.post_data))
    played_form = {**offline_form, **{k: str(v) for k, v in a.sent[0].items()}}
    for form in (offline_form, played_form):
        answer = a.context.request.post(offline.value.url, form=form, headers={"HX-Request": "true"})
        assert "The game has moved on" in answer.text()
    game = state(site, game_id)
    assert game["ply"] == 2 and len(game["moves"]) == 2
    shows([a, b, watcher], game)
    assert a.loads == loads, "A's page reloaded"


def test_every_page_comes_back_after_the_server_is_killed(
    site: RestartableServer, tabs: Any, proxy: Proxy
) -> None:
    a, b, watcher = tabs("A"), tabs("B"), tabs("spectator")
    invite = invite_friend(b.page, site.url, "tictactoe")
    take_seat(a.page, invite)
    game_id = game_id_of(a)
    # The spectator comes through the proxy, so that it can be kept away from the
    # restarted server while a move is made.
    watcher.page.goto(b.page.url.replace(site.url, proxy.url))
    for tab in (a, b, watcher):
        tab.at_ply(0)
        tab.live()
    b.playable().first.click()
    for tab in (a, b, watcher):
        tab.at_ply(1)
    loads = [tab.loads for tab in (a, b, watcher)]

    site.kill()
    for tab in (a, b, watcher):
        tab.says(RECONNECTING)
    # A click while the server is down is not sent, and says so.
    a.playable().first.click()
    a.says(NOT_SENT)

    # While the server is down A's seat also gets an API token, the spectator stays cut,
    # and once the server is back A moves through the API.
    token = secrets.token_urlsafe(24)
    with sqlite3.connect(site.database) as db:
        db.execute(
            'UPDATE games_seat SET token_hash = ? WHERE game_id = ? AND "index" = 1',
            (hash_token(token), game_id),
        )
    proxy.cut()
    site.start()
    move = state(site, game_id)["legal_moves"][-1]
    status, game = api(f"{site.url}/api/v1/games/{game_id}/moves", {"move": move, "ply": 1}, token)
    assert status == 200, game  # a click made while the server was down would make it stale
    assert game["ply"] == 2 and game["moves"][1] == move

    shows([a, b], game)
    assert watcher.ply() == 1 and watcher.notice().startswith(RECONNECTING)
    proxy.restore()
    shows([watcher], game)

    # Pushes work again for every page: B moves on its page.
    b.playable().first.click()
    b.at_ply(3)
    game = state(site, game_id)
    assert game["ply"] == 3 and len(game["moves"]) == 3
    shows([a, b, watcher], game)
    assert [tab.loads for tab in (a, b, watcher)] == loads, "a page reloaded"


def test_the_computer_move_due_when_the_server_was_killed_reaches_the_page(
    site: RestartableServer, tabs: Any
) -> None:
    player = tabs("player")
    new_game(player.page, site.url, "tictactoe", {})
    player.live()
    game_id = game_id_of(player)
    loads = player.loads

    player.playable().first.click()
    player.at_ply(1)
    player.page.wait_for_selector(".status__line .spinner", timeout=TIMEOUT)
    site.kill()  # the computer thinks 2 s
    with sqlite3.connect(site.database) as db:
        (ply,) = db.execute("SELECT ply FROM games_game WHERE id = ?", (game_id,)).fetchone()
    assert ply == 1, "the computer moved before the kill: nothing was tested"
    player.says(RECONNECTING)

    site.start()
    player.page.wait_for_selector(".status__line.is-my-turn[data-ply='2']", timeout=TIMEOUT)
    game = state(site, game_id)
    assert game["ply"] == 2 and len(game["moves"]) == 2
    shows([player], game)
    assert player.loads == loads, "the page reloaded"


def test_a_click_the_browser_cannot_send_while_its_socket_stays_open(
    site: RestartableServer, tabs: Any
) -> None:
    """Chromium's offline emulation fails requests but leaves the open socket alone (its
    frames wait until the browser is online again). The click goes on the socket and gets
    no answer; resent as a post, it cannot be sent, and the page says so. Once online the
    frame the browser held arrives and plays, once (the message said the move may be in the
    position); the message goes, and the next clicks play."""
    a, b = tabs("A"), tabs("B")
    take_seat(b.page, invite_friend(a.page, site.url, "tictactoe"))
    game_id = game_id_of(a)
    for tab in (a, b):
        tab.at_ply(0)
        tab.live()

    a.context.set_offline(True)
    with a.page.expect_event("requestfailed", lambda r: r.url.endswith("/move"), timeout=TIMEOUT):
        a.playable().first.click()
    a.says(NOT_SENT)
    assert len(a.sent) == 1
    assert state(site, game_id)["ply"] == 0

    a.context.set_offline(False)
    for tab in (a, b):
        tab.at_ply(1)
    a.page.wait_for_selector("#live-status[hidden]", state="attached", timeout=TIMEOUT)
    game = state(site, game_id)
    assert game["moves"] == [a.sent[0]["move"]]
    assert a.page.locator(".status__error").count() == 0
    b.playable().first.click()
    a.at_ply(2)
    a.playable().first.click()
    for tab in (a, b):
        tab.at_ply(3)
    assert len(state(site, game_id)["moves"]) == 3


def test_a_click_whose_answer_is_lost_plays_once(site: RestartableServer, tabs: Any, proxy: Proxy) -> None:
    """The network dies after the click reached the server, before its answer came back."""
    a, b = tabs("A"), tabs("B")
    take_seat(a.page, invite_friend(b.page, site.url, "tictactoe").replace(site.url, proxy.url))
    game_id = game_id_of(a)
    for tab in (a, b):
        tab.live()
    b.playable().first.click()
    a.at_ply(1)

    proxy.deafen()
    # The click goes on the socket; no answer comes, so the page resends it as a post,
    # whose answer is lost too.
    a.sent.clear()
    with a.page.expect_request(lambda r: r.url.endswith("/move"), timeout=TIMEOUT) as sent:
        a.playable().first.click()
    b.at_ply(2)  # played, and pushed to B
    assert a.ply() == 1
    resent = dict(parse_qsl(sent.value.post_data))
    assert len(a.sent) == 1 and resent["resent"] == "1"
    assert (resent["move"], resent["ply"]) == (a.sent[0]["move"], str(a.sent[0]["ply"]))
    proxy.cut()
    a.says(NOT_SENT)
    assert state(site, game_id)["ply"] == 2

    proxy.restore()
    a.at_ply(2)
    a.live()
    assert a.playable().count() == 0  # B's turn: nothing to click again
    # That resend, sent again, is answered as played; the same post not marked as a resend
    # (another tab's late click) is stale. Neither is applied again.
    answer = a.context.request.post(sent.value.url, form=resent, headers={"HX-Request": "true"})
    assert 'data-ply="2"' in answer.text() and "status__error" not in answer.text()
    del resent["resent"]
    answer = a.context.request.post(sent.value.url, form=resent, headers={"HX-Request": "true"})
    assert "The game has moved on" in answer.text()
    game = state(site, game_id)
    assert game["ply"] == 2 and len(game["moves"]) == 2
    shows([a, b], game)
