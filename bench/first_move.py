"""The first game on a fresh clone: from `scripts/serve` to the address, and from the
address to the computer's first move.

    .venv/bin/python bench/first_move.py [--rev HEAD] [--games quarto,connect,ultimate]

Each run exports the checkout at ``--rev`` (``git archive``: no ``__pycache__``, so
numba's cache of compiled code is empty, as in a fresh clone) into a temporary folder,
links this checkout's ``.venv`` into it and starts ``scripts/serve`` there on a free
port, with the default thinking delay (AI_DELAY) and search budget (AI_BUDGET). It
prints the seconds until the address is printed and until the port answers, then
creates one game per kind in ``--games`` over the API with the computer to move first
and prints the seconds from the address to that move (one kind after another). Then
it stops the server and starts it again in the same folder (``--starts``): a second
start finds the compiled code of the first.

With ``--fresh`` it clones the checkout instead (``git clone``, then ``--rev``) and
links no ``.venv``: ``scripts/serve`` creates and fills its own, with empty download
caches in the folder (uv's and pip's), as on a machine that never installed them.
``--installer pip`` sets ``SETUP_INSTALLER=pip`` (scripts/setup's fallback). It prints
``scripts/serve``'s own lines, which say how long each step took.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def call(url: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data, {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=120) as response:
        result: dict[str, Any] = json.load(response)
        return result


def export(rev: str, folder: Path) -> None:
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev], check=True, capture_output=True)
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive.stdout, check=True)
    (folder / ".venv").symlink_to((ROOT / ".venv").resolve())


def clone(rev: str, folder: Path) -> None:
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(folder)], check=True)
    subprocess.run(["git", "-C", str(folder), "checkout", "--quiet", rev], check=True)


def run(rev: str, kinds: list[str], starts: int, fresh: bool, installer: str) -> list[dict[str, float]]:
    with tempfile.TemporaryDirectory(prefix="first-move-") as tmp:
        folder = Path(tmp) / "site"
        if fresh:
            clone(rev, folder)
        else:
            folder.mkdir()
            export(rev, folder)
        env = {"SETUP_INSTALLER": installer}
        if fresh:
            env.update(UV_CACHE_DIR=f"{tmp}/uv-cache", PIP_CACHE_DIR=f"{tmp}/pip-cache")
        return [start_once(folder, kinds, env) for _ in range(starts)]


def start_once(folder: Path, kinds: list[str], extra: dict[str, str]) -> dict[str, float]:
    """One start of scripts/serve in ``folder`` and the computer's first move of each kind."""
    times: dict[str, float] = {}
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("AI_", "DATABASE_", "REDIS_"))}
    # The bench polls the game every 50 ms: above the API's default rate limit.
    env.update(PORT=str(port), HOST="127.0.0.1", PYTHONUNBUFFERED="1", API_RATE_LIMIT="100000/minute")
    env.update(extra)
    log = folder / "serve.log"  # a file, not a pipe: a full pipe would stall the server
    start = time.monotonic()
    with log.open("w") as out:
        serve = subprocess.Popen(
            ["scripts/serve"], cwd=folder, env=env, stdout=out, stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip
    try:
        while "is running: open" not in log.read_text():
            if serve.poll() is not None:
                raise SystemExit(f"scripts/serve ended before it gave the address:\n{log.read_text()}")
            time.sleep(0.02)
        times["address"] = time.monotonic() - start
        address = time.monotonic()
        base = f"http://127.0.0.1:{port}"
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            except OSError:
                time.sleep(0.05)
        times["port"] = time.monotonic() - start
        for kind in kinds:
            game = call(base + "/api/v1/games", {"game": kind, "opponent": "ai", "seat": "second"})
            while call(f"{base}/api/v1/games/{game['id']}")["ply"] < 1:
                time.sleep(0.05)
            times[f"{kind} first move"] = time.monotonic() - address
        print("".join(line for line in log.read_text().splitlines(True) if line.startswith("[serve")))
    finally:
        os.killpg(serve.pid, signal.SIGTERM)
        try:
            serve.wait(30)
        except subprocess.TimeoutExpired:
            os.killpg(serve.pid, signal.SIGKILL)
            serve.wait()
    return times


def main() -> None:
    raw = argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=raw)
    parser.add_argument("--rev", default="HEAD", help="the commit to export (default HEAD)")
    parser.add_argument("--games", default="quarto,connect,ultimate", help="kinds, comma-separated")
    parser.add_argument("--starts", type=int, default=2, help="starts in the same folder (default 2)")
    parser.add_argument("--fresh", action="store_true", help="a clone with its own new .venv")
    parser.add_argument("--installer", default="uv", choices=["uv", "pip"], help="scripts/setup's")
    args = parser.parse_args()
    runs = run(args.rev, args.games.split(","), args.starts, args.fresh, args.installer)
    for number, times in enumerate(runs, 1):
        said = ", ".join(f"{name} {seconds:.2f} s" for name, seconds in times.items())
        print(f"rev {args.rev}, start {number}: {said}")


if __name__ == "__main__":
    main()
