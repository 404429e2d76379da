"""What a move costs, by the clock, beside a bare Django view: issue 37's targets in one run.

Starts two Daphne processes on this machine: a bare Django view (``bench/bare_asgi.py``: no
middleware, a fixed JSON body) and the site (SQLite, in-memory channel layer, rate limits
raised, as ``bench/live_load.py`` starts it). Then, with the same load generator
(``bench/live_load.py``'s client), one phase after another, ``--seconds`` each:

1. ``--clients`` clients fetch the bare view as fast as answered, ``/healthz`` of the site,
   or play person-vs-person Quarto moves over the API (games made before), taking turns
   in slices of ``--slice`` seconds (so that a shared machine's changing load weighs on
   all three alike). Requests/s of each, their ratio to the bare view's, each server's
   CPU per answer and the answers' p50/p95.
2. ``games``: ``--games`` games, ``--rate`` moves/s, ``--watchers`` HTML watchers a game:
   move p95, push p95, pushes lost.
3. ``sockets``: ``--sockets`` idle watchers opened ``--socket-batch`` at a time: the site's
   RSS per idle socket; its RSS at rest after start and after the run.

``--breakdown`` serves the site through ``bench/move_timers.py`` (the same application
with timers) and prints the wall-clock parts of a move and of ``/healthz``, each as a
share of the application's time; ``--py-spy`` records the site's process during a
further moves-only stretch (``py-spy record --nonblocking``) and prints where its samples
fell (py-spy counts a thread waiting for the GIL, and some idle waits, as active).

    .venv/bin/python bench/move_targets.py                     # every figure, about 60 s
    .venv/bin/python bench/move_targets.py --breakdown --py-spy --only ratio
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from live_load import (
    ROOT,
    Game,
    Http,
    Report,
    Servers,
    cpu_seconds,
    new_game,
    percentile,
    raise_open_files,
    rss_mib,
    scenario_games,
    scenario_sockets,
    server_env,
    start_daphne,
    stop_processes,
    wait_ready,
)

PHASES = ("ratio", "games", "sockets")
TARGETS = {"moves": 0.3, "healthz": 0.6}


def children(pid: int) -> list[int]:
    try:
        return [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def pools(pid: int, when: str, report: Report) -> None:
    """The RSS of each of the site's child processes (the computer's and the analysis's pools)."""
    sizes = rss_mib(children(pid))
    listed = ", ".join(f"{size:.0f}" for size in sizes)
    report.add("memory", f"pool_process_rss_max_{when}", max(sizes, default=0.0), f"MiB (each: {listed})")


def schedstat(pid: int) -> tuple[float, float]:
    """Seconds the process's threads have run on a CPU, and waited runnable for one
    (``/proc/<pid>/task/*/schedstat``; threads gone meanwhile drop out)."""
    ran = waited = 0
    for task in Path(f"/proc/{pid}/task").glob("*/schedstat"):
        try:
            fields = task.read_text().split()
        except OSError:
            continue
        ran, waited = ran + int(fields[0]), waited + int(fields[1])
    return ran / 1e9, waited / 1e9


def uptime() -> str:
    return " ".join(f"{v:.2f}" for v in os.getloadavg())


class Tally:
    """Answers, errors, latencies and the server's CPU of one kind of request, over slices."""

    def __init__(self) -> None:
        self.answered = self.errors = 0
        self.seconds = self.cpu = self.waited = 0.0
        self.latencies: list[float] = []

    def figures(self) -> dict[str, float]:
        return {
            "per_s": self.answered / self.seconds if self.seconds else float("nan"),
            "answered": self.answered,
            "errors": self.errors,
            "cpu_ms": self.cpu * 1000 / max(1, self.answered),
            "p50_ms": percentile(self.latencies, 50) * 1000,
            "p95_ms": percentile(self.latencies, 95) * 1000,
            "mean_ms": sum(self.latencies) * 1000 / max(1, len(self.latencies)),
            "waiting": self.waited / self.seconds if self.seconds else float("nan"),
        }


