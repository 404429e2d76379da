"""What one API move costs the server, in-process, beside the bare view (/healthz).

No server and no network: the requests go through the site's own ASGI application (as
Daphne calls it: a thread per request, every middleware) one at a time, so the figures
are the server's work alone. Person-vs-person Quarto games on a fresh SQLite file, the
same fixed choice of action as bench/live_load.py, games made before the timing.

- timing: ``--rounds`` rounds, each ``--batch`` moves then ``--batch`` /healthz, side by
  side in the same minutes; the median per-request time of each and their ratio (the
  ratio of a single client's requests/s);
- queries: every SQL statement of one move, through Django's test client;
- ``--profile``: a cProfile top list over ``--profile-moves`` moves (test client, one thread);
- ``--callgrind``: instructions per request, counted by valgrind (repeatable on a busy
  machine): this script run under callgrind with ``--only move|healthz`` and N then 2N
  requests; the difference over N is one request, setup left out.

    .venv/bin/python bench/move_cost.py [--rounds 20 --batch 25] [--profile] [--sql]
    .venv/bin/python bench/move_cost.py --callgrind [--calls 20] [--kinds move healthz bare]
    .venv/bin/python bench/move_cost.py --lean-ab [--rounds 12 --batch 25]

``bare`` is a Django view with no middleware answering a fixed JSON body, through the
same ASGI path: the floor the issue's targets compare with.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import io
import json
import os
import pstats
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

# As bench/live_load.py's server: the computer never due, the limits out of the way.
SETTINGS = {
    "DJANGO_SETTINGS_MODULE": "quarto_site.settings",
    "AI_DELAY": "0",
    "LOG_LEVEL": "WARNING",
    "API_RATE_LIMIT": "1000000/minute",
    "RATE_LIMIT_CREATE": "1000000/minute",
    "RATE_LIMIT_MOVE": "1000000/minute",
}


def configure(folder: Path, template: Path | None = None) -> None:
    """Settings on a new SQLite file in ``folder``: a copy of ``template`` (migrated) or migrated here."""
    for name in ("DATABASE_URL", "REDIS_URL"):
        os.environ.pop(name, None)
    os.environ.update(SETTINGS)
    os.environ["SQLITE_PATH"] = str(folder / "db.sqlite3")
    if template is not None:
        shutil.copy(template, folder / "db.sqlite3")
    import django

    django.setup()
    from django.core.management import call_command

    if template is None:
        call_command("migrate", verbosity=0)


class Games:
    """Games to play, each with both seats' tokens and its latest state (from the answers)."""

    def __init__(self, count: int) -> None:
        from games.models import Game
        from games.presenting import downloads
        from games.services import moves

        self.games: list[dict[str, Any]] = []
        for _ in range(count):
            made = moves.create_game("quarto", {}, opponent="human", seat="first", with_token=True)
            seat, token = moves.join_game(made.game.pk, invite=made.game.invite_code, with_token=True)
            state = downloads.game_json(Game.objects.get(pk=made.game.pk))
            tokens = {made.seat: made.token, seat: token}
            self.games.append({"id": made.game.pk, "tokens": tokens, "state": state})

    def next_move(self) -> tuple[dict[str, Any], str, bytes, str]:
        """The first unfinished game's next action: (game, path, body, token)."""
        while self.games and self.games[0]["state"]["status"] != "playing":
            self.games.pop(0)
        if not self.games:
            raise SystemExit("out of games: raise the number made up front")
        game = self.games[0]
        state = game["state"]
        ply = int(state["ply"])
        legal = state["legal_moves"]
        body = json.dumps({"move": legal[(ply * 7) % len(legal)], "ply": ply}).encode()
        return game, f"/api/v1/games/{game['id']}/moves", body, game["tokens"][int(state["to_move"])]


BARE_URLS = "move_cost_bare_urls"


def bare_application() -> Any:
    """Django's ASGI handler with no middleware and one view answering a fixed JSON body:
    the floor a request of the site could cost (the issue's "bare Django view")."""
    import types

    from django.conf import settings
    from django.core.handlers.asgi import ASGIHandler
    from django.http import JsonResponse
    from django.urls import path

    urls = types.ModuleType(BARE_URLS)
    urls.urlpatterns = [path("bare", lambda request: JsonResponse({"status": "ok"}))]  # type: ignore[attr-defined]
    sys.modules[BARE_URLS] = urls

    class Bare(ASGIHandler):
        def load_middleware(self, is_async: bool = False) -> None:
            full, settings.MIDDLEWARE = settings.MIDDLEWARE, []
            try:
                super().load_middleware(is_async)
            finally:
                settings.MIDDLEWARE = full

        def create_request(self, scope: Any, body_file: Any) -> Any:
            request, error = super().create_request(scope, body_file)
            if request is not None:
                request.urlconf = BARE_URLS
            return request, error

    return Bare()


