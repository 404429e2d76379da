"""The compiled core of the Quarto solver: negamax with alpha-beta over "place, then give".

Everything here runs under numba's ``@njit(cache=True, nogil=True)``: the compiled code
is cached on disk (in ``NUMBA_CACHE_DIR`` when set) and releases the GIL, so several
searches can run in threads at once, each with its own transposition table.

Position: ``traits`` (four 16-bit trait bitboards, see :mod:`.quarto_tables`), ``occ``
(occupied cells), ``avail`` (bitmask of the pieces neither on the board nor in hand)
and ``hand`` (the piece the side to move must place).

Scores are from the point of view of the side to move: a win is ``WIN + e`` where ``e``
is the number of empty cells left after the winning placement (so faster wins score
higher), a loss is ``-(WIN + e)``, a draw is 0. Depth-limited searches score the
horizon 0, so any score with ``abs(score) >= WIN`` is proven.

Transposition-table keys: see :mod:`.quarto_board`; playouts: :mod:`.quarto_playouts`;
the nodes of four and three empty cells of full-depth searches: :mod:`.leaves`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.ai.clock import CHECK_MASK, monotonic_ns

from .bits import canonical_key, dangerous_pieces, lowest_bit_index, popcount
from .bits import slot as slot_of
from .leaves import S_NODES as S_NODES
from .leaves import WIN as WIN
from .leaves import last_piece_wins, value_four, value_three

INF = 1000
PAIRS = 64
DANGER = PAIRS + 256  # work[row, DANGER + 8 * cell + 2 * bit + value]: see danger_by_trait
WORK_SHAPE = (17, DANGER + 128)

# Transposition-table entry flags.
LOWER, UPPER, EXACT = 1, 2, 3

# stats[] slots: nodes searched, node limit, aborted flag, rule variant, fewest empty cells
# probed in the table, table hits, deadline (monotonic ns), nodes searched whatever the
# clock says, node count at which the clock is read next.
S_LIMIT, S_ABORTED, S_VARIANT, S_TT_MIN, S_TT_HITS = 1, 2, 3, 4, 5  # S_NODES = 0: see .leaves
S_DEADLINE, S_FLOOR, S_CHECK_AT = 6, 7, 8
# Fewest empty cells at which the pairs are ordered by the opponent's replies.
S_ORDER_MIN = 9
STATS_LEN = 10
NO_LIMIT = (1 << 63) - 1  # as a node limit or a deadline: none


@njit(cache=True, nogil=True)
def danger_by_trait(
    traits: int, occ: int, threat: np.ndarray, pieces_with: np.ndarray, work: np.ndarray, row: int
) -> None:
    """For each empty cell ``c`` and trait bit ``b``, the pieces that would win at once
    after a piece with bit ``b`` equal to ``v`` is placed on ``c``, in
    ``work[row, DANGER + 8 * c + 2 * b + v]``: the dangerous pieces after placing piece
    ``q`` on ``c`` are the union over ``b`` of the entries with ``v`` = bit ``b`` of ``q``
    (see :func:`.quarto_board.dangerous_pieces`), so each give is tested in four ORs."""
    empty = ~occ & 0xFFFF
    cells = empty
    while cells:
        cbit = cells & -cells
        cells ^= cbit
        base = DANGER + 8 * lowest_bit_index(cbit)
        rest = empty & ~cbit
        for b in range(4):
            ones = (traits >> (16 * b)) & 0xFFFF
            zeros = occ & ~ones
            with_ones = pieces_with[2 * b + 1]
            with_zeros = pieces_with[2 * b]
            d1 = 0
            d0 = 0
            if threat[ones | cbit] & rest:
                d1 |= with_ones
            if threat[zeros] & rest:
                d1 |= with_zeros
            if threat[ones] & rest:
                d0 |= with_ones
            if threat[zeros | cbit] & rest:
                d0 |= with_zeros
            work[row, base + 2 * b + 1] = d1
            work[row, base + 2 * b] = d0


@njit(cache=True, nogil=True, inline="always")
def mobility(occ: int, avail: int, hand: int, work: np.ndarray, row: int) -> int:
    """Sum over the placements of ``hand`` of the number of pieces safe to give after it,
    from the table :func:`danger_by_trait` filled for this board."""
    total = 0
    o0 = hand & 1
    o1 = 2 + ((hand >> 1) & 1)
    o2 = 4 + ((hand >> 2) & 1)
    o3 = 6 + ((hand >> 3) & 1)
    cells = ~occ & 0xFFFF
    while cells:
        cbit = cells & -cells
        cells ^= cbit
        base = DANGER + 8 * lowest_bit_index(cbit)
        danger = work[row, base + o0] | work[row, base + o1] | work[row, base + o2] | work[row, base + o3]
        total += popcount(avail & ~danger)
    return total


@njit(cache=True, nogil=True)
def ordered_pairs(
    traits: int,
    occ: int,
    avail: int,
    hand: int,
    threat: np.ndarray,
    pieces_with: np.ndarray,
    spread: np.ndarray,
    work: np.ndarray,
    row: int,
) -> int:
    """Fill ``work[row, PAIRS:]`` with the (place, safe give) pairs of this node, the ones
    leaving the opponent the fewest (place, safe give) pairs first; each entry is
    ``mobility << 16 | cell << 8 | piece``. Returns the number of pairs, or ``-1 - i``
    when pair ``i`` leaves the opponent no safe pair at all (a win; stored first)."""
    count = 0
    hand_bits = spread[hand]
    cells = ~occ & 0xFFFF
    while cells:
        cbit = cells & -cells
        cells ^= cbit
        c = lowest_bit_index(cbit)
        occ2 = occ | cbit
        tr2 = traits | (hand_bits << c)
        safe = avail & ~dangerous_pieces(tr2, occ2, threat, pieces_with)
        if safe:
            danger_by_trait(tr2, occ2, threat, pieces_with, work, row)
        while safe:
            qbit = safe & -safe
            safe ^= qbit
            q = lowest_bit_index(qbit)
            m = mobility(occ2, avail & ~qbit, q, work, row)
            entry = (m << 16) | (c << 8) | q
            if m == 0:
                work[row, PAIRS] = entry
                return -1
            i = count
            while i > 0 and work[row, PAIRS + i - 1] > entry:
                work[row, PAIRS + i] = work[row, PAIRS + i - 1]
                i -= 1
            work[row, PAIRS + i] = entry
            count += 1
    return count


@njit(cache=True, nogil=True)
def search_place(
    traits: int,
    occ: int,
    avail: int,
    hand: int,
    alpha: int,
    beta: int,
    depth: int,
    threat: np.ndarray,
    pieces_with: np.ndarray,
    spread: np.ndarray,
    symt: np.ndarray,
    tt1: np.ndarray,
    tt2: np.ndarray,
    stats: np.ndarray,
    work: np.ndarray,
) -> int:
    """Value of placing ``hand`` (which must not win at once) and then giving a piece.

    ``depth`` counts the placements searched, this one included; 0 scores the horizon 0.
    Fail-soft alpha-beta; returns 0 at once once the node limit ``stats[S_LIMIT]`` is
    passed, or once the clock reaches ``stats[S_DEADLINE]`` after ``stats[S_FLOOR]``
    nodes (the clock is read every ``CHECK_MASK + 1`` nodes, from ``stats[S_CHECK_AT]``
    on); ``stats[S_ABORTED]`` is then set and every result is void.
    """
    if stats[S_ABORTED]:
        return 0
    nodes = stats[S_NODES] + 1
    stats[S_NODES] = nodes
    if nodes > stats[S_LIMIT]:
        stats[S_ABORTED] = 1
        return 0
    if nodes >= stats[S_CHECK_AT]:
        # The n == 3 shortcut below counts nodes too, so test a threshold, not a mask.
        stats[S_CHECK_AT] = nodes + CHECK_MASK + 1
        if nodes > stats[S_FLOOR] and monotonic_ns() >= stats[S_DEADLINE]:
            stats[S_ABORTED] = 1
            return 0
    n = 16 - popcount(occ)
    if n == 1:
        return 0
    # Mate-distance bounds: no win before our next placement, no loss before theirs.
    hi = 0
    if n >= 3:
        hi = WIN + n - 3
    lo = -(WIN + n - 2)
    if hi < beta:
        beta = hi
        if alpha >= beta:
            return hi
    if lo > alpha:
        alpha = lo
        if alpha >= beta:
            return lo
    if depth <= 0:
        return 0

    use_tt = n >= stats[S_TT_MIN]
    k1 = 0
    k2 = 0
    slot = 0
    if use_tt:
        k1, k2 = canonical_key(traits, occ, hand, symt)
        k2 |= stats[S_VARIANT] << 20
        slot = slot_of(k1, k2, tt1.shape[0] - 1)
        e2 = int(tt2[slot])
        # The key word holds k1 ^ entry: a slot torn by two threads writing it at once
        # fails this test (threads of one analysis share the table).
        if tt1[slot] ^ e2 == k1 and (e2 & 0xFFFFFF) == k2:
            value = ((e2 >> 24) & 0xFF) - 128
            flag = (e2 >> 32) & 3
            stored = (e2 >> 34) & 31
            need = depth if depth < n else n
            if stored >= need or (flag == LOWER and value >= WIN) or (flag == UPPER and value <= -WIN):
                stats[S_TT_HITS] += 1
                if flag == EXACT:
                    return value
                if flag == LOWER:
                    if value >= beta:
                        return value
                    if value > alpha:
                        alpha = value
                elif flag == UPPER:
                    if value <= alpha:
                        return value
                    if value < beta:
                        beta = value

    alpha0 = alpha
    hand_bits = spread[hand]
    best = -INF
    if n >= stats[S_ORDER_MIN]:
        count = ordered_pairs(traits, occ, avail, hand, threat, pieces_with, spread, work, n)
        if count < 0:
            return hi
        if count == 0:
            return lo
    else:
        # The placements with the pieces safe to give after each, fewest safe pieces
        # first (the tightest positions decide soonest); a placement after which every
        # piece lets the opponent win at once loses.
        ncells = 0
        cells = ~occ & 0xFFFF
        while cells:
            cbit = cells & -cells
            cells ^= cbit
            c = lowest_bit_index(cbit)
            safe = avail & ~dangerous_pieces(traits | (hand_bits << c), occ | cbit, threat, pieces_with)
            if safe == 0:
                continue
            key = (popcount(safe) << 8) | c
            i = ncells
            while i > 0 and (work[n, i - 1] >> 24) > key:
                work[n, i] = work[n, i - 1]
                i -= 1
            work[n, i] = (key << 24) | safe
            ncells += 1
        if ncells == 0:
            return lo
        if n == 2:
            return 0
        if ncells < n:
            best = lo
        if best >= beta:
            return best
        if best > alpha:
            alpha = best
        count = 0
        for i in range(ncells):
            c = (work[n, i] >> 24) & 0xFF
            safe = work[n, i] & 0xFFFF
            while safe:
                qbit = safe & -safe
                safe ^= qbit
                work[n, PAIRS + count] = (c << 8) | lowest_bit_index(qbit)
                count += 1

    for i in range(count):
        entry = work[n, PAIRS + i]
        c = (entry >> 8) & 0xFF
        q = entry & 0xFF
        if n == 3:
            # The opponent places q on one of the two cells left and gives the last
            # piece: a draw if some placement leaves it safe, else they lose.
            stats[S_NODES] += 1
            last = lowest_bit_index(avail & ~(1 << q))
            held = not last_piece_wins(traits | (hand_bits << c), occ | (1 << c), q, last, threat, spread)
            v = 0 if held else WIN
        elif n == 5 and depth >= n:
            v = -value_four(
                traits | (hand_bits << c),
                occ | (1 << c),
                avail & ~(1 << q),
                q,
                -beta,
                -alpha,
                threat,
                pieces_with,
                spread,
                stats,
            )
        elif n == 4 and depth >= n:
            stats[S_NODES] += 1
            v = -value_three(
                traits | (hand_bits << c),
                occ | (1 << c),
                avail & ~(1 << q),
                q,
                threat,
                pieces_with,
                spread,
                stats,
            )
        else:
            v = -search_place(
                traits | (hand_bits << c),
                occ | (1 << c),
                avail & ~(1 << q),
                q,
                -beta,
                -alpha,
                depth - 1,
                threat,
                pieces_with,
                spread,
                symt,
                tt1,
                tt2,
                stats,
                work,
            )
        if stats[S_ABORTED]:
            return 0
        if v > best:
            best = v
            if v > alpha:
                alpha = v
                if alpha >= beta:
                    break

    _store(use_tt, best, alpha0, beta, depth, n, slot, k1, k2, tt1, tt2)
    return best


@njit(cache=True, nogil=True, inline="always")
def _store(
    use_tt: bool,
    best: int,
    alpha0: int,
    beta: int,
    depth: int,
    n: int,
    slot: int,
    k1: int,
    k2: int,
    tt1: np.ndarray,
    tt2: np.ndarray,
) -> None:
    if use_tt:
        if best <= alpha0:
            flag = UPPER
        elif best >= beta:
            flag = LOWER
        else:
            flag = EXACT
        stored = depth if depth < n else n
        entry = k2 | ((best + 128) << 24) | (flag << 32) | (stored << 34)
        tt2[slot] = entry
        tt1[slot] = k1 ^ entry
