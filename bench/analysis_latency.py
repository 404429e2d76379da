"""Latency of the analysis board's analysis by empty cells (Quarto).

    python bench/analysis_latency.py [--positions 20] [--empties 6-13] [--budget 1.0]

Positions: random legal play (seeded) to the number of empty cells, a piece in hand, the
game on. Each is analysed as POST /api/v1/analysis has the pool do it
(``catalog.analyse_moves`` with the budget, AI_BUDGET by default 1 s), after a warm-up.
Prints per number of empty cells: p50, p95 and max seconds, and the share answered
exactly (every action's value proved).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "study"))

from random_positions import random_position

from games import catalog
from games.kinds.quarto.position import NOTATION


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    parser.add_argument("--positions", type=int, default=20)
    parser.add_argument("--empties", default="6-13")
    parser.add_argument("--budget", type=float, default=1.0)
    args = parser.parse_args()
    low, high = (int(x) for x in args.empties.split("-"))
    catalog.player_of("quarto").warm_up()
    rng = random.Random(33)
    print(f"budget {args.budget} s, {args.positions} positions each")
    print("empty   p50 s   p95 s   max s   exact")
    for empties in range(low, high + 1):
        times = []
        exact = 0
        for _ in range(args.positions):
            state = random_position(rng, empties)
            moves = NOTATION.setup_moves(state)
            started = time.perf_counter()
            values = catalog.analyse_moves("quarto", {}, moves, args.budget)
            times.append(time.perf_counter() - started)
            exact += all(v.exact for v in values)
        times.sort()
        p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
        print(
            f"{empties:5d} {statistics.median(times):7.3f} {p95:7.3f} {times[-1]:7.3f}"
            f"   {exact}/{args.positions}"
        )


if __name__ == "__main__":
    main()
