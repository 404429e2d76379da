"""An arena under a crowd: N accounts join one arena through the API and play game after game.

The bench starts one Daphne process (SQLite, in-memory channel layer, in a temporary
folder, rate limits raised, the tournaments' timer at its default TOURNAMENT_TICK), makes
N accounts with a personal token each, and one of them makes an arena that starts at once
(POST /api/v1/tournaments). Every player joins (POST .../join), then, as a bot would,
asks for its game (GET .../me) every --poll seconds; in each game the first seat resigns
at once (the games' API), so games end as fast as players can ask. Each player plays
--games games, then resigns whatever it is given until everyone is done. It
prints the time from a game's end (the resignation's answer) to each of its two players'
next pairing as the player sees it (p50, p95, max), the same from the database (a
game's end to its players' next game's creation), the pairs made, and, read from the database
afterwards, the players ever in two games at once (must be 0) and the one-seat games
(must be 0).

``--busy-games N`` keeps N more games in play on the same server meanwhile (issue 37: the
arena re-pairs within 1 s, p95, while 100 games are played): person-vs-person Quarto games
over the API, ``--busy-rate`` moves a second among them all, a new game when one ends; it
prints their moves/s and the moves' answer times (p50, p95) beside the pairings' figures.

    .venv/bin/python bench/tournament_arena.py                 # 200 players, 3 games each
    .venv/bin/python bench/tournament_arena.py --players 50 --games 5
    .venv/bin/python bench/tournament_arena.py --busy-games 100 --busy-rate 50
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
from typing import Any

# Run as a script, this folder is on the path: the Daphne start is live_load's, the raised
# limits and the wait for the server lobby_pairing's.
from live_load import start_daphne
from lobby_pairing import UNLIMITED as LOBBY_UNLIMITED
from lobby_pairing import wait_ready

ROOT = Path(__file__).resolve().parent.parent
UNLIMITED = {**LOBBY_UNLIMITED, "RATE_LIMIT_MOVE": "1000000/minute"}
MAKE_TOKENS = """
import json, sys
from django.contrib.auth.models import User
from accounts import services
tokens = []
for n in range({count}):
    user = User.objects.create_user(f"bench{{n}}")
    tokens.append(services.create_token(services.account_of(user), "bench"))
sys.stdout.write(json.dumps(tokens))
"""
CHECK = """
import json, sys
from games.models import Game
from tournaments.models import Entry, Pairing
overlaps = one_seat = 0
gaps = []
for entry in Entry.objects.filter(tournament_id={tid}):
    mine = Pairing.objects.filter(tournament_id={tid}, game__isnull=False).filter(first=entry) | \\
        Pairing.objects.filter(tournament_id={tid}, game__isnull=False).filter(second=entry)
    games = sorted((p.game for p in mine.select_related("game")), key=lambda g: g.created)
    overlaps += sum(1 for a, b in zip(games, games[1:]) if not a.is_finished or b.created < a.updated)
    gaps += [(b.created - a.updated).total_seconds() for a, b in zip(games, games[1:])]
    overlaps += max(0, sum(1 for p in mine if not p.done) - 1)
for p in Pairing.objects.filter(tournament_id={tid}, game__isnull=False).select_related("game"):
    one_seat += not all(s.player_id for s in p.game.seat_list)
sys.stdout.write(json.dumps({{"overlaps": overlaps, "one_seat": one_seat, "gaps": sorted(gaps),
    "pairings": Pairing.objects.filter(tournament_id={tid}).count()}}))
