"""Match: the Ultimate Tic-Tac-Toe top level (time per move) against plain UCT with a
fixed number of simulations, alternating who starts. Prints the score as it goes.

    python bench/ultimate_match.py --games 100 --sims 1000 --budget 1.0
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.kinds.ultimate import player as ai
from games.kinds.ultimate import rules as u


def play_game(master_seat: int, sims: int, budget: float, level: str, rng: random.Random) -> int | None:
    state = u.initial_state()
    while not state.is_over():
        if state.to_move == master_seat:
            move = ai.choose_move(state, level, budget=budget, rng=rng)
        else:
            move = ai.reference_move(state, sims, rng=rng)
        state = state.play(move)
    assert state.outcome is not None
    return state.outcome.winner


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--sims", type=int, default=1000)
    parser.add_argument("--budget", type=float, default=1.0)
    parser.add_argument("--level", default="master")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    ai.warm_up()
    rng = random.Random(args.seed)
    wins = draws = losses = 0
    started = time.perf_counter()
    for game in range(args.games):
        seat = game % 2
        winner = play_game(seat, args.sims, args.budget, args.level, rng)
        if winner is None:
            draws += 1
        elif winner == seat:
            wins += 1
        else:
            losses += 1
        played = game + 1
        score = (wins + draws / 2) / played
        print(
            f"game {played:3d}: {args.level} ({args.budget:g} s/move) vs plain UCT {args.sims} sims: "
            f"+{wins} ={draws} -{losses}  score {score:.1%}  ({time.perf_counter() - started:.0f} s)",
            flush=True,
        )


if __name__ == "__main__":
    main()
