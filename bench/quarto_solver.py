"""Speed of the exact Quarto solver on fixed, seeded positions.

    python bench/quarto_solver.py [--positions 30] [--empties 8-13] [--turns]

Positions: random undecided positions with a piece in hand, reached by play that never
wins nor gives a winning piece (seeded, the same on every run). For each number of
empty cells it solves every position from an empty transposition table, as the
"perfect" level does when it decides a placement (win/draw/loss of the best "place,
then give" pair), and prints nodes per solve, time per solve (mean, p95), nodes/s
and placements tested per second. With ``--turns`` it also times whole "perfect"
turns (``choose_move`` with the default 1 s budget) and counts the turns decided by
an exact search.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "ai"))

from quarto_helpers import random_position

from games.ai.quarto import _SEARCH_LEVELS, _choose_by_search, warm_up
from games.ai.quarto_solver import FULL_DEPTH, Solver, encode


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--positions", type=int, default=30, help="positions per number of empty cells")
    parser.add_argument("--empties", default="8-13", help="range of empty cells, e.g. 8-13")
    parser.add_argument("--turns", action="store_true", help="also time whole 'perfect' turns")
    parser.add_argument("--budget", type=float, default=1.0, help="budget of a timed turn (default 1.0)")
    args = parser.parse_args()
    low, high = (int(x) for x in args.empties.split("-"))

    print(f"warm-up {warm_up():.2f} s")
    solver = Solver()
    print(
        f"{'empty':>5} {'positions':>9} {'nodes/solve':>12} {'mean ms':>9} {'p95 ms':>9} {'max ms':>9}"
        f" {'Mnodes/s':>9} {'W/D/L':>9}"
        + (f" {'turn mean':>9} {'turn p95':>9} {'exact':>6}" if args.turns else "")
    )
    for empties in range(low, high + 1):
        rng = random.Random(f"bench-{empties}")
        states = [random_position(rng, empties) for _ in range(args.positions)]
        times: list[float] = []
        nodes: list[int] = []
        outcome = [0, 0, 0]
        for state in states:
            assert state.in_hand is not None
            solver.clear()
            result = solver.search(encode(state), state.in_hand, -1, 1, FULL_DEPTH, 1 << 50)
            times.append(result.seconds)
            nodes.append(result.nodes)
            outcome[0 if result.value >= 1 else 2 if result.value <= -1 else 1] += 1
        line = (
            f"{empties:>5} {len(states):>9} {statistics.mean(nodes):>12.0f}"
            f" {1000 * statistics.mean(times):>9.1f} {1000 * p95(times):>9.1f} {1000 * max(times):>9.1f}"
            f" {sum(nodes) / sum(times) / 1e6:>9.2f} {'/'.join(map(str, outcome)):>9}"
        )
        if args.turns:
            turn_times: list[float] = []
            exact = 0
            for i, state in enumerate(states):
                start = time.perf_counter()
                _action, solved = _choose_by_search(
                    state, _SEARCH_LEVELS["perfect"], args.budget, random.Random(i)
                )
                turn_times.append(time.perf_counter() - start)
                exact += solved
            line += f" {statistics.mean(turn_times):>9.3f} {p95(turn_times):>9.3f} {exact:>3}/{len(states)}"
        print(line, flush=True)


if __name__ == "__main__":
    main()
