"""A real server (Daphne, WebSockets included) and a real headless Chromium."""

from __future__ import annotations

import json
import os
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
# Playwright's sync API keeps an event loop in this thread; the test process's own
# database work (set-up, flush) is still plain synchronous code.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_for_port(port: int, proc: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            if proc.poll() is not None:
                break
            time.sleep(0.1)
    proc.kill()
    pytest.fail(f"the server on port {port} did not start: {log.read_text()}")


class Processes:
    """Server-side processes of one test, stopped together; logs kept in a folder."""

    def __init__(self, folder: Path, env: dict[str, str]) -> None:
        self.folder = folder
        # A STATIC_ROOT of its own that nothing collects into: pages link the static files
        # by their plain names, served from the source folders as they are now (a checkout's
        # collected staticfiles/ may be older than its sources).
        self.env = {
            "STATIC_ROOT": str(folder / "static"),
            **env,
            "DJANGO_SETTINGS_MODULE": "quarto_site.settings",
        }
        self.procs: list[subprocess.Popen[bytes]] = []

    def manage(self, *args: str) -> None:
        subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=self.env, check=True)

    def migrate(self) -> None:
        """The test's database migrated. On SQLite a copy of one file migrated once per test
        process: a ``migrate`` costs a Django start and seconds, and gives the same file."""
        path = self.env.get("SQLITE_PATH")
        if not path or self.env.get("DATABASE_URL"):
            self.manage("migrate", "-v", "0")
            return
        shutil.copyfile(migrated_sqlite(self.env), path)

    def start(self, name: str, *argv: str) -> subprocess.Popen[bytes]:
        log = self.folder / f"{name}.log"
        with open(log, "w") as out:
            proc = subprocess.Popen(
                [sys.executable, *argv], cwd=ROOT, env=self.env, stdout=out, stderr=subprocess.STDOUT
            )
        self.procs.append(proc)
        return proc

    def daphne(self, name: str, port: int | None = None) -> str:
        """A Daphne process on ``port`` (a free one by default); its address."""
        port = port or free_port()
        proc = self.start(
            name, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "quarto_site.asgi:application"
        )
        wait_for_port(port, proc, self.folder / f"{name}.log")
        return f"http://127.0.0.1:{port}"

    def stop(self) -> None:
        for proc in self.procs:
            proc.terminate()
        for proc in self.procs:
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()


_migrated: list[Path] = []


def migrated_sqlite(env: dict[str, str]) -> Path:
    """A SQLite file with every migration applied, made on the first call of this process."""
    if not _migrated:
        folder = Path(tempfile.mkdtemp(prefix="migrated-"))
        template = folder / "db.sqlite3"
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "-v", "0"],
            cwd=ROOT,
            env={**env, "SQLITE_PATH": str(template)},
            check=True,
        )
        db = sqlite3.connect(template)
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # all in the file itself, no -wal beside it
        db.close()
        _migrated.append(template)
    return _migrated[0]


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The embedded set-up: one Daphne process, SQLite, in-memory layer, AI inline."""
    yield from embedded_server(tmp_path_factory, "site")


@pytest.fixture(scope="module")
def quick_abandon_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The embedded set-up where a player gone 3 s may be claimed against (no computer needed)."""
    yield from embedded_server(
        tmp_path_factory,
        "quick-abandon",
        {"ABANDON_AFTER": "3", "ABANDON_SWEEP": "1", "WS_PRESENCE_DELAY": "0.2"},
        computer=False,
    )


def embedded_server(
    tmp_path_factory: pytest.TempPathFactory,
    name: str,
    settings: dict[str, str] | None = None,
    computer: bool = True,
) -> Iterator[str]:
    """One Daphne process on SQLite with the in-memory layer, ``settings`` in its environment."""
    folder = tmp_path_factory.mktemp(name)
    processes = Processes(folder, embedded_env(folder, settings))
    processes.migrate()
    url = processes.daphne("daphne")
    try:
        if computer:
            wait_for_the_computer(url)
        yield url
    finally:
        processes.stop()


def embedded_env(folder: Path, settings: dict[str, str] | None = None) -> dict[str, str]:
    """The environment of a server on SQLite (in ``folder``) with the in-memory layer."""
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.update(SQLITE_PATH=str(folder / "db.sqlite3"), AI_DELAY="0.2", AI_BUDGET="0.2", AI_PROCESSES="1")
    env.update(HINT_BUDGET="0.2", REVIEW_BUDGET="0.1")
    env.update(browser_limits())
    env.update(settings or {})
    return env


def browser_limits() -> dict[str, str]:
    """Every browser of the suite comes from 127.0.0.1: per-address limits would count
    them as one very busy player. tests/web/test_limits.py covers the limits."""
    limits = ("RATE_LIMIT_CREATE", "RATE_LIMIT_MOVE", "RATE_LIMIT_HINT", "API_RATE_LIMIT")
    return {**dict.fromkeys(limits, "100000/minute"), "WS_MAX_PER_CLIENT": "10000"}


def wait_for_the_computer(url: str, seconds: float = 120) -> None:
    """The server's first computer move waits for its search process to start and load the
    compiled players; wait for one here, so no test's timeout pays for it."""
    body = json.dumps({"game": "tictactoe", "opponent": "ai", "seat": "second"}).encode()
    request = urllib.request.Request(
        url + "/api/v1/games", body, {"Content-Type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        game_id = json.load(response)["id"]
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        with urllib.request.urlopen(f"{url}/api/v1/games/{game_id}", timeout=30) as response:
            if json.load(response)["ply"] >= 1:
                return
        time.sleep(0.2)
    pytest.fail(f"the computer did not move within {seconds} s of the server's start")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One Chromium per test file: Playwright's sync API runs an event loop in the main
    thread while it is open, and a worker of the parallel run may take a file of plain
    (synchronous or asyncio) tests next, which must not meet that loop."""
    if not shutil.which(CHROMIUM) and not Path(CHROMIUM).exists():
        if os.environ.get("CI"):
            pytest.fail(f"Chromium is missing at {CHROMIUM}: scripts/test installs it")
        pytest.skip(f"no Chromium at {CHROMIUM}")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    # Playwright's wait_for_function evaluates strings in the page, which the site's
    # Content-Security-Policy forbids; tests/e2e/test_csp.py checks the policy itself.
    context = browser.new_context(viewport={"width": 1200, "height": 900}, bypass_csp=True)
    page = context.new_page()
    yield page
    context.close()


@pytest.fixture
def contexts(browser: Any) -> Iterator[Any]:
    """New pages, each in a fresh browser context that knows nothing of the others
    (strangers, or one person's two browsers); the CSP bypassed for axe's injected script
    (test_accessibility.py)."""
    made: list[Any] = []

    def new(width: int = 1200, height: int = 900) -> Any:
        context = browser.new_context(viewport={"width": width, "height": height}, bypass_csp=True)
        made.append(context)
        return context.new_page()

    yield new
    for context in made:
        context.close()


@pytest.fixture
def quiet_page(page: Any) -> Iterator[Any]:
    """The page, failing the test if the browser logged an error (htmx's included)."""
    errors: list[str] = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    assert not errors, f"the browser logged errors: {errors[:5]}"
