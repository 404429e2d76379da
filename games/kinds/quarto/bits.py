"""Compiled board primitives of the Quarto solver: bit counts, immediate threats and the
symmetric transposition-table keys.

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
def slot(k1: int, k2: int, mask: int) -> int:
    h = (np.uint64(k1) ^ (np.uint64(k2) * np.uint64(_M2))) * np.uint64(_M1)
    return int(np.int64(h >> np.uint64(40))) & mask
