"""Precomputed tables for the Quarto solver, and Quarto's symmetries in plain Python.

Bitboards: bit ``i`` is cell ``i`` of :mod:`games.kinds.quarto.rules` (a1 = 0 ... d4 = 15).
A position is kept as an occupancy bitboard ``occ`` plus one bitboard per trait bit:
``traits`` packs them as four 16-bit fields, field ``b`` holding the cells whose piece
has bit ``b`` set.

Symmetries (Kerner 2001, see shared GAME-FACTS): 32 board permutations preserve the ten
lines of the standard game (rotations and reflections, the "inside-out" swap, the
"middle swap" and their products); with the 2x2-square variant only the eight
rotations and reflections remain. Pieces may be transformed by any permutation of the
four trait bits and any XOR mask: 384 transforms, 12,288 symmetries in all.
"""

from __future__ import annotations

from itertools import permutations

import numpy as np
import numpy.typing as npt

from .rules import CELLS, SIZE, winning_lines

BoardPerm = tuple[int, ...]
"""``perm[cell]`` is where the piece on ``cell`` goes."""

PieceTransform = tuple[tuple[int, int, int, int], int]
"""``(bit_order, xor_mask)``: bit ``b`` of the result is bit ``bit_order[b]`` of ``piece ^ xor_mask``."""

IntArray = npt.NDArray[np.int64]


def line_masks(advanced: bool) -> tuple[int, ...]:
    lines = winning_lines(advanced)
    return tuple(sum(1 << c for c in line) for line in lines)


def _board_candidates() -> list[BoardPerm]:
    """Kerner's 32 maps: rows by sigma, columns by sigma or r.sigma, optionally transposed."""

    def r(i: int) -> int:
        return SIZE - 1 - i

    sigmas = [s for s in permutations(range(SIZE)) if all(s[r(i)] == r(s[i]) for i in range(SIZE))]
    perms: list[BoardPerm] = []
    for sigma in sigmas:
        for flip in (False, True):
            for transpose in (False, True):
                perm = [0] * CELLS
                for row in range(SIZE):
                    for col in range(SIZE):
                        new_row, new_col = sigma[row], sigma[col]
                        if flip:
                            new_col = r(new_col)
                        if transpose:
                            new_row, new_col = new_col, new_row
                        perm[row * SIZE + col] = new_row * SIZE + new_col
                perms.append(tuple(perm))
    return perms


def board_symmetries(advanced: bool = False) -> tuple[BoardPerm, ...]:
    """The board permutations that map the winning lines onto themselves, identity first."""
    lines = {frozenset(line) for line in winning_lines(advanced)}
    found = [
        perm for perm in _board_candidates() if {frozenset(perm[c] for c in line) for line in lines} == lines
    ]
    identity = tuple(range(CELLS))
    found.sort(key=lambda perm: perm != identity)
    return tuple(dict.fromkeys(found))


def piece_transforms() -> tuple[PieceTransform, ...]:
    """All 384 trait-bit permutations combined with XOR masks, identity first."""
    return tuple((order, mask) for order in permutations(range(4)) for mask in range(16))  # type: ignore[misc]


def transform_piece(piece: int, transform: PieceTransform) -> int:
    order, mask = transform
    flipped = piece ^ mask
    return sum(((flipped >> order[b]) & 1) << b for b in range(4))


def transform_board(
    board: tuple[int | None, ...], perm: BoardPerm, transform: PieceTransform
) -> tuple[int | None, ...]:
    out: list[int | None] = [None] * CELLS
    for cell, piece in enumerate(board):
        if piece is not None:
            out[perm[cell]] = transform_piece(piece, transform)
    return tuple(out)


def threat_table(advanced: bool) -> IntArray:
    """``table[x]``: cells ``c`` such that some line through ``c`` has its other cells all in ``x``."""
    table = np.zeros(1 << CELLS, dtype=np.int64)
    xs = np.arange(1 << CELLS, dtype=np.int64)
    for line in line_masks(advanced):
        for cell in range(CELLS):
            if line >> cell & 1:
                rest = line & ~(1 << cell)
                table |= np.where((xs & rest) == rest, 1 << cell, 0)
    return table


def spread_table() -> IntArray:
    """``spread[p]``: piece ``p`` as a ``traits`` word for cell 0 (shift left by the cell)."""
    return np.array([sum(((p >> b) & 1) << (16 * b) for b in range(4)) for p in range(16)], dtype=np.int64)


def pieces_with_table() -> IntArray:
    """``pieces_with[2 * b + v]``: bitmask of the pieces whose bit ``b`` equals ``v``."""
    return np.array(
        [sum(1 << p for p in range(16) if (p >> (k >> 1)) & 1 == k & 1) for k in range(8)], dtype=np.int64
    )


def symmetry_byte_tables(advanced: bool) -> IntArray:
    """``t[s, half, byte]``: image under symmetry ``s`` of a bitboard byte (half 0 low, 1 high)."""
    perms = board_symmetries(advanced)
    table = np.zeros((len(perms), 2, 256), dtype=np.int64)
    for s, perm in enumerate(perms):
        for half in range(2):
            for byte in range(256):
                image = 0
                for bit in range(8):
                    if byte >> bit & 1:
                        image |= 1 << perm[half * 8 + bit]
                table[s, half, byte] = image
    return table
