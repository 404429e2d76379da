"""Building the opening book (:mod:`.book`): the perfect player's proof tree.

At the perfect player's own turns the tree holds one action; at the opponent's turns
every reply (place, then a safe give) up to symmetry. Near the top, an own action is
chosen in the solver's move order and proved by its subtree: it keeps the draw when
every reply below it does (the value of the node is the least of the replies'). At
the bottom (``BOTTOM`` empty cells or fewer: the next own turn is within the live
exact search), each position is solved by the compiled search: its value class
(win, draw or loss) and an action that keeps it. The positions shared by several
lines are solved once (canonical keys), and one transposition table serves the whole
build, so the cost is about that of the top proofs.

Progress goes to a JSON-lines file, one line per position solved; a build started
again reads it and goes on where it stopped.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path

from .book import Entry, Key, key_of, safe_gives
from .solver import FULL_DEPTH, Position, Solver, place

BOTTOM = 14
"""Own turns with this many empty cells or fewer are solved outright (the next own
turn, two placements later, has at most 12 empty cells: the live search is exact)."""

ROOT: Position = (0, 0, 0xFFFE)  # the empty board, piece 0 given (every piece is alike)


def _sign(score: int) -> int:
    return (score > 0) - (score < 0)


def _empties(position: Position) -> int:
    return 16 - bin(position[1]).count("1")


class Builder:
    """Builds the book into ``path``, resuming from what the file already holds."""

    def __init__(self, path: Path, solver: Solver, log: Callable[[str], None] = print) -> None:
        self.path = path
        self.sol = solver
        self.log = log
        self.done: dict[Key, Entry] = {}
        self.first: int | None = None
        self.started = time.monotonic()
        self.solved = 0
        if path.exists():
            for line in path.read_text().splitlines():
                if not line.strip():
                    continue
                row = json.loads(line)
                if "first" in row:
                    self.first = int(row["first"])
                    continue
                key = (int(row["k"][0]), int(row["k"][1]))
                self.done[key] = Entry(
                    int(row["n"]), (int(row["c"][0]), int(row["c"][1])), row["lo"], row["hi"]
                )

    def _write(self, row: dict[str, object]) -> None:
        with self.path.open("a") as out:
            out.write(json.dumps(row, separators=(",", ":")) + "\n")

    def _record(self, key: Key, n: int, child: Key, low: int, high: int, nodes: int, seconds: float) -> Entry:
        entry = Entry(n, child, low, high)
        self.done[key] = entry
        self._write(
            {
                "k": list(key),
                "n": n,
                "c": list(child),
                "lo": low,
                "hi": high,
                "nodes": nodes,
                "s": round(seconds, 2),
            }
        )
        return entry

    # --- the two kinds of node -------------------------------------------------------------

    def own(self, position: Position, hand: int) -> int:
        """Proved lower bound (class) of an own turn: place ``hand``, then give."""
        key = key_of(position, hand)
        if key in self.done:
            return self.done[key].low
        n = _empties(position)
        if n <= BOTTOM:
            return self._solve(key, position, hand).low
        pairs = self.sol.ordered_pairs(position, hand)
        if isinstance(pairs, tuple):
            pairs = [pairs]
        best: tuple[int, Key] | None = None
        for cell, give in pairs:
            after = place(position, cell, hand)
            child = (after[0], after[1], after[2] & ~(1 << give))
            low = self.replies(child, give, stop_below=0)
            if best is None or low > best[0]:
                best = (low, key_of(child, give))
            if low >= 0:
                break
            self.log(f"{n} empty: action {cell}/{give} does not keep the draw, next")
        assert best is not None, "an own turn of the book has a safe action"
        return self._record(key, n, best[1], best[0], 1, 0, 0.0).low

    def replies(self, position: Position, hand: int, stop_below: int = -2) -> int:
        """Proved lower bound (class, for the side that gave ``hand``) over every reply:
        the opponent places ``hand`` anywhere and gives any safe piece."""
        worst = 1
        seen: set[Key] = set()
        cells = [c for c in range(16) if not position[1] >> c & 1]
        for cell in cells:
            after = place(position, cell, hand)
            for give in safe_gives(after):
                child = (after[0], after[1], after[2] & ~(1 << give))
                key = key_of(child, give)
                if key in seen:
                    continue
                seen.add(key)
                worst = min(worst, self.own(child, give))
                if worst < stop_below:
                    return worst
        return worst

    # --- the bottom: the compiled search ---------------------------------------------------

    def _solve(self, key: Key, position: Position, hand: int) -> Entry:
        """Value class of the position and an action keeping it: the first action that
        draws (or wins) found with a window around 0, then every other one tested for a
        win with a null window."""
        start = time.process_time()
        nodes0 = self.sol.nodes
        n = _empties(position)
        pairs = self.sol.ordered_pairs(position, hand)
        if isinstance(pairs, tuple):  # the opponent is left no safe reply
            cell, give = pairs
            after = place(position, cell, hand)
            return self._record(
                key, n, key_of((after[0], after[1], after[2] & ~(1 << give)), give), 1, 1, 0, 0.0
            )
        best = -2
        best_child: Key | None = None
        for cell, give in pairs:
            after = place(position, cell, hand)
            child = (after[0], after[1], after[2] & ~(1 << give))
            if best < 0:
                value = -self.sol.search(child, give, -1, 1, FULL_DEPTH).value
                cls = _sign(value)
            else:
                # Only a win beats the draw in hand: can the opponent not hold it?
                value = -self.sol.search(child, give, -1, 0, FULL_DEPTH).value
                cls = 1 if value >= 1 else 0
            if best_child is None or cls > best:
                best, best_child = cls, key_of(child, give)
            if best == 1:
                break
        assert best_child is not None
        entry = self._record(
            key, n, best_child, best, best, self.sol.nodes - nodes0, time.process_time() - start
        )
        self.solved += 1
        elapsed = time.monotonic() - self.started
        self.log(
            f"[{elapsed:7.0f} s] solved {self.solved}: {n} empty, class {best:+d}, "
            f"{self.sol.nodes - nodes0:,} nodes, {time.process_time() - start:.1f} s CPU"
        )
        return entry

    # --- the two seats -----------------------------------------------------------------

    def build_second(self) -> int:
        """The tree of the second player (first to place): proved lower bound."""
        return self.own(ROOT, 0)

    def build_first(self) -> int:
        """The tree of the first player (first to give): proved lower bound."""
        if self.first is not None:
            return self.first
        low = self.replies(ROOT, 0)
        self.first = low
        self._write({"first": low})
        return low