class Asgi:
    """Requests through the site's ASGI application, one at a time, as Daphne makes them."""

    def __init__(self, bare: bool = False) -> None:
        from quarto_site.asgi import application

        self.app = bare_application() if bare else application
        self.loop = asyncio.new_event_loop()

    def call(self, method: str, path: str, body: bytes = b"", token: str | None = None) -> tuple[int, bytes]:
        headers = [(b"host", b"127.0.0.1")]
        if body:
            headers += [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
        if token:
            headers.append((b"authorization", f"Bearer {token}".encode()))
        scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": method,
            "scheme": "http",
            "path": path,
            "raw_path": path.encode(),
            "query_string": b"",
            "root_path": "",
            "headers": headers,
            "client": ("127.0.0.1", 50000),
            "server": ("127.0.0.1", 8000),
        }
        sent: list[dict[str, Any]] = []
        pending = [{"type": "http.request", "body": body, "more_body": False}]

        async def receive() -> dict[str, Any]:
            if pending:
                return pending.pop()
            await asyncio.sleep(3600)  # the client never hangs up
            return {"type": "http.disconnect"}

        async def send(message: dict[str, Any]) -> None:
            sent.append(message)

        self.loop.run_until_complete(self.app(scope, receive, send))
        status = next(m["status"] for m in sent if m["type"] == "http.response.start")
        return status, b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")


def play(asgi: Asgi, games: Games) -> None:
    game, path, body, token = games.next_move()
    status, answer = asgi.call("POST", path, body, token)
    if status != 200:
        raise SystemExit(f"move answered {status}: {answer[:300]!r}")
    game["state"] = json.loads(answer)


def healthz(asgi: Asgi) -> None:
    status, answer = asgi.call("GET", "/healthz")
    if status != 200:
        raise SystemExit(f"/healthz answered {status}: {answer[:300]!r}")


def bare(asgi: Asgi) -> None:
    status, answer = asgi.call("GET", "/bare")
    if status != 200:
        raise SystemExit(f"the bare view answered {status}: {answer[:300]!r}")


def timed(count: int, run: Callable[[], Any]) -> tuple[float, float]:
    """Seconds per call: (wall clock, CPU of the whole process, every thread)."""
    start, cpu = time.perf_counter(), time.process_time()
    for _ in range(count):
        run()
    return (time.perf_counter() - start) / count, (time.process_time() - cpu) / count


def client_move(games: Games) -> Callable[[], Any]:
    """A move through Django's test client (this thread: queries and profile see it all)."""
    from django.test import Client

    client = Client(HTTP_HOST="127.0.0.1")

    def run() -> Any:
        game, path, body, token = games.next_move()
        response = client.post(
            path, body, content_type="application/json", HTTP_AUTHORIZATION=f"Bearer {token}"
        )
        if response.status_code != 200:
            raise SystemExit(f"move answered {response.status_code}: {response.content[:300]!r}")
        game["state"] = response.json()
        return response

    return run


def client_healthz() -> Callable[[], Any]:
    from django.test import Client

    client = Client(HTTP_HOST="127.0.0.1")
    return lambda: client.get("/healthz")


def show_queries(games: Games, sql: bool) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    move = client_move(games)
    move()  # the first request of a thread opens its connection and warms caches
    counts = []
    for _ in range(5):
        with CaptureQueriesContext(connection) as captured:
            move()
        counts.append(len(captured.captured_queries))
    print(f"queries per move (5 moves): {counts}")
    if sql:
        for query in captured.captured_queries:
            print(f"  {query['sql'][:160]}")


def profile(games: Games, moves: int, top: int) -> None:
    move = client_move(games)
    move()
    profiler = cProfile.Profile()
    profiler.enable()
    for _ in range(moves):
        move()
    profiler.disable()
    for order in ("tottime", "cumulative"):
        out = io.StringIO()
        pstats.Stats(profiler, stream=out).sort_stats(order).print_stats(top)
        text = re.sub(r"/\S*/site-packages/", "", out.getvalue())
        print(f"-- cProfile over {moves} moves, by {order} --")
        print("\n".join(line for line in text.splitlines() if line.strip())[:12000])


def lean_ab(rounds: int, batch: int) -> None:
    """Moves through the lean handler and through the whole chain, alternating batches in
    one process: the median CPU per move of each."""
    with tempfile.TemporaryDirectory() as folder:
        configure(Path(folder))
        from quarto_site.asgi import django_asgi_app  # after the settings are made

        games = Games(rounds * batch + 4)  # few moves per game: under the per-seat move limit
        lean, full = Asgi(), Asgi()
        full.app = django_asgi_app
        play(lean, games)
        play(full, games)
        cpu: dict[str, list[float]] = {"lean": [], "full": []}
        for _ in range(rounds):
            for name, asgi in (("lean", lean), ("full", full)):
                cpu[name].append(timed(batch, lambda asgi=asgi: play(asgi, games))[1])
        for name, values in cpu.items():
            print(f"{name} chain: median cpu {statistics.median(values) * 1000:.3f} ms per move")


def load_average() -> str:
    return " ".join(f"{v:.2f}" for v in os.getloadavg())


