"""Tic-tac-toe: the top level in every one of the 4,520 reachable positions that are not
over. Checks each move against an independent minimax through the engine and prints the
time per move.

    python bench/tictactoe_perfect.py
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from functools import cache
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.kinds.tictactoe import player as ai
from games.kinds.tictactoe import rules as ttt


@cache
def value(state: ttt.State) -> int:
    if state.outcome is not None:
        return 0 if state.outcome.is_draw else -1
    return max(-value(state.play(m)) for m in state.legal_moves())


def main() -> None:
    print(f"warm-up (solve the game into the memo): {ai.warm_up() * 1000:.1f} ms")
    positions = [s for s in ttt.reachable_positions() if not s.is_over()]
    rng = random.Random(1)
    times = []
    optimal = 0
    for state in positions:
        t0 = time.perf_counter()
        move = ai.choose_move(state, "perfect", rng=rng)
        times.append(time.perf_counter() - t0)
        optimal += -value(state.play(move)) == value(state)
    print(f"positions: {len(positions)}, optimal moves: {optimal}")
    print(
        f"time per move: mean {statistics.mean(times) * 1000:.3f} ms, "
        f"max {max(times) * 1000:.3f} ms, over 10 ms: {sum(t > 0.010 for t in times)}"
    )


if __name__ == "__main__":
    main()
