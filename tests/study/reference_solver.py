"""An exact Quarto solve written for the tests alone, sharing no code with the site's
solver: negamax with alpha-beta over win (1), draw (0) and loss (-1), a plain
transposition table, and the rules' own winning lines (games.kinds.quarto.rules).

Boards are bit masks: ``occ`` the filled cells, ``ones`` four 16-bit masks (the cells whose
piece has bit b set, at bits 16*b..16*b+15), ``avail`` the pieces still to give.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from games.kinds.quarto.rules import CELLS, Give, Place, State, winning_lines_through

TT_SIZE = 1 << 22


@njit(cache=True)
def _wins_at(occ: int, ones: int, hand: int, c: int, lines: Any, counts: Any) -> bool:
    for k in range(counts[c]):
        rest = lines[c, k]
        if occ & rest == rest:
            for b in range(4):
                m = (ones >> (16 * b)) & 0xFFFF
                if (hand >> b) & 1:
                    if m & rest == rest:
                        return True
                elif m & rest == 0:
                    return True
    return False


@njit(cache=True)
def _value(occ, ones, hand, avail, alpha, beta, lines, counts, keys1, keys2, lows, highs):  # type: ignore[no-untyped-def]
    """-1, 0 or 1 for the player about to place ``hand``, exact inside (alpha, beta)."""
    k2 = occ | (hand << 16) | (1 << 24)
    slot = ((ones * 0x9E3779B97F4A7C15) ^ (k2 * 0xC2B2AE3D27D4EB4F)) & (TT_SIZE - 1)
    low, high = -1, 1
    if keys1[slot] == ones and keys2[slot] == k2:
        low, high = lows[slot], highs[slot]
        if low >= beta or low == high:
            return low
        if high <= alpha:
            return high
    empties = 0
    for c in range(16):
        if not (occ >> c) & 1:
            empties += 1
            if _wins_at(occ, ones, hand, c, lines, counts):
                return 1
    if empties == 1:
        return 0
    best = -2
    start = alpha
    done = False
    for c in range(16):
        if (occ >> c) & 1:
            continue
        after = occ | (1 << c)
        marks = ones
        for b in range(4):
            if (hand >> b) & 1:
                marks |= 1 << (16 * b + c)
        for p in range(16):
            if not (avail >> p) & 1:
                continue
            v = -1  # a piece the opponent wins with at once loses
            loses = False
            for x in range(16):
                if not (after >> x) & 1 and _wins_at(after, marks, p, x, lines, counts):
                    loses = True
                    break
            if not loses:
                rest = avail & ~(1 << p)
                v = -_value(after, marks, p, rest, -beta, -alpha, lines, counts, keys1, keys2, lows, highs)
            if v > best:
                best = v
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        done = True
                        break
        if done:
            break
    if best <= start:
        high = min(high, best)
    elif best >= beta:
        low = max(low, best)
    else:
        low = high = best
    keys1[slot] = ones
    keys2[slot] = k2
    lows[slot] = low
    highs[slot] = high
    return best


class Reference:
    """Exact win/draw/loss of each legal action of a Quarto position."""

    def __init__(self, advanced: bool = False) -> None:
        self.lines = np.zeros((CELLS, 8), dtype=np.int64)
        self.counts = np.zeros(CELLS, dtype=np.int64)
        for c in range(CELLS):
            through = winning_lines_through(c, advanced)
            self.counts[c] = len(through)
            for k, line in enumerate(through):
                self.lines[c, k] = sum(1 << i for i in line if i != c)
        self.keys1 = np.zeros(TT_SIZE, np.int64)
        self.keys2 = np.zeros(TT_SIZE, np.int64)
        self.lows = np.zeros(TT_SIZE, np.int8)
        self.highs = np.zeros(TT_SIZE, np.int8)

    def place_value(self, state: State, beta: int = 1) -> int:
        """For the player holding ``state.in_hand`` (who must place it); below ``beta``
        exact, at ``beta`` a lower bound."""
        assert state.in_hand is not None
        occ, ones, avail = _encode(state)
        return int(
            _value(
                occ, ones, state.in_hand, avail, -1, beta, self.lines, self.counts,
                self.keys1, self.keys2, self.lows, self.highs,
            )
        )  # fmt: skip

    def action_values(self, state: State) -> dict[str, str]:
        """Each legal action's text -> "win", "draw" or "loss" for its mover."""
        self.keys2[:] = 0
        words = {1: "win", 0: "draw", -1: "loss"}
        values = {}
        for action in state.legal_moves():
            child = state.play(action)
            if child.outcome is not None:
                score = 0 if child.outcome.winner is None else 1
            elif isinstance(action, Give):
                score = -self.place_value(child)
            else:
                assert isinstance(action, Place)
                score = -1  # the best give so far; the next need only be shown better
                for give in child.legal_moves():
                    score = max(score, -self.place_value(child.play(give), beta=-score))
                    if score == 1:
                        break
            values[str(action)] = words[score]
        return values


def _encode(state: State) -> tuple[int, int, int]:
    occ = ones = 0
    for c, p in enumerate(state.board):
        if p is not None:
            occ |= 1 << c
            for b in range(4):
                if p >> b & 1:
                    ones |= 1 << (16 * b + c)
    if ones >= 1 << 63:  # as a signed 64-bit word
        ones -= 1 << 64
    avail = sum(1 << p for p in state.available)
    return occ, ones, avail
