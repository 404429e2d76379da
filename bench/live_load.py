"""Load on the live layer: moves over the JSON API, browser-style HTML watchers on WebSockets.

A small asyncio client, not locust: one process holds thousands of WebSockets on one
event loop and timestamps every frame the moment it arrives, so a push's latency is
measured from the move's own response to each watcher's receipt, and a watcher that
never sees a ply is counted as a lost push. Locust's users are greenlets built for
request/response timing; its WebSocket support is a third-party plug-in, and its
workers would have to pool their clocks to relate a move on one client to a push on
another. The HTTP/1.1 (keep-alive, Content-Length or chunked) and RFC 6455 client parts
the site needs are small and live below, on the standard library only: the bench runs
from any checkout with the project's own requirements, and a client library's own
per-message costs do not weigh on a machine whose cores the server shares.

The bench talks to the site only over HTTP and WebSocket. By default it starts one
Daphne process itself (SQLite + in-memory channel layer, in a temporary folder, rate
limits raised); ``--stack`` starts ``scripts/stack`` instead (N Daphne processes and the
AI workers on ``DATABASE_URL`` / ``REDIS_URL``); ``--url`` (repeatable) targets running
servers, and ``--pid`` names their processes for the memory figures.

Scenarios (``--scenario``, repeatable; default all):

- ``ratio``: ``--clients`` clients play person-vs-person Quarto moves over the API as fast
  as answered for ``--seconds``, then the same clients fetch ``/healthz`` (the bare view,
  same process and settings) as long: requests/s of each and their ratio.
- ``games``: ``--games`` games, ``--rate`` moves/s in all (open loop, round robin),
  ``--watchers`` HTML watchers per game (spectators, ``Origin`` header as htmx's ws
  extension sends): move latency p50/p95/p99, push latency p50/p95/p99 from the move's
  response to a watcher's first message whose status line carries that ply
  (``data-ply="N"``, or a later ply: a resync covers it), pushes lost, errors. Watchers
  open ``--open-batch`` at a time, as people arriving, before the moves start.
- ``sockets``: ``--sockets`` watchers over ``--socket-games`` games: time to open them all
  (handshake and first rendering; all at once, or ``--socket-batch`` at a time), memory
  per idle socket from the servers' RSS, then one move per game and every socket's receipt.
- ``crowd``: one game with ``--crowd`` watchers (opened ``--open-batch`` at a time),
  ``--crowd-moves`` moves: push latency and count received.
- ``computer``: ``--computer-games`` Quarto games against the computer (``AI_DELAY=0``),
  one watcher each: the time from each computer move's commit to its first sight on the
  watching socket. The commit time is the move row's ``created``, read from the servers'
  database after the run (the one place the bench looks past HTTP: no answer carries it).
- ``pagemove``: ``--page-games`` games, each between two browsers (made from the home
  page's form, joined by the invite link: each session cookie holds a seat, as in a
  browser) and watched by a spectator's page; ``--page-rate`` moves per second in all,
  first sent on the mover's socket for ``--seconds``, then posted as the page's form
  (htmx) for as long: the time from the click to the mover's own page and to all three
  pages showing the move, and the servers' CPU per move each way.

Every metric is printed on its own line, ``scenario metric value unit``, so two runs
compare with ``diff`` or ``paste``.

    .venv/bin/python bench/live_load.py                       # every scenario, one process
    .venv/bin/python bench/live_load.py --scenario games --games 200 --rate 50
    DATABASE_URL=postgres://... REDIS_URL=redis://... .venv/bin/python bench/live_load.py --stack
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import json
import os
import re
import resource
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any
from urllib.parse import urlencode, urlsplit

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = ("ratio", "games", "sockets", "crowd", "computer", "pagemove")
PLY = re.compile(rb'data-ply="(\d+)"')
# Raised on the servers this bench starts, so that its clients, all on one address,
# measure the site and not its rate limits.
UNLIMITED = {
    "API_RATE_LIMIT": "1000000/minute",
    "RATE_LIMIT_CREATE": "1000000/minute",
    "RATE_LIMIT_MOVE": "1000000/minute",
    "RATE_LIMIT_HINT": "1000000/minute",
    "WS_MAX_PER_CLIENT": "1000000",
}


# -- figures -----------------------------------------------------------------------------


def percentile(values: Sequence[float], q: float) -> float:
    """The nearest-rank percentile (q in 0..100) of values; NaN for none."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * q // 100))  # ceil(n * q / 100), at least 1
    return ordered[min(len(ordered), int(rank)) - 1]


class Report:
    """Prints one line per metric: scenario, metric, value, unit."""

    def __init__(self) -> None:
        self.lines: list[tuple[str, str, float | int | str, str]] = []

    def add(self, scenario: str, metric: str, value: float | int | str, unit: str = "") -> None:
        self.lines.append((scenario, metric, value, unit))
        if isinstance(value, float):
            text = f"{value:.3f}" if abs(value) < 10 else f"{value:.1f}"
        else:
            text = str(value)
        print(f"{scenario:8} {metric:30} {text:>12} {unit}".rstrip(), flush=True)

    def latencies(self, scenario: str, name: str, seconds: Sequence[float], qs: Iterable[int]) -> None:
        for q in qs:
            self.add(scenario, f"{name}_p{q}", percentile(seconds, q) * 1000, "ms")


# -- clients -----------------------------------------------------------------------------


class HttpError(Exception):
    pass


