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

Transposition-table keys are canonical under every symmetry of the position: the
board permutation that gives the smallest occupancy image (ties all tried), then each
trait bitboard replaced by the smaller of itself and its complement within the
occupied cells (the XOR part of the piece transforms, with the matching bit of the
piece in hand), then the four trait bitboards sorted (the trait-permutation part).
So the key is the same for all 12,288 images of a position (32 board maps x 24 trait
permutations x 16 XOR masks), at the cost of 32 occupancy lookups per key.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .clock import CHECK_MASK, monotonic_ns

WIN = 100
INF = 1000
DEAD_CHECK_MAX = 10
ORDER_MIN = 8
PAIRS = 64
WORK_SHAPE = (17, PAIRS + 256)

# Transposition-table entry flags.
LOWER, UPPER, EXACT = 1, 2, 3

# stats[] slots: nodes searched, node limit, aborted flag, rule variant, fewest empty cells
# probed in the table, table hits, deadline (monotonic ns), nodes searched whatever the
# clock says, node count at which the clock is read next.
S_NODES, S_LIMIT, S_ABORTED, S_VARIANT, S_TT_MIN, S_TT_HITS = 0, 1, 2, 3, 4, 5
S_DEADLINE, S_FLOOR, S_CHECK_AT = 6, 7, 8
STATS_LEN = 9
NO_LIMIT = (1 << 63) - 1  # as a node limit or a deadline: none

_M1 = 0x9E3779B97F4A7C15
_M2 = 0x3C6EF372FE94F82B


@njit(cache=True, nogil=True, inline="always")
def popcount(x: int) -> int:
    """Set bits of a 16-bit mask. (No multiplication: numba's signed ``mul`` is ``nsw``,
    so an overflowing product would be undefined behaviour.)"""
    x = x - ((x >> 1) & 0x5555)
    x = (x & 0x3333) + ((x >> 2) & 0x3333)
    x = (x + (x >> 4)) & 0x0F0F
    return (x + (x >> 8)) & 0x1F


@njit(cache=True, nogil=True, inline="always")
def lowest_bit_index(x: int) -> int:
    return popcount((x & -x) - 1)


@njit(cache=True, nogil=True)
def dangerous_pieces(traits: int, occ: int, threat: np.ndarray, pieces_with: np.ndarray) -> int:
    """Bitmask of the pieces that win at once if placed on this board."""
    empty = ~occ & 0xFFFF
    danger = 0
    for b in range(4):
        ones = (traits >> (16 * b)) & 0xFFFF
        if threat[ones] & empty:
            danger |= pieces_with[2 * b + 1]
        if threat[occ & ~ones] & empty:
            danger |= pieces_with[2 * b]
    return danger


@njit(cache=True, nogil=True)
def winning_cells(traits: int, occ: int, piece: int, threat: np.ndarray) -> int:
    """Bitmask of the empty cells where ``piece`` wins at once."""
    empty = ~occ & 0xFFFF
    cells = 0
    for b in range(4):
        ones = (traits >> (16 * b)) & 0xFFFF
        if (piece >> b) & 1:
            cells |= threat[ones]
        else:
            cells |= threat[occ & ~ones]
    return cells & empty


@njit(cache=True, nogil=True)
def can_still_win(traits: int, occ: int, remaining: int, lines: np.ndarray, pieces_with: np.ndarray) -> bool:
    """False when no open line can ever be completed: every open line already holds two
    pieces that differ in each trait, or needs a trait value no remaining piece has."""
    open_lines = ~lines[1, occ]
    for b in range(4):
        ones = (traits >> (16 * b)) & 0xFFFF
        if remaining & pieces_with[2 * b + 1] and lines[0, occ & ~ones] & open_lines:
            return True
        if remaining & pieces_with[2 * b] and lines[0, ones] & open_lines:
            return True
    return False


@njit(cache=True, nogil=True, inline="always")
def _image(symt: np.ndarray, s: int, x: int) -> int:
    return int(symt[s, 0, x & 0xFF] | symt[s, 1, (x >> 8) & 0xFF])


@njit(cache=True, nogil=True)
def canonical_key(traits: int, occ: int, hand: int, symt: np.ndarray) -> tuple[int, int]:
    """``(key1, key2)``: equal for two positions exactly when one is a symmetric image of the other."""
    nsym = symt.shape[0]
    best_occ = 1 << 20
    for s in range(nsym):
        o = _image(symt, s, occ)
        if o < best_occ:
            best_occ = o
    best_a = -1
    best_b = -1
    k1 = 0
    k2 = 0
    for s in range(nsym):
        if _image(symt, s, occ) != best_occ:
            continue
        v0 = 0
        v1 = 0
        v2 = 0
        v3 = 0
        for b in range(4):
            t = _image(symt, s, (traits >> (16 * b)) & 0xFFFF)
            h = (hand >> b) & 1
            x = (t << 1) | h
            y = ((best_occ ^ t) << 1) | (1 - h)
            v = x if x < y else y
            if b == 0:
                v0 = v
            elif b == 1:
                v1 = v
            elif b == 2:
                v2 = v
            else:
                v3 = v
        if v0 > v1:
            v0, v1 = v1, v0
        if v2 > v3:
            v2, v3 = v3, v2
        if v0 > v2:
            v0, v2 = v2, v0
        if v1 > v3:
            v1, v3 = v3, v1
        if v1 > v2:
            v1, v2 = v2, v1
        a = (v0 << 17) | v1
        bb = (v2 << 17) | v3
        if best_a < 0 or a < best_a or (a == best_a and bb < best_b):
            best_a = a
            best_b = bb
            k1 = (v0 >> 1) | ((v1 >> 1) << 16) | ((v2 >> 1) << 32) | ((v3 >> 1) << 48)
            k2 = best_occ | ((v0 & 1) << 16) | ((v1 & 1) << 17) | ((v2 & 1) << 18) | ((v3 & 1) << 19)
    return k1, k2


