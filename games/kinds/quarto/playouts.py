"""Careful-random playouts of Quarto, compiled: the estimate beyond the exact search's reach."""

from __future__ import annotations

import numpy as np
from numba import njit

from .bits import dangerous_pieces, lowest_bit_index, popcount, winning_cells


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