async def run_slice(base: str, clients: int, seconds: float, pid: int, request: Any, into: Tally) -> None:
    """``clients`` connections each calling ``request(http, i)`` for ``seconds``: 200s
    counted with their latencies, other statuses as errors, None (set-up) not at all."""
    stop_at = time.perf_counter() + seconds

    async def one(i: int) -> None:
        http = Http(base)
        try:
            while time.perf_counter() < stop_at:
                start = time.perf_counter()
                status = await request(http, i)
                if status == 200:
                    into.answered += 1
                    into.latencies.append(time.perf_counter() - start)
                elif status is not None:
                    into.errors += 1
        finally:
            await http.close()

    start, cpu, (_, waited) = time.perf_counter(), cpu_seconds([pid]), schedstat(pid)
    await asyncio.gather(*(one(i) for i in range(clients)))
    into.seconds += time.perf_counter() - start
    into.cpu += cpu_seconds([pid]) - cpu
    into.waited += schedstat(pid)[1] - waited


def getter(path: str) -> Any:
    async def get(http: Http, i: int) -> int:
        status, _ = await http.request("GET", path)
        return status

    return get


async def mover(base: str, clients: int) -> Any:
    """Clients' Quarto moves over the API; their games made now, before any clock starts
    (six a client; one made during a slice when they run out, its requests not counted)."""
    queues: list[list[Game]] = []
    http = Http(base)
    for _ in range(clients):
        queues.append([await new_game(base, http) for _ in range(6)])
    await http.close()

    async def move(http: Http, i: int) -> int | None:
        queue = queues[i]
        while queue and queue[0].over:
            queue.pop(0)
        if not queue:
            queue.append(await new_game(base, http))
            return None
        game = queue[0]
        game.http = http
        status, _ = await game.move()
        return status

    return move


# -- py-spy ------------------------------------------------------------------------------

# Where a sample's innermost project or library frame falls: the first pattern (in this
# order) found in the stack from its innermost frame outwards.
PARTS = [
    ("SQLite running the statements", r"\(sqlite3/|execute \(django/db/backends/sqlite3/base"),
    ("commit", r"_commit \("),
    ("rules (replay, play)", r"games/engine/"),
    ("ORM building statements and rows", r"django/db/"),
    ("the state answer (presenting)", r"games/presenting/|games/formats/"),
    ("ninja: parse, schema, JSON", r"ninja/|pydantic|json/"),
    ("the live push / events", r"games/live/|channels/|games/events"),
    ("rate limit, cache", r"ratelimit|django/core/cache|fallback_cache"),
    ("middleware", r"django/middleware|csp/|monitoring/|quarto_site/lean|quarto_site/unavailable"),
    ("metrics (prometheus)", r"prometheus_client"),
    ("other site code", r"games/|quarto_site/"),
    ("Django's request handling", r"django/"),
    ("thread hops (asgiref, executors, threads)", r"asgiref/|concurrent/futures|threading\.py"),
    ("Daphne and Twisted (HTTP)", r"daphne/|twisted/|autobahn/"),
    ("the event loop (asyncio)", r"asyncio/"),
]


# A pool thread waiting for work, the event loop waiting for sockets: idle, though py-spy
# --nonblocking may count them.
IDLE = r"^_worker \(.*concurrent/futures/thread\.py|(^|\.)select \(.*selectors\.py"


def spy_start(pid: int, seconds: float, out: Path) -> subprocess.Popen[bytes]:
    spy = str(Path(sys.executable).with_name("py-spy"))
    command = [spy, "record", "--pid", str(pid), "--gil", "-r", "200"]
    command += ["-d", str(int(seconds)), "--format", "raw", "-o", str(out)]
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def spy_report(out: Path, report: Report) -> None:
    shares: Counter[str] = Counter()
    others: Counter[str] = Counter()
    idle = 0
    for line in out.read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        frames = stack.split(";")[::-1]  # innermost first
        if re.search(IDLE, frames[0]):
            idle += int(count)
            continue
        part = next(
            (name for frame in frames for name, pattern in PARTS if re.search(pattern, frame)),
            "other",
        )
        shares[part] += int(count)
        if part == "other":
            others[frames[0][:80]] += int(count)
    total = sum(shares.values()) or 1
    report.add("py-spy", "samples", total, f"(200 a second; {idle} more of idle waits left out)")
    for part, count in shares.most_common():
        report.add("py-spy", part[:30], 100 * count / total, "% of the CPU samples")
    for frame, count in others.most_common(3):
        report.add("py-spy", "other: " + frame[:22], 100 * count / total, "%")


async def timers(base: str, reset: bool = False) -> dict[str, Any]:
    http = Http(base)
    try:
        status, body = await http.request("GET", "/__timings" + ("?reset" if reset else ""))
    finally:
        await http.close()
    return dict(json.loads(body)) if status == 200 else {}


