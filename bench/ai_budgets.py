"""How well every computer player keeps to its time budget: the wall time of one
``games.ai.choose_move`` call per game and level, against the budget it was given.

    python bench/ai_budgets.py [--positions 10] [--budget 1.0] [--games quarto,connect] [--levels perfect]

Positions: a few plies into games played by weak moves (half uniformly random, half
the ``casual`` level), seeded, the same on every run for a given ``--seed``. Quarto
positions are taken from its first 10 actions (16 to 12 empty cells), where the search
is hardest and cannot solve exactly. Every level of every game gets the same positions
of its game. For each game and level it prints the mean, p95 and max of the move time
and the largest overshoot (move time minus budget; negative when every move finished
early). The players are warmed up first (compiled code loaded), and their shared
tables are left as they are between moves, as in a server that plays many games.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games import catalog

# The plies (actions from the start) the sample positions are taken from, per game.
PLIES = {
    "quarto": (0, 9),
    "tictactoe": (0, 4),
    "connect": (0, 12),
    "ultimate": (0, 16),
}


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def sample_positions(kind: str, count: int, rng: random.Random) -> list[Any]:
    """``count`` positions, not over, a random number of weak plies into a game."""
    rules = catalog.get(kind).rules
    low, high = PLIES.get(kind, (0, 8))
    positions: list[Any] = []
    while len(positions) < count:
        target = rng.randint(low, high)
        state = rules.new_state({})
        for _ in range(target):
            if state.is_over():
                break
            if rng.random() < 0.5:
                move = rng.choice(list(state.legal_moves()))
            else:
                move = catalog.player_of(kind).choose_move(state, "casual", 0.05, rng)
            state = state.play(move)
        if not state.is_over():
            positions.append(state)
    return positions


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--positions", type=int, default=10, help="sample positions per game (default 10)")
    parser.add_argument("--budget", type=float, default=1.0, help="seconds per move (default 1.0)")
    parser.add_argument("--games", default=",".join(catalog.CATALOG), help="games, comma-separated (all)")
    parser.add_argument("--levels", default="", help="comma-separated levels (default every level)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    kinds = [k for k in args.games.split(",") if k]
    wanted = {lv for lv in args.levels.split(",") if lv}

    for kind in kinds:
        catalog.player_of(kind).warm_up()
    print(f"budget {args.budget:g} s per move, {args.positions} positions per game, seed {args.seed}")
    print(f"{'game':<10} {'level':<9} {'moves':>5} {'mean s':>7} {'p95 s':>7} {'max s':>7} {'overshoot':>9}")
    started = time.perf_counter()
    for kind in kinds:
        positions = sample_positions(kind, args.positions, random.Random(f"{kind}-{args.seed}"))
        for level in catalog.get(kind).levels:
            if wanted and level not in wanted:
                continue
            rng = random.Random(f"{kind}-{level}-{args.seed}")
            times: list[float] = []
            for state in positions:
                t0 = time.perf_counter()
                move = catalog.player_of(kind).choose_move(state, level, args.budget, rng)
                times.append(time.perf_counter() - t0)
                assert move in state.legal_moves(), (kind, level, move)
            print(
                f"{kind:<10} {level:<9} {len(times):5d} {statistics.mean(times):7.3f} {p95(times):7.3f}"
                f" {max(times):7.3f} {max(times) - args.budget:+9.3f}",
                flush=True,
            )
    print(f"total {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
