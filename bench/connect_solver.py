"""Speed of the exact Connect Four solver on fixed, seeded positions.

    python bench/connect_solver.py [--positions 6] [--stones 7-12]

Positions come from games between two ``club`` players (as in ``connect_timing.py``),
the same on every run. Each is solved from an empty transposition table with no time
limit, first to win / draw / loss (what the top level asks first), then to the exact
score, and the script prints, by number of stones: time per solve (mean, max), nodes per
solve and nodes per second, and how many positions are won, drawn and lost for the side
to move.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np
from connect_timing import sample_positions

from games.kinds.connect import core
from games.kinds.connect import player as ai
from games.kinds.connect.rules import State


def solve(table: np.ndarray, state: State, weak: bool) -> tuple[int, float, int]:
    """(score, seconds, nodes) of one solve from an empty table."""
    table[:] = 0
    pos, mask = ai.bitboards(state)
    stats = core.new_stats()
    best = np.zeros(1, dtype=np.int64)
    shape = (state.width, state.height, state.n)
    started = time.perf_counter()
    score = core.solve_best(pos, mask, state.ply, *shape, table, stats, best, weak)
    return int(score), time.perf_counter() - started, int(stats[core.NODES])


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--positions", type=int, default=6, help="positions per number of stones")
    parser.add_argument("--stones", default="7-12", help="a range of stone counts, e.g. 7-12")
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()
    low, high = (int(x) for x in args.stones.split("-"))
    print(f"warm-up: {ai.warm_up():.2f} s")
    table = np.zeros(core.TT_SIZE, dtype=np.uint64)
    buckets = tuple((n, n) for n in range(low, high + 1))
    states = list(sample_positions(args.positions, random.Random(args.seed), buckets))
    print("stones  positions   search   mean s    max s   nodes/solve  Mnodes/s   W/D/L")
    for stones in range(low, high + 1):
        group = [s for s in states if s.ply == stones]
        for weak in (True, False):
            runs = [solve(table, s, weak) for s in group]
            seconds = [r[1] for r in runs]
            nodes = [r[2] for r in runs]
            signs = [int(np.sign(r[0])) for r in runs]
            wdl = f"{signs.count(1)}/{signs.count(0)}/{signs.count(-1)}"
            print(
                f"{stones:6d}  {len(group):9d}   {'w/d/l' if weak else 'exact':6s} "
                f"{statistics.mean(seconds):7.3f}  {max(seconds):7.3f}  {statistics.mean(nodes):12,.0f}"
                f"  {sum(nodes) / sum(seconds) / 1e6:8.2f}   {wdl}",
                flush=True,
            )


if __name__ == "__main__":
    main()
