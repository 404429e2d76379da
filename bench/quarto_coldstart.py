"""Cold start of the Quarto AI: a fresh process's first AI move, with the on-disk cache
of compiled code populated (as on a server that has run once).

    python bench/quarto_coldstart.py [--runs 5] [--budget 1.0]

Each run starts a new interpreter that imports the AI, calls ``warm_up()`` and then
asks "perfect" for the first two actions of a game (a give, then the reply's
placement), printing the wall time from just before the process was started.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CHILD = """
import json, random, sys, time
t0 = float(sys.argv[1]); budget = float(sys.argv[2])
from games.kinds.quarto.player import choose_move, warm_up
from games.kinds.quarto.rules import initial_state
t_import = time.time() - t0
warm = warm_up()
t_warm = time.time() - t0
rng = random.Random(1)
state = initial_state()
state = state.play(choose_move(state, "perfect", budget, rng))
t_first = time.time() - t0
state = state.play(choose_move(state, "perfect", budget, rng))
t_second = time.time() - t0
times = {"import": t_import, "warm_up": warm, "ready": t_warm, "first": t_first, "second": t_second}
print(json.dumps(times))
"""


def run(budget: float) -> dict[str, float]:
    start = time.time()
    out = subprocess.run(
        [sys.executable, "-c", CHILD, repr(start), repr(budget)],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    )
    result: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--budget", type=float, default=1.0)
    args = parser.parse_args()
    first = run(args.budget)  # populates the cache if needed
    print(f"populating run: ready after {first['ready']:.2f} s (warm_up {first['warm_up']:.2f} s)")
    runs = [run(args.budget) for _ in range(args.runs)]
    print(f"{args.runs} cold starts, budget {args.budget} s per action (seconds from process start):")
    for key in ("import", "ready", "first", "second"):
        values = [r[key] for r in runs]
        print(f"  {key:<7} mean {statistics.mean(values):.2f}  max {max(values):.2f}")
    print(f"  warm_up() itself: mean {statistics.mean(r['warm_up'] for r in runs):.2f} s")


if __name__ == "__main__":
    main()
