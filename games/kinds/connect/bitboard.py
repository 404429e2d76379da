"""A connect-N position as the solver's two 64-bit bitboards (see :mod:`games.kinds.connect.core`).

Shared by the players (:mod:`games.kinds.connect.player`) and the opening book
(:mod:`games.kinds.connect.book`), which the players consult.
"""

from __future__ import annotations

import numpy as np

from .rules import State


def fits_bitboard(state: State) -> bool:
    """Two players, gravity, and a spare bit above every column in 64 bits."""
    return state.num_players == 2 and state.gravity and (state.height + 1) * state.width <= 64


def bitboards(state: State) -> tuple[np.uint64, np.uint64]:
    """(stones of the side to move, all stones); bit = file * (height + 1) + rank."""
    pos = 0
    mask = 0
    for cell, owner in enumerate(state.board):
        if owner is None:
            continue
        rank, file = divmod(cell, state.width)
        bit = 1 << (file * (state.height + 1) + rank)
        mask |= bit
        if owner == state.to_move:
            pos |= bit
    return np.uint64(pos), np.uint64(mask)
