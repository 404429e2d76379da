"""Connect Four (7x6): how the top level plays by number of stones.

For each position: where the move came from (the opening book, the solver, or the
heuristic search when the solver ran out of time), how long the move took, and whether
it is game-theoretically best: it keeps the position's value (win, draw or loss), checked
afterwards by solving every column with no time limit that matters (``--check-seconds``
each). Book moves were solved offline and are counted as best without a check.

Two ways to get positions:

* by default, positions from games between two ``club`` players (four-ply search, random
  among equal moves), so they look like real play but are mostly off the book's lines;
  every one starts from a cold transposition table, the worst case;
* with ``--games N``, the positions the top level meets in N games of its own against
  ``--opponent`` (taking turns to start, the opponent with the same budget), with the
  table kept from move to move as in a game on the site.

    python bench/connect_timing.py --positions 8 --budget 1.0
    python bench/connect_timing.py --games 10 --opponent expert --budget 1.0
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.kinds.connect import book
from games.kinds.connect import player as ai
from games.kinds.connect import rules as connect

BUCKETS = ((0, 4), (5, 8), (9, 12), (13, 16), (17, 20), (21, 26), (27, 41))


def sample_positions(
    per_bucket: int, rng: random.Random, buckets: tuple[tuple[int, int], ...] = BUCKETS
) -> Iterator[connect.State]:
    """``per_bucket`` positions with a number of stones in each bucket, bucket by bucket."""
    found: dict[tuple[int, int], list[connect.State]] = {b: [] for b in buckets}
    while any(len(v) < per_bucket for v in found.values()):
        state = connect.initial_state()
        while not state.is_over():
            for bucket in buckets:
                if (
                    bucket[0] <= state.ply <= bucket[1]
                    and len(found[bucket]) < per_bucket
                    and rng.random() < 0.3
                ):
                    found[bucket].append(state)
            state = state.play(ai.choose_move(state, "club", budget=0.2, rng=rng))
    for states in found.values():
        yield from states


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


class Row:
    """One bucket of the table: where the moves came from, their times, how many were best."""

    def __init__(self) -> None:
        self.sources = {"book": 0, "solver": 0, "search": 0}
        self.times: list[float] = []
        self.best = self.checked = 0

    def add(self, state: connect.State, budget: float, rng: random.Random, check: float) -> connect.State:
        """Let the top level move in ``state``, record it, and return the position after it."""
        started = time.perf_counter()
        move, source = ai.master_move(state, budget, rng)
        self.times.append(time.perf_counter() - started)
        self.sources[source] += 1
        assert isinstance(move, connect.Drop)
        # The check solves with the shared table too: keep the game's table as the move left it.
        kept = [table.copy() for table in ai._shared_tt.values()]
        values = None if source == "book" else wdl(state, check)
        for table, saved in zip(ai._shared_tt.values(), kept, strict=True):
            table[:] = saved
        if source == "book":
            self.checked += 1
            self.best += 1
        elif values is not None:
            self.checked += 1
            self.best += values[move.column] == max(values.values())
        return state.play(move)

    def line(self, bucket: tuple[int, int]) -> str:
        return (
            f"{bucket[0]:2d}-{bucket[1]:2d}   {len(self.times):5d}     "
            f"{self.sources['book']:4d} {self.sources['solver']:6d} {self.sources['search']:6d}   "
            f"{statistics.mean(self.times):6.3f} / {max(self.times):6.3f} s   "
            f"{self.best:3d} of {self.checked:3d}"
        )


def bucket_of(state: connect.State) -> tuple[int, int]:
    return next(b for b in BUCKETS if b[0] <= state.ply <= b[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--positions", type=int, default=8, help="positions per bucket of stones")
    parser.add_argument("--games", type=int, default=0, help="play this many games instead")
    parser.add_argument("--opponent", default="club", choices=ai.LEVELS, help="the level played in --games")
    parser.add_argument("--budget", type=float, default=1.0)
    parser.add_argument("--check-seconds", type=float, default=30.0, help="time to solve each column")
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()
    started = time.perf_counter()
    entries = len(book._entries())
    print(f"book: {entries} positions, read in {time.perf_counter() - started:.3f} s")
    print(f"warm-up: {ai.warm_up():.2f} s")
    rng = random.Random(args.seed)
    rows = {b: Row() for b in BUCKETS}
    print(f"budget {args.budget:g} s per move")
    if args.games:
        ai._shared_tt.clear()
        for game in range(args.games):
            state = connect.initial_state()
            while not state.is_over():
                if state.to_move == game % 2:
                    state = rows[bucket_of(state)].add(state, args.budget, rng, args.check_seconds)
                else:
                    state = state.play(ai.choose_move(state, args.opponent, budget=args.budget, rng=rng))
            outcome = state.outcome
            assert outcome is not None
            result = "draw" if outcome.is_draw else ("won" if outcome.winner == game % 2 else "lost")
            seat = "first" if game % 2 == 0 else "second"
            print(f"game {game + 1}: the top level moved {seat} and {result}", flush=True)
    else:
        for state in sample_positions(args.positions, rng):
            ai._shared_tt.clear()
            rows[bucket_of(state)].add(state, args.budget, rng, args.check_seconds)
    print("stones  positions  book solver search  move time mean / max   best move (checked)")
    for bucket, row in rows.items():
        if row.times:
            print(row.line(bucket), flush=True)


if __name__ == "__main__":
    main()
