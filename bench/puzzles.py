"""Re-prove every shipped puzzle with the solver.

    python bench/puzzles.py [--game quarto]

For each puzzle of study/data/<game>-puzzles.json: its actions reach its position, and
the solver finds it a puzzle again with the same answer (every action keeping the forced
win) and themes. Prints the count, the failures (each named) and the time taken.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games import catalog
from study import mining, puzzle_rules


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    parser.add_argument("--game", default="quarto")
    args = parser.parse_args()
    spec = catalog.get(args.game)
    assert spec.notation is not None
    puzzles = mining.read(mining.data_file(args.game))
    catalog.player_of(args.game).warm_up()
    started = time.perf_counter()
    failures = []
    for puzzle in puzzles:
        state = spec.rules.replay(puzzle["options"], puzzle["moves"])
        found = puzzle_rules.find(args.game, state)
        same = (
            found is not None
            and spec.notation.format(state) == puzzle["position"]
            and list(found.answer) == puzzle["answer"]
            and list(found.themes) == puzzle["themes"]
        )
        if not same:
            failures.append(puzzle["id"])
    took = time.perf_counter() - started
    each = took / max(len(puzzles), 1) * 1000
    print(f"{len(puzzles)} {args.game} puzzles re-proved in {took:.1f} s ({each:.0f} ms each)")
    print(f"failures: {len(failures)} {' '.join(failures)}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
