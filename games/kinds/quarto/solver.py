"""Python side of the Quarto solver: positions, tables, transposition tables and limits.

:class:`Solver` wraps the compiled search of :mod:`.quarto_search` for one rule variant,
with its own transposition table. Solvers are pooled: :func:`solver` lends one to a
single caller at a time. The threads valuing one position's actions share its table
(:meth:`Solver.twin`): the compiled code releases the GIL, so they really run in
parallel, and each finds what the other proved.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import numpy as np

from games.ai.clock import CHECK_MASK

from . import bits as qb
from . import search as qs
from . import tables as qt
from .playouts import playouts
from .rules import CELLS, State

WIN = qs.WIN
NO_LIMIT = qs.NO_LIMIT
FULL_DEPTH = CELLS
TT_BITS = 21
TT_MIN_EMPTY = 8
ORDER_MIN_EMPTY = 6

Position = tuple[int, int, int]
"""``(traits, occ, avail)``: see :mod:`.quarto_tables`; ``avail`` excludes the piece in hand."""


def _signed(x: int) -> int:
    return x - (1 << 64) if x >= 1 << 63 else x


_SPREAD = [int(v) for v in qt.spread_table()]


def encode(state: State) -> Position:
    traits = 0
    occ = 0
    for cell, piece in enumerate(state.board):
        if piece is not None:
            occ |= 1 << cell
            traits |= _SPREAD[piece] << cell
    avail = 0
    for piece in state.available:
        avail |= 1 << piece
    return _signed(traits), occ, avail


def place(position: Position, cell: int, piece: int) -> Position:
    traits, occ, avail = position
    return _signed((traits | (_SPREAD[piece] << cell)) & ((1 << 64) - 1)), occ | 1 << cell, avail


@dataclass
class SearchResult:
    value: int
    nodes: int
    aborted: bool
    seconds: float


class _Tables:
    def __init__(self, advanced: bool) -> None:
        self.advanced = advanced
        # The two 65,536-entry tables are read at every node: narrow types keep them in
        # the processor's cache (16 cells; 10 lines, or 19 with the 2x2 squares).
        self.threat = qt.threat_table(advanced).astype(np.uint16)
        self.pieces_with = qt.pieces_with_table()
        self.spread = qt.spread_table()
        self.symt = qt.symmetry_byte_tables(advanced)


_TABLES: dict[bool, _Tables] = {}
_TABLES_LOCK = threading.Lock()
_TOTAL_LOCK = threading.Lock()


def _tables(advanced: bool) -> _Tables:
    with _TABLES_LOCK:
        if advanced not in _TABLES:
            _TABLES[advanced] = _Tables(advanced)
        return _TABLES[advanced]


class Solver:
    """Searches positions of one rule variant with one transposition table."""

    _total_nodes = 0

    @staticmethod
    def total_nodes() -> int:
        """Nodes searched by every solver of this process (for benchmarks)."""
        return Solver._total_nodes

    def __init__(
        self, advanced: bool = False, tt_bits: int = TT_BITS, table_of: Solver | None = None
    ) -> None:
        self.tables = _tables(advanced)
        if table_of is None:
            self.tt1 = np.zeros(1 << tt_bits, dtype=np.int64)
            self.tt2 = np.zeros(1 << tt_bits, dtype=np.int64)
        else:
            self.tt1, self.tt2 = table_of.tt1, table_of.tt2
        self.work = np.zeros(qs.WORK_SHAPE, dtype=np.int64)
        self.stats = np.zeros(qs.STATS_LEN, dtype=np.int64)
        self.nodes = 0
        self.order_min = ORDER_MIN_EMPTY
        self.tt_min = TT_MIN_EMPTY

    def twin(self) -> Solver:
        """A solver of its own (counters, work space) that shares this one's table."""
        other = Solver(self.tables.advanced, table_of=self)
        other.order_min = self.order_min
        other.tt_min = self.tt_min
        return other

    def clear(self) -> None:
        self.tt1[:] = 0
        self.tt2[:] = 0

    def winning_cells(self, position: Position, piece: int) -> int:
        traits, occ, _ = position
        return int(qb.winning_cells(traits, occ, piece, self.tables.threat))

    def dangerous(self, position: Position) -> int:
        """Bitmask of the pieces that would win at once on this board."""
        traits, occ, _ = position
        return int(qb.dangerous_pieces(traits, occ, self.tables.threat, self.tables.pieces_with))

    def ordered_pairs(self, position: Position, hand: int) -> list[tuple[int, int]] | tuple[int, int]:
        """The (cell, safe give) pairs, most forcing first; a single pair (not in a list)
        when it leaves the opponent no safe reply at all."""
        traits, occ, avail = position
        t = self.tables
        count = qs.ordered_pairs(traits, occ, avail, hand, t.threat, t.pieces_with, t.spread, self.work, 0)
        entries = self.work[0, qs.PAIRS : qs.PAIRS + max(count, 1)]
        pairs = [((int(e) >> 8) & 0xFF, int(e) & 0xFF) for e in entries]
        if count < 0:
            return pairs[0]
        return pairs[:count]

    def playouts(self, position: Position, hand: int, count: int, seed: int) -> float:
        """Mean result of ``count`` careful-random games for the side to place ``hand``."""
        traits, occ, avail = position
        t = self.tables
        value = playouts(traits, occ, avail, hand, count, seed, t.threat, t.pieces_with, t.spread)
        return float(value)

    def search(
        self,
        position: Position,
        hand: int,
        alpha: int,
        beta: int,
        depth: int,
        node_limit: int = NO_LIMIT,
        deadline: int = NO_LIMIT,
        min_nodes: int = 0,
    ) -> SearchResult:
        """Value for the side holding ``hand`` (which must not win at once) to place it.

        The search is aborted (``aborted`` set, value void) after ``node_limit`` nodes,
        or once the monotonic clock reaches ``deadline`` (nanoseconds, as from
        :func:`.clock.deadline_ns`) after at least ``min_nodes`` nodes.
        """
        traits, occ, avail = position
        t = self.tables
        stats = self.stats
        stats[:] = 0
        stats[qs.S_LIMIT] = max(node_limit, 1)
        stats[qs.S_DEADLINE] = deadline
        stats[qs.S_FLOOR] = min_nodes
        stats[qs.S_CHECK_AT] = CHECK_MASK + 1
        stats[qs.S_VARIANT] = int(t.advanced)
        stats[qs.S_ORDER_MIN] = self.order_min
        stats[qs.S_TT_MIN] = self.tt_min
        start = time.perf_counter()
        value = qs.search_place(
            traits,
            occ,
            avail,
            hand,
            alpha,
            beta,
            depth,
            t.threat,
            t.pieces_with,
            t.spread,
            t.symt,
            self.tt1,
            self.tt2,
            stats,
            self.work,
        )
        seconds = time.perf_counter() - start
        nodes = int(stats[qs.S_NODES])
        self.nodes += nodes
        with _TOTAL_LOCK:
            Solver._total_nodes += nodes
        return SearchResult(int(value), nodes, bool(stats[qs.S_ABORTED]), seconds)


_POOL: dict[bool, list[Solver]] = {False: [], True: []}
_POOL_LOCK = threading.Lock()


@contextmanager
def solver(advanced: bool = False) -> Iterator[Solver]:
    """Lend a solver (with a warm transposition table when one is free) to this caller."""
    with _POOL_LOCK:
        free = _POOL[advanced]
        lent = free.pop() if free else None
    if lent is None:
        lent = Solver(advanced)
    try:
        yield lent
    finally:
        with _POOL_LOCK:
            _POOL[advanced].append(lent)
