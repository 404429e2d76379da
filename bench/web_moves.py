"""Move endpoint latency and throughput, against a real Daphne server.

Starts its own server (embedded SQLite + in-memory layer by default; PostgreSQL and
Redis when DATABASE_URL / REDIS_URL are set), then:

1. latency: one person-vs-person Quarto game played move by move over HTMX posts,
   first with the server idle, then while ``--thinking`` games have the computer
   searching (each computer action is given ``--budget`` seconds);
2. throughput: ``--clients`` concurrent clients, each playing its own games,
   for ``--seconds`` seconds.

    .venv/bin/python bench/web_moves.py [--thinking 4] [--budget 2] [--clients 20] [--seconds 10]
"""

from __future__ import annotations

import argparse
import http.client
import os
import re
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from http.cookies import SimpleCookie
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.e2e.conftest import Processes  # noqa: E402  (the same server launcher as the browser tests)


class Browser:
    """A cookie-keeping HTTP client that posts forms the way htmx does."""

    def __init__(self, port: int) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.cookies: dict[str, str] = {}

    def request(self, method: str, path: str, form: dict[str, str] | None = None) -> tuple[int, str, str]:
        headers = {"HX-Request": "true", "Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        body = None
        if form is not None:
            body = urlencode(form)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            headers["X-CSRFToken"] = self.cookies.get("csrftoken", "")
        self.conn.request(method, path, body=body, headers=headers)
        response = self.conn.getresponse()
        text = response.read().decode()
        for header in response.headers.get_all("Set-Cookie") or []:
            for key, morsel in SimpleCookie(header).items():
                self.cookies[key] = morsel.value
        return (
            response.status,
            text,
            response.headers.get("HX-Redirect") or response.headers.get("Location", ""),
        )

    def new_game(self, **form: str) -> int:
        if "csrftoken" not in self.cookies:
            self.request("GET", "/")
        _, _, location = self.request("POST", "/games/new", form)
        match = re.search(r"/games/(\d+)/", location)
        assert match, f"no game created: {location!r}"
        return int(match.group(1))

    def join(self, game_id: int) -> None:
        if "csrftoken" not in self.cookies:
            self.request("GET", "/")
        _, html, _ = self.request("GET", f"/games/{game_id}/")
        code = re.search(r"/join/([\w-]+)", html)
        assert code
        self.request("POST", f"/join/{code.group(1)}", {})

    def move(self, game_id: int, text: str, ply: int) -> float:
        start = time.perf_counter()
        status, html, _ = self.request("POST", f"/games/{game_id}/move", {"move": text, "ply": str(ply)})
        elapsed = time.perf_counter() - start
        assert status == 200 and 'role="alert"' not in html, html[:300]
        return elapsed


# A drawn-out Quarto game between two people: (seat, action) in order.
def quarto_record() -> list[str]:
    from games.kinds.quarto import rules as quarto

    state = quarto.initial_state()
    texts = []
    for i in range(32):
        moves = state.legal_moves()
        move = moves[(i * 7) % len(moves)]
        texts.append(str(move))
        state = state.play(move)
        if state.is_over():
            break
    return texts


def play_friends_game(a: Browser, b: Browser, record: list[str]) -> list[float]:
    from games.kinds.quarto import rules as quarto

    game_id = a.new_game(kind="quarto", opponent="human", seat="first")
    b.join(game_id)
    state = quarto.initial_state()
    times = []
    for ply, text in enumerate(record):
        mover = a if state.to_move == 0 else b
        times.append(mover.move(game_id, text, ply))
        state = state.play(quarto.parse_move(text))
    return times


def start_thinking(port: int, count: int, kind: str, level: str) -> list[tuple[Browser, int]]:
    games = []
    for _ in range(count):
        player = Browser(port)
        game_id = player.new_game(kind=kind, opponent="ai", level=level, seat="second")
        games.append((player, game_id))
    return games


def summary(times: list[float]) -> str:
    times = sorted(times)
    p95 = times[int(len(times) * 0.95) - 1]
    median = statistics.median(times) * 1000
    return f"n={len(times)} median {median:.1f} ms, p95 {p95 * 1000:.1f} ms, max {times[-1] * 1000:.1f} ms"


def run_clients(clients: int, seconds: float, work: Callable[[float], int]) -> tuple[int, float]:
    """Run ``work(stop)`` on ``clients`` threads at once; the total they count and the seconds taken."""
    done = [0]
    lock = threading.Lock()
    stop = time.monotonic() + seconds

    def worker() -> None:
        count = work(stop)
        with lock:
            done[0] += count

    threads = [threading.Thread(target=worker) for _ in range(clients)]
    start = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return done[0], time.monotonic() - start


def throughput(port: int, clients: int, seconds: float, record: list[str]) -> tuple[int, float]:
    """Moves per second: each client plays whole games (their set-up requests not counted)."""

    def play(stop: float) -> int:
        a, b = Browser(port), Browser(port)
        moves = 0
        while time.monotonic() < stop:
            moves += len(play_friends_game(a, b, record))
        return moves

    return run_clients(clients, seconds, play)


def bare_ceiling(port: int, clients: int, seconds: float) -> float:
    """Requests per second of the smallest view (/healthz) with the same clients: the ceiling."""

    def ping(stop: float) -> int:
        client = Browser(port)
        count = 0
        while time.monotonic() < stop:
            client.request("GET", "/healthz")
            count += 1
        return count

    count, elapsed = run_clients(clients, seconds, ping)
    return count / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--thinking", type=int, default=4, help="games with the computer searching meanwhile")
    parser.add_argument("--kind", default="quarto", help="game of the thinking computer players")
    parser.add_argument("--level", default="", help="their level (default: the strongest)")
    parser.add_argument("--budget", type=float, default=2.0, help="seconds per computer action")
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=10.0)
    args = parser.parse_args()

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "quarto_site.settings")
    import django

    django.setup()
    from games import catalog

    level = args.level or catalog.get(args.kind).levels[-1]
    folder = Path(tempfile.mkdtemp(prefix="bench-web-"))
    env = dict(os.environ)
    env.update(AI_DELAY="0", AI_BUDGET=str(args.budget), AI_PROCESSES="1", LOG_LEVEL="WARNING")
    if not env.get("DATABASE_URL"):
        env["SQLITE_PATH"] = str(folder / "db.sqlite3")
    backend = "PostgreSQL" if env.get("DATABASE_URL") else "SQLite"
    layer = "Redis" if env.get("REDIS_URL") else "in-memory layer"
    processes = Processes(folder, env)
    processes.manage("migrate", "-v", "0")
    url = processes.daphne("daphne")
    port = int(url.rsplit(":", 1)[1])
    try:
        record = quarto_record()
        print(f"server: one Daphne process, {backend}, {layer}")
        print(f"computer players: {args.kind} {level}, {args.budget} s per action")
        play_friends_game(Browser(port), Browser(port), record[:4])  # warm the server
        print(
            "idle server, person-vs-person moves:",
            summary(play_friends_game(Browser(port), Browser(port), record)),
        )
        thinking = start_thinking(port, args.thinking, args.kind, level)
        time.sleep(0.5)
        busy = play_friends_game(Browser(port), Browser(port), record)
        print(f"{len(thinking)} computer games searching meanwhile:", summary(busy))
        ceiling = bare_ceiling(port, args.clients, args.seconds)
        print(f"ceiling: {args.clients} clients on /healthz = {ceiling:.0f} requests/s")
        moves, elapsed = throughput(port, args.clients, args.seconds, record)
        rate = moves / elapsed
        print(
            f"throughput: {args.clients} clients, {moves} moves in {elapsed:.1f} s = {rate:.0f} moves/s"
            f" ({rate / ceiling:.2f} of the ceiling; game set-up requests come on top)"
        )
    finally:
        processes.stop()


if __name__ == "__main__":
    main()