"""


def call(url: str, method: str, path: str, token: str, body: Any = None) -> tuple[int, Any]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        url + path,
        data,
        {"Content-Type": "application/json", "Authorization": f"Bearer {token}"},
        method=method,
    )
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read() or b"null")
    except OSError:  # no answer within the minute (a starved server): counted, not fatal
        return 0, None


def manage(env: dict[str, str], script: str) -> Any:
    done = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", script], cwd=ROOT, env=env, check=True,
        capture_output=True, text=True,
    )  # fmt: skip
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--games", type=int, default=3, help="games each player plays")
    parser.add_argument("--poll", type=float, default=0.5, help="seconds between a player's GET .../me")
    parser.add_argument("--give-up", type=float, default=300)
    parser.add_argument("--busy-games", type=int, default=0, help="games in play beside the arena")
    parser.add_argument("--busy-rate", type=float, default=50.0, help="their moves a second, all together")
    args = parser.parse_args()

    folder = Path(tempfile.mkdtemp(prefix="tournament-arena-"))
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.update(UNLIMITED, SQLITE_PATH=str(folder / "db.sqlite3"))
    env.setdefault("DJANGO_SETTINGS_MODULE", "quarto_site.settings")
    subprocess.run([sys.executable, "manage.py", "migrate", "-v", "0"], cwd=ROOT, env=env, check=True)
    tokens: list[str] = manage(env, MAKE_TOKENS.format(count=args.players))
    server, url, log = start_daphne(env, folder)
    try:
        wait_ready(url, 180)  # a loaded machine starts a server slowly
        busy = Busy(url, args.busy_games, args.busy_rate)
        busy.start()
        try:
            tid = run(url, tokens, args)
        finally:
            busy.stop()
        found = manage(env, CHECK.format(tid=tid))
        print(f"pairings {found['pairings']}")
        print(f"players_in_two_games_at_once {found['overlaps']}")
        print(f"one_seat_games {found['one_seat']}")
        gaps = found["gaps"]
        if gaps:
            p95 = gaps[min(len(gaps) - 1, int(0.95 * len(gaps)))]
            median = statistics.median(gaps)
            print(f"end_to_next_pairing_in_db p50 {median:.3f} s p95 {p95:.3f} s max {gaps[-1]:.3f} s")
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(15)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()
        shutil.rmtree(folder, ignore_errors=True)


class Busy:
    """``games`` person-vs-person Quarto games kept in play over the API, ``rate`` moves a
    second among them (each game a move every ``games / rate`` seconds), in threads."""

    def __init__(self, url: str, games: int, rate: float) -> None:
        self.url, self.games, self.rate = url, games, rate
        self.stopping = threading.Event()
        self.threads = [threading.Thread(target=self.play, args=(n,), daemon=True) for n in range(games)]
        self.times: list[float] = []
        self.errors: Counter[str] = Counter()
        self.started = 0.0

    def start(self) -> None:
        self.started = time.monotonic()
        for thread in self.threads:
            thread.start()

    def new_game(self) -> tuple[int, dict[int, str], dict[str, Any]]:
        while True:  # a starved server may not answer within the minute: counted, tried again
            status, made = call(
                self.url, "POST", "/api/v1/games", "", {"game": "quarto", "opponent": "human"}
            )
            if status == 201:
                invite = {"invite": made["invite"]} if "invite" in made else None
                status, joined = call(self.url, "POST", f"/api/v1/games/{made['id']}/join", "", invite)
                if status == 200:
                    break
            self.errors[f"new game {status}"] += 1
        tokens = {int(made["seat"]): made["token"], int(joined["seat"]): joined["token"]}
        return int(made["id"]), tokens, joined["state"]

    def play(self, n: int) -> None:
        gap = self.games / self.rate
        time.sleep(gap * n / self.games)  # spread the games' moves over the interval
        game, tokens, state = self.new_game()
        next_at = time.monotonic()
        while not self.stopping.is_set():
            if state.get("status") == "finished" or not state.get("legal_moves"):
                game, tokens, state = self.new_game()
            ply, legal = int(state["ply"]), state["legal_moves"]
            body = {"move": legal[(ply * 7) % len(legal)], "ply": ply}
            start = time.monotonic()
            status, answer = call(
                self.url, "POST", f"/api/v1/games/{game}/moves", tokens[int(state["to_move"])], body
            )
            if status == 200:
                self.times.append(time.monotonic() - start)
                state = answer
            else:
                self.errors[f"move {status}"] += 1
                status, answer = call(self.url, "GET", f"/api/v1/games/{game}", tokens[0])
                state = answer if status == 200 else state
            next_at += gap
            self.stopping.wait(max(0.0, next_at - time.monotonic()))

    def stop(self) -> None:
        if not self.threads:
            return
        took = time.monotonic() - self.started
        self.stopping.set()
        for thread in self.threads:
            thread.join(30)
        times = sorted(self.times)
        print(
            f"busy_games {self.games} moves {len(times)}",
            f"moves_per_s {len(times) / took:.1f} (asked {self.rate})",
        )
        if times:
            p50, p95 = statistics.median(times), times[min(len(times) - 1, int(0.95 * len(times)))]
            print(f"busy_move_answer p50 {p50 * 1000:.0f} ms p95 {p95 * 1000:.0f} ms")
        print(f"busy_errors {dict(self.errors) or 0}")


def run(url: str, tokens: list[str], args: argparse.Namespace) -> int:
    arena = {"kind": "arena", "game": "tictactoe", "clock": {"initial": 180, "increment": 2}, "minutes": 60}
    status, made = call(url, "POST", "/api/v1/tournaments", tokens[0], arena)
    assert status == 201, made
    tid = made["id"]
    ended: dict[int, float] = {}  # game -> when its resignation was answered
    waits: list[float] = []
    errors: Counter[str] = Counter()
    lock = threading.Lock()
    finished: list[int] = []
    everyone_done = threading.Event()
    barrier = threading.Barrier(len(tokens) + 1)

    def player(n: int) -> None:
        token = tokens[n]
        barrier.wait()
        status, _ = call(url, "POST", f"/api/v1/tournaments/{tid}/join", token)
        if status != 200:
            errors[f"join {status}"] += 1
            return
        last: int | None = None
        played = 0
        give_up = time.monotonic() + args.give_up
        # Once done, a player stays and resigns whatever it is given (others may still need
        # opponents) until everyone is done.
        while not everyone_done.is_set() and time.monotonic() < give_up:
            status, me = call(url, "GET", f"/api/v1/tournaments/{tid}/me", token)
            game = me.get("game") if status == 200 and me else None
            if status != 200:
                errors[f"me {status}"] += 1
            if game is None or game == last:
                time.sleep(args.poll)
                continue
            counted = played < args.games
            with lock:
                if counted and last is not None:
                    waits.append(time.monotonic() - ended[last])
            last, played = game, played + 1
            if played == args.games:
                with lock:
                    finished.append(n)
                    if len(finished) == len(tokens):
                        everyone_done.set()
            status, state = call(url, "GET", f"/api/v1/games/{game}", token)
            first = state["seats"][0].get("user") if status == 200 else None
            if first == f"bench{n}" or not counted:
                status, _ = call(url, "POST", f"/api/v1/games/{game}/resign", token)
                if status == 200:
                    with lock:
                        ended[game] = time.monotonic()
            while game not in ended and not everyone_done.is_set() and time.monotonic() < give_up:
                time.sleep(args.poll / 4)  # the opponent resigns

    threads = [threading.Thread(target=player, args=(n,), daemon=True) for n in range(len(tokens))]
    for t in threads:
        t.start()
    start = time.monotonic()
    barrier.wait()
    for t in threads:
        t.join()
    print(f"players {len(tokens)} games_each {args.games} poll {args.poll} s")
    print(f"games_ended {len(ended)} wall {time.monotonic() - start:.1f} s")
    print(f"errors {dict(errors) or 0}")
    if waits:
        waits.sort()
        p95 = waits[min(len(waits) - 1, int(0.95 * len(waits)))]
        median = statistics.median(waits)
        print(f"end_to_next_pairing_seen p50 {median:.3f} s p95 {p95:.3f} s max {waits[-1]:.3f} s")
    return int(tid)


if __name__ == "__main__":
    main()
