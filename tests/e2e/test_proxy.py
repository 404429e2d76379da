"""The operator's path: `PROXY_PORT=... scripts/stack` with nginx (deploy/nginx.conf as it
ships) and TLS in front of two Daphne processes and an AI queue worker, on PostgreSQL and
Redis. Two strangers meet by quick pairing at the https address and play to the end with a
spectator, their sockets through nginx on both processes; the computer's turn is played by
the worker; the servers' settings pass `check --deploy`. Then a release: `scripts/stack
restart` restarts the servers one at a time while a clocked game and a game against the
computer go on, and nothing is lost."""

from __future__ import annotations

import http.client
import json
import os
import re
import secrets
import shutil
import signal
import socket
import ssl
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.db import connection

from tests.test_deploy import assert_check_deploy_is_clean

from .conftest import ROOT, browser_limits, free_port
from .pages import TIMEOUT, all_at_ply, result, watch_for_errors
from .test_lobby import first_and_second

pytestmark = [pytest.mark.browser, pytest.mark.postgres, pytest.mark.redis, pytest.mark.slow]


class Stack:
    def __init__(self, url: str, ports: list[int], log: Path, env: dict[str, str]) -> None:
        self.url = url
        self.ports = ports
        self.log = log
        self.env = env

    def restart(self) -> None:
        """The release's command: restart the servers one at a time."""
        subprocess.run(["bash", "scripts/stack", "restart"], cwd=ROOT, env=self.env, check=True)

    def wait_for_log(self, pattern: str, seconds: float = 120) -> None:
        deadline = time.monotonic() + seconds
        while not re.search(pattern, self.log.read_text()):
            assert time.monotonic() < deadline, f"the stack's log never said {pattern!r}"
            time.sleep(0.2)

    def game(self, path: str) -> Any:
        """A game's state from the API, through the proxy."""
        with urllib.request.urlopen(
            self.url + path.replace("/games/", "/api/v1/games/").rstrip("/"), context=INSECURE
        ) as r:
            return json.load(r)

    def pids(self) -> list[int]:
        return [int(pid) for pid in re.findall(r"daphne \d+: \S+ \(pid (\d+)\)", self.log.read_text())]

    def sockets(self, port: int, kind: str) -> float:
        """Open sockets of ``kind`` on one Daphne process, from its /metrics."""
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as response:
            text = response.read().decode()
        found = re.search(rf'^quarto_sockets_open\{{kind="{kind}"\}} (\S+)$', text, re.M)
        return float(found.group(1)) if found else 0.0


def two_free_ports() -> int:
    for _ in range(50):
        port = free_port()
        try:
            with socket.socket() as s:
                s.bind(("127.0.0.1", port + 1))
        except OSError:
            continue
        return port
    pytest.fail("no two free ports in a row")


@pytest.fixture(scope="module")
def stack(
    tmp_path_factory: pytest.TempPathFactory, django_db_setup: None, django_db_blocker: Any
) -> Iterator[Stack]:
    database_url = os.environ.get("DATABASE_URL", "")
    if not database_url.startswith("postgres") or not os.environ.get("REDIS_URL"):
        pytest.skip("needs DATABASE_URL (PostgreSQL) and REDIS_URL")
    if not shutil.which("nginx"):
        if os.environ.get("CI"):
            pytest.fail("nginx is missing: scripts/test installs it")
        pytest.skip("nginx is not installed (scripts/stack installs it with PROXY_PORT)")
    port, proxy = two_free_ports(), free_port()
    with django_db_blocker.unblock():
        database = connection.settings_dict["NAME"]
    # Not the test process's own switch (conftest): the servers run as deployed.
    env = {
        **{k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"},
        **browser_limits(),
        # The stack shares the test database pytest-django made for this run.
        "DATABASE_URL": f"{database_url.rsplit('/', 1)[0]}/{database}",
        "CHANNEL_PREFIX": f"test-{secrets.token_hex(4)}",
        "AI_QUEUE": f"test-ai-{secrets.token_hex(4)}",
        "AI_DELAY": "0.2",
        "AI_BUDGET": "0.2",
        # The browsers come from 127.0.0.1; the address test from others (see below).
        "API_RATE_LIMIT": f"{API_LIMIT}/minute",
        "PORT": str(port),
        "PROXY_PORT": str(proxy),
        "PROXY_HTTP_PORT": str(free_port()),
    }
    folder = tmp_path_factory.mktemp("stack")
    env["STATIC_ROOT"] = str(folder / "static")  # collected there by the stack, served by nginx
    log = folder / "stack.log"
    with open(log, "w") as out:
        proc = subprocess.Popen(
            ["bash", "scripts/stack"],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        deadline = time.monotonic() + 240
        while "stack is running" not in log.read_text():
            if proc.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"scripts/stack did not start: {log.read_text()[-3000:]}")
            time.sleep(0.5)
        yield Stack(f"https://127.0.0.1:{proxy}", [port, port + 1], log, env)
    finally:
        stop_group(proc)


def stop_group(proc: subprocess.Popen[bytes]) -> None:
    """Stop the stack and everything it started (gone already when it failed to start)."""
    try:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(20)
    except ProcessLookupError:
        return
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)


