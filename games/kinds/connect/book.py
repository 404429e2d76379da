"""The Connect Four (7x6) opening book: the best move in the first plies, solved ahead.

Early positions take the exact solver seconds to minutes, far beyond a move's budget, so
the top level looks them up instead. The book holds every position the top level can
meet in its first ``plies`` plies *while it follows the book*, as either player: all the
opponent's replies, but only the book's own moves. For each it keeps a best column and
the exact score (see :mod:`games.kinds.connect.core`), found by the same solver with no
time limit and a large transposition table.

The shipped file ``data/connect4-book.txt`` (5,689 positions, 82 KB) covers the first
player's first six moves (up to 10 stones) and the second player's first five (up to 9
stones); it can be made by two runs side by side::

    python manage.py connect_book --plies 12 --seat 0
    python manage.py connect_book --plies 10 --seat 1

Each run appends as it goes and skips positions already in the file, so an interrupted
run resumes. The file's header gives the times: 13 minutes for the empty board, about 5
minutes per position with one stone, 20 s with three, 4 s with five, well under a second
from seven. Reading the file takes about 40 ms, once per process (``connect.warm_up``).

Each line is ``<moves from the start> <best column> <score>`` with ``-`` for the empty
board: ``dc e 2`` means after d then c, drop into e, which wins with the
second-from-last possible stone. Mirror images share one entry.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path

import numpy as np

from games.engine.grid import FILES

from . import core
from .bitboard import bitboards
from .rules import Drop, State, initial_state

WIDTH, HEIGHT, N = 7, 6, 4
BOOK_FILE = Path(__file__).with_name("data") / "connect4-book.txt"
BUILD_TT_SIZE = 67108859  # a prime just under 2**26: 512 MB, for building only


def is_book_board(state: State) -> bool:
    shape = (state.width, state.height, state.n, state.num_players, state.gravity)
    return shape == (WIDTH, HEIGHT, N, 2, True)


def _mirror(key: int) -> int:
    """The key of the mirror image: the 7-bit columns in reverse order."""
    column = (1 << (HEIGHT + 1)) - 1
    mirror = 0
    for file in range(WIDTH):
        bits = (key >> (file * (HEIGHT + 1))) & column
        mirror |= bits << ((WIDTH - 1 - file) * (HEIGHT + 1))
    return mirror


def _canonical_key(key: int) -> tuple[int, bool]:
    mirror = _mirror(key)
    return (mirror, True) if mirror < key else (key, False)


def canonical(state: State) -> tuple[int, bool]:
    """The smaller of the position's key (stones of the mover + all stones, 7 bits a column)
    and its mirror image's, and whether it is the mirror image's."""
    pos, mask = bitboards(state)
    return _canonical_key(int(pos) + int(mask))


def _key_of_moves(moves: str) -> int:
    """The key after ``moves``, from bit operations alone: 15 times faster than replaying
    the rules, which matters for thousands of lines. It checks nothing; the tests replay
    every line of the shipped file."""
    pos = mask = 0
    for letter in moves:
        pos ^= mask  # the stones of the side to move next: the other side's so far
        mask |= mask + (1 << (FILES.index(letter) * (HEIGHT + 1)))
    return pos + mask


def replay(moves: str) -> State:
    """The position after ``moves`` (column letters); ValueError or MoveError if it is not one."""
    state = initial_state()
    for letter in moves:
        if letter not in FILES[:WIDTH]:
            raise ValueError(f"{letter!r} is not a column (a-{FILES[WIDTH - 1]})")
        state = state.play(Drop(FILES.index(letter)))
    return state


def _parse(path: Path) -> Iterator[tuple[str, int, int]]:
    if not path.exists():
        return
    for number, line in enumerate(path.read_text().splitlines(), start=1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        try:
            moves, column, score = line.split()
            yield ("" if moves == "-" else moves), FILES.index(column), int(score)
        except ValueError as exc:
            raise ValueError(f"{path.name} line {number}: {line!r}") from exc


@cache
def _entries(path: Path = BOOK_FILE) -> dict[int, tuple[int, int]]:
    """canonical key -> (best column in the canonical orientation, score)."""
    table: dict[int, tuple[int, int]] = {}
    for moves, column, score in _parse(path):
        key, mirrored = _canonical_key(_key_of_moves(moves))
        table[key] = (WIDTH - 1 - column if mirrored else column, score)
    return table


def lookup(state: State) -> tuple[int, int] | None:
    """(best column, exact score) for a book position, else None."""
    if not is_book_board(state):
        return None
    key, mirrored = canonical(state)
    found = _entries().get(key)
    if found is None:
        return None
    column, score = found
    return (WIDTH - 1 - column if mirrored else column), score


def best_column(state: State) -> int | None:
    found = lookup(state)
    return None if found is None else found[0]


# --- building --------------------------------------------------------------------------


def _solve(state: State, table: np.ndarray) -> tuple[int, int, int]:
    pos, mask = bitboards(state)
    stats = core.new_stats()
    best = np.zeros(1, dtype=np.int64)
    score = core.solve_best(pos, mask, state.ply, WIDTH, HEIGHT, N, table, stats, best, False)
    return int(best[0]), int(score), int(stats[core.NODES])


def build(
    plies: int,
    path: Path = BOOK_FILE,
    report: Callable[[str], None] = lambda line: None,
    start: str = "",
    seats: tuple[int, ...] = (0, 1),
) -> int:
    """Solve every book position of fewer than ``plies`` plies not yet in ``path``; returns how many.

    Level by level (all positions of one ply before the next), so a run stopped early
    leaves a book complete to some ply. ``start`` (moves from the empty board) builds the
    part below that position; ``seats`` limits the run to the book's moves as those
    players (two runs, one a seat, can share the work between two processes).
    """
    known = {_canonical_key(_key_of_moves(m))[0]: (m, c, s) for m, c, s in _parse(path)}
    table = np.zeros(BUILD_TT_SIZE, dtype=np.uint64)
    added = 0
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(
            "# Connect Four (7x6) opening book: <moves> <best column> <exact score>; see connect_book.py\n"
        )
    root = replay(start)
    # The positions of the current ply, by canonical key: (moves, state, seat).
    level: dict[tuple[int, int], tuple[str, State]] = {(canonical(root)[0], s): (start, root) for s in seats}
    while level:
        following: dict[tuple[int, int], tuple[str, State]] = {}
        for (key, seat), (moves, state) in level.items():
            if state.ply >= plies or state.is_over():
                continue
            if state.to_move != seat:
                columns = list(state.droppable_columns)
            else:
                if key not in known:
                    started = time.perf_counter()
                    column, score, nodes = _solve(state, table)
                    with path.open("a") as f:
                        f.write(f"{moves or '-'} {FILES[column]} {score}\n")
                    known[key] = (moves, column, score)
                    added += 1
                    report(
                        f"{moves or '-':12s} {FILES[column]} {score:3d}  {nodes:>12,d} nodes  "
                        f"{time.perf_counter() - started:8.1f} s"
                    )
                booked_moves, column, _score = known[key]
                if _canonical_key(_key_of_moves(booked_moves))[1] != canonical(state)[1]:
                    column = WIDTH - 1 - column
                columns = [column]
            for column in columns:
                child = state.play(Drop(column))
                following.setdefault((canonical(child)[0], seat), (moves + FILES[column], child))
        if level:
            report(f"ply {next(iter(level.values()))[1].ply} done")
        level = following
    return added
