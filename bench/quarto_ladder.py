"""Matches between Quarto AI levels: each level against the one below it, and
"perfect" against every level.

    python bench/quarto_ladder.py [--games 200] [--budget 0.1] [--workers 2]

Colours alternate (each level starts half the games); every game has its own seed.
Score: win 1, draw 0.5, loss 0, for the stronger (first-named) level.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.kinds.quarto.player import LEVELS, choose_move, warm_up
from games.kinds.quarto.rules import initial_state


def play_game(job: tuple[str, str, int, float]) -> tuple[str, str, int, float | None]:
    """One game; returns (strong, weak, seed, score of ``strong``)."""
    strong, weak, seed, budget = job
    rng = random.Random(f"ladder-{strong}-{weak}-{seed}")
    seats = (strong, weak) if seed % 2 == 0 else (weak, strong)
    state = initial_state()
    while not state.is_over():
        state = state.play(choose_move(state, seats[state.to_move], budget, rng))
    assert state.outcome is not None
    winner = state.outcome.winner
    if winner is None:
        return strong, weak, seed, 0.5
    return strong, weak, seed, 1.0 if seats[winner] == strong else 0.0


def _init() -> None:
    warm_up()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=200, help="games per pairing (default 200)")
    parser.add_argument("--perfect-games", type=int, default=None, help="games for perfect vs non-neighbours")
    parser.add_argument("--budget", type=float, default=0.1, help="seconds per action (default 0.1)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--only", default="", help="comma-separated pairings to play, e.g. perfect-expert")
    args = parser.parse_args()

    pairs = [(LEVELS[i + 1], LEVELS[i]) for i in range(len(LEVELS) - 1)]
    pairs += [("perfect", weak) for weak in LEVELS[:-2]]
    if args.only:
        wanted = {tuple(p.split("-")) for p in args.only.split(",")}
        pairs = [p for p in pairs if p in wanted]
    neighbours = [(LEVELS[i + 1], LEVELS[i]) for i in range(len(LEVELS) - 1)]
    jobs = []
    for strong, weak in pairs:
        games = args.games if (strong, weak) in neighbours else (args.perfect_games or args.games)
        jobs += [(strong, weak, seed, args.budget) for seed in range(games)]
    results: dict[tuple[str, str], list[float]] = {pair: [] for pair in pairs}
    start = time.perf_counter()
    with ProcessPoolExecutor(args.workers, initializer=_init) as pool:
        for strong, weak, _seed, score in pool.map(play_game, jobs, chunksize=4):
            assert score is not None
            results[(strong, weak)].append(score)
    elapsed = time.perf_counter() - start

    print(f"Quarto ladder: budget {args.budget} s per action, {args.workers} workers, {elapsed:.0f} s")
    print(f"{'pairing':<22} {'games':>5} {'wins':>5} {'draws':>5} {'losses':>6} {'score':>7}")
    for (strong, weak), scores in results.items():
        wins = scores.count(1.0)
        draws = scores.count(0.5)
        losses = scores.count(0.0)
        pct = 100 * sum(scores) / len(scores)
        print(f"{strong + ' v ' + weak:<22} {len(scores):>5} {wins:>5} {draws:>5} {losses:>6} {pct:>6.1f}%")


if __name__ == "__main__":
    main()
