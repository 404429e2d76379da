"""Speed of the exact Quarto solver on fixed, seeded positions.

    python bench/quarto_solver.py [--positions 30] [--empties 8-13] [--turns] [--all]

Positions: random undecided positions with a piece in hand, reached by play that never
wins nor gives a winning piece (seeded, the same on every run). For each number of
empty cells it solves every position from an empty transposition table, as the
"perfect" level does when it decides a placement (win/draw/loss of the best "place,
then give" pair), and prints nodes per solve, time per solve (mean, p95), nodes/s
and placements tested per second. With ``--turns`` it also times whole "perfect"
turns (``choose_move`` with the default 1 s budget) and counts the turns decided by
an exact search. With ``--all`` it values every action instead (win/draw/loss of each
placement, one table per position, as the analysis does) and prints p50/p95 of that;
``--baseline ORDER_MIN,WORKERS`` also solves each position with the replies-first
ordering from ORDER_MIN empty cells (see ``quarto_search.S_ORDER_MIN``) on that many
threads, checks the values agree, and prints the ratios (baseline / measured). Each
``--all`` row is followed by the sums over its positions (nodes, seconds) and a digest
of every value: with ``--workers 1`` the nodes are the same on every run, so two
checkouts run at once, one per core, compare two versions of the search side by side.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "ai"))

from quarto_helpers import random_position

from games.kinds.quarto.player import _SEARCH_LEVELS, _choose_by_search, warm_up
from games.kinds.quarto.root import ROOT_WORKERS, Root, first_bounds, search_actions
from games.kinds.quarto.rules import State
from games.kinds.quarto.solver import FULL_DEPTH, NO_LIMIT, Solver, encode


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def value_all(solver: Solver, state: State, workers: int) -> tuple[list[int], int, float, float]:
    """Win/draw/loss score of every placement, from an empty table, as the analysis's exact
    pass makes them (on ``workers`` threads); (scores, nodes, seconds, CPU seconds)."""
    solver.clear()
    start = time.perf_counter()
    cpu = time.process_time()
    root = Root(solver, state)
    actions = list(state.legal_moves())
    bounds, pending = first_bounds(root, actions)
    scores = [bounds[a].low for a in actions]
    nodes = Solver.total_nodes()
    for action, (value, aborted) in search_actions(
        root, pending, -1, 1, FULL_DEPTH, NO_LIMIT, workers
    ).items():
        assert not aborted
        scores[actions.index(action)] = max(-1, min(1, value))
    return scores, Solver.total_nodes() - nodes, time.perf_counter() - start, time.process_time() - cpu


def main_all(args: argparse.Namespace, low: int, high: int) -> None:
    solver = Solver()
    base = Solver() if args.baseline is not None else None
    base_workers = ROOT_WORKERS
    if base is not None:
        base.order_min, base_workers = (int(x) for x in args.baseline.split(","))
    print(
        f"{'empty':>5} {'positions':>9} {'nodes p50':>10} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8}"
        f" {'Mnodes/s':>9} {'cpu p50':>8} {'cpu p95':>8}"
        + (f" {'base p50':>8} {'base p95':>8} {'nodes x':>7} {'time x':>6}" if base else "")
    )
    for empties in range(low, high + 1):
        rng = random.Random(f"bench-{empties}")
        states = [random_position(rng, empties) for _ in range(args.positions)]
        times: list[float] = []
        nodes: list[int] = []
        base_times: list[float] = []
        base_nodes: list[int] = []
        cpus: list[float] = []
        values: list[list[int]] = []
        for state in states:
            scores, count, seconds, cpu = value_all(solver, state, args.workers)
            values.append(scores)
            times.append(seconds)
            nodes.append(count)
            cpus.append(cpu)
            if base is not None:
                base_scores, count, seconds, _cpu = value_all(base, state, base_workers)
                assert base_scores == scores, (state, scores, base_scores)
                base_times.append(seconds)
                base_nodes.append(count)
        line = (
            f"{empties:>5} {len(states):>9} {statistics.median(nodes):>10.0f}"
            f" {1000 * statistics.median(times):>8.0f} {1000 * p95(times):>8.0f} {1000 * max(times):>8.0f}"
            f" {sum(nodes) / sum(times) / 1e6:>9.2f}"
            f" {1000 * statistics.median(cpus):>8.0f} {1000 * p95(cpus):>8.0f}"
        )
        if base is not None:
            line += (
                f" {1000 * statistics.median(base_times):>8.0f} {1000 * p95(base_times):>8.0f}"
                f" {sum(base_nodes) / sum(nodes):>7.2f} {sum(base_times) / sum(times):>6.2f}"
            )
        print(line, flush=True)
        digest = hashlib.sha1(repr(values).encode()).hexdigest()[:12]
        print(f"{'':>5} sums: {sum(nodes)} nodes, {sum(times):.2f} s; values {digest}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--positions", type=int, default=30, help="positions per number of empty cells")
    parser.add_argument("--empties", default="8-13", help="range of empty cells, e.g. 8-13")
    parser.add_argument("--turns", action="store_true", help="also time whole 'perfect' turns")
    parser.add_argument("--all", action="store_true", help="value every action, not only the best")
    parser.add_argument(
        "--baseline",
        help="with --all: ORDER_MIN,WORKERS: also solve with this ordering and threads, check, compare",
    )
    parser.add_argument(
        "--workers", type=int, default=ROOT_WORKERS, help=f"with --all: threads (default {ROOT_WORKERS})"
    )
    parser.add_argument("--budget", type=float, default=1.0, help="budget of a timed turn (default 1.0)")
    args = parser.parse_args()
    low, high = (int(x) for x in args.empties.split("-"))

    print(f"warm-up {warm_up():.2f} s")
    if args.all:
        main_all(args, low, high)
        return
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