INSECURE = ssl.create_default_context()
INSECURE.check_hostname = False
INSECURE.verify_mode = ssl.CERT_NONE  # the stack's own self-signed certificate


API_LIMIT = 40


def https_headers(url: str) -> Any:
    with urllib.request.urlopen(url, context=INSECURE, timeout=10) as response:
        return response.headers


def pair(stack: Stack, alice: Any, bob: Any) -> None:
    """Two strangers meet by quick pairing (tic-tac-toe 1+0) and both land on the game."""
    pool = "button[data-pool='tictactoe:1+0']"
    alice.goto(stack.url + "/lobby/")
    alice.locator(pool).click()
    alice.wait_for_url("**/lobby/wait", timeout=TIMEOUT)
    bob.goto(stack.url + "/lobby/")
    bob.locator(pool).click()
    bob.wait_for_url("**/games/*/", timeout=TIMEOUT)
    alice.wait_for_url(bob.url, timeout=TIMEOUT)


def get_from(stack: Stack, source: str, path: str, **headers: str) -> tuple[int, Any]:
    """GET through the proxy from a loopback address of our choice (any 127.x connects)."""
    host, port = stack.url.removeprefix("https://").split(":")
    connection = http.client.HTTPSConnection(
        host, int(port), source_address=(source, 0), context=INSECURE, timeout=10
    )
    try:
        connection.request("GET", path, headers=headers)
        response = connection.getresponse()
        response.read()
        return response.status, response.headers
    finally:
        connection.close()


def start_of_a_window(needed: float = 30) -> None:
    """The API limit counts in windows of the clock's minutes: a burst that crossed into
    the next minute would start counting again. Begin one with ``needed`` seconds left."""
    left = 60 - time.time() % 60
    if left < needed:
        time.sleep(left + 0.1)


def test_the_proxy_forwards_the_clients_address_and_keeps_its_own_doors(stack: Stack) -> None:
    # The client's address reaches the servers (TRUSTED_PROXIES): the API's per-address limit
    # stops one client at 127.0.0.5 and not another at 127.0.0.6, though both come through
    # nginx at 127.0.0.1; a client naming another's address in X-Forwarded-For is not believed.
    start_of_a_window()
    statuses = [get_from(stack, "127.0.0.5", "/api/v1/games/1")[0] for _ in range(API_LIMIT + 1)]
    assert statuses[-1] == 429 and 429 not in statuses[:-1], statuses
    assert get_from(stack, "127.0.0.6", "/api/v1/games/1")[0] != 429
    spoofed = {"X-Forwarded-For": "127.0.0.7", "X-Real-IP": "127.0.0.7"}
    start_of_a_window()
    for _ in range(API_LIMIT):
        assert get_from(stack, "127.0.0.7", "/api/v1/games/1")[0] != 429
    assert get_from(stack, "127.0.0.8", "/api/v1/games/1", **spoofed)[0] != 429
    assert get_from(stack, "127.0.0.7", "/api/v1/games/1")[0] == 429
    # The metrics stay on the servers' own ports: the public address answers 404.
    assert get_from(stack, "127.0.0.9", "/metrics")[0] == 404
    # Plain HTTP is sent to HTTPS, same path.
    http_port = int(stack.env["PROXY_HTTP_PORT"])
    plain = http.client.HTTPConnection("127.0.0.1", http_port, timeout=10)
    plain.request("GET", "/lobby/?x=1")
    moved = plain.getresponse()
    assert moved.status == 301
    assert moved.headers["Location"] == f"{stack.url}/lobby/?x=1"
    plain.close()
    # Static files are precompressed for gzip too (brotli: the browser test).
    page = urllib.request.urlopen(stack.url + "/", context=INSECURE, timeout=10).read().decode()
    stylesheet = re.search(r'href="(/static/[^"]+\.[0-9a-f]{12}\.css)"', page)
    assert stylesheet
    status, headers = get_from(stack, "127.0.0.9", stylesheet.group(1), **{"Accept-Encoding": "gzip"})
    assert status == 200 and headers["Content-Encoding"] == "gzip"