def timers_report(found: dict[str, Any], report: Report, seen_ms: dict[str, float]) -> None:
    """The timers' means, each a share of the application's time; beside them what the
    clients waited in all (``seen_ms``): the rest is Daphne, the loop and the network."""
    for kind, parts in found.get("mean_ms", {}).items():
        whole = parts.get("asgi application (all)", 0.0) or 1.0
        report.add("timers", f"{kind}_requests", found["counts"][kind])
        if kind in seen_ms:
            report.add("timers", f"{kind}: the client's wait (mean)", seen_ms[kind], "ms")
        for name, ms in sorted(parts.items(), key=lambda item: -item[1]):
            report.add("timers", f"{kind}: {name}"[:44], ms, f"ms  {100 * ms / whole:5.1f} %")


# -- the run -----------------------------------------------------------------------------


async def run(args: argparse.Namespace) -> None:
    raise_open_files()
    folder = Path(tempfile.mkdtemp(prefix="move-targets-"))
    env = server_env({"SQLITE_PATH": str(folder / "db.sqlite3")})
    for name in ("DATABASE_URL", "REDIS_URL"):
        env.pop(name, None)
    subprocess.run([sys.executable, "manage.py", "migrate", "-v", "0"], cwd=ROOT, env=env, check=True)
    site_app = "move_timers:application" if args.breakdown else "quarto_site.asgi:application"
    bare, bare_url, bare_log = start_daphne(env, folder, "bare_asgi:application", ROOT / "bench")
    site, site_url, site_log = start_daphne(env, folder, site_app, ROOT / "bench" if args.breakdown else ROOT)
    report = Report()
    try:
        await wait_ready(site_url, 180)  # a loaded machine starts a server slowly
        await ready_bare(bare_url)
        await asyncio.sleep(2)
        print(f"# one Daphne process each (bare view, site: {site_app}); SQLite, in-memory layer")
        print(f"# load average at start (uptime): {uptime()}; 2 cores shared with the servers")
        report.add("memory", "site_rss_at_rest_start", rss_mib([site.pid])[0], "MiB (target < 300)")
        pools(site.pid, "start", report)
        if "ratio" in args.only:
            await run_ratio(args, bare, bare_url, site, site_url, report)
        servers = Servers([site_url], [site.pid], lambda: None, "site", env["SQLITE_PATH"])
        if "games" in args.only:
            print(f"# load average before games: {uptime()}")
            ran, waited = schedstat(site.pid)
            start = time.perf_counter()
            await scenario_games(args, servers, report)
            took = time.perf_counter() - start
            ran_now, waited_now = schedstat(site.pid)
            # The games made and the watchers opened are in the phase too.
            report.add("games", "server_cores_used", (ran_now - ran) / took, "(on a CPU, per second)")
            waiting = (waited_now - waited) / took
            report.add("games", "server_waiting_for_a_core", waiting, "(runnable, per second)")
        if "sockets" in args.only:
            print(f"# load average before sockets: {uptime()}")
            await scenario_sockets(args, servers, report)
        await asyncio.sleep(3)
        report.add("memory", "site_rss_at_rest_end", rss_mib([site.pid])[0], "MiB (target < 300)")
        pools(site.pid, "end", report)
        print(f"# load average at end: {uptime()}")
        summary(report)
    finally:
        stop_processes([bare, site])
        bare_log.close()
        site_log.close()
        shutil.rmtree(folder, ignore_errors=True)


async def ready_bare(url: str) -> None:
    end = time.monotonic() + 60
    while time.monotonic() < end:
        http = Http(url)
        try:
            status, _ = await http.request("GET", "/bare")
            if status == 200:
                return
        except OSError:
            pass
        finally:
            await http.close()
        await asyncio.sleep(0.2)
    raise RuntimeError("the bare view did not answer")


