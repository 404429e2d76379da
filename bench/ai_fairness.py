"""Does analysis starve the computer's moves? A victim game's computer reply time,
idle and while one client runs many parallel analysis requests, on a real Daphne.

Starts its own server (SQLite in a temporary folder, in-memory layer, the computer
inline with one search process, no thinking delay), then:

1. idle: the victim plays ``--replies`` turns of Quarto against the computer over the
   API; each reply time runs from the victim's move to the state showing the
   computer's placement and give (polled every 50 ms);
2. attack: the same while ``--attackers`` threads of one other client each ask
   ``GET /api/v1/games/<own game>/analysis`` in a loop (a fresh game per thread, so
   every request is a full-budget search), ignoring any Retry-After.

The two clients are told apart by X-Forwarded-For (the server trusts 127.0.0.1 as a
proxy; a server that does not read the header sees one client, which only makes the
attacker's share larger). The API rate limit is lifted so that only the analysis pool
and its admission stand between the attacker and the computer.

``--crowd N`` (issue 37) replaces the one attacker by N clients at once, each its own
address, each asking in turn the analysis board's API (``POST /api/v1/analysis``, a
random early Quarto position, a full-budget search) and a puzzle (``GET
/api/v1/puzzles/next``, then ``POST .../attempt`` with a random legal action: the solver
judges it), rate limits lifted (``RATE_LIMIT_HINT`` too): the target is every computer
reply within its budget plus 1 s (the slowest reply printed beside it).

    .venv/bin/python bench/ai_fairness.py [--replies 5] [--attackers 24] [--budget 1.0]
    .venv/bin/python bench/ai_fairness.py --crowd 50 --replies 8
"""

from __future__ import annotations

import argparse
import http.client
import importlib.util
import json
import os
import random
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

# The same server launcher as the browser tests, loaded by its path: an installed package
# named "tests" would shadow this tree's (which has no __init__.py).
_launcher = importlib.util.spec_from_file_location("e2e_conftest", ROOT / "tests" / "e2e" / "conftest.py")
assert _launcher is not None and _launcher.loader is not None
_conftest = importlib.util.module_from_spec(_launcher)
_launcher.loader.exec_module(_conftest)
Processes = _conftest.Processes

VICTIM = "198.51.100.1"
ATTACKER = "203.0.113.66"


