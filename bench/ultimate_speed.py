"""Ultimate Tic-Tac-Toe: random playouts per second in the compiled core, and UCT
iterations per second from the start position.

    python bench/ultimate_speed.py
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.kinds.ultimate import core
from games.kinds.ultimate import player as ai
from games.kinds.ultimate import rules as u


def main() -> None:
    print(f"warm-up: {ai.warm_up():.2f} s")
    print(f"random playouts/s (uniform): {ai.playouts_per_second(3.0):,.0f}")
    print(f"random playouts/s (take game-winning moves): {ai.playouts_per_second(3.0, decisive=True):,.0f}")
    x, o, d, moves = core.random_playouts(core.new_state(), 100_000, 5, False, core.WIN)
    games = x + o + d
    print(
        f"100,000 random games: X {x / games:.1%}, O {o / games:.1%}, draws {d / games:.1%}, "
        f"{moves / games:.1f} moves on average"
    )
    for label, decisive, c in (
        ("master", True, ai.MASTER_EXPLORATION),
        ("plain", False, ai.PLAIN_EXPLORATION),
    ):
        tree = ai.Tree(u.initial_state(), c, decisive, 1, ai.MAX_NODES)
        t0 = time.perf_counter()
        tree.run_for(2.0)
        rate = tree.iterations / (time.perf_counter() - t0)
        print(f"UCT iterations/s from the start ({label}): {rate:,.0f}")
    t0 = time.perf_counter()
    ai.reference_move(u.initial_state(), 10_000, random.Random(1))
    print(f"plain UCT, 10,000 simulations from the start: {time.perf_counter() - t0:.2f} s")


if __name__ == "__main__":
    main()
