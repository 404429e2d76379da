"""Connect Four (7x6): how the top level plays by number of stones.

For each position: where the move came from (the opening book, the solver, or the
heuristic search when the solver ran out of time), how long the move took, and whether
it is game-theoretically best: it keeps the position's value (win, draw or loss), checked
afterwards by solving every column with no time limit that matters (``--check-seconds``
each). Every position starts from a cold transposition table, as in a fresh game, which
is the worst case: in a game the table keeps what earlier moves searched.

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
from games.ai import connect_book as book
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


def wdl(state: connect.State, seconds: float) -> dict[int, int] | None:
    """Win (1) / draw (0) / loss (-1) of every column for the side to move, or None if too slow."""
    values = {}
    for column in state.droppable_columns:
        child = state.play(connect.Drop(column))
        if child.outcome is not None:
            values[column] = 0 if child.outcome.is_draw else 1
            continue
        found = ai.solve_best(child, seconds, weak=True)
        if found is None:
            return None
        values[column] = -found[1]
    return values


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--positions", type=int, default=8, help="positions per bucket of stones")
    parser.add_argument("--budget", type=float, default=1.0)
    parser.add_argument("--check-seconds", type=float, default=30.0, help="time to solve each column")
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()
    print(f"warm-up: {ai.warm_up():.2f} s")
    rng = random.Random(args.seed)
    positions = sample_positions(args.positions, rng)
    print(f"budget {args.budget:g} s per move; book: {len(book._entries())} positions")
    print("stones  positions  book solver search  move time mean / max   best move (checked)")
    for bucket, states in positions.items():
        sources = {"book": 0, "solver": 0, "search": 0}
        times = []
        best = checked = 0
        for state in states:
            ai._shared_tt.clear()
            t0 = time.perf_counter()
            move, source = ai.master_move(state, args.budget, rng)
            times.append(time.perf_counter() - t0)
            sources[source] += 1
            assert isinstance(move, connect.Drop)
            values = wdl(state, args.check_seconds)
            if values is not None:
                checked += 1
                best += values[move.column] == max(values.values())
        print(
            f"{bucket[0]:2d}-{bucket[1]:2d}   {len(states):5d}     "
            f"{sources['book']:4d} {sources['solver']:6d} {sources['search']:6d}   "
            f"{statistics.mean(times):6.3f} / {max(times):6.3f} s   "
            f"{best:3d} of {checked:3d}",
            flush=True,
        )


if __name__ == "__main__":
    main()
