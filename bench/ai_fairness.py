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

    .venv/bin/python bench/ai_fairness.py [--replies 5] [--attackers 24] [--budget 1.0]
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
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

from tests.e2e.conftest import Processes  # noqa: E402  (the same server launcher as the browser tests)

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
        LOG_LEVEL="WARNING",
    )
    processes = Processes(folder, env)
    processes.manage("migrate", "-v", "0")
    url = processes.daphne("daphne")
    port = int(url.rsplit(":", 1)[1])
    try:
        print(f"server: one Daphne process, SQLite, AI_BUDGET {args.budget} s, victim level {args.level}")
        victim_replies(port, args.level, 1, args.timeout)  # warm-up
        idle = victim_replies(port, args.level, args.replies, args.timeout)
        print("idle:          ", summary(idle))
        stop = threading.Event()
        outcomes: Counter[int] = Counter()
        workers = attack(port, args.attackers, args.level, stop, outcomes)
        time.sleep(1.0)
        started = time.perf_counter()
        busy = victim_replies(port, args.level, args.replies, args.timeout)
        elapsed = time.perf_counter() - started
        stop.set()
        print(f"under attack:   {summary(busy)}")
        answers = ", ".join(f"{status or 'no answer'}: {n}" for status, n in sorted(outcomes.items()))
        print(f"attacker: {args.attackers} threads, answers by status over {elapsed + 1:.0f} s: {answers}")
        verdict = "met" if statistics.median(busy) <= statistics.median(idle) + 1 else "missed"
        print(f"target (median under attack <= idle + 1 s): {verdict}")
        for worker in workers:
            worker.join(args.timeout)
    finally:
        processes.stop()


if __name__ == "__main__":
    main()