class Http:
    """One keep-alive HTTP/1.1 connection; reconnects when the server closed it."""

    def __init__(self, base: str) -> None:
        parts = urlsplit(base)
        self.host = parts.hostname or "127.0.0.1"
        self.port = parts.port or 80
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.last_headers: dict[str, str] = {}

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            with contextlib.suppress(Exception):
                await self.writer.wait_closed()
        self.reader = self.writer = None

    async def request(
        self, method: str, path: str, body: Any = None, token: str = "", headers: Sequence[str] = ()
    ) -> tuple[int, bytes]:
        data = b"" if body is None else json.dumps(body).encode()
        head = [f"{method} {path} HTTP/1.1", f"Host: {self.host}:{self.port}", "Connection: keep-alive"]
        if token:
            head.append(f"Authorization: Bearer {token}")
        head += self.extra_headers()
        head += list(headers)
        if method == "POST":
            if isinstance(body, dict) and any(h.startswith("Content-Type") for h in headers):
                data = urlencode(body).encode()
            else:
                head.append("Content-Type: application/json")
            head.append(f"Content-Length: {len(data)}")
        message = ("\r\n".join(head) + "\r\n\r\n").encode() + data
        for attempt in (1, 2):
            if self.writer is None:
                self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
            assert self.reader is not None and self.writer is not None
            try:
                self.writer.write(message)
                await self.writer.drain()
                return await self._response(self.reader)
            except (ConnectionError, asyncio.IncompleteReadError) as exc:
                await self.close()
                if attempt == 2:
                    raise HttpError(f"{method} {path}: {exc!r}") from exc
        raise AssertionError("unreachable")

    def extra_headers(self) -> list[str]:
        return []

    def took_cookie(self, text: str) -> None:
        """A Set-Cookie header: an API client keeps none."""

    async def _response(self, reader: asyncio.StreamReader) -> tuple[int, bytes]:
        status_line = await reader.readuntil(b"\r\n")
        status = int(status_line.split()[1])
        headers: dict[str, str] = {}
        self.last_headers = headers
        while (line := await reader.readuntil(b"\r\n")) != b"\r\n":
            name, _, value = line.decode("latin-1").partition(":")
            headers[name.strip().lower()] = value.strip()
            if name.strip().lower() == "set-cookie":
                self.took_cookie(value.strip())
        if "content-length" in headers:
            body = await reader.readexactly(int(headers["content-length"]))
        elif headers.get("transfer-encoding", "").lower() == "chunked":
            chunks = []
            while size := int((await reader.readuntil(b"\r\n")).split(b";")[0], 16):
                chunks.append(await reader.readexactly(size))
                await reader.readexactly(2)
            await reader.readuntil(b"\r\n")
            body = b"".join(chunks)
        else:
            body = await reader.read()
            await self.close()
        if headers.get("connection", "").lower() == "close":
            await self.close()
        return status, body


