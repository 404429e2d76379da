"""The perfect level's opening book: build it, re-check it, measure it.

    python bench/quarto_book.py build [--out PATH] [--seats second,first] [--tt-bits 24]
    python bench/quarto_book.py check
    python bench/quarto_book.py measure [--games 20] [--others 2] [--record PATH] [--verify lost]

``build`` writes (or resumes) the book, one JSON line per position solved, logging
each; stop it at any time and start it again. ``check`` re-proves every bottom entry
from an empty table and checks every upper entry against
the replies below it. ``measure`` prints the book's size and load time, the analysis
latency at plies 0-4, perfect against itself from the empty board (the other side's
actions chosen at random among those the book covers) and perfect against every
other level. Every game's actions go to ``--record`` (JSON lines: the moves, and for
each of the perfect side's actions whether the book or the search chose it, with the
CPU and wall seconds it took). The games named by ``--verify`` (``lost``: those the
perfect side lost; ``all``: every game, which also finds a win it missed) are re-solved
along the perfect side's actions from 12 empty cells down (the book's turns above are
re-proved by ``check``), and the first action that lowered the value is named; so are
the other side's when it loses a game against perfect replies (after its random replies
it is the perfect level too).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import random

from games.kinds.quarto import player
from games.kinds.quarto.book import BOOK_PATH, book, book_move, key_of, parse
from games.kinds.quarto.book_build import BOTTOM, Builder
from games.kinds.quarto.book_walk import covered_replies, keeps_value, play_book_turn, replies
from games.kinds.quarto.rules import RULES, Action, Give, State, initial_state, winning_cells
from games.kinds.quarto.solver import FULL_DEPTH, Solver, encode

SOLVED_FROM = 12  # empty cells from which a position is re-solved (about a second at most)


def build(args: argparse.Namespace) -> None:
    path = Path(args.out)
    path.parent.mkdir(parents=True, exist_ok=True)
    start = time.monotonic()
    cpu = time.process_time()

    def log(text: str) -> None:
        print(text, flush=True)

    builder = Builder(path, Solver(tt_bits=args.tt_bits), log)
    log(f"resuming with {len(builder.done)} positions in {path}")
    for seat in args.seats.split(","):
        low = builder.build_second() if seat == "second" else builder.build_first()
        log(f"seat {seat}: proved value class >= {low:+d}")
    log(
        f"done: {len(builder.done)} positions, {builder.solved} solved in this run, "
        f"{time.monotonic() - start:.0f} s wall, {time.process_time() - cpu:.0f} s CPU, "
        f"{path.stat().st_size:,} bytes"
    )


def check(args: argparse.Namespace) -> None:
    """Walk both trees through the site's states: every own turn reached must be in the
    book; its action must keep the value (bottom turns re-proved from an empty table
    with a null window; upper turns by the replies below them)."""
    b = book()
    sol = Solver(tt_bits=20)
    counts = {"bottom": 0, "upper": 0, "missing": 0, "failed": 0}
    start = time.process_time()

    def own(state: State) -> int:
        assert state.in_hand is not None
        entry = b.positions.get(key_of(encode(state), state.in_hand))
        after = play_book_turn(state)
        if entry is None or after is None:
            counts["missing"] += 1
            return -1
        if len(state.empty_cells) <= BOTTOM:
            counts["bottom"] += 1
            ok = after.is_over() or keeps_value(after, sol, entry.low)
            counts["failed"] += not ok
            return entry.low if ok else -1
        counts["upper"] += 1
        low = opponent(after)
        if low < entry.low:
            counts["failed"] += 1
        return low

    seen: set[tuple[int, int]] = set()

    def opponent(state: State) -> int:
        worst = 1
        for place, give in replies(state):
            nxt = state.play(place).play(give)
            key = key_of(encode(nxt), nxt.in_hand)  # type: ignore[arg-type]
            if key in seen:
                continue
            seen.add(key)
            worst = min(worst, own(nxt))
        return worst

    second = own(initial_state().play(Give(0)))
    print(f"second seat: proved class >= {second:+d}", flush=True)
    first = opponent(initial_state().play(Give(0)))
    print(f"first seat: proved class >= {first:+d}")
    print(f"{counts}, {time.process_time() - start:.0f} s CPU")


def _game(rng: random.Random, perfect_seats: set[int], other: str, budget: float) -> dict:
    """A game from the empty board; the other side plays ``other`` (or, for ``book``,
    random replies among those the book covers, then perfect). Returns its record: the
    moves, the perfect side's actions (ply, book or search, CPU and wall seconds) and
    the winner."""
    state = initial_state()
    in_book = True
    moves: list[str] = []
    acts: dict[str, list[dict]] = {"own": [], "others": []}
    while not state.is_over():
        mover = state.to_move
        side = "own" if mover in perfect_seats else "others"
        level = "perfect" if side == "own" or other == "book" else other
        source = level if level != "perfect" else "book" if book_move(state) is not None else "search"
        cpu, wall = time.process_time(), time.perf_counter()
        if side == "others" and other == "book" and in_book and state.in_hand is not None:
            covered = covered_replies(state)
            if covered:
                place, give = rng.choice(covered)
                acts[side].append({"ply": len(moves), "source": "reply", "cpu": 0.0, "wall": 0.0})
                moves.append(str(place))
                state = state.play(place)
                source, move = "reply", give
            else:
                in_book = False
        if source != "reply":
            move = player.choose_move(state, level, budget, rng)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        acts[side].append({"ply": len(moves), "source": source, "cpu": round(cpu, 3), "wall": round(wall, 3)})
        moves.append(str(move))
        state = state.play(move)
    winner = state.outcome.winner if state.outcome else None
    outcome = "draw" if winner is None else ("perfect" if winner in perfect_seats else "other")
    return {
        "other": other,
        "perfect_seat": min(perfect_seats),
        "budget": budget,
        "outcome": outcome,
        "moves": moves,
        **acts,
    }


class Values:
    """Exact value classes (1 win, 0 draw, -1 loss) for the side to move, cached."""

    def __init__(self) -> None:
        self.sol = Solver(tt_bits=22)
        self.cache: dict[State, int] = {}

    def of(self, state: State) -> int:
        if state.is_over():
            return -1 if state.outcome and state.outcome.winner is not None else 0
        if state not in self.cache:
            if state.in_hand is None:
                value = max(-self.of(state.play(give)) for give in state.legal_moves())
            elif winning_cells(state, state.in_hand):
                value = 1
            else:
                score = self.sol.search(encode(state), state.in_hand, -1, 1, FULL_DEPTH).value
                value = (score > 0) - (score < 0)
            self.cache[state] = value
        return self.cache[state]

    def after(self, state: State, action: Action) -> int:
        """The value of ``action`` for the side that plays it."""
        nxt = state.play(action)
        if nxt.is_over():
            return 1 if nxt.outcome and nxt.outcome.winner is not None else 0
        return self.of(nxt) if nxt.to_move == state.to_move else -self.of(nxt)


def blame(record: dict, values: Values, side: str = "own") -> str:
    """The first of a side's actions (``own``: the perfect side's; ``others``: its
    opponent's), re-solved from ``SOLVED_FROM`` empty cells down, that lowered its
    value, or why none is named."""
    moves = record["moves"]
    by_ply = {a["ply"]: a for a in record[side]}
    first_live: tuple[int, int] | None = None
    for ply, text in enumerate(moves):
        if ply not in by_ply:
            continue
        state = RULES.replay({}, moves[:ply])
        empty = len(state.empty_cells)
        if empty > SOLVED_FROM:
            continue
        before = values.of(state)
        if first_live is None:
            first_live = (ply, before)
        after = values.after(state, RULES.parse_move(text))
        if after < before:
            a = by_ply[ply]
            return (
                f"ply {ply} ({text}, {empty} empty) turned {before:+d} into {after:+d}: "
                f"{a['source']}, {a['cpu']:.3f} s CPU, {a['wall']:.3f} s wall"
            )
    if first_live is not None and first_live[1] < 0:
        return f"already lost at ply {first_live[0]}, the first re-solved turn: above {SOLVED_FROM} empty"
    return "no action of the perfect side lowered its value"


def measure(args: argparse.Namespace) -> None:
    start = time.perf_counter()
    key_of((0, 0, 0xFFFE), 0)  # loads the compiled key code (warm_up() does it at start)
    compiled = time.perf_counter() - start
    start = time.perf_counter()
    text = BOOK_PATH.read_text().splitlines()
    b = parse(text)
    load = time.perf_counter() - start
    print(f"compiled key code loaded in {compiled * 1000:.0f} ms")
    size = BOOK_PATH.stat().st_size
    print(f"book: {len(b.positions)} positions, {size:,} bytes, parsed in {load * 1000:.0f} ms")
    rng = random.Random(args.seed)
    book()
    # Analysis latency along a book line, plies 0-4.
    state = initial_state()
    for ply in range(5 if args.latency else 0):
        start = time.perf_counter()
        values = player.analyse(state, budget=1.0)
        took = time.perf_counter() - start
        exact = sum(v.exact for v in values)
        print(f"analysis ply {ply}: {took:.3f} s, {exact}/{len(values)} actions exact", flush=True)
        state = state.play(player.choose_move(state, "perfect", 1.0, rng))
    results: dict[str, list[str]] = {}
    values = Values()
    record_path = Path(args.record)
    print(f"games recorded in {record_path}; load average {os.getloadavg()[0]:.1f}", flush=True)
    plan = [("book", i) for i in range(args.games)]
    plan += [(level, i) for level in ("beginner", "casual", "club", "expert") for i in range(args.others)]
    with record_path.open("w") as out:
        for number, (other, i) in enumerate(plan, 1):
            record = _game(rng, {i % 2}, other, args.budget)
            outcome = record["outcome"]
            name = "perfect v perfect (book replies)" if other == "book" else f"perfect v {other}"
            results.setdefault(name, []).append(outcome)
            live = [a for a in record["own"] if a["source"] == "search"]
            books = len(record["own"]) - len(live)
            most = max((a["cpu"] for a in live), default=0.0)
            line = (
                f"game {number}: {name}, perfect seat {i % 2}, {books} book actions, {outcome}; "
                f"live search at most {most:.2f} s CPU; load {os.getloadavg()[0]:.1f}"
            )
            if outcome == "other" or (args.verify == "all" and outcome != "perfect"):
                record["blame"] = blame(record, values)
                line += f"; {record['blame']}"
            if outcome == "perfect" and other == "book":
                # The other side is the perfect level too, after its random replies.
                record["other_blame"] = blame(record, values, "others")
                line += f"; the other side: {record['other_blame']}"
            lost_too = any(f": {source}," in record.get("other_blame", "") for source in ("book", "search"))
            if outcome == "other" or lost_too:
                line += f"\n  perfect lost: {' '.join(record['moves'])}"
            print(line, flush=True)
            out.write(json.dumps(record) + "\n")
    for name, outcomes in results.items():
        print(
            f"{name:34} {len(outcomes):3} games: perfect won {outcomes.count('perfect')}, "
            f"drawn {outcomes.count('draw')}, lost {outcomes.count('other')}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build")
    b.add_argument("--out", default=str(BOOK_PATH))
    b.add_argument("--seats", default="second,first")
    b.add_argument("--tt-bits", type=int, default=24)
    sub.add_parser("check")
    m = sub.add_parser("measure")
    m.add_argument("--games", type=int, default=20)
    m.add_argument("--others", type=int, default=2)
    m.add_argument("--budget", type=float, default=1.0)
    m.add_argument("--seed", type=int, default=33)
    m.add_argument("--latency", type=int, default=1)
    m.add_argument("--record", default=str(Path(tempfile.gettempdir()) / "quarto_book_games.jsonl"))
    m.add_argument("--verify", choices=("lost", "all"), default="lost")
    args = parser.parse_args()
    {"build": build, "check": check, "measure": measure}[args.command](args)


if __name__ == "__main__":
    main()
