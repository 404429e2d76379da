"""Compiled search kernels for connect-N (numba, ``nogil``, cached on disk).

Two searches live here:

* :func:`solve` — an exact solver for two-player games *with gravity* whose board fits
  a 64-bit word with a spare bit on top of each column (``(height + 1) * width <= 64``,
  e.g. Connect Four). Position = two masks (the mover's stones, all stones); a move is
  ``mask + bottom_of_column``; ``n`` in a row is found with shifts and ANDs. Negamax with
  alpha-beta, a transposition table (lower/upper bounds) with enhanced transposition
  cutoffs, centre-first ordering refined by the number of threats a move makes, pruning of
  moves that lose at once, and an iterative null-window search on the score. Scores follow
  John Tromp / Pascal Pons: a win with your k-th-from-last possible stone scores k; 0 is a
  draw.

* :func:`search_generic` — a depth-limited alpha-beta on a plain cell array for every
  other case (no gravity, large boards, three or four players). With more than two
  players it is the *paranoid* search: the root player maximises, all the others are
  assumed to play together against it. Leaves are scored by counting the n-cell windows
  each side can still fill. Wins found are proven; a draw is proven only when the search
  reached the end of the game.

Both stop early (``stats[ABORTED] = 1``) once the node limit or the deadline (monotonic
nanoseconds, read every 1,024 nodes) is passed; a stopped search writes nothing to the
table.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from games.ai.clock import CHECK_MASK, monotonic_ns

U1 = np.uint64(1)
U0 = np.uint64(0)
TT_SIZE = 8388593  # a prime just under 2**23 (the shared table)
SMALL_TT_SIZE = 1048573  # a prime just under 2**20 (a private table when the shared one is busy)
# A table entry is one word, so a probe costs one cache miss: the low 56 bits of the key,
# then the 8-bit value (0 = empty). The slot is key mod a prime larger than 2**8, so slot and
# low bits together pin down any 64-bit key (Chinese remainder theorem), as in Pons' solver.
TAG_SHIFT = np.uint64(8)
KEY_MASK = np.uint64((1 << 56) - 1)
VALUE_MASK = np.uint64(0xFF)
# stats layout: [nodes, aborted, node limit, deadline in monotonic ns]
NODES, ABORTED, LIMIT, DEADLINE = 0, 1, 2, 3
NO_LIMIT = 1 << 62


def new_stats(deadline: int = NO_LIMIT, node_limit: int = NO_LIMIT) -> np.ndarray:
    stats = np.zeros(4, dtype=np.int64)
    stats[LIMIT] = node_limit
    stats[DEADLINE] = deadline
    return stats


@njit(cache=True, nogil=True)
def out_of_budget(stats: np.ndarray) -> bool:
    """Count a node; True (and mark the search aborted) once the nodes or the time are spent."""
    stats[NODES] += 1
    if stats[NODES] > stats[LIMIT] or (stats[NODES] & CHECK_MASK == 0 and monotonic_ns() > stats[DEADLINE]):
        stats[ABORTED] = 1
        return True
    return False


@njit(cache=True, nogil=True)
def _shr(x: np.uint64, k: int) -> np.uint64:
    if k >= 64:
        return np.uint64(0)
    return x >> np.uint64(k)


@njit(cache=True, nogil=True)
def _shl(x: np.uint64, k: int) -> np.uint64:
    if k >= 64:
        return np.uint64(0)
    return x << np.uint64(k)


@njit(cache=True, nogil=True)
def popcount(x: np.uint64) -> int:
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return int((x * np.uint64(0x0101010101010101)) >> np.uint64(56))


@njit(cache=True, nogil=True)
def bottom_mask(width: int, height: int) -> np.uint64:
    mask = np.uint64(0)
    for c in range(width):
        mask |= _shl(np.uint64(1), c * (height + 1))
    return mask


@njit(cache=True, nogil=True)
def board_mask(width: int, height: int) -> np.uint64:
    column = _shl(np.uint64(1), height) - np.uint64(1)
    mask = np.uint64(0)
    for c in range(width):
        mask |= _shl(column, c * (height + 1))
    return mask


@njit(cache=True, nogil=True)
def column_mask(height: int, col: int) -> np.uint64:
    return _shl(_shl(np.uint64(1), height) - np.uint64(1), col * (height + 1))


@njit(cache=True, nogil=True)
def centre_column(width: int, i: int) -> int:
    """The ``i``-th column to try: the centre, then left and right of it by turns, outwards."""
    return width // 2 + (1 - 2 * (i % 2)) * (i + 1) // 2


@njit(cache=True, nogil=True)
def centre_order(width: int) -> np.ndarray:
    order = np.empty(width, dtype=np.int64)
    for i in range(width):
        order[i] = centre_column(width, i)
    return order


@njit(cache=True, nogil=True)
def aligned(pos: np.uint64, height: int, n: int) -> bool:
    """Does ``pos`` hold n consecutive stones in some direction?"""
    for s in (1, height + 1, height, height + 2):
        x = pos
        for k in range(1, n):
            x &= _shr(pos, k * s)
            if x == 0:
                break
        if x != 0:
            return True
    return False


@njit(cache=True, nogil=True)
def _winning_cells4(pos: np.uint64, mask: np.uint64, height: int, full: np.uint64) -> np.uint64:
    """The n = 4 case of :func:`winning_cells`, unrolled (after Pascal Pons' solver)."""
    one = np.uint64(1)
    two = np.uint64(2)
    three = np.uint64(3)
    r = (pos << one) & (pos << two) & (pos << three)
    for step in (height + 1, height, height + 2):
        s1 = np.uint64(step)
        s2 = np.uint64(2 * step)
        s3 = np.uint64(3 * step)
        p = (pos << s1) & (pos << s2)
        r |= p & (pos << s3)
        r |= p & (pos >> s1)
        p = (pos >> s1) & (pos >> s2)
        r |= p & (pos << s1)
        r |= p & (pos >> s3)
    return r & (full ^ mask)


@njit(cache=True, nogil=True)
def winning_cells(pos: np.uint64, mask: np.uint64, height: int, n: int, full: np.uint64) -> np.uint64:
    """Empty cells (anywhere, not only playable) that would complete n in a row for ``pos``."""
    if n == 4:
        return _winning_cells4(pos, mask, height, full)
    result = np.uint64(0)
    for s in (1, height + 1, height, height + 2):
        for k in range(n):
            x = full
            for j in range(n):
                if j == k:
                    continue
                d = (j - k) * s
                if d > 0:
                    x &= _shr(pos, d)
                else:
                    x &= _shl(pos, -d)
                if x == 0:
                    break
            result |= x
    return result & (full ^ mask)


@njit(cache=True, nogil=True)
def _non_losing_moves(
    pos: np.uint64, mask: np.uint64, height: int, n: int, full: np.uint64, bottom: np.uint64
) -> np.uint64:
    possible = (mask + bottom) & full
    opponent_wins = winning_cells(pos ^ mask, mask, height, n, full)
    forced = possible & opponent_wins
    if forced:
        if forced & (forced - np.uint64(1)):
            return np.uint64(0)  # two threats to block: lost
        possible = forced
    return possible & ~_shr(opponent_wins, 1)


@njit(cache=True, nogil=True)
def _order_moves(
    pos: np.uint64,
    mask: np.uint64,
    nxt: np.uint64,
    width: int,
    height: int,
    n: int,
    full: np.uint64,
    order: np.ndarray,
    move_bits: np.ndarray,
    move_scores: np.ndarray,
) -> int:
    """Fill ``move_bits`` with the moves in ``nxt``: more threats made first, centre first
    among equals (insertion sort keeps the centre order); returns how many."""
    count = 0
    for i in range(width):
        col = order[i]
        m = nxt & column_mask(height, col)
        if m:
            score = popcount(winning_cells(pos | m, mask, height, n, full))
            j = count
            while j > 0 and move_scores[j - 1] < score:
                move_bits[j] = move_bits[j - 1]
                move_scores[j] = move_scores[j - 1]
                j -= 1
            move_bits[j] = m
            move_scores[j] = score
            count += 1
    return count


@njit(cache=True, nogil=True)
def _stored(table: np.ndarray, key: np.uint64) -> int:
    """The value byte stored for ``key`` (0 = nothing): ``1 + score - min_score`` for an
    upper bound, ``2 + score + max_score - 2 * min_score`` for a lower bound."""
    entry = table[key % np.uint64(table.shape[0])]
    if entry >> TAG_SHIFT == key & KEY_MASK:
        return int(np.int64(entry & VALUE_MASK))  # not int(uint64): that would mix in floats
    return 0


@njit(cache=True, nogil=True)
def _store(table: np.ndarray, key: np.uint64, value: int) -> None:
    table[key % np.uint64(table.shape[0])] = ((key & KEY_MASK) << TAG_SHIFT) | np.uint64(value)


@njit(cache=True, nogil=True)
def _negamax(
    pos: np.uint64,
    mask: np.uint64,
    moves: int,
    alpha: int,
    beta: int,
    width: int,
    height: int,
    n: int,
    full: np.uint64,
    bottom: np.uint64,
    order: np.ndarray,
    table: np.ndarray,
    stats: np.ndarray,
    scratch_bits: np.ndarray,
    scratch_scores: np.ndarray,
) -> int:
    if out_of_budget(stats):
        return 0
    cells = width * height
    nxt = _non_losing_moves(pos, mask, height, n, full, bottom)
    if nxt == 0:
        return -((cells - moves) // 2)
    if moves >= cells - 2:
        return 0
    lo = -((cells - 2 - moves) // 2)
    if alpha < lo:
        alpha = lo
        if alpha >= beta:
            return alpha
    hi = (cells - 1 - moves) // 2
    min_score = -(cells // 2) + 3
    max_score = (cells + 1) // 2 - 3
    upper_codes = max_score - min_score + 1  # values 1..upper_codes are upper bounds
    key = pos + mask
    stored = _stored(table, key)
    if stored:
        if stored > upper_codes:
            lo = stored + 2 * min_score - max_score - 2
            if alpha < lo:
                alpha = lo
                if alpha >= beta:
                    return alpha
        else:
            hi = stored + min_score - 1
            if beta > hi:
                beta = hi
                if alpha >= beta:
                    return beta
    elif beta > hi:
        beta = hi
        if alpha >= beta:
            return beta
    move_bits = scratch_bits[moves]
    count = _order_moves(pos, mask, nxt, width, height, n, full, order, move_bits, scratch_scores[moves])
    # Enhanced transposition cutoff: a child whose stored upper bound already refutes beta
    # ends the node before any child is searched (about 30 % fewer nodes on Connect Four).
    child_pos = pos ^ mask
    for i in range(count):
        child_stored = _stored(table, child_pos + (mask | move_bits[i]))
        if 0 < child_stored <= upper_codes:
            score = -(child_stored + min_score - 1)  # the child's upper bound, negated
            if score >= beta:
                _store(table, key, score + max_score - 2 * min_score + 2)
                return score
    for i in range(count):
        m = move_bits[i]
        child_mask = mask | m
        score = -_negamax(
            child_pos, child_mask, moves + 1, -beta, -alpha, width, height, n, full, bottom, order,
            table, stats, scratch_bits, scratch_scores,
        )  # fmt: skip
        if stats[ABORTED]:
            return 0
        if score >= beta:
            _store(table, key, score + max_score - 2 * min_score + 2)
            return score
        if score > alpha:
            alpha = score
    if alpha >= min_score:  # a bound below every possible score says nothing
        _store(table, key, alpha - min_score + 1)
    return alpha


@njit(cache=True, nogil=True)
def _column_of(m: np.uint64, height: int) -> int:
    bit = 0
    while m > U1:
        m >>= U1
        bit += 1
    return bit // (height + 1)


@njit(cache=True, nogil=True)
def _root(
    pos: np.uint64,
    mask: np.uint64,
    moves: int,
    alpha: int,
    beta: int,
    width: int,
    height: int,
    n: int,
    full: np.uint64,
    bottom: np.uint64,
    order: np.ndarray,
    table: np.ndarray,
    stats: np.ndarray,
    scratch_bits: np.ndarray,
    scratch_scores: np.ndarray,
    best: np.ndarray,
) -> int:
    """:func:`_negamax` at the root, without the table's shortcuts, so that a result above
    ``alpha`` always comes with the move that reached it (``best[0]``, a column)."""
    nxt = _non_losing_moves(pos, mask, height, n, full, bottom)
    move_bits = scratch_bits[moves]
    count = _order_moves(pos, mask, nxt, width, height, n, full, order, move_bits, scratch_scores[moves])
    for i in range(count):
        m = move_bits[i]
        score = -_negamax(
            pos ^ mask, mask | m, moves + 1, -beta, -alpha, width, height, n, full, bottom, order,
            table, stats, scratch_bits, scratch_scores,
        )  # fmt: skip
        if stats[ABORTED]:
            return 0
        if score > alpha:
            alpha = score
            best[0] = _column_of(m, height)
            if score >= beta:
                return score
    return alpha


@njit(cache=True, nogil=True)
def solve_best(
    pos: np.uint64,
    mask: np.uint64,
    moves: int,
    width: int,
    height: int,
    n: int,
    table: np.ndarray,
    stats: np.ndarray,
    best: np.ndarray,
    weak: bool,
) -> int:
    """Exact score for the side to move, and in ``best[0]`` a column that achieves it.

    An iterative null-window search on the score, probing near zero first; every probe
    that raises the lower bound names the root move that did, so the last such move scores
    exactly the final value. If no probe raised it, every move loses at once and
    ``best[0]`` is the first open column. With ``weak`` the search stops at win / draw /
    loss: the result is 1, 0 or -1 (two probes at most, often several times faster), and a
    lost position gets the first open column. Check ``stats[ABORTED]``.
    """
    full = board_mask(width, height)
    bottom = bottom_mask(width, height)
    cells = width * height
    possible = (mask + bottom) & full
    best[0] = -1
    for i in range(width):
        col = centre_column(width, i)
        if possible & column_mask(height, col) and best[0] < 0:
            best[0] = col
    wins = winning_cells(pos, mask, height, n, full) & possible
    if wins:
        best[0] = _column_of(wins & (~wins + U1), height)
        return 1 if weak else (cells + 1 - moves) // 2
    if moves >= cells - 1:
        return 0
    order = centre_order(width)
    lo = -1 if weak else -((cells - moves) // 2)
    hi = 1 if weak else (cells + 1 - moves) // 2
    scratch_bits = np.zeros((cells + 1, width), dtype=np.uint64)
    scratch_scores = np.zeros((cells + 1, width), dtype=np.int64)
    found = np.full(1, best[0], dtype=np.int64)
    while lo < hi:
        # Probe near zero first (win / draw / loss is what matters most), then halve.
        med = lo + (hi - lo) // 2
        if med <= 0 and -(-lo // 2) < med:
            med = -(-lo // 2)
        elif med >= 0 and hi // 2 > med:
            med = hi // 2
        r = _root(
            pos, mask, moves, med, med + 1, width, height, n, full, bottom, order, table, stats,
            scratch_bits, scratch_scores, found,
        )  # fmt: skip
        if stats[ABORTED]:
            return 0
        if r <= med:
            hi = r
        else:
            lo = r
            best[0] = found[0]
    return min(max(lo, -1), 1) if weak else lo


@njit(cache=True, nogil=True)
def solve(
    pos: np.uint64,
    mask: np.uint64,
    moves: int,
    width: int,
    height: int,
    n: int,
    table: np.ndarray,
    stats: np.ndarray,
) -> int:
    """Exact score for the side to move (see the module docstring); check ``stats[ABORTED]``."""
    best = np.zeros(1, dtype=np.int64)
    return solve_best(pos, mask, moves, width, height, n, table, stats, best, False)


@njit(cache=True, nogil=True)
def play_column(pos: np.uint64, mask: np.uint64, col: int, height: int) -> tuple[np.uint64, np.uint64]:
    """The (pos, mask) of the *next* mover after the side to move drops into ``col``."""
    new_mask = mask | (mask + _shl(np.uint64(1), col * (height + 1)))
    return pos ^ mask, new_mask


@njit(cache=True, nogil=True)
def solve_children(
    pos: np.uint64,
    mask: np.uint64,
    moves: int,
    width: int,
    height: int,
    n: int,
    table: np.ndarray,
    stats: np.ndarray,
    out: np.ndarray,
) -> None:
    """``out[c]`` = exact score of dropping into column c for the side to move (-1000 if full)."""
    full = board_mask(width, height)
    cells = width * height
    order = centre_order(width)
    for i in range(width):
        col = order[i]
        out[col] = -1000
        if mask & _shl(np.uint64(1), height - 1 + col * (height + 1)):
            continue
        child_pos, child_mask = play_column(pos, mask, col, height)
        if aligned(child_pos ^ child_mask, height, n):
            out[col] = (cells + 1 - moves) // 2
        elif moves + 1 >= cells:
            out[col] = 0
        else:
            out[col] = -solve(child_pos, child_mask, moves + 1, width, height, n, table, stats)
        if stats[ABORTED]:
            return
    _ = full


# --- generic depth-limited search on a cell array ------------------------------------

WIN_SCORE = 1 << 50  # above any sum of window weights
EMPTY = -1


@njit(cache=True, nogil=True)
def _wins_at(board: np.ndarray, width: int, height: int, n: int, cell: int) -> bool:
    owner = board[cell]
    rank = cell // width
    file = cell % width
    for d in range(4):
        df = 1 if d != 1 else 0
        dr = 0 if d == 0 else (1 if d != 3 else -1)
        count = 1
        f = file + df
        r = rank + dr
        while 0 <= f < width and 0 <= r < height and board[r * width + f] == owner:
            count += 1
            f += df
            r += dr
        f = file - df
        r = rank - dr
        while 0 <= f < width and 0 <= r < height and board[r * width + f] == owner:
            count += 1
            f -= df
            r -= dr
        if count >= n:
            return True
    return False


@njit(cache=True, nogil=True)
def _evaluate(board: np.ndarray, windows: np.ndarray, root: int, weights: np.ndarray) -> int:
    """Open windows for the root player minus those of the others, weighted by stones in them."""
    total = 0
    n = windows.shape[1]
    for w in range(windows.shape[0]):
        owner = -1
        stones = 0
        for k in range(n):
            v = board[windows[w, k]]
            if v != EMPTY:
                if owner == -1:
                    owner = v
                elif owner != v:
                    owner = -2
                    break
                stones += 1
        if owner >= 0:
            if owner == root:
                total += weights[stones]
            else:
                total -= weights[stones]
    return total


@njit(cache=True, nogil=True)
def _candidates(
    board: np.ndarray,
    heights: np.ndarray,
    width: int,
    height: int,
    gravity: bool,
    near_only: bool,
    out: np.ndarray,
) -> int:
    """Legal cells, centre first: with gravity the landing cells; else the empty cells
    (only those within two steps of a stone when ``near_only``)."""
    count = 0
    cells = width * height
    if gravity:
        for i in range(width):
            col = centre_column(width, i)
            if heights[col] < height:
                out[count] = heights[col] * width + col
                count += 1
        return count
    any_stone = False
    for c in range(cells if near_only else 0):
        if board[c] != EMPTY:
            any_stone = True
            break
    centre_f = (width - 1) / 2.0
    centre_r = (height - 1) / 2.0
    dist = np.empty(cells, dtype=np.float64)
    for c in range(cells):
        if board[c] != EMPTY:
            continue
        r = c // width
        f = c % width
        near = not any_stone
        if any_stone:
            for dr in range(-2, 3):
                for df in range(-2, 3):
                    rr = r + dr
                    ff = f + df
                    if 0 <= rr < height and 0 <= ff < width and board[rr * width + ff] != EMPTY:
                        near = True
        if near:
            out[count] = c
            dist[count] = abs(r - centre_r) + abs(f - centre_f)
            j = count
            while j > 0 and dist[j - 1] > dist[j]:
                out[j - 1], out[j] = out[j], out[j - 1]
                dist[j - 1], dist[j] = dist[j], dist[j - 1]
                j -= 1
            count += 1
    return count


@njit(cache=True, nogil=True)
def _ab(
    board: np.ndarray,
    heights: np.ndarray,
    width: int,
    height: int,
    n: int,
    gravity: bool,
    players: int,
    mover: int,
    root: int,
    depth: int,
    ply: int,
    empty: int,
    alpha: int,
    beta: int,
    windows: np.ndarray,
    weights: np.ndarray,
    stats: np.ndarray,
    near_only: bool,
) -> int:
    if out_of_budget(stats):
        return 0
    if depth == 0:
        return _evaluate(board, windows, root, weights)
    moves = np.empty(width * height, dtype=np.int64)
    count = _candidates(board, heights, width, height, gravity, near_only, moves)
    # Immediate wins first, then cells that block the next player's immediate win.
    nxt = (mover + 1) % players
    front = 0
    for i in range(count):
        c = moves[i]
        board[c] = mover
        hit = _wins_at(board, width, height, n, c)
        board[c] = EMPTY
        if hit:
            return WIN_SCORE - ply if mover == root else -(WIN_SCORE - ply)
    for i in range(count):
        c = moves[i]
        board[c] = nxt
        hit = _wins_at(board, width, height, n, c)
        board[c] = EMPTY
        if hit:
            moves[i], moves[front] = moves[front], moves[i]
            front += 1
    maximise = mover == root
    best = -WIN_SCORE - 1 if maximise else WIN_SCORE + 1
    for i in range(count):
        c = moves[i]
        col = c % width
        board[c] = mover
        if gravity:
            heights[col] += 1
        if empty - 1 == 0:
            value = 0
        else:
            value = _ab(
                board, heights, width, height, n, gravity, players, nxt, root, depth - 1, ply + 1, empty - 1,
                alpha, beta, windows, weights, stats, near_only,
            )  # fmt: skip
        board[c] = EMPTY
        if gravity:
            heights[col] -= 1
        if stats[ABORTED]:
            return 0
        if maximise:
            if value > best:
                best = value
            if best > alpha:
                alpha = best
        else:
            if value < best:
                best = value
            if best < beta:
                beta = best
        if alpha >= beta:
            break
    return best


@njit(cache=True, nogil=True)
def search_generic(
    board: np.ndarray,
    width: int,
    height: int,
    n: int,
    gravity: bool,
    players: int,
    mover: int,
    depth: int,
    roots: np.ndarray,
    windows: np.ndarray,
    weights: np.ndarray,
    stats: np.ndarray,
    out: np.ndarray,
    every_value: bool,
    near_only: bool,
    reply_ply: int,
) -> None:
    """``out[i]`` = value (for ``mover``) of playing cell ``roots[i]``, searched ``depth`` plies.

    Unless ``every_value``, moves after the first are searched against the best value so
    far, so a worse move's value is only an upper bound (enough to pick the best).
    ``reply_ply`` is 2 (the replies are the second ply); it is an argument rather than a
    constant so that the recursive kernel has one signature (numba's cache mishandles
    recursive functions compiled for a literal and a plain integer).
    """
    heights = np.zeros(width, dtype=np.int64)
    empty = 0
    for c in range(width * height):
        if board[c] == EMPTY:
            empty += 1
        else:
            heights[c % width] = max(heights[c % width], c // width + 1)
    nxt = (mover + 1) % players
    best = -WIN_SCORE - 1
    for i in range(roots.shape[0]):
        c = roots[i]
        board[c] = mover
        if gravity:
            heights[c % width] += 1
        if _wins_at(board, width, height, n, c):
            value = WIN_SCORE - 1
        elif empty == 1:
            value = 0
        elif depth <= 1:
            value = _evaluate(board, windows, mover, weights)
        else:
            alpha = -WIN_SCORE - 1 if every_value else best
            value = _ab(
                board, heights, width, height, n, gravity, players, nxt, mover, depth - 1, reply_ply,
                empty - 1, alpha, WIN_SCORE + 1, windows, weights, stats, near_only,
            )  # fmt: skip
        board[c] = EMPTY
        if gravity:
            heights[c % width] -= 1
        out[i] = value
        if value > best:
            best = value
        if stats[ABORTED]:
            return