def test_strangers_play_through_the_proxy(stack: Stack, browser: Any) -> None:
    # HTTPS as a browser sees it: HSTS, secure cookies; plain HTTP goes to HTTPS.
    headers = https_headers(stack.url + "/lobby/")
    assert headers["Strict-Transport-Security"].startswith("max-age=31536000")
    assert all("Secure" in cookie for cookie in headers.get_all("Set-Cookie") or [])
    # Static files by their hashed names, a year's cache, precompressed.
    page = urllib.request.urlopen(stack.url + "/", context=INSECURE, timeout=10).read().decode()
    stylesheet = re.search(r'href="(/static/bundle/site\.[0-9a-f]{12}\.css)"', page)
    assert stylesheet, "the page links the hashed name"
    static = https_headers(stack.url + stylesheet.group(1))
    assert static["Cache-Control"] == "public, max-age=31536000, immutable"
    brotli = urllib.request.Request(stack.url + stylesheet.group(1), headers={"Accept-Encoding": "br"})
    with urllib.request.urlopen(brotli, context=INSECURE, timeout=10) as response:
        assert response.headers["Content-Encoding"] == "br"

    contexts = [browser.new_context(ignore_https_errors=True) for _ in range(3)]
    alice, bob, carol = (context.new_page() for context in contexts)
    errors = watch_for_errors({"alice": alice, "bob": bob, "carol": carol})
    pair(stack, alice, bob)
    assert bob.url.startswith(stack.url)
    for page in (alice, bob):
        page.wait_for_selector("body[data-socket='open']", state="attached", timeout=TIMEOUT)

    # The lobby pages' sockets gone, the spectator's socket goes to the process with fewer:
    # both processes then carry the game's pages.
    deadline = time.monotonic() + 15
    while any(stack.sockets(p, kind) for p in stack.ports for kind in ("lobby", "lobby-wait")):
        assert time.monotonic() < deadline, "the lobby sockets stayed open"
        time.sleep(0.2)
    carol.goto(bob.url)
    carol.wait_for_selector("body[data-socket='open']", state="attached", timeout=TIMEOUT)
    on_each = [stack.sockets(p, "games") for p in stack.ports]
    assert sum(on_each) == 3 and min(on_each) >= 1, on_each

    all_at_ply([alice, bob, carol], 0)
    first, second = first_and_second([alice, bob])
    for page, cell in [(first, "a1"), (second, "a2"), (first, "b1"), (second, "b2"), (first, "c1")]:
        page.wait_for_selector(".status__line.is-my-turn", timeout=TIMEOUT)
        ply = int(page.locator(".status__line").get_attribute("data-ply"))
        page.locator(f".grid__cell.is-playable[data-cell='{cell}']").click()
        all_at_ply([alice, bob, carol], ply + 1)
    for page in (alice, bob, carol):
        page.wait_for_selector(".status__line.is-over", timeout=TIMEOUT)
    assert "win" in result(first).lower() or "won" in result(first).lower()

    # Against the computer: the web processes leave its turn to the queue worker, once it
    # has loaded its searches (a first start compiles them).
    stack.wait_for_log(r"celery\.apps\.worker: \S+ ready\.", 240)
    alice.goto(stack.url + "/")
    card = alice.locator(".game-card--tictactoe")
    card.locator("select[name=seat]").select_option("first")
    card.locator("button[type=submit]").click()
    alice.wait_for_selector(".status__line.is-my-turn", timeout=TIMEOUT)
    alice.wait_for_selector("body[data-socket='open']", state="attached", timeout=TIMEOUT)
    alice.locator(".grid__cell.is-playable[data-cell='b2']").click()
    alice.wait_for_selector(".status__line.is-my-turn[data-ply='2']", timeout=TIMEOUT)
    assert "games.play_turn" in stack.log.read_text()
    assert errors == []
    for context in contexts:
        context.close()

    # The servers' own settings, as the stack set them, pass Django's deployment checks.
    environ = Path(f"/proc/{stack.pids()[0]}/environ").read_bytes().split(b"\0")
    assert_check_deploy_is_clean(dict(item.decode().split("=", 1) for item in environ if b"=" in item))


