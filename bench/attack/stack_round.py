# ruff: noqa: E501  (whole records are the point of these lines)
"""Against the two-process stack (PostgreSQL + own Redis): the seek limit under parallel posts,
record clock ranges on PostgreSQL, the first push after a Redis restart.
python stack_round.py http://127.0.0.1:9810 http://127.0.0.1:9811 REDIS_PORT"""

from __future__ import annotations

import asyncio
import concurrent.futures as cf
import json
import subprocess
import sys
import time

import lib
import websockets
from lib import Browser, check, fresh_name, report

A, B, REDIS_PORT = sys.argv[1], sys.argv[2], sys.argv[3]


def seeks_in_parallel() -> None:
    owner = Browser(A)
    name = fresh_name("sk")
    owner.signup(name)
    token = owner.token()
    body = {"game": "tictactoe", "clock": {"days": 3}}

    def post(i: int) -> int:
        return Browser(A if i % 2 else B).api("POST", "/seeks", body, token=token).status_code

    with cf.ThreadPoolExecutor(16) as pool:
        codes = list(pool.map(post, range(16)))
    mine = [s for s in Browser(A).api("GET", "/seeks").json() if s["user"] == name]
    check(
        "LOBBY_MAX_SEEKS, 16 parallel over two processes",
        len(mine) <= 3,
        f"{len(mine)} open ({sorted(codes)})",
        17,
    )

    def page_post(i: int) -> int:
        br = Browser(A if i % 2 else B)
        br.get("/lobby/")
        return br.post(
            "/lobby/seeks", {"game": "connect", "mode": "casual", "clock": "3 days", "seat": "random"}
        ).status_code

    before = len(Browser(A).api("GET", "/seeks").json())
    with cf.ThreadPoolExecutor(16) as pool:
        codes = list(pool.map(page_post, range(16)))
    after = len(Browser(A).api("GET", "/seeks").json())
    check(
        "seek floods: per address, 16 parallel cookie-less",
        after - before <= 10,
        f"{after - before} made ({sorted(codes)})",
        48,
    )


def records_pg() -> None:
    lib.BASE = A
    anon = Browser(A)
    head = '[Game "tictactoe"]\n[TimeControl "180+2"]\n\n'
    for clk in ["597:00:00", "500:00:00.1", "9999:59:59", "0:00:" + "9" * 400]:
        r = anon.api(
            "POST", "/records", json.dumps(head + f"1. b2 {{[%clk {clk}]}} 2. a1 {{[%clk 0:03:00]}}\n")
        )
        check(
            "records: clock ranges (PostgreSQL)",
            r.status_code == 400,
            f"[%clk {clk[:12]}] -> {r.status_code} {r.text[:80]}",
        )
    for first in ["2147483648", "2147483647", "99999999999999999999", "1800000001"]:
        raw = f'{{"game": "tictactoe", "clock": {{"initial": 180, "increment": 2}}, "moves": ["b2", "a1"], "clocks": [{first}, 1]}}'
        r = anon.api("POST", "/records", raw=raw)
        check(
            "records: clock ranges (PostgreSQL)",
            r.status_code == 400,
            f"clocks [{first}] -> {r.status_code} {r.text[:80]}",
        )
    raw = '{"game": "tictactoe", "clock": {"initial": 180, "increment": 2}, "moves": ["b2", "a1"], "clocks": [1800000000, 1]}'
    r = anon.api("POST", "/records", raw=raw)
    check(
        "records: clock ranges (PostgreSQL)",
        r.status_code == 201,
        f"at the limit -> {r.status_code} {r.text[:80]}",
    )


def human_game(base: str) -> tuple[int, str, str]:
    one, two = Browser(base), Browser(base)
    g = one.api("POST", "/games", {"game": "tictactoe", "opponent": "human", "seat": "first"}).json()
    invite = g.get("invite") or g["invite_code"]
    j = two.api("POST", f"/games/{g['id']}/join", {"invite": invite}).json()
    return g["id"], g["token"], j["token"]


async def redis_restart() -> None:
    gid, t1, t2 = human_game(A)
    watch = await websockets.connect(
        B.replace("http", "ws") + f"/ws/games/{gid}/?format=json", origin=B, open_timeout=20
    )
    await asyncio.wait_for(watch.recv(), 10)

    async def arrival(ply: int, timeout: float) -> float | None:
        start = time.monotonic()
        while time.monotonic() - start < timeout:
            try:
                text = await asyncio.wait_for(watch.recv(), timeout - (time.monotonic() - start))
            except TimeoutError:
                return None
            if f'"ply": {ply}' in text:
                return time.monotonic() - start
        return None

    mover = Browser(A)
    moves = ["b2", "a1", "c3", "a3", "a2", "c1"]
    results = []
    for ply, move in enumerate(moves[:4]):
        if ply in (1, 2, 3):
            subprocess.run(["redis-cli", "-p", REDIS_PORT, "shutdown", "nosave"], capture_output=True)
            time.sleep(0.3)
            subprocess.run(
                [
                    "redis-server",
                    "--port",
                    REDIS_PORT,
                    "--save",
                    "",
                    "--appendonly",
                    "no",
                    "--daemonize",
                    "yes",
                    "--pidfile",
                    "/tmp/attack-redis/redis.pid",
                    "--logfile",
                    "/tmp/attack-redis/log",
                ],
                check=True,
            )
            await asyncio.sleep(0.5 if ply != 3 else 5)
        token = t1 if ply % 2 == 0 else t2
        sent = time.monotonic()
        r = mover.api("POST", f"/games/{gid}/moves", {"move": move, "ply": ply}, token=token)
        took = await arrival(ply + 1, 35)
        results.append((ply, r.status_code, took))
        label = "before any restart" if ply == 0 else f"restart {ply}"
        check(
            "Redis restart: first push",
            r.status_code == 200 and took is not None and took < 10,
            f"{label}: move {r.status_code}, push after {took}",
        )
        print(
            f"  push of ply {ply + 1} ({'no restart' if ply == 0 else 'after a restart'}): {took} s",
            flush=True,
        )
        del sent
    await watch.close()


if __name__ == "__main__":
    started = time.time()
    parts = sys.argv[4].split(",") if len(sys.argv) > 4 else ["seeks", "records", "redis"]
    if "seeks" in parts:
        print("-- seeks", flush=True)
        seeks_in_parallel()
    if "records" in parts:
        print("-- records", flush=True)
        records_pg()
    if "redis" in parts:
        print("-- redis", flush=True)
        asyncio.run(redis_restart())
    report()
    print(f"{time.time() - started:.0f} s")