def callgrind(calls: int, kinds: list[str]) -> None:
    """Instructions per request: (Ir at 2N - Ir at N) / N, for moves and /healthz."""
    template = Path(tempfile.mkdtemp(prefix="move-cost-")) / "db.sqlite3"
    subprocess.run(
        [sys.executable, "-W", "ignore", __file__, "--only", "migrate", "--db", str(template)], check=True
    )

    def total(only: str, count: int) -> int:
        with tempfile.TemporaryDirectory() as folder:
            out = Path(folder) / "callgrind.out"
            command = [
                "valgrind",
                "--tool=callgrind",
                f"--callgrind-out-file={out}",
                sys.executable,
                __file__,
                "--only",
                only,
                "--calls",
                str(count),
                "--db",
                str(template),
            ]
            subprocess.run(
                command, check=True, capture_output=True, env={**os.environ, "PYTHONHASHSEED": "0"}
            )
            summary = re.search(r"^summary: (\d+)", out.read_text(), re.M)
            assert summary, "no summary in callgrind's output"
            return int(summary.group(1))

    figures = {}
    for only in kinds:
        low, high = total(only, calls), total(only, 2 * calls)
        figures[only] = (high - low) / calls
        print(
            f"callgrind {only:8} {figures[only] / 1e6:8.2f} M instructions a request ({calls} vs {2 * calls})"
        )
    if "healthz" in figures and "move" in figures:
        print(f"callgrind ratio healthz/move {figures['healthz'] / figures['move']:.3f}")
    if "bare" in figures:
        # Instructions per request stand for the time a request takes on one core: the
        # inverse ratio is the requests/s ratio the targets name.
        for kind in ("move", "healthz"):
            if kind in figures:
                print(
                    f"callgrind {kind} requests/s over the bare view's {figures['bare'] / figures[kind]:.3f}"
                )
    shutil.rmtree(template.parent)


def only(kind: str, calls: int, template: Path) -> None:
    """The fixed run callgrind counts: setup, then ``calls`` requests of one kind."""
    if kind == "migrate":
        configure(template.parent)
        return
    with tempfile.TemporaryDirectory() as folder:
        configure(Path(folder), template)
        games = Games(2 * calls // 8 + 4)  # the same games whatever ``calls``
        asgi = Asgi(bare=kind == "bare")
        first = {"move": healthz, "healthz": healthz, "bare": bare}[kind]
        first(asgi)
        for _ in range(calls):
            play(asgi, games) if kind == "move" else first(asgi)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--batch", type=int, default=25)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--profile-moves", type=int, default=300)
    parser.add_argument("--top", type=int, default=30)
    parser.add_argument("--sql", action="store_true", help="print one move's SQL")
    parser.add_argument("--callgrind", action="store_true")
    parser.add_argument("--lean-ab", action="store_true", help="moves: the lean handler, then the full chain")
    parser.add_argument("--calls", type=int, default=20, help="requests per callgrind run (N)")
    parser.add_argument(
        "--kinds", nargs="+", choices=("move", "healthz", "bare"), default=["move", "healthz", "bare"]
    )
    parser.add_argument("--only", choices=("move", "healthz", "bare", "migrate"), help=argparse.SUPPRESS)
    parser.add_argument("--db", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.only:
        only(args.only, args.calls, args.db)
        return
    if args.lean_ab:
        print(f"load average {load_average()}")
        lean_ab(args.rounds, args.batch)
        return
    if args.callgrind:
        print(f"load average {load_average()}")
        callgrind(args.calls, args.kinds)
        return
    with tempfile.TemporaryDirectory() as folder:
        configure(Path(folder))
        moves_needed = args.rounds * args.batch + 10 + (args.profile_moves + 10 if args.profile else 0)
        games = Games(moves_needed // 8 + 2)
        asgi = Asgi()
        play(asgi, games)
        healthz(asgi)
        print(f"load average at start {load_average()}")
        rounds: dict[str, list[tuple[float, float]]] = {"move": [], "healthz": []}
        for _ in range(args.rounds):
            rounds["move"].append(timed(args.batch, lambda: play(asgi, games)))
            rounds["healthz"].append(timed(args.batch, lambda: healthz(asgi)))
        wall = {k: statistics.median(w for w, _ in v) for k, v in rounds.items()}
        cpu = {k: statistics.median(c for _, c in v) for k, v in rounds.items()}
        print(f"medians of {args.rounds} rounds of {args.batch} requests each, alternating")
        for kind in rounds:
            print(
                f"asgi {kind:8} wall {wall[kind] * 1000:7.3f} ms, cpu {cpu[kind] * 1000:7.3f} ms per request"
            )
        print(
            f"healthz/move wall {wall['healthz'] / wall['move']:.3f}, cpu {cpu['healthz'] / cpu['move']:.3f}"
        )
        client = {"move": client_move(games), "healthz": client_healthz()}
        for kind, run in client.items():
            w, c = timed(args.batch * 4, run)
            print(f"client {kind:6} wall {w * 1000:7.3f} ms, cpu {c * 1000:7.3f} ms (test client, no ASGI)")
        show_queries(games, args.sql)
        if args.profile:
            profile(games, args.profile_moves, args.top)
        print(f"load average at end {load_average()}")


if __name__ == "__main__":
    main()
