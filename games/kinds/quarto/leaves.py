"""The leaves of the Quarto solver's full-depth searches: nodes with four and three empty
cells valued without the bounds, table, clock and limit checks of
:func:`.search.search_place` (scores as there). From four empty cells down the tree is
small and wide: this code runs for most of the nodes of a solve.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .bits import dangerous_pieces, lowest_bit_index, popcount, winning_cells

WIN = 100
S_NODES = 0  # the slot of ``stats`` counting the nodes (see .search)


@njit(cache=True, nogil=True)
def value_four(
    traits: int,
    occ: int,
    avail: int,
    hand: int,
    alpha: int,
    beta: int,
    threat: np.ndarray,
    pieces_with: np.ndarray,
    spread: np.ndarray,
    stats: np.ndarray,
) -> int:
    """Fail-soft score of a node with four empty cells (``hand`` must not win at once)
    in the window (``alpha``, ``beta``), as :func:`.search.search_place` finds it at full
    depth: the same bounds, the pairs in the same order (fewest safe gives first), each
    valued by :func:`value_three`. (No test for a board where no line can be completed
    any more: it cost more than it saved, docs/performance.md.)"""
    stats[S_NODES] += 1
    hi = WIN + 1  # no win before our next placement
    lo = -(WIN + 2)  # no loss before theirs
    if alpha >= hi:
        return hi
    if beta <= lo:
        return lo
    if beta > hi:
        beta = hi
    hand_bits = spread[hand]
    # The safe gives after each placement, four 16-bit fields by cell rank.
    empty = ~occ & 0xFFFF
    packed = 0
    cells = empty
    k = 0
    while cells:
        cbit = cells & -cells
        cells ^= cbit
        safe = avail & ~dangerous_pieces(
            traits | (hand_bits << lowest_bit_index(cbit)), occ | cbit, threat, pieces_with
        )
        packed |= safe << (16 * k)
        k += 1
    best = lo
    # The placements with the fewest safe gives first (then by cell).
    for want in range(1, popcount(avail) + 1):
        cells = empty
        k = 0
        while cells:
            cbit = cells & -cells
            cells ^= cbit
            safe = (packed >> (16 * k)) & 0xFFFF
            k += 1
            if popcount(safe) != want:
                continue
            tr2 = traits | (hand_bits << lowest_bit_index(cbit))
            occ2 = occ | cbit
            while safe:
                qbit = safe & -safe
                safe ^= qbit
                stats[S_NODES] += 1
                v = -value_three(
                    tr2, occ2, avail & ~qbit, lowest_bit_index(qbit), threat, pieces_with, spread, stats
                )
                if v > best:
                    best = v
                    if best >= beta:
                        return best
    return best


@njit(cache=True, nogil=True, inline="always")
def last_piece_wins(
    traits: int, occ: int, piece: int, last: int, threat: np.ndarray, spread: np.ndarray
) -> bool:
    """Two empty cells: wherever ``piece`` is placed, the ``last`` piece wins on the other
    (so the side placing ``piece``, which must give ``last``, loses)."""
    rest = ~occ & 0xFFFF
    while rest:
        rbit = rest & -rest
        rest ^= rbit
        if winning_cells(traits | (spread[piece] << lowest_bit_index(rbit)), occ | rbit, last, threat) == 0:
            return False
    return True


@njit(cache=True, nogil=True)
def value_three(
    traits: int,
    occ: int,
    avail: int,
    hand: int,
    threat: np.ndarray,
    pieces_with: np.ndarray,
    spread: np.ndarray,
    stats: np.ndarray,
) -> int:
    """Exact score of a node with three empty cells (``hand`` must not win at once): a
    leaf without bounds nor ordering, called from four empty cells."""
    best = -(WIN + 1)  # no placement leaves a safe piece
    hand_bits = spread[hand]
    cells = ~occ & 0xFFFF
    while cells:
        cbit = cells & -cells
        cells ^= cbit
        tr2 = traits | (hand_bits << lowest_bit_index(cbit))
        occ2 = occ | cbit
        safe = avail & ~dangerous_pieces(tr2, occ2, threat, pieces_with)
        while safe:
            qbit = safe & -safe
            safe ^= qbit
            stats[S_NODES] += 1
            # The opponent places q on one of the two cells left and gives the last
            # piece: a draw if some placement leaves it safe, else they lose.
            last = lowest_bit_index(avail & ~qbit)
            if last_piece_wins(tr2, occ2, lowest_bit_index(qbit), last, threat, spread):
                return WIN
            best = 0
    return best