class Api:
    def __init__(self, port: int, address: str, timeout: float = 120) -> None:
        self.port = port
        self.address = address
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)

    def call(self, method: str, path: str, body: Any = None, token: str = "") -> tuple[int, Any]:
        headers = {"X-Forwarded-For": self.address, "Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        data = None if body is None else json.dumps(body)
        try:
            self.conn.request(method, path, body=data, headers=headers)
            response = self.conn.getresponse()
            raw = response.read()
        except (OSError, http.client.HTTPException):
            self.conn.close()
            self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
            return 0, None
        try:
            return response.status, json.loads(raw)
        except ValueError:
            return response.status, raw.decode(errors="replace")

    def new_game(self, level: str) -> tuple[int, str]:
        status, data = self.call(
            "POST", "/api/v1/games", {"game": "quarto", "opponent": "ai", "level": level, "seat": "first"}
        )
        assert status == 201, (status, data)
        return data["id"], data["token"]


def victim_replies(port: int, level: str, count: int, timeout: float) -> list[float]:
    """Seconds from each victim move to the computer's whole reply (placement and give)."""
    api = Api(port, VICTIM)
    times: list[float] = []
    game_id, token = api.new_game(level)
    while len(times) < count:
        _, state = api.call("GET", f"/api/v1/games/{game_id}")
        if state["status"] != "playing" or state["to_move"] != 0:
            game_id, token = api.new_game(level)
            continue
        ply = state["ply"]
        if state["phase"] == "place":  # place the piece in hand first (not timed)
            api.call(
                "POST", f"/api/v1/games/{game_id}/moves", {"move": state["legal_moves"][0], "ply": ply}, token
            )
            ply += 1
            _, state = api.call("GET", f"/api/v1/games/{game_id}")
            if state["status"] != "playing":
                continue
        move = state["legal_moves"][0]
        status, _ = api.call("POST", f"/api/v1/games/{game_id}/moves", {"move": move, "ply": ply}, token)
        assert status == 200, status
        start = time.perf_counter()
        deadline = start + timeout
        while time.perf_counter() < deadline:
            _, state = api.call("GET", f"/api/v1/games/{game_id}")
            if state["status"] != "playing" or (state["to_move"] == 0 and state["ply"] >= ply + 2):
                break
            time.sleep(0.05)
        times.append(time.perf_counter() - start)
    return times


def attack(port: int, threads: int, level: str, stop: threading.Event, outcomes: Counter[int]) -> list[Any]:
    games = [Api(port, ATTACKER).new_game(level)[0] for _ in range(threads)]
    lock = threading.Lock()

    def loop(game_id: int) -> None:
        api = Api(port, ATTACKER)
        while not stop.is_set():
            status, _ = api.call("GET", f"/api/v1/games/{game_id}/analysis")
            with lock:
                outcomes[status] += 1
            if status != 200:
                time.sleep(0.02)  # an impatient client: no Retry-After honoured

    workers = [threading.Thread(target=loop, args=(g,), daemon=True) for g in games]
    for worker in workers:
        worker.start()
    return workers


def crowd(port: int, clients: int, stop: threading.Event, outcomes: Counter[str]) -> list[Any]:
    """``clients`` clients, each its own address, asking the analysis board and puzzles in turn."""
    from games import catalog

    rules = catalog.get("quarto").rules
    lock = threading.Lock()

    def count(what: str, status: int) -> None:
        with lock:
            outcomes[f"{what} {status or 'no answer'}"] += 1

    def loop(n: int) -> None:
        api = Api(port, f"198.18.{n // 250}.{n % 250 + 1}")
        rng = random.Random(n)
        while not stop.is_set():
            moves: list[str] = []
            state = rules.replay({}, moves)
            for _ in range(rng.randrange(2, 9)):  # an early position: a full search in the budget
                move = rng.choice(list(state.legal_moves()))
                moves.append(str(move))
                state = state.play(move)
            status, _ = api.call("POST", "/api/v1/analysis", {"game": "quarto", "moves": moves})
            count("analysis", status)
            status, puzzle = api.call("GET", "/api/v1/puzzles/next?game=quarto")
            count("puzzle", status)
            if status == 200:
                start = rules.replay(puzzle["options"], puzzle["moves"])
                action = str(rng.choice(list(start.legal_moves())))
                status, _ = api.call("POST", f"/api/v1/puzzles/{puzzle['id']}/attempt", {"moves": [action]})
                count("attempt", status)
            if status not in (200, 400):
                time.sleep(0.02)  # no Retry-After honoured

    workers = [threading.Thread(target=loop, args=(n,), daemon=True) for n in range(clients)]
    for worker in workers:
        worker.start()
    return workers


def serving(port: int, server: Any, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and server.poll() is None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        try:
            conn.request("GET", "/healthz")
            if conn.getresponse().status == 200:
                return
        except (OSError, http.client.HTTPException):
            time.sleep(0.5)
        finally:
            conn.close()
    raise SystemExit(f"the server on port {port} did not answer within {seconds:.0f} s")


def summary(times: list[float]) -> str:
    return (
        f"median {statistics.median(times):.2f} s, max {max(times):.2f} s "
        f"({', '.join(f'{t:.2f}' for t in times)})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--replies", type=int, default=5, help="computer replies timed per phase")
    parser.add_argument("--attackers", type=int, default=24, help="parallel analysis requests")
    parser.add_argument(
        "--budget", type=float, default=1.0, help="AI_BUDGET: seconds per action and analysis"
    )
    parser.add_argument("--level", default="perfect", help="the victim's computer opponent")
    parser.add_argument("--timeout", type=float, default=60.0, help="give up on a reply after this")
    parser.add_argument("--crowd", type=int, default=0, help="clients of the analysis board and puzzles")
    parser.add_argument("--port", type=int, default=0, help="the server's port (a free one by default)")
    args = parser.parse_args()

    folder = Path(tempfile.mkdtemp(prefix="bench-fair-"))
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.update(
        SQLITE_PATH=str(folder / "db.sqlite3"),
        AI_DELAY="0",
        AI_BUDGET=str(args.budget),
        AI_PROCESSES="1",
        API_RATE_LIMIT="1000000/minute",
        TRUSTED_PROXIES="127.0.0.1",
        RATE_LIMIT_HINT="1000000/minute",
        LOG_LEVEL="WARNING",
    )
    processes = Processes(folder, env)
    processes.manage("migrate", "-v", "0")
    if args.crowd:
        processes.manage("load_puzzles", "--game", "quarto")  # the shipped puzzles, for the attempts
    port = args.port or _conftest.free_port()
    server = processes.start(
        "daphne", "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "quarto_site.asgi:application"
    )
    serving(port, server, 180)  # a loaded machine starts a server slowly
    try:
        print(f"server: one Daphne process, SQLite, AI_BUDGET {args.budget} s, victim level {args.level}")
        victim_replies(port, args.level, 1, args.timeout)  # warm-up
        idle = victim_replies(port, args.level, args.replies, args.timeout)
        print("idle:          ", summary(idle))
        stop = threading.Event()
        outcomes: Counter[Any] = Counter()
        if args.crowd:
            workers = crowd(port, args.crowd, stop, outcomes)
        else:
            workers = attack(port, args.attackers, args.level, stop, outcomes)
        time.sleep(1.0)
        started = time.perf_counter()
        busy = victim_replies(port, args.level, args.replies, args.timeout)
        elapsed = time.perf_counter() - started
        stop.set()
        print(f"under attack:   {summary(busy)}")
        answers = ", ".join(
            f"{status or 'no answer'}: {n}" for status, n in sorted(outcomes.items(), key=str)
        )
        who = f"crowd: {args.crowd} clients" if args.crowd else f"attacker: {args.attackers} threads"
        print(f"{who}, answers by status over {elapsed + 1:.0f} s: {answers}")
        print(f"load average: {' '.join(f'{v:.2f}' for v in os.getloadavg())}")
        if args.crowd:
            # A reply is the computer's turn: its placement and its give, each its own search.
            limit = statistics.median(idle) + 1
            verdict = "met" if max(busy) <= limit else "MISSED"
            print(
                f"target (every reply <= idle median + 1 s = {limit:.2f} s; "
                f"slowest {max(busy):.2f} s): {verdict}"
            )
        else:
            verdict = "met" if statistics.median(busy) <= statistics.median(idle) + 1 else "missed"
            print(f"target (median under attack <= idle + 1 s): {verdict}")
        for worker in workers:
            worker.join(args.timeout)
    finally:
        processes.stop()


if __name__ == "__main__":
    main()