async def run_ratio(
    args: argparse.Namespace,
    bare: subprocess.Popen[bytes],
    bare_url: str,
    site: subprocess.Popen[bytes],
    site_url: str,
    report: Report,
) -> None:
    """The bare view, /healthz and moves in slices of ``--slice`` seconds, taking turns
    (the order rotating), ``--seconds`` of each in all: a shared machine's load, which
    changes from one second to the next, weighs on the three alike."""
    clients = args.clients
    kinds = {
        "bare": (bare_url, bare.pid, getter("/bare")),
        "healthz": (site_url, site.pid, getter("/healthz")),
        "moves": (site_url, site.pid, await mover(site_url, clients)),
    }
    for base, pid, request in kinds.values():  # a warm-up of each, not counted
        await run_slice(base, clients, 0.5, pid, request, Tally())
    if args.breakdown:
        await timers(site_url, reset=True)
    tallies = {name: Tally() for name in kinds}
    order = list(kinds)
    for turn in range(max(1, round(args.seconds / args.slice))):
        for name in order[turn % 3 :] + order[: turn % 3]:
            base, pid, request = kinds[name]
            await run_slice(base, clients, args.slice, pid, request, tallies[name])
    results = {name: tally.figures() for name, tally in tallies.items()}
    if args.breakdown:
        seen = {"move": results["moves"]["mean_ms"], "healthz": results["healthz"]["mean_ms"]}
        timers_report(await timers(site_url), report, seen)
    if args.py_spy:  # a moves-only stretch of its own, profiled
        spy_out = args.spy_out or Path(tempfile.mkdtemp(prefix="move-spy-")) / "moves.txt"
        spy = spy_start(site.pid, min(args.seconds, 5), spy_out)
        await asyncio.sleep(0.5)
        await run_slice(site_url, clients, min(args.seconds, 5) + 0.5, site.pid, kinds["moves"][2], Tally())
        spy.wait(30)
        if spy_out.exists():
            spy_report(spy_out, report)
        if not args.spy_out:
            shutil.rmtree(spy_out.parent, ignore_errors=True)
    for name, figures in results.items():
        report.add("ratio", f"{name}_per_s", figures["per_s"], "req/s")
        report.add("ratio", f"{name}_cpu", figures["cpu_ms"], "ms of the server's CPU per answer")
        report.add("ratio", f"{name}_p50_p95", f"{figures['p50_ms']:.1f}/{figures['p95_ms']:.1f}", "ms")
        report.add("ratio", f"{name}_server_waiting", figures["waiting"], "s runnable without a core, per s")
        report.add("ratio", f"{name}_errors", int(figures["errors"]))
    for name, target in TARGETS.items():
        ratio = results[name]["per_s"] / results["bare"]["per_s"]
        verdict = "met" if ratio >= target else "MISSED"
        report.add("target", f"{name}_over_bare", ratio, f"(target >= {target}: {verdict})")
        report.add("target", f"{name}_over_bare_by_cpu", results["bare"]["cpu_ms"] / results[name]["cpu_ms"])


def summary(report: Report) -> None:
    got = {(scenario, metric): value for scenario, metric, value, _ in report.lines}

    def check(name: str, key: tuple[str, str], limit: float, above: bool = False) -> None:
        value = got.get(key)
        if not isinstance(value, (int, float)):
            return
        met = value >= limit if above else value <= limit
        sign = ">=" if above else "<="
        report.add("target", name, value, f"(target {sign} {limit}: {'met' if met else 'MISSED'})")

    check("games_move_p95_ms", ("games", "move_p95"), 100)
    check("games_push_p95_ms", ("games", "push_p95"), 150)
    check("games_pushes_lost", ("games", "pushes_lost"), 0)
    check("games_moves_per_s", ("games", "moves_per_s"), 49, above=True)
    check("idle_socket_kib", ("sockets", "rss_per_idle_socket"), 50)
    check("rss_at_rest_mib", ("memory", "site_rss_at_rest_end"), 300)
    check("pool_process_rss_mib", ("memory", "pool_process_rss_max_end"), 300)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--only", nargs="+", choices=PHASES, default=list(PHASES))
    parser.add_argument("--seconds", type=float, default=8.0, help="each phase (at most 10)")
    parser.add_argument("--slice", type=float, default=1.0, help="ratio: seconds of one kind at a time")
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--rate", type=float, default=50.0)
    parser.add_argument("--watchers", type=int, default=2)
    parser.add_argument("--open-batch", type=int, default=50)
    parser.add_argument("--sockets", type=int, default=1000)
    parser.add_argument("--socket-games", type=int, default=20)
    parser.add_argument("--socket-batch", type=int, default=50)
    parser.add_argument("--breakdown", action="store_true", help="serve the site with timers")
    parser.add_argument("--py-spy", action="store_true", help="profile the site during the moves")
    parser.add_argument("--spy-out", type=Path, help="keep py-spy's raw stacks in this file")
    args = parser.parse_args()
    if not 0 < args.seconds <= 10:
        parser.error("--seconds must be in (0, 10]: runs stay short on a shared machine")
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
