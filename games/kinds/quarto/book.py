"""The opening book of the perfect level: proved actions from the empty board down to
the depth where the live exact search takes over.

The book is the perfect player's proof tree, for both seats, built offline by
:mod:`.book_build` (``bench/quarto_book.py build``) and shipped in ``data/book.jsonl``.
Each line is one position where the perfect player is to place (a piece in hand),
keyed canonically under the 12,288 symmetries (:func:`.bits.canonical_key`):

- ``k``: the position's key; ``n``: its empty cells;
- ``c``: the key of the position after the book's action (place, then give: the
  opponent to place), which is how the action is found again in any symmetric image;
- ``lo``, ``hi``: what is proved of the position's value for the side to move, as a
  class (-1 loss, 0 draw, 1 win; ``hi`` 1 when only the lower bound is proved).

A line ``{"first": lo}`` records the value proved for the first giver (the whole tree
below the first give is in the book). The value of an action is the value of the
position it leads to, so the book answers for the positions after its actions too.
"""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from . import bits as qb
from . import tables as qt
from .rules import Give, Place, State
from .solver import Position, encode, place

BOOK_PATH = Path(__file__).parent / "data" / "book.jsonl"

Key = tuple[int, int]


@dataclass(frozen=True)
class Entry:
    empty: int
    child: Key
    low: int
    high: int


@dataclass
class Book:
    positions: dict[Key, Entry]
    children: dict[Key, tuple[int, int]]
    """Value bounds (classes) of a position after a book action, for the side that acted."""
    seconds: float = 0.0


_SYMT = qt.symmetry_byte_tables(False)
_DANGER_TABLES = (qt.threat_table(False), qt.pieces_with_table())


def key_of(position: Position, hand: int) -> Key:
    """Canonical key of a position with ``hand`` to be placed (standard rules)."""
    traits, occ, _ = position
    k1, k2 = qb.canonical_key(traits, occ, hand, _SYMT)
    return int(k1), int(k2)


def parse(lines: list[str]) -> Book:
    positions: dict[Key, Entry] = {}
    children: dict[Key, tuple[int, int]] = {}
    first: int | None = None
    for line in lines:
        if not line.strip():
            continue
        row = json.loads(line)
        if "first" in row:
            first = int(row["first"])
            continue
        entry = Entry(int(row["n"]), (int(row["c"][0]), int(row["c"][1])), int(row["lo"]), int(row["hi"]))
        positions[(int(row["k"][0]), int(row["k"][1]))] = entry
        old = children.get(entry.child)
        low = max(entry.low, old[0]) if old else entry.low
        high = min(entry.high, old[1]) if old else entry.high
        children[entry.child] = (low, high)
    # The first give: every piece is the same up to symmetry. Its value for the first
    # giver is at least the proved ``first`` and at most minus the second player's.
    root = key_of((0, 0, 0xFFFE), 0)
    second = positions.get(root)
    low = first if first is not None else -1
    high = -second.low if second is not None else 1
    if low > -1 or high < 1:
        children[root] = (low, high)
    return Book(positions, children)


_BOOK: Book | None = None
_LOCK = threading.Lock()


def book() -> Book:
    """The shipped book, read once per process (an empty book without the data file)."""
    global _BOOK
    with _LOCK:
        if _BOOK is None:
            start = time.perf_counter()
            lines = BOOK_PATH.read_text().splitlines() if BOOK_PATH.exists() else []
            _BOOK = parse(lines)
            _BOOK.seconds = time.perf_counter() - start
        return _BOOK


def safe_gives(position: Position) -> list[int]:
    traits, occ, avail = position
    danger = int(qb.dangerous_pieces(traits, occ, *_DANGER_TABLES))
    return [q for q in range(16) if avail >> q & 1 and not danger >> q & 1]


def _after(position: Position, cell: int, piece: int) -> Position:
    return place(position, cell, piece)


def child_bounds(b: Book, key: Key) -> tuple[int, int] | None:
    """Value bounds (classes) of a position with the opponent to place, for the side
    that has just given: from the book's actions (``children``) and from the opponent's
    own tree (a turn of theirs proved worth ``low`` to them is worth at most ``-low``)."""
    low, high = b.children.get(key, (-1, 1))
    theirs = b.positions.get(key)
    if theirs is not None:
        low, high = max(low, -theirs.high), min(high, -theirs.low)
    return None if (low, high) == (-1, 1) else (low, high)


def action_values(state: State, the_book: Book | None = None) -> dict[Place | Give, tuple[int, int]]:
    """Value bounds (classes, for the side to move) that the book proves for some of the
    actions of ``state``; empty when the book does not cover it. A placement is worth
    the best of the safe gives after it."""
    if state.advanced or state.is_over():
        return {}
    b = the_book or book()
    position = encode(state)
    found: dict[Place | Give, tuple[int, int]] = {}
    if state.in_hand is None:
        traits, occ, avail = position
        for q in safe_gives(position):
            bounds = child_bounds(b, key_of((traits, occ, avail & ~(1 << q)), q))
            if bounds is not None:
                found[Give(q)] = bounds
        return found
    if b.positions.get(key_of(position, state.in_hand)) is None:
        return {}
    for cell in state.empty_cells:
        after = _after(position, cell, state.in_hand)
        gives = safe_gives(after)
        if not gives:
            continue
        known = [child_bounds(b, key_of((after[0], after[1], after[2] & ~(1 << q)), q)) for q in gives]
        low = max((k[0] for k in known if k is not None), default=-1)
        high = max(1 if k is None else k[1] for k in known)
        if (low, high) != (-1, 1):
            found[Place(cell)] = (low, high)
    return found


def book_move(state: State, the_book: Book | None = None) -> Place | Give | None:
    """The book's action for the side to move, or ``None`` outside the book."""
    values = action_values(state, the_book)
    if not values:
        return None
    move = max(values, key=lambda a: values[a][0])
    low, high = values[move]
    # A bound that proves nothing (the first give while only one seat is built) is no
    # reason to leave the search; a proved loss is: every action loses alike.
    return move if low >= 0 or high == -1 else None