class WebSocket:
    """The client side of RFC 6455, enough for text pushes: handshake, frames, ping, close."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer

    @classmethod
    async def connect(cls, base: str, path: str, cookie: str = "") -> WebSocket:
        parts = urlsplit(base)
        host, port = parts.hostname or "127.0.0.1", parts.port or 80
        reader, writer = await asyncio.open_connection(host, port)
        key = base64.b64encode(secrets.token_bytes(16)).decode()
        head = [
            f"GET {path} HTTP/1.1",
            f"Host: {host}:{port}",
            "Upgrade: websocket",
            "Connection: Upgrade",
            f"Sec-WebSocket-Key: {key}",
            "Sec-WebSocket-Version: 13",
            f"Origin: {parts.scheme}://{host}:{port}",  # as a browser on the page sends it
        ]
        if cookie:
            head.append(f"Cookie: {cookie}")
        writer.write(("\r\n".join(head) + "\r\n\r\n").encode())
        await writer.drain()
        status = await reader.readuntil(b"\r\n")
        while await reader.readuntil(b"\r\n") != b"\r\n":
            pass
        if b" 101 " not in status:
            writer.close()
            raise ConnectionError(f"handshake refused: {status.decode('latin-1').strip()}")
        return cls(reader, writer)

    async def _send(self, opcode: int, payload: bytes = b"") -> None:
        mask = secrets.token_bytes(4)
        size = len(payload)
        if size < 126:
            header = bytes([0x80 | opcode, 0x80 | size])
        elif size < 65536:
            header = bytes([0x80 | opcode, 0x80 | 126]) + size.to_bytes(2, "big")
        else:
            header = bytes([0x80 | opcode, 0x80 | 127]) + size.to_bytes(8, "big")
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.writer.write(header + mask + masked)
        await self.writer.drain()

    async def send_text(self, text: str) -> None:
        await self._send(0x1, text.encode())

    async def recv(self) -> bytes | None:
        """The next whole data message, or None once the server closed the socket."""
        message = b""
        while True:
            first, second = await self.reader.readexactly(2)
            size = second & 0x7F
            if size == 126:
                size = int.from_bytes(await self.reader.readexactly(2), "big")
            elif size == 127:
                size = int.from_bytes(await self.reader.readexactly(8), "big")
            payload = await self.reader.readexactly(size)
            opcode = first & 0x0F
            if opcode == 0x8:  # close
                with contextlib.suppress(Exception):
                    await self._send(0x8, payload[:2])
                return None
            if opcode == 0x9:  # ping
                await self._send(0xA, payload)
                continue
            if opcode in (0x0, 0x1, 0x2):
                message += payload
                if first & 0x80:
                    return message

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            await self._send(0x8, (1000).to_bytes(2, "big"))
        self.writer.close()
        with contextlib.suppress(Exception):
            await self.writer.wait_closed()


@dataclass
class Watcher:
    """An HTML watcher of one game: the time it first saw each ply (or a later one)."""

    base: str
    game_id: int
    seen: int = -1
    first_seen: dict[int, float] = field(default_factory=dict)
    opened_at: float | None = None  # seconds from connecting to the first rendering
    opened_time: float = 0.0  # perf_counter() at the first rendering
    error: str = ""
    closed: bool = False
    socket: WebSocket | None = None
    task: asyncio.Task[None] | None = None
    cookie: str = ""  # a seat's browser session (none: a spectator)
    board: bytes = b""  # the latest rendering with the board's buttons
    changed: asyncio.Event = field(default_factory=asyncio.Event)  # set on each new ply

    async def run(self, timeout: float) -> None:
        start = time.perf_counter()
        try:
            self.socket = await asyncio.wait_for(
                WebSocket.connect(self.base, f"/ws/games/{self.game_id}/", self.cookie), timeout
            )
            while (message := await self.socket.recv()) is not None:
                now = time.perf_counter()
                plies = [int(p) for p in PLY.findall(message)]
                if self.opened_at is None:
                    self.opened_at, self.opened_time = now - start, now
                if b'name="move"' in message:
                    self.board = message
                if plies and max(plies) > self.seen:
                    for ply in range(self.seen + 1, max(plies) + 1):
                        self.first_seen[ply] = now
                    self.seen = max(plies)
                    self.changed.set()
            self.closed = True
        except asyncio.CancelledError:
            raise
        except (OSError, asyncio.IncompleteReadError, TimeoutError) as exc:
            self.error = type(exc).__name__ if not str(exc) else str(exc)[:60]

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(BaseException):
                await self.task
        if self.socket is not None:
            await self.socket.close()


@dataclass
class Game:
    """A person-vs-person Quarto game over the API, both seats held by this client."""

    base: str
    id: int
    tokens: dict[int, str]
    state: dict[str, Any]
    http: Http
    busy: bool = False
    moved_at: dict[int, float] = field(default_factory=dict)  # ply -> when the move's answer came

    @property
    def over(self) -> bool:
        return self.state.get("status") == "finished" or not self.state.get("legal_moves")

    async def move(self) -> tuple[int, float]:
        """Play the next action (a fixed choice, so every run plays the same games)."""
        ply = int(self.state["ply"])
        legal = self.state["legal_moves"]
        text = legal[(ply * 7) % len(legal)]
        token = self.tokens[int(self.state["to_move"])]
        start = time.perf_counter()
        status, body = await self.http.request(
            "POST", f"/api/v1/games/{self.id}/moves", {"move": text, "ply": ply}, token
        )
        now = time.perf_counter()
        if status == 200:
            self.state = json.loads(body)
            self.moved_at[int(self.state["ply"])] = now
        return status, now - start


async def new_game(base: str, http: Http | None = None) -> Game:
    """Create a person-vs-person Quarto game over the API and take the other seat too."""
    http = http or Http(base)
    status, body = await http.request("POST", "/api/v1/games", {"game": "quarto", "opponent": "human"})
    if status != 201:
        raise HttpError(f"create: {status} {body[:200]!r}")
    created = json.loads(body)
    # The invite code is required to join where the site hands it out.
    join_body = {"invite": created["invite"]} if "invite" in created else None
    status, body = await http.request("POST", f"/api/v1/games/{created['id']}/join", join_body)
    if status != 200:
        raise HttpError(f"join: {status} {body[:200]!r}")
    joined = json.loads(body)
    tokens = {int(created["seat"]): created["token"], int(joined["seat"]): joined["token"]}
    return Game(base, int(created["id"]), tokens, joined["state"], http)


async def gather_limited(jobs: Sequence[Callable[[], Awaitable[Any]]], limit: int) -> list[Any]:
    gate = asyncio.Semaphore(limit)

    async def one(job: Callable[[], Awaitable[Any]]) -> Any:
        async with gate:
            return await job()

    return await asyncio.gather(*(one(job) for job in jobs))


async def open_watchers(
    watchers: list[Watcher], timeout: float, deadline: float, batch: int = 0
) -> tuple[float, int, dict[str, int]]:
    """Open the watchers, all at once (batch 0) or batch by batch, each batch once the one
    before had its first renderings; seconds until the last one had its first rendering."""
    start = time.perf_counter()
    size = batch or len(watchers)
    for first in range(0, len(watchers), size):
        group = watchers[first : first + size]
        for w in group:
            w.task = asyncio.create_task(w.run(timeout))
        while time.perf_counter() - start < deadline:
            if all(w.opened_at is not None or w.error or w.closed for w in group):
                break
            await asyncio.sleep(0.02)
    opened = [w for w in watchers if w.opened_at is not None]
    errors: dict[str, int] = {}
    for w in watchers:
        if w.opened_at is None:
            reason = w.error or ("closed" if w.closed else "no first message")
            errors[reason] = errors.get(reason, 0) + 1
    took = max((w.opened_time for w in opened), default=start + float("nan")) - start
    return took, len(opened), errors


def broken(watchers: Iterable[Watcher]) -> int:
    """Watchers that did not open, or lost their socket afterwards."""
    return sum(1 for w in watchers if w.opened_at is None or w.error or w.closed)


async def wait_for_plies(watchers: Iterable[Watcher], target: dict[int, int], timeout: float) -> None:
    """Until every open watcher saw its game's target ply, or the timeout."""
    watchers = [w for w in watchers if w.opened_at is not None]
    end = time.perf_counter() + timeout
    while time.perf_counter() < end:
        if all(w.seen >= target.get(w.game_id, -1) or w.error or w.closed for w in watchers):
            return
        await asyncio.sleep(0.02)


def push_figures(games: Iterable[Game], watchers: Iterable[Watcher]) -> tuple[list[float], int, int]:
    """Push latencies (from each move's answer), pushes lost, pushes expected."""
    by_game: dict[int, list[Watcher]] = {}
    for w in watchers:
        if w.opened_at is not None:
            by_game.setdefault(w.game_id, []).append(w)
    latencies: list[float] = []
    lost = expected = 0
    for game in games:
        for ply, answered in game.moved_at.items():
            for w in by_game.get(game.id, []):
                expected += 1
                seen = w.first_seen.get(ply)
                if seen is None:
                    lost += 1
                else:
                    # A push can overtake the move's own answer: that counts as 0.
                    latencies.append(max(0.0, seen - answered))
    return latencies, lost, expected


