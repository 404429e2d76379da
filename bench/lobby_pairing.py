"""Quick pairing under a crowd: N players ask POST /api/v1/pairing at once, on one process.

The bench starts one Daphne process (SQLite, in-memory channel layer, in a temporary
folder, rate limits raised), makes N accounts with a personal token each, then lets every
player ask for a game of the same kind and clock at the same moment (a thread each,
asking again on 204 as a bot would). It prints the pairs made, players paired twice (must
be 0), players left unpaired, and the time from the start to each player's answer naming
its game: p50, p95, max.

    .venv/bin/python bench/lobby_pairing.py                  # 200 players, tic-tac-toe 3+2
    .venv/bin/python bench/lobby_pairing.py --players 400 --wait 10
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from pathlib import Path

# Run as a script, this folder is on the path: the Daphne start is live_load's.
from live_load import start_daphne

ROOT = Path(__file__).resolve().parent.parent
UNLIMITED = {
    "API_RATE_LIMIT": "1000000/minute",
    "RATE_LIMIT_CREATE": "1000000/minute",
    "WS_MAX_PER_CLIENT": "100000",
    "AI_DELAY": "0",
    "AI_WARM_UP": "0",
    "LOG_LEVEL": "WARNING",
}
MAKE_TOKENS = """
import json, sys
from django.contrib.auth.models import User
from accounts import services
tokens = []
for n in range({count}):
    user = User.objects.create_user(f"bench{{n}}", password="a-long-pass-phrase")
    tokens.append(services.create_token(services.account_of(user), "bench"))
sys.stdout.write(json.dumps(tokens))
"""


def wait_ready(url: str, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url + "/healthz?degraded=ok", timeout=5):
                return
        except OSError:  # refused, reset, or no answer yet (URLError is one too)
            time.sleep(0.2)
    raise SystemExit(f"the server at {url} did not answer within {seconds} s")


def ask(url: str, token: str, body: bytes) -> tuple[int, dict[str, int] | None]:
    request = urllib.request.Request(
        url + "/api/v1/pairing",
        body,
        {"Content-Type": "application/json", "Authorization": f"Bearer {token}"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=120) as response:
        status = response.status
        text = response.read()
    return status, (json.loads(text) if status == 200 else None)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--game", default="tictactoe")
    parser.add_argument("--clock", default='{"initial": 180, "increment": 2}')
    parser.add_argument("--wait", default="10", help="PAIRING_WAIT on the server (seconds)")
    parser.add_argument("--give-up", type=float, default=120, help="a player stops asking after this long")
    args = parser.parse_args()

    folder = Path(tempfile.mkdtemp(prefix="lobby-pairing-"))
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.update(UNLIMITED, SQLITE_PATH=str(folder / "db.sqlite3"), PAIRING_WAIT=args.wait)
    env.setdefault("DJANGO_SETTINGS_MODULE", "quarto_site.settings")
    python = sys.executable
    subprocess.run([python, "manage.py", "migrate", "-v", "0"], cwd=ROOT, env=env, check=True)
    made = subprocess.run(
        [python, "manage.py", "shell", "-c", MAKE_TOKENS.format(count=args.players)],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    tokens: list[str] = json.loads(made.stdout.strip().splitlines()[-1])
    server, url, log = start_daphne(env, folder)
    try:
        wait_ready(url)
        run(url, tokens, args)
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(15)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()
        shutil.rmtree(folder, ignore_errors=True)


def run(url: str, tokens: list[str], args: argparse.Namespace) -> None:
    body = json.dumps({"game": args.game, "clock": json.loads(args.clock)}).encode()
    barrier = threading.Barrier(len(tokens) + 1)
    answers: dict[int, tuple[float, int, int]] = {}  # player -> (seconds, game, seat)
    errors: Counter[str] = Counter()
    retries = Counter[int]()
    start = 0.0

    def player(n: int) -> None:
        barrier.wait()
        give_up = time.monotonic() + args.give_up
        while time.monotonic() < give_up:
            try:
                status, data = ask(url, tokens[n], body)
            except Exception as exc:  # counted and printed; the player asks again
                errors[type(exc).__name__] += 1
                time.sleep(0.2)
                continue
            if status == 200 and data is not None:
                answers[n] = (time.monotonic() - start, data["game"], data["seat"])
                return
            retries[n] += 1

    threads = [threading.Thread(target=player, args=(n,), daemon=True) for n in range(len(tokens))]
    for t in threads:
        t.start()
    start = time.monotonic()
    barrier.wait()
    for t in threads:
        t.join()
    elapsed = time.monotonic() - start

    by_game = Counter(game for _, game, _ in answers.values())
    seats = Counter((game, seat) for _, game, seat in answers.values())
    times = sorted(seconds for seconds, _, _ in answers.values())
    print(f"players {len(tokens)}")
    print(f"pairs_made {sum(1 for count in by_game.values() if count == 2)}")
    print(f"games_with_one_answer {sum(1 for count in by_game.values() if count == 1)}")
    print(f"seat_answered_twice {sum(1 for count in seats.values() if count > 1)}")
    print(f"unpaired {len(tokens) - len(answers)}")
    print(f"retries_204 {sum(retries.values())}")
    print(f"errors {dict(errors) or 0}")
    if times:
        p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
        print(f"time_to_pair_p50 {statistics.median(times):.3f} s")
        print(f"time_to_pair_p95 {p95:.3f} s")
        print(f"time_to_pair_max {times[-1]:.3f} s")
    print(f"wall {elapsed:.3f} s")


if __name__ == "__main__":
    main()