@njit(cache=True, nogil=True, inline="always")
def _slot(k1: int, k2: int, mask: int) -> int:
    h = (np.uint64(k1) ^ (np.uint64(k2) * np.uint64(_M2))) * np.uint64(_M1)
    return int(np.int64(h >> np.uint64(40))) & mask


@njit(cache=True, nogil=True)
def mobility(
    traits: int,
    occ: int,
    avail: int,
    hand: int,
    threat: np.ndarray,
    pieces_with: np.ndarray,
    spread: np.ndarray,
) -> int:
    """Sum over the placements of ``hand`` of the number of pieces safe to give after it."""
    total = 0
    hand_bits = spread[hand]
    cells = ~occ & 0xFFFF
    while cells:
        cbit = cells & -cells
        cells ^= cbit
        c = lowest_bit_index(cbit)
        total += popcount(
            avail & ~dangerous_pieces(traits | (hand_bits << c), occ | cbit, threat, pieces_with)
        )
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
        while safe:
            qbit = safe & -safe
            safe ^= qbit
            q = lowest_bit_index(qbit)
            m = mobility(tr2, occ2, avail & ~qbit, q, threat, pieces_with, spread)
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
    lines: np.ndarray,
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
    if n <= DEAD_CHECK_MAX and not can_still_win(traits, occ, avail | (1 << hand), lines, pieces_with):
        return 0

    use_tt = n >= stats[S_TT_MIN]
    k1 = 0
    k2 = 0
    slot = 0
    if use_tt:
        k1, k2 = canonical_key(traits, occ, hand, symt)
        k2 |= stats[S_VARIANT] << 20
        slot = _slot(k1, k2, tt1.shape[0] - 1)
        e2 = int(tt2[slot])
        if tt1[slot] == k1 and (e2 & 0xFFFFFF) == k2:
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
    if n >= ORDER_MIN:
        count = ordered_pairs(traits, occ, avail, hand, threat, pieces_with, spread, work, n)
        if count < 0:
            return hi
        if count == 0:
            return lo
        best = -INF
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
        best = lo if ncells < n else -INF
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
            tr2 = traits | (hand_bits << c)
            occ2 = occ | (1 << c)
            last = avail & ~(1 << q)
            v = WIN
            rest = ~occ2 & 0xFFFF
            while rest:
                cbit = rest & -rest
                rest ^= cbit
                cq = lowest_bit_index(cbit)
                if dangerous_pieces(tr2 | (spread[q] << cq), occ2 | cbit, threat, pieces_with) & last == 0:
                    v = 0
                    break
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
                lines,
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
        tt1[slot] = k1
        tt2[slot] = k2 | ((best + 128) << 24) | (flag << 32) | (stored << 34)


@njit(cache=True, nogil=True)
def playouts(
    traits: int,
    occ: int,
    avail: int,
    hand: int,
    count: int,
    seed: int,
    threat: np.ndarray,
    pieces_with: np.ndarray,
    spread: np.ndarray,
) -> float:
    """Mean result (1 win, 0 draw, -1 loss) for the side to place ``hand`` over ``count``
    games played on by "careful random" players: take a win at once when there is one,
    otherwise a random placement after which some piece is safe to give, then a random
    safe piece. It measures how easily a fallible player goes wrong from here."""
    np.random.seed(seed)
    total = 0
    for _ in range(count):
        t = traits
        o = occ
        a = avail
        h = hand
        sign = 1
        result = 0
        while True:
            empty = ~o & 0xFFFF
            if empty == 0:
                break
            if winning_cells(t, o, h, threat):
                result = sign
                break
            # Pick a random placement that leaves a safe piece, if any.
            n = popcount(empty)
            start = np.random.randint(n)
            chosen_cell = -1
            chosen_safe = 0
            cells = empty
            i = 0
            while cells:
                cbit = cells & -cells
                cells ^= cbit
                if i >= start or chosen_cell < 0:
                    c = lowest_bit_index(cbit)
                    safe = a & ~dangerous_pieces(t | (spread[h] << c), o | cbit, threat, pieces_with)
                    if safe or chosen_cell < 0:
                        chosen_cell = c
                        chosen_safe = safe
                        if safe and i >= start:
                            break
                i += 1
            if chosen_safe == 0 and start > 0:
                # Wrap around: the cells before ``start``.
                cells = empty
                while cells:
                    cbit = cells & -cells
                    cells ^= cbit
                    c = lowest_bit_index(cbit)
                    safe = a & ~dangerous_pieces(t | (spread[h] << c), o | cbit, threat, pieces_with)
                    if safe:
                        chosen_cell = c
                        chosen_safe = safe
                        break
            t = t | (spread[h] << chosen_cell)
            o = o | (1 << chosen_cell)
            if a == 0:
                break
            if chosen_safe == 0:
                result = -sign
                break
            k = np.random.randint(popcount(chosen_safe))
            pieces = chosen_safe
            for _ in range(k):
                pieces &= pieces - 1
            q = lowest_bit_index(pieces & -pieces)
            a &= ~(1 << q)
            h = q
            sign = -sign
        total += result
    return total / count
