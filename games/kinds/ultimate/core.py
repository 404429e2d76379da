"""Compiled Monte Carlo tree search for Ultimate Tic-Tac-Toe (numba, ``nogil``, cached).

The position is a small int64 array (see the ``X_MASKS`` ... ``RESULT`` offsets): one
9-bit mask per small board and player, the boards each player has won, the closed
boards (won or full), the board the next move is sent to (-1 = any open board), the
side to move and the result. A move is ``board * 9 + cell_in_board``.

:func:`search` runs UCT iterations on a tree kept in flat arrays: selection by UCB1,
expansion of every child at once, a random playout, and backpropagation of 1 / 0.5 / 0
for a win / draw / loss. With ``decisive`` the playouts (and the first move out of a
newly expanded node) take a move that wins the game at once when there is one.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .rules import SMALL_LINES

X_MASKS = 0  # 0..8: cells of X in each small board
O_MASKS = 9  # 9..17: cells of O
META = 18  # 18, 19: small boards won by X, by O
CLOSED = 20  # small boards won or full
NEXT = 21  # board the next move must be in, -1 = any open board
TO_MOVE = 22
RESULT = 23  # -1 playing, 0 X won, 1 O won, 2 draw
STATE_SIZE = 24
PLAYING, DRAW = -1, 2
FULL = 511

# The eight lines of a small board (and of the boards), as 9-bit masks of its cells.
LINES = tuple(sum(1 << i for i in line) for line in SMALL_LINES)


def _win_table() -> np.ndarray:
    table = np.zeros(512, dtype=np.bool_)
    for m in range(512):
        table[m] = any(m & line == line for line in LINES)
    return table


WIN = _win_table()

# Tree arrays: ints [parent, first_child, child_count, move, player_who_moved]; floats [visits, reward].
PARENT, FIRST, COUNT, MOVE, MOVER = 0, 1, 2, 3, 4
VISITS, REWARD = 0, 1


def new_state() -> np.ndarray:
    state = np.zeros(STATE_SIZE, dtype=np.int64)
    state[NEXT] = -1
    state[RESULT] = PLAYING
    return state


@njit(cache=True, nogil=True)
def legal_moves(state: np.ndarray, out: np.ndarray) -> int:
    count = 0
    nxt = state[NEXT]
    for b in range(9):
        if nxt >= 0 and b != nxt:
            continue
        if (state[CLOSED] >> b) & 1:
            continue
        taken = state[X_MASKS + b] | state[O_MASKS + b]
        for i in range(9):
            if not (taken >> i) & 1:
                out[count] = b * 9 + i
                count += 1
    return count


@njit(cache=True, nogil=True)
def apply_move(state: np.ndarray, move: int, win: np.ndarray) -> None:
    b = move // 9
    i = move % 9
    p = state[TO_MOVE]
    own = state[X_MASKS + 9 * p + b] | (1 << i)
    state[X_MASKS + 9 * p + b] = own
    if win[own]:
        meta = state[META + p] | (1 << b)
        state[META + p] = meta
        state[CLOSED] |= 1 << b
        if win[meta]:
            state[RESULT] = p
    elif (own | state[X_MASKS + 9 * (1 - p) + b]) == FULL:
        state[CLOSED] |= 1 << b
    if state[RESULT] == PLAYING and state[CLOSED] == FULL:
        state[RESULT] = DRAW
    state[NEXT] = -1 if (state[CLOSED] >> i) & 1 else i
    state[TO_MOVE] = 1 - p


@njit(cache=True, nogil=True)
def wins_game(state: np.ndarray, move: int, win: np.ndarray) -> bool:
    b = move // 9
    p = state[TO_MOVE]
    own = state[X_MASKS + 9 * p + b] | (1 << (move % 9))
    return bool(win[own]) and bool(win[state[META + p] | (1 << b)])


@njit(cache=True, nogil=True)
def may_win_game(state: np.ndarray, win: np.ndarray) -> bool:
    """Cheap filter: does the mover hold two boards of a line whose third board is open?"""
    p = state[TO_MOVE]
    meta = state[META + p]
    open_boards = FULL & ~state[CLOSED]
    for b in range(9):  # noqa: SIM110 - a plain loop compiles best in numba
        if (open_boards >> b) & 1 and win[meta | (1 << b)]:
            return True
    return False


@njit(cache=True, nogil=True)
def _rand(rng: np.ndarray, bound: int) -> int:
    """xorshift64*: a uniform integer in [0, bound)."""
    x = rng[0]
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    rng[0] = x
    return int(((x * np.uint64(2685821657736338717)) >> np.uint64(33)) % np.uint64(bound))


@njit(cache=True, nogil=True)
def playout(state: np.ndarray, rng: np.ndarray, decisive: bool, win: np.ndarray, buf: np.ndarray) -> int:
    """Play random moves until the end (changes ``state``); returns the result."""
    while state[RESULT] == PLAYING:
        count = legal_moves(state, buf)
        chosen = -1
        if decisive and may_win_game(state, win):
            for k in range(count):
                if wins_game(state, buf[k], win):
                    chosen = buf[k]
                    break
        if chosen < 0:
            chosen = buf[_rand(rng, count)]
        apply_move(state, chosen, win)
    return int(state[RESULT])


@njit(cache=True, nogil=True)
def random_playouts(state: np.ndarray, games: int, seed: int, decisive: bool, win: np.ndarray) -> np.ndarray:
    """Results of ``games`` random playouts from ``state``: counts of [X wins, O wins, draws, moves]."""
    rng = np.full(1, np.uint64(seed) | np.uint64(1), dtype=np.uint64)
    buf = np.empty(81, dtype=np.int64)
    work = np.empty_like(state)
    totals = np.zeros(4, dtype=np.int64)
    for _ in range(games):
        work[:] = state
        before = 0
        for b in range(9):
            before += _bits(work[X_MASKS + b] | work[O_MASKS + b])
        r = playout(work, rng, decisive, win, buf)
        after = 0
        for b in range(9):
            after += _bits(work[X_MASKS + b] | work[O_MASKS + b])
        totals[r] += 1
        totals[3] += after - before
    return totals


@njit(cache=True, nogil=True)
def _bits(x: int) -> int:
    count = 0
    while x:
        x &= x - 1
        count += 1
    return count


@njit(cache=True, nogil=True)
def init_tree(root: np.ndarray, ints: np.ndarray, floats: np.ndarray, meta: np.ndarray) -> None:
    """Make node 0 the root; ``meta`` = [node count, iterations done]."""
    ints[0, PARENT] = -1
    ints[0, FIRST] = -1
    ints[0, COUNT] = 0
    ints[0, MOVE] = -1
    ints[0, MOVER] = 1 - root[TO_MOVE]
    floats[0, VISITS] = 0.0
    floats[0, REWARD] = 0.0
    meta[0] = 1
    meta[1] = 0


@njit(cache=True, nogil=True)
def _expand(
    node: int, state: np.ndarray, ints: np.ndarray, floats: np.ndarray, meta: np.ndarray, buf: np.ndarray
) -> bool:
    count = legal_moves(state, buf)
    first = meta[0]
    if first + count > ints.shape[0]:
        return False
    mover = state[TO_MOVE]
    for k in range(count):
        c = first + k
        ints[c, PARENT] = node
        ints[c, FIRST] = -1
        ints[c, COUNT] = 0
        ints[c, MOVE] = buf[k]
        ints[c, MOVER] = mover
        floats[c, VISITS] = 0.0
        floats[c, REWARD] = 0.0
    ints[node, FIRST] = first
    ints[node, COUNT] = count
    meta[0] = first + count
    return True


@njit(cache=True, nogil=True)
def search(
    root: np.ndarray,
    ints: np.ndarray,
    floats: np.ndarray,
    meta: np.ndarray,
    iterations: int,
    exploration: float,
    decisive: bool,
    rng: np.ndarray,
    win: np.ndarray,
) -> None:
    """Run ``iterations`` more UCT iterations on the tree (see :func:`init_tree`)."""
    state = np.empty_like(root)
    buf = np.empty(81, dtype=np.int64)
    for _ in range(iterations):
        state[:] = root
        node = 0
        # Selection.
        while ints[node, FIRST] >= 0 and state[RESULT] == PLAYING:
            first = ints[node, FIRST]
            count = ints[node, COUNT]
            log_n = np.log(floats[node, VISITS] + 1.0)
            best = -1
            best_value = -1.0
            for c in range(first, first + count):
                v = floats[c, VISITS]
                if v == 0.0:
                    best = c
                    break
                value = floats[c, REWARD] / v + exploration * np.sqrt(log_n / v)
                if value > best_value:
                    best_value = value
                    best = c
            node = best
            apply_move(state, ints[node, MOVE], win)
        # Expansion: a leaf visited before gets its children; play one of them.
        if (
            state[RESULT] == PLAYING
            and floats[node, VISITS] > 0.0
            and _expand(node, state, ints, floats, meta, buf)
        ):
            chosen = -1
            if decisive and may_win_game(state, win):
                for c in range(ints[node, FIRST], ints[node, FIRST] + ints[node, COUNT]):
                    if wins_game(state, ints[c, MOVE], win):
                        chosen = c
                        break
            if chosen < 0:
                chosen = ints[node, FIRST] + _rand(rng, ints[node, COUNT])
            node = chosen
            apply_move(state, ints[node, MOVE], win)
        # Simulation.
        result = state[RESULT]
        if result == PLAYING:
            result = playout(state, rng, decisive, win, buf)
        # Backpropagation: rewards are for the player who made the move into each node.
        while node >= 0:
            floats[node, VISITS] += 1.0
            if result == DRAW:
                floats[node, REWARD] += 0.5
            elif result == ints[node, MOVER]:
                floats[node, REWARD] += 1.0
            node = ints[node, PARENT]
        meta[1] += 1