# How long each page's socket stayed closed, and the code it was closed with.
GAP_WATCH = """() => {
  window.socketGaps = [];
  let closedAt = null;
  document.addEventListener("htmx:wsClose", (e) => {
    closedAt = performance.now();
    window.lastClose = e.detail.event.code;
  });
  document.addEventListener("htmx:wsOpen", () => {
    if (closedAt !== null) window.socketGaps.push(performance.now() - closedAt);
    closedAt = null;
  });
}"""


def test_a_rolling_restart_loses_no_move_and_no_push(stack: Stack, browser: Any) -> None:
    contexts = [browser.new_context(ignore_https_errors=True, bypass_csp=True) for _ in range(4)]
    alice, bob, carol, dave = (context.new_page() for context in contexts)
    errors = watch_for_errors({"alice": alice, "bob": bob, "carol": carol, "dave": dave})
    pair(stack, alice, bob)  # on a clock: nobody may lose time to the restart
    carol.goto(bob.url)
    dave.goto(stack.url + "/")
    card = dave.locator(".game-card--tictactoe")
    card.locator("select[name=seat]").select_option("first")
    card.locator("button[type=submit]").click()
    dave.wait_for_selector(".status__line.is-my-turn", timeout=TIMEOUT)
    pages = [alice, bob, carol, dave]
    for page in pages:
        page.wait_for_selector("body[data-socket='open']", state="attached", timeout=TIMEOUT)
        page.evaluate(GAP_WATCH)
    people = [alice, bob, carol]
    all_at_ply(people, 0)
    first, second = first_and_second([alice, bob])
    moves = [(first, "a1"), (second, "a2"), (first, "b1"), (second, "b2"), (first, "c1")]

    def play(page: Any, cell: str) -> None:
        page.wait_for_selector(".status__line.is-my-turn", timeout=TIMEOUT)
        ply = int(page.locator(".status__line").get_attribute("data-ply"))
        page.locator(f".grid__cell.is-playable[data-cell='{cell}']").click()
        all_at_ply(people, ply + 1)  # every page gets every move: no push lost

    play(*moves[0])
    stack.restart()
    # The computer's turn falls due while the first server stops: played once, by the worker.
    dave.locator(".grid__cell.is-playable[data-cell='b2']").click()
    for page, cell in moves[1:4]:  # the game goes on through the restart
        play(page, cell)
    stack.wait_for_log(r"restart done", 180)
    play(*moves[4])
    for page in people:
        page.wait_for_selector(".status__line.is-over", timeout=TIMEOUT)
    assert "win" in result(first).lower() or "won" in result(first).lower()
    state = stack.game(bob.url.removeprefix(stack.url))
    assert state["moves"] == [cell for _, cell in moves]  # none lost, none twice
    assert state["reason"] == "normal"  # a line, not a flag
    dave.wait_for_selector(".status__line.is-my-turn[data-ply='2']", timeout=TIMEOUT)
    assert len(stack.game(dave.url.removeprefix(stack.url))["moves"]) == 2

    # Every page was told to go (4012) and came back within a few seconds, by itself.
    for page in pages:
        page.wait_for_selector("body[data-socket='open']", state="attached", timeout=TIMEOUT)
        assert page.evaluate("window.lastClose") == 4012
        gaps = page.evaluate("window.socketGaps")
        assert gaps and max(gaps) < 3000, gaps
    on_each = [stack.sockets(p, "games") for p in stack.ports]
    assert sum(on_each) == 4, on_each
    assert errors == []
    for context in contexts:
        context.close()