# -- servers -----------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def raise_open_files() -> int:
    """Raise this process's open-files limit to the hard limit; children inherit it."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = hard if hard != resource.RLIM_INFINITY else 65536
    if soft < want:
        resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def cpu_seconds(pids: Iterable[int]) -> float:
    """User and system CPU time used so far by the processes (those still there)."""
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime: fields 14 and 15
    return total / os.sysconf("SC_CLK_TCK")


def rss_mib(pids: Iterable[int]) -> list[float]:
    sizes = []
    for pid in pids:
        try:
            text = Path(f"/proc/{pid}/status").read_text()
        except OSError:
            sizes.append(float("nan"))
            continue
        kib = next(int(line.split()[1]) for line in text.splitlines() if line.startswith("VmRSS:"))
        sizes.append(kib / 1024)
    return sizes


@dataclass
class Servers:
    urls: list[str]
    pids: list[int]
    stop: Callable[[], None]
    description: str
    database: str = ""  # a SQLite path or a postgres:// URL: the computer scenario reads commit times


async def wait_ready(url: str, seconds: float = 60) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        http = Http(url)
        try:
            status, _ = await http.request("GET", "/healthz")
            if status == 200:
                return
        except (OSError, HttpError, asyncio.IncompleteReadError):
            pass
        finally:
            await http.close()
        await asyncio.sleep(0.2)
    raise RuntimeError(f"{url} did not answer /healthz")


def server_env(extra: dict[str, str]) -> dict[str, str]:
    env = dict(os.environ)
    env.update(DJANGO_SETTINGS_MODULE="quarto_site.settings", AI_DELAY="0", LOG_LEVEL="WARNING")
    for name, value in UNLIMITED.items():
        env.setdefault(name, value)
    env.update(extra)
    return env


def stop_processes(procs: list[subprocess.Popen[bytes]], sig: int = signal.SIGTERM) -> None:
    for proc in procs:
        if proc.poll() is None:
            proc.send_signal(sig)
    for proc in procs:
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()


def start_daphne(
    env: dict[str, str], folder: Path, app: str = "quarto_site.asgi:application", cwd: Path = ROOT
) -> tuple[subprocess.Popen[bytes], str, IO[bytes]]:
    """One Daphne process on a free port serving ``app`` (imported from ``cwd``), logging to
    ``folder/daphne-PORT.log`` (the log stays open for the server's life: the caller closes it)."""
    port = free_port()
    log = open(folder / f"daphne-{port}.log", "wb")  # noqa: SIM115
    proc = subprocess.Popen(
        # As scripts/stack starts it: a listen backlog of 2048, not Twisted's 50.
        [
            sys.executable,
            "-m",
            "daphne",
            "-e",
            f"tcp:port={port}:interface=127.0.0.1:backlog=2048",
            app,
        ],
        cwd=cwd,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    return proc, f"http://127.0.0.1:{port}", log


async def start_embedded() -> Servers:
    """One Daphne process on SQLite and the in-memory layer, in a temporary folder."""
    folder = Path(tempfile.mkdtemp(prefix="live-load-"))
    env = server_env({"SQLITE_PATH": str(folder / "db.sqlite3")})
    for name in ("DATABASE_URL", "REDIS_URL"):
        env.pop(name, None)
    python = sys.executable
    subprocess.run([python, "manage.py", "migrate", "-v", "0"], cwd=ROOT, env=env, check=True)
    proc, url, log = start_daphne(env, folder)

    def stop() -> None:
        stop_processes([proc])
        log.close()
        shutil.rmtree(folder, ignore_errors=True)

    try:
        await wait_ready(url)
    except Exception:
        stop()
        raise
    description = "one Daphne process, SQLite, in-memory channel layer"
    return Servers([url], [proc.pid], stop, description, env["SQLITE_PATH"])


async def start_stack(processes: int) -> Servers:
    """scripts/stack: N Daphne processes and the AI workers on DATABASE_URL and REDIS_URL."""
    if not os.environ.get("DATABASE_URL") or not os.environ.get("REDIS_URL"):
        raise SystemExit("--stack needs DATABASE_URL and REDIS_URL")
    base = free_port_run(processes)
    env = server_env(
        {
            "DAPHNE_PROCESSES": str(processes),
            "PORT": str(base),
            "HOST": "127.0.0.1",
            "CHANNEL_PREFIX": f"bench-{secrets.token_hex(3)}",
        }
    )
    proc = subprocess.Popen(
        ["bash", str(ROOT / "scripts" / "stack")],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        start_new_session=True,  # Ctrl-C on the bench reaches the stack through stop() only
    )
    urls: list[str] = []
    pids: list[int] = []
    assert proc.stdout is not None
    loop = asyncio.get_running_loop()
    end = time.monotonic() + 120
    while len(urls) < processes and time.monotonic() < end:
        line = (await loop.run_in_executor(None, proc.stdout.readline)).decode()
        if not line:
            break
        # scripts/stack prints "daphne N: http://HOST:PORT (pid P)"
        if match := re.match(r"daphne \d+: (http://\S+) \(pid (\d+)\)", line.strip()):
            urls.append(match.group(1))
            pids.append(int(match.group(2)))

    # Keep reading what the stack prints, so that its processes never block on a full pipe.
    threading.Thread(target=proc.stdout.read, daemon=True).start()

    def stop() -> None:
        stop_processes([proc], signal.SIGTERM)  # scripts/stack stops its processes on TERM

    if len(urls) < processes:
        stop()
        raise RuntimeError("scripts/stack did not report its servers")
    for url in urls:
        await wait_ready(url)
    description = f"{processes} Daphne processes (scripts/stack), PostgreSQL, Redis, AI worker"
    return Servers(urls, pids, stop, description, os.environ["DATABASE_URL"])


def free_port_run(count: int) -> int:
    """A first port with the next count - 1 ports free too."""
    for _ in range(50):
        base = free_port()
        try:
            for port in range(base, base + count):
                with socket.socket() as s:
                    s.bind(("127.0.0.1", port))
            return base
        except OSError:
            continue
    raise RuntimeError("no run of free ports")


# -- scenarios ---------------------------------------------------------------------------


async def scenario_ratio(args: argparse.Namespace, servers: Servers, report: Report) -> None:
    urls = servers.urls
    stop_at = 0.0

    async def tally(http: Http, request: Callable[[], Awaitable[int | None]]) -> tuple[int, int]:
        """Answers to ``request()`` until the run ends: (200s, others); None is set-up, not counted."""
        answered = errors = 0
        while time.perf_counter() < stop_at:
            status = await request()
            if status == 200:
                answered += 1
            elif status is not None:
                errors += 1
        await http.close()
        return answered, errors

    async def play(i: int) -> tuple[int, int]:
        http = Http(urls[i % len(urls)])
        game = await new_game(http=http, base=http_base(http))

        async def move() -> int | None:
            nonlocal game
            if game.over:
                game = await new_game(http=http, base=game.base)
                return None
            status, _ = await game.move()
            return status

        return await tally(http, move)

    async def ping(i: int) -> tuple[int, int]:
        http = Http(urls[i % len(urls)])

        async def healthz() -> int:
            status, _ = await http.request("GET", "/healthz")
            return status

        return await tally(http, healthz)

    async def run(work: Callable[[int], Awaitable[tuple[int, int]]]) -> tuple[float, int, float]:
        """(answers per second, errors, the servers' CPU seconds per answer)."""
        nonlocal stop_at
        start, cpu = time.perf_counter(), cpu_seconds(servers.pids)
        stop_at = start + args.seconds
        results = await asyncio.gather(*(work(i) for i in range(args.clients)))
        elapsed = time.perf_counter() - start
        answered = sum(r[0] for r in results)
        return (
            answered / elapsed,
            sum(r[1] for r in results),
            (cpu_seconds(servers.pids) - cpu) / max(1, answered),
        )

    moves, move_errors, move_cpu = await run(play)
    bare, bare_errors, bare_cpu = await run(ping)
    report.add("ratio", "clients", args.clients)
    report.add("ratio", "moves_per_s", moves, "req/s")
    report.add("ratio", "healthz_per_s", bare, "req/s")
    report.add("ratio", "ratio", moves / bare if bare else float("nan"), "(target >= 0.6)")
    report.add("ratio", "errors", move_errors + bare_errors)
    # The servers' CPU time per answer (game creation included in the moves') is what a
    # busy machine blurs least: time spent waiting for a core is not counted.
    report.add("ratio", "server_cpu_per_move", move_cpu * 1000, "ms")
    report.add("ratio", "server_cpu_per_healthz", bare_cpu * 1000, "ms")
    report.add("ratio", "cpu_ratio", bare_cpu / move_cpu if move_cpu else float("nan"), "(healthz / move)")


def batch_text(args: argparse.Namespace) -> str:
    return f"{args.open_batch} at a time" if args.open_batch else "all at once"


def http_base(http: Http) -> str:
    return f"http://{http.host}:{http.port}"


async def make_games(urls: list[str], count: int) -> list[Game]:
    jobs = [lambda i=i: new_game(urls[i % len(urls)]) for i in range(count)]
    return list(await gather_limited(jobs, 20))


def watchers_for(games: list[Game], per_game: int, urls: list[str]) -> list[Watcher]:
    """Each game's watchers spread over the servers, starting with another than its mover's."""
    watchers = []
    for g, game in enumerate(games):
        for k in range(per_game):
            watchers.append(Watcher(urls[(g + 1 + k) % len(urls)], game.id))
    return watchers


async def close_all(games: Iterable[Game], watchers: Iterable[Watcher]) -> None:
    await asyncio.gather(*(w.stop() for w in watchers))
    await asyncio.gather(*(g.http.close() for g in games))


async def scenario_games(args: argparse.Namespace, servers: Servers, report: Report) -> None:
    games = await make_games(servers.urls, args.games)
    watchers = watchers_for(games, args.watchers, servers.urls)
    took, opened, open_errors = await open_watchers(watchers, 30, 60, args.open_batch)
    moves: list[float] = []
    statuses: dict[str, int] = {}
    skipped = finished = 0
    lag = 0.0
    tasks: list[asyncio.Task[None]] = []

    async def one(game: Game) -> None:
        game.busy = True
        try:
            status, seconds = await game.move()
            moves.append(seconds)
            if status != 200:
                statuses[str(status)] = statuses.get(str(status), 0) + 1
        except (OSError, HttpError) as exc:
            statuses[type(exc).__name__] = statuses.get(type(exc).__name__, 0) + 1
        finally:
            game.busy = False

    total = int(args.rate * args.seconds)
    start = time.perf_counter()
    for i in range(total):
        due = start + i / args.rate
        delay = due - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
        else:
            lag = max(lag, -delay)
        game = games[i % len(games)]
        if game.over:
            finished += 1
        elif game.busy:
            skipped += 1  # its previous move has not been answered yet
        else:
            tasks.append(asyncio.create_task(one(game)))
    await asyncio.gather(*tasks)
    elapsed = time.perf_counter() - start
    await wait_for_plies(watchers, {g.id: int(g.state["ply"]) for g in games}, 10)
    pushes, lost, expected = push_figures(games, watchers)
    report.add("games", "games", len(games))
    report.add("games", "watchers_opened", opened, f"of {len(watchers)} in {took:.2f} s, {batch_text(args)}")
    report.add("games", "moves", len(moves), f"in {elapsed:.1f} s")
    report.add("games", "moves_per_s", len(moves) / elapsed, f"(asked {args.rate})")
    report.latencies("games", "move", moves, (50, 95, 99))
    report.latencies("games", "push", pushes, (50, 95, 99))
    report.add("games", "pushes_expected", expected)
    report.add("games", "pushes_lost", lost, "(not seen within 10 s of the last move)")
    report.add("games", "pushes_over_2s", sum(1 for p in pushes if p > 2))
    report.add("games", "move_errors", sum(statuses.values()), json.dumps(statuses) if statuses else "")
    for reason, count in sorted(open_errors.items()):
        report.add("games", "watchers_failed", count, reason)
    report.add("games", "socket_errors", broken(watchers), "(not opened, or dropped later)")
    report.add("games", "moves_skipped_busy", skipped)
    report.add("games", "moves_skipped_finished", finished)
    report.add("games", "client_lag_max", lag * 1000, "ms (how late the client sent a move)")
    await close_all(games, watchers)


async def scenario_sockets(args: argparse.Namespace, servers: Servers, report: Report) -> None:
    games = await make_games(servers.urls, args.socket_games)
    watchers = [
        Watcher(servers.urls[i % len(servers.urls)], games[i % len(games)].id) for i in range(args.sockets)
    ]
    await asyncio.sleep(1)
    before = rss_mib(servers.pids)
    took, opened, open_errors = await open_watchers(watchers, 30, 60, args.socket_batch)
    await asyncio.sleep(2)  # let the servers settle before reading their memory
    after = rss_mib(servers.pids)
    report.add("sockets", "sockets", len(watchers), f"over {len(games)} games")
    how = f"in batches of {args.socket_batch}" if args.socket_batch else "all at once"
    report.add("sockets", "opened", opened, how)
    report.add("sockets", "open_all_s", took, "s (until the last opened had its first rendering)")
    report.latencies("sockets", "open", [w.opened_at for w in watchers if w.opened_at is not None], (50, 95))
    for reason, count in sorted(open_errors.items()):
        report.add("sockets", "failed", count, reason)
    for n, (b, a) in enumerate(zip(before, after, strict=True), 1):
        report.add("sockets", f"rss_server{n}_before", b, "MiB")
        report.add("sockets", f"rss_server{n}_after", a, "MiB")
    if opened and before and not open_errors:
        report.add("sockets", "rss_per_idle_socket", (sum(after) - sum(before)) * 1024 / opened, "KiB")
    elif before:
        report.add("sockets", "rss_per_idle_socket", "n/a", "(failures weigh in: --socket-batch)")
    await asyncio.gather(*(g.move() for g in games))
    await wait_for_plies(watchers, {g.id: int(g.state["ply"]) for g in games}, 30)
    pushes, lost, expected = push_figures(games, watchers)
    report.add("sockets", "received", len(pushes), f"of {expected} open")
    report.add("sockets", "lost", lost, "(not seen within 30 s of the moves)")
    report.latencies("sockets", "push", pushes, (50, 95, 99))
    await close_all(games, watchers)


async def scenario_crowd(args: argparse.Namespace, servers: Servers, report: Report) -> None:
    game = await new_game(servers.urls[0])
    watchers = [Watcher(servers.urls[(1 + i) % len(servers.urls)], game.id) for i in range(args.crowd)]
    took, opened, open_errors = await open_watchers(watchers, 30, 60, args.open_batch)
    report.add("crowd", "watchers_opened", opened, f"of {len(watchers)} in {took:.2f} s, {batch_text(args)}")
    for reason, count in sorted(open_errors.items()):
        report.add("crowd", "failed", count, reason)
    moves: list[float] = []
    for _ in range(args.crowd_moves):
        await asyncio.sleep(0.5)
        _, seconds = await game.move()
        moves.append(seconds)
        await wait_for_plies(watchers, {game.id: int(game.state["ply"])}, 10)
    pushes, lost, expected = push_figures([game], watchers)
    report.add("crowd", "received", len(pushes), f"of {expected}")
    report.add("crowd", "lost", lost, "(not seen within 10 s)")
    report.latencies("crowd", "move", moves, (50,))
    report.latencies("crowd", "push", pushes, (50, 95, 99))
    report.add("crowd", "push_max", max(pushes, default=float("nan")) * 1000, "ms")
    await close_all([game], watchers)


async def new_ai_game(base: str) -> tuple[Game, int]:
    """A Quarto game against the computer over the API, this client in the first seat."""
    http = Http(base)
    body = {"game": "quarto", "opponent": "ai", "seat": "first"}
    status, text = await http.request("POST", "/api/v1/games", body)
    if status != 201:
        raise HttpError(f"create: {status} {text[:200]!r}")
    created = json.loads(text)
    seat = int(created["seat"])
    return Game(base, int(created["id"]), {seat: created["token"]}, created["state"], http), seat


def commit_times(database: str, game_ids: Sequence[int]) -> dict[tuple[int, int], tuple[int, float]]:
    """(game, ply) -> (seat, wall-clock time the move's row was written), read from the
    servers' database: a move's ``created`` is set in its transaction, just before commit."""
    from datetime import UTC, datetime

    query = "SELECT game_id, ply, seat, created FROM games_move WHERE game_id IN ({})"
    found: dict[tuple[int, int], tuple[int, float]] = {}
    if database.startswith("postgres"):
        import psycopg

        with psycopg.connect(database) as conn:
            rows = conn.execute(query.format(",".join(["%s"] * len(game_ids))), list(game_ids)).fetchall()
        for game_id, ply, seat, created in rows:
            found[game_id, ply] = (seat, created.timestamp())
    else:
        import sqlite3

        with contextlib.closing(sqlite3.connect(database)) as conn:
            rows = conn.execute(query.format(",".join("?" * len(game_ids))), list(game_ids)).fetchall()
        for game_id, ply, seat, created in rows:
            stamp = datetime.fromisoformat(created).replace(tzinfo=UTC)  # Django stores UTC
            found[game_id, ply] = (seat, stamp.timestamp())
    return found


async def scenario_computer(args: argparse.Namespace, servers: Servers, report: Report) -> None:
    """Games against the computer (the servers run with AI_DELAY=0), one watcher each:
    the time from each computer move's commit to its arrival on the watching socket."""
    if not servers.database:
        report.add("computer", "skipped", "n/a", "(needs the servers' database: not with --url)")
        return
    clock = time.time() - time.perf_counter()  # perf_counter -> wall clock, as the server stamps
    played = [await new_ai_game(servers.urls[i % len(servers.urls)]) for i in range(args.computer_games)]
    watchers = [Watcher(servers.urls[(i + 1) % len(servers.urls)], g.id) for i, (g, _) in enumerate(played)]
    await open_watchers(watchers, 30, 60, args.open_batch)
    errors = 0

    async def play(game: Game, seat: int) -> None:
        nonlocal errors
        end = time.perf_counter() + 50
        while not game.over and time.perf_counter() < end:
            if int(game.state["to_move"]) == seat:
                status, _ = await game.move()
                errors += status != 200
                continue
            await asyncio.sleep(0.05)  # the computer is thinking: look again
            status, body = await game.http.request("GET", f"/api/v1/games/{game.id}")
            if status == 200:
                game.state = json.loads(body)

    started = time.perf_counter()
    await asyncio.gather(*(play(g, seat) for g, seat in played))
    await wait_for_plies(watchers, {g.id: int(g.state["ply"]) for g, _ in played}, 10)
    commits = commit_times(servers.database, [g.id for g, _ in played])
    by_game = {w.game_id: w for w in watchers}
    latencies: list[float] = []
    lost = 0
    mine = {g.id: seat for g, seat in played}
    for (game_id, ply), (mover, committed) in commits.items():
        if mover == mine[game_id]:
            continue  # the client's own move
        seen = by_game[game_id].first_seen.get(ply)
        if seen is None:
            lost += 1
        else:
            latencies.append(max(0.0, seen + clock - committed))
    report.add("computer", "games", len(played), f"in {time.perf_counter() - started:.1f} s")
    report.add("computer", "computer_moves", len(latencies) + lost)
    report.add("computer", "lost", lost, "(not seen within 10 s)")
    report.latencies("computer", "commit_to_socket", latencies, (50, 95, 99))
    report.add("computer", "commit_to_socket_max", max(latencies, default=float("nan")) * 1000, "ms")
    report.add("computer", "move_errors", errors)
    await close_all([g for g, _ in played], watchers)


# -- moves from pages: on the socket or by the form post ------------------------------------

CSRF = re.compile(rb'name="csrfmiddlewaretoken" value="([^"]+)"')
INVITE = re.compile(rb'/join/([^"/?#]+)"')
MOVE_BUTTON = re.compile(rb'name="move" value="([^"]+)"([^>]*)>')
FORM = "Content-Type: application/x-www-form-urlencoded"


class Browser(Http):
    """A browser's connection: it keeps its cookies (its session holds its seat) and posts
    forms as the page does, with the CSRF token and the page's Origin."""

    def __init__(self, base: str) -> None:
        super().__init__(base)
        self.base = base
        self.cookies: dict[str, str] = {}

    @property
    def cookie(self) -> str:
        return "; ".join(f"{name}={value}" for name, value in self.cookies.items())

    def extra_headers(self) -> list[str]:
        return [f"Cookie: {self.cookie}"] if self.cookies else []

    def took_cookie(self, text: str) -> None:
        name, _, rest = text.partition("=")
        self.cookies[name.strip()] = rest.split(";", 1)[0]

    async def token(self, path: str) -> str:
        """The CSRF token of the page at ``path`` (it sets the cookie too)."""
        status, page = await self.request("GET", path)
        found = CSRF.search(page)
        if status != 200 or found is None:
            raise HttpError(f"GET {path}: {status}, no form")
        return found.group(1).decode()

    async def post_form(self, path: str, fields: dict[str, Any], token: str, htmx: bool = False) -> int:
        headers = [FORM, f"Origin: {self.base}", f"Referer: {self.base}/"]
        if htmx:
            headers.append("HX-Request: true")
        status, _ = await self.request(
            "POST", path, {**fields, "csrfmiddlewaretoken": token}, headers=headers
        )
        return status


def playable(rendering: bytes) -> list[str]:
    """The moves a seat's rendering offers (its enabled move buttons)."""
    return [m.group(1).decode() for m in MOVE_BUTTON.finditer(rendering) if b"disabled" not in m.group(2)]


@dataclass
class PageGame:
    """A person-vs-person Quarto game between two browsers, watched by a third page."""

    id: int
    browsers: list[Browser]
    pages: list[Watcher]  # the two seats' pages, then the spectator's
    tokens: list[str]  # each browser's CSRF token
    busy: bool = False
    over: bool = False


async def page_game(base: str, spectator_base: str) -> PageGame:
    """Created from the home page's form by one browser, joined by the invite link by another."""
    first, second = Browser(base), Browser(base)
    token = await first.token("/")
    fields = {"kind": "quarto", "opponent": "human", "seat": "first"}
    if (status := await first.post_form("/games/new", fields, token)) not in (302, 303):
        raise HttpError(f"new game: {status}")
    path = urlsplit(first.last_headers.get("location", "")).path
    status, page = await first.request("GET", path)
    invite, game_id = INVITE.search(page), re.search(r"/games/(\d+)/", path)
    if invite is None or game_id is None:
        raise HttpError(f"no invite link on {path}")
    join = f"/join/{invite.group(1).decode()}"
    second_token = await second.token(join)
    if (status := await second.post_form(join, {}, second_token)) not in (302, 303):
        raise HttpError(f"join: {status}")
    number = int(game_id.group(1))
    pages = [Watcher(base, number, cookie=b.cookie) for b in (first, second)]
    pages.append(Watcher(spectator_base, number))
    return PageGame(number, [first, second], pages, [token, second_token])


async def until_seen(page: Watcher, ply: int, end: float) -> float | None:
    """When ``page`` first showed ``ply`` (or a later one), waiting until ``end``."""
    while page.seen < ply:
        page.changed.clear()
        if page.error or page.closed:
            return None
        try:
            await asyncio.wait_for(page.changed.wait(), max(0.0, end - time.perf_counter()))
        except TimeoutError:
            return None
    return page.first_seen.get(ply, page.first_seen[min(p for p in page.first_seen if p >= ply)])


async def scenario_pagemove(args: argparse.Namespace, servers: Servers, report: Report) -> None:
    """Moves made from pages, first on their sockets, then by the form post, at the same
    rate over the same games: from the click to both players' pages and a spectator's."""
    urls = servers.urls
    jobs = [
        lambda i=i: page_game(urls[i % len(urls)], urls[(i + 1) % len(urls)]) for i in range(args.page_games)
    ]
    games: list[PageGame] = list(await gather_limited(jobs, 10))
    pages = [page for game in games for page in game.pages]
    took, opened, open_errors = await open_watchers(pages, 30, 60, args.open_batch)
    report.add("pagemove", "games", len(games), f"{opened} of {len(pages)} pages open in {took:.2f} s")
    for reason, count in sorted(open_errors.items()):
        report.add("pagemove", "pages_failed", count, reason)

    async def move(
        game: PageGame, via: str, own: list[float], every: list[float], errors: dict[str, int]
    ) -> None:
        game.busy = True
        try:
            ply = min(page.seen for page in game.pages)
            seat = next((s for s in (0, 1) if playable(game.pages[s].board)), None)
            if seat is None or game.pages[seat].seen != ply:
                game.over = seat is None
                return
            options = playable(game.pages[seat].board)
            choice = options[(ply * 7) % len(options)]
            start = time.perf_counter()
            end = start + 5
            if via == "socket":
                socket = game.pages[seat].socket
                assert socket is not None
                await socket.send_text(json.dumps({"move": choice, "ply": ply}))
            else:
                fields = {"move": choice, "ply": ply}
                status = await game.browsers[seat].post_form(
                    f"/games/{game.id}/move", fields, game.tokens[seat], True
                )
                if status != 200:
                    errors[str(status)] = errors.get(str(status), 0) + 1
                    return
            seen = [await until_seen(page, ply + 1, end) for page in game.pages]
            if None in seen:
                errors["not_seen_in_5s"] = errors.get("not_seen_in_5s", 0) + 1
                return
            times = [t - start for t in seen if t is not None]
            own.append(times[seat])
            every.append(max(times))
        except (OSError, HttpError) as exc:
            errors[type(exc).__name__] = errors.get(type(exc).__name__, 0) + 1
        finally:
            game.busy = False

    for via in ("socket", "post"):
        own: list[float] = []
        every: list[float] = []
        errors: dict[str, int] = {}
        tasks = []
        skipped = 0
        total = int(args.page_rate * args.seconds)
        start, cpu = time.perf_counter(), cpu_seconds(servers.pids)
        for i in range(total):
            delay = start + i / args.page_rate - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
            game = games[i % len(games)]
            if game.busy or game.over:
                skipped += 1
                continue
            tasks.append(asyncio.create_task(move(game, via, own, every, errors)))
        await asyncio.gather(*tasks)
        elapsed = time.perf_counter() - start
        cpu_per_move = (cpu_seconds(servers.pids) - cpu) / max(1, len(every))
        report.add("pagemove", f"{via}_moves", len(every), f"in {elapsed:.1f} s (asked {args.page_rate}/s)")
        report.latencies("pagemove", f"{via}_own_page", own, (50, 95))
        report.latencies("pagemove", f"{via}_all_pages", every, (50, 95, 99))
        report.add("pagemove", f"{via}_server_cpu_per_move", cpu_per_move * 1000, "ms")
        report.add("pagemove", f"{via}_errors", sum(errors.values()), json.dumps(errors) if errors else "")
        report.add("pagemove", f"{via}_skipped", skipped, "(previous move not yet seen, or game over)")
    await asyncio.gather(*(page.stop() for page in pages))
    await asyncio.gather(*(b.close() for game in games for b in game.browsers))


RUNNERS = {
    "ratio": scenario_ratio,
    "games": scenario_games,
    "sockets": scenario_sockets,
    "crowd": scenario_crowd,
    "computer": scenario_computer,
    "pagemove": scenario_pagemove,
}


# -- main --------------------------------------------------------------------------------


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--scenario", action="append", choices=SCENARIOS, help="default: all")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--url", action="append", help="a running server (repeat for several)")
    where.add_argument("--stack", action="store_true", help="start scripts/stack (DATABASE_URL, REDIS_URL)")
    parser.add_argument("--processes", type=int, default=2, help="Daphne processes with --stack")
    parser.add_argument("--pid", action="append", type=int, default=[], help="server pids with --url")
    parser.add_argument("--clients", type=int, default=20, help="ratio: concurrent clients")
    parser.add_argument("--seconds", type=float, default=10.0, help="ratio: seconds per half; games: run")
    parser.add_argument("--games", type=int, default=200, help="games: games played at once")
    parser.add_argument("--rate", type=float, default=50.0, help="games: moves per second in all")
    parser.add_argument("--watchers", type=int, default=2, help="games: HTML watchers per game")
    parser.add_argument("--sockets", type=int, default=2000, help="sockets: watchers to open")
    parser.add_argument("--socket-games", type=int, default=20, help="sockets: games they watch")
    parser.add_argument(
        "--open-batch", type=int, default=50, help="games, crowd: watchers opened at a time (0: all)"
    )
    parser.add_argument(
        "--socket-batch", type=int, default=0, help="sockets: opened at a time (default 0: all at once)"
    )
    parser.add_argument("--crowd", type=int, default=500, help="crowd: watchers of the one game")
    parser.add_argument("--crowd-moves", type=int, default=5, help="crowd: moves pushed to them")
    parser.add_argument(
        "--computer-games",
        type=int,
        default=10,
        help="computer: games vs the computer, a watcher each",
    )
    parser.add_argument("--page-games", type=int, default=20, help="pagemove: games between two browsers")
    parser.add_argument("--page-rate", type=float, default=20.0, help="pagemove: moves per second in all")
    args = parser.parse_args(argv)
    args.scenario = args.scenario or list(SCENARIOS)
    if not 0 < args.seconds <= 60:
        parser.error("--seconds must be in (0, 60]: runs stay short on a shared machine")
    if args.rate <= 0 or min(args.clients, args.games, args.socket_games, args.processes) < 1:
        parser.error("--rate, --clients, --games, --socket-games and --processes must be positive")
    return args


async def main_async(args: argparse.Namespace) -> None:
    limit = raise_open_files()
    if args.url:
        servers = Servers(list(args.url), list(args.pid), lambda: None, "servers at " + " ".join(args.url))
    elif args.stack:
        servers = await start_stack(args.processes)
    else:
        servers = await start_embedded()
    report = Report()
    try:
        print(f"# {servers.description}; open files {limit}; scenarios {' '.join(args.scenario)}")
        print(f"# load average at start: {os.getloadavg()[0]:.2f} (2 cores shared with the server)")
        for n, size in enumerate(rss_mib(servers.pids), 1):
            report.add("server", f"rss_server{n}_start", size, "MiB")
        for name in args.scenario:
            started = time.perf_counter()
            await RUNNERS[name](args, servers, report)
            report.add(name, "scenario_seconds", time.perf_counter() - started, "s")
        for n, size in enumerate(rss_mib(servers.pids), 1):
            report.add("server", f"rss_server{n}_end", size, "MiB")
    finally:
        servers.stop()


def main(argv: Sequence[str] | None = None) -> None:
    asyncio.run(main_async(parse_args(argv)))


if __name__ == "__main__":
    main()
