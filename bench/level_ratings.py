"""Measured ratings of the computer's levels: matches between every pair of levels of a
game and a reference player, then Glicko-2 ratings fitted to the results.

    nice -n 19 .venv/bin/python bench/level_ratings.py [--games 6] [--budget 0.1]
        [--kinds tictactoe connect quarto ultimate] [--workers 1] [--write]

**The reference** is a player who moves at random among the legal moves, anchored at
800 ("a player who has just learnt the rules"); every level is measured against it and
against the other levels of its game, each pairing playing ``--games`` games from each
seat, every game with its own seed, ``--budget`` seconds of search per action (the
site's is ``AI_BUDGET``, 1 s by default: the searching levels may be a little stronger
there than measured here).

**The fit.** On the Glicko scale and with Glicko's expected score (a win against a
player 400 points below is expected ten times out of eleven), each level's rating is
the most likely one given all its games and a new player's prior (1500, RD 350), found
by Newton steps level by level until stable; the reference stays at 800. The deviation
is the fit's (one over the root of the curvature): it shrinks with the number of games
and how informative they were (draws between perfect players say little), as a Glicko
RD does. A level is
**established** when its RD is at most 110, as for people; the site then shows its
rating ("club, about 1450") and lets an account play it rated (docs/architecture.md).

``--write`` stores each game's result in its package, games/kinds/<kind>/level_ratings.json,
which the catalog reads.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from games import catalog  # noqa: E402
from ratings import glicko2  # noqa: E402

REFERENCE = "random"
REFERENCE_RATING = glicko2.Rating(800.0, 30.0)
PRIOR = glicko2.Rating(1500.0, 350.0)
KINDS = ROOT / "games" / "kinds"  # each game's ratings: its package's level_ratings.json


def play_game(job: tuple[str, str, str, int, float]) -> tuple[str, str, str, float]:
    """One game of ``kind`` between ``first`` (seat 0) and ``second``; (kind, first,
    second, first's score)."""
    kind, first, second, seed, budget = job
    spec = catalog.get(kind)
    rng = random.Random(f"levels-{kind}-{first}-{second}-{seed}")
    state = spec.rules.new_state({})
    seats = (first, second)
    while not state.is_over():
        who = seats[state.to_move]
        if who == REFERENCE:
            move = rng.choice(list(state.legal_moves()))
        else:
            move = catalog.player_of(kind).choose_move(state, who, budget, rng)
        state = state.play(move)
    outcome = state.outcome
    assert outcome is not None
    score = 0.5 if outcome.winner is None else (1.0 if outcome.winner == 0 else 0.0)
    return kind, first, second, score


def fit(players: list[str], games: list[tuple[str, str, float]]) -> dict[str, glicko2.Rating]:
    """Each level's rating: the most likely given its games (Glicko's expected score, a
    draw half a win) and a new player's prior (1500, RD 350), by Newton steps level by
    level until none moves by more than a tenth of a point; the reference held fixed.
    The RD is the curvature's: how sure the games and the prior make the rating."""
    scale = math.log(10) / 400
    rating = {p: REFERENCE_RATING.rating if p == REFERENCE else PRIOR.rating for p in players}
    rd = {p: REFERENCE_RATING.rd if p == REFERENCE else PRIOR.rd for p in players}
    for _ in range(500):
        moved = 0.0
        for player in players:
            if player == REFERENCE:
                continue
            slope = (PRIOR.rating - rating[player]) / PRIOR.rd**2
            curve = 1 / PRIOR.rd**2
            for a, b, score in games:
                if player not in (a, b) or a == b:
                    continue
                other, mine = (b, score) if a == player else (a, 1 - score)
                expected = 1 / (1 + 10 ** ((rating[other] - rating[player]) / 400))
                slope += scale * (mine - expected)
                curve += scale**2 * expected * (1 - expected)
            step = max(-200.0, min(200.0, slope / curve))
            rating[player] += step
            rd[player] = 1 / math.sqrt(curve)
            moved = max(moved, abs(step))
        if moved < 0.1:
            break
    return {p: glicko2.Rating(rating[p], rd[p]) for p in players}


def _warm() -> None:
    catalog.warm_up()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=6, help="games per pairing from each seat (default 6)")
    parser.add_argument("--budget", type=float, default=0.1, help="seconds per action (default 0.1)")
    parser.add_argument(
        "--kinds", nargs="+", default=[k for k, s in sorted(catalog.CATALOG.items()) if s.player]
    )
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--write", action="store_true", help="store each game's ratings in its package")
    args = parser.parse_args()

    stored: dict[str, Any] = {}
    with ProcessPoolExecutor(args.workers, initializer=_warm) as pool:
        for kind in args.kinds:
            players = [REFERENCE, *catalog.get(kind).levels]
            jobs = [
                (kind, first, second, seed, args.budget)
                for a, b in itertools.combinations(players, 2)
                for first, second in ((a, b), (b, a))
                for seed in range(args.games)
            ]
            start = time.perf_counter()
            games = [
                (first, second, score) for _, first, second, score in pool.map(play_game, jobs, chunksize=2)
            ]
            ratings = fit(players, games)
            elapsed = time.perf_counter() - start
            print(f"\n{catalog.get(kind).title}: {len(games)} games, budget {args.budget} s, {elapsed:.0f} s")
            print(f"{'level':<10} {'rating':>7} {'RD':>5} {'games':>6} {'vs random':>10}")
            stored[kind] = {}
            for player in players:
                rating = ratings[player]
                mine = [s if a == player else 1 - s for a, b, s in games if player in (a, b)]
                versus = [s if a == player else 1 - s for a, b, s in games if {a, b} == {player, REFERENCE}]
                share = f"{100 * sum(versus) / len(versus):.0f}%" if versus and player != REFERENCE else "-"
                print(f"{player:<10} {rating.rating:7.0f} {rating.rd:5.0f} {len(mine):6d} {share:>10}")
                if player != REFERENCE:
                    stored[kind][player] = {
                        "rating": round(rating.rating),
                        "rd": round(rating.rd),
                        "games": len(mine),
                    }
    if args.write:
        for kind, levels in stored.items():
            out = KINDS / kind / "level_ratings.json"
            out.write_text(json.dumps(levels, indent=2, sort_keys=True) + "\n")
            print(f"\nwritten to {out.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
