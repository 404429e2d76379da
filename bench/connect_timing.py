"""Connect Four (7x6): time per move of the top level by number of stones, and the share
of positions the exact solver finishes within the budget.

Positions come from games between two ``club`` players (four-ply search, random among
equal moves), so they look like real play rather than random noise.

    python bench/connect_timing.py --positions 8 --budget 1.0
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.ai import connect as ai
from games.engine import connect

BUCKETS = ((0, 4), (5, 8), (9, 12), (13, 16), (17, 20), (21, 26), (27, 41))


def sample_positions(per_bucket: int, rng: random.Random) -> dict[tuple[int, int], list[connect.State]]:
    found: dict[tuple[int, int], list[connect.State]] = {b: [] for b in BUCKETS}
    while any(len(v) < per_bucket for v in found.values()):
        state = connect.initial_state()
        while not state.is_over():
            for bucket in BUCKETS:
                if (
                    bucket[0] <= state.ply <= bucket[1]
                    and len(found[bucket]) < per_bucket
                    and rng.random() < 0.3
                ):
                    found[bucket].append(state)
            state = state.play(ai.choose_move(state, "club", budget=0.2, rng=rng))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--positions", type=int, default=8, help="positions per bucket of stones")
    parser.add_argument("--budget", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()
    print(f"warm-up: {ai.warm_up():.2f} s")
    rng = random.Random(args.seed)
    positions = sample_positions(args.positions, rng)
    print(f"budget {args.budget:g} s per move; solver share {ai.SOLVER_SHARE:.0%} of it")
    print("stones   positions  solved  solve time (mean/max)  move time (mean/max)")
    for bucket, states in positions.items():
        solved = 0
        solve_times = []
        move_times = []
        for state in states:
            ai._shared_tt.clear()  # each position from a cold table, as for a fresh game
            t0 = time.perf_counter()
            scores = ai.solve_columns(state, args.budget * ai.SOLVER_SHARE)
            solve_times.append(time.perf_counter() - t0)
            solved += scores is not None
            ai._shared_tt.clear()
            t0 = time.perf_counter()
            ai.choose_move(state, "master", budget=args.budget, rng=rng)
            move_times.append(time.perf_counter() - t0)
        print(
            f"{bucket[0]:2d}-{bucket[1]:2d}    {len(states):5d}     {solved:3d}    "
            f"{statistics.mean(solve_times):6.3f} / {max(solve_times):6.3f} s       "
            f"{statistics.mean(move_times):6.3f} / {max(move_times):6.3f} s"
        )


if __name__ == "__main__":
    main()
