"""Negamax alpha-beta with a transposition table, killer moves and centre-first
ordering, in numba, on the array representation of :mod:`agents.board` (every board
shape); the evaluation kernel is an argument (see :mod:`heuristics`).

Scores (side to move, wins scored by the stones on the board) and the counters slots:
:mod:`agents.search.scores`.
"""
import time

import numpy as np

from agents.board.grid import drop, is_win_at, undo
from agents.board.jit import njit, now
from agents.search.scores import CHECK_EVERY, EXACT, INF, LOWER, S_ABORTED, S_NODES, UPPER, WIN

# ---------------------------------------------------------------------------
# Negamax alpha-beta with a transposition table
# ---------------------------------------------------------------------------


class Tables:
    """Preallocated search memory: Zobrist keys, the transposition table, killers,
    history, the principal variation.

    ``tt_bits`` sets the table to ``2**tt_bits`` entries (24 bytes each)."""

    def __init__(self, rows, columns, tt_bits=20, seed=12345):
        rng = np.random.default_rng(seed)
        size = rows * columns
        self.zobrist = rng.integers(1, 2**63 - 1, size=(3, size), dtype=np.int64).astype(np.uint64)
        n = 1 << tt_bits
        self.tt_key = np.zeros(n, dtype=np.uint64)
        self.tt_val = np.zeros(n, dtype=np.int64)
        self.tt_info = np.zeros(n, dtype=np.int32)  # depth << 8 | flag << 4 | 0, move in tt_move
        self.tt_move = np.full(n, -1, dtype=np.int16)
        self.killers = np.full((size + 2, 2), -1, dtype=np.int64)
        self.moves = np.zeros((size + 2, columns), dtype=np.int64)
        # cut-offs by mark and cell (history ordering); the principal variation of
        # each ply (row p: the line from the node at ply p, pvlen[p] moves)
        self.history = np.zeros((3, size), dtype=np.int64)
        self.pv = np.zeros((size + 2, size + 2), dtype=np.int64)
        self.pvlen = np.zeros(size + 2, dtype=np.int64)
        # the bitboard kernels' packed table and evaluation masks, made on first use
        # (agents.players.lookahead.AlphaBetaAgent.root); ``arrays_used``: the four
        # arrays above have been searched with (until then they are untouched zero
        # pages, and clear() leaves them alone)
        self.packed = None
        self.geo = None
        self.arrays_used = False
        self.clear_seconds = 0.0  # what the last clear() took

    def clear(self):
        """Empty the tables in use (and the killers and history)."""
        t0 = time.perf_counter()
        if self.arrays_used:
            self.tt_key[:] = 0
            self.tt_move[:] = -1
        self.killers[:] = -1
        self.history[:] = 0
        if self.packed is not None:
            self.packed[:] = 0
        self.clear_seconds = time.perf_counter() - t0


@njit
def _hash(grid, zobrist):
    h = np.uint64(0)
    for i in range(grid.shape[0]):
        if grid[i] != 0:
            h ^= zobrist[grid[i], i]
    return h


@njit
def take_line(pv, pvlen, p, c):
    """The line of ply ``p``: ``c``, then the line of ply ``p + 1``."""
    pv[p, 0] = c
    n = pvlen[p + 1]
    for j in range(n):
        pv[p, j + 1] = pv[p + 1, j]
    pvlen[p] = n + 1


@njit(inline="always")
def root_score(scores, pv, pvlen, c, v, best, best_move, keep_line):
    """The root loops' step after root move ``c`` scored ``v`` (both board forms):
    ``scores[c] = v``; the new ``(best, best_move)``, ``(v, c)`` if ``v`` beats ``best``
    (a tie keeps the earlier move), its line then taken into ``pv[0]`` if ``keep_line``."""
    scores[c] = v
    if v > best:
        if keep_line:
            take_line(pv, pvlen, 0, c)
        return v, c
    return best, best_move


@njit(inline="always")
def ended(won, stones, counters, pvlen, p):
    """A child that ended the game, ``stones`` on the board before its move: counted as
    a node, no line below it (``pvlen[p] = 0``); its value for the side that moved, a
    win by the stones on the board or the draw of a full board."""
    counters[S_NODES] += 1
    pvlen[p] = 0
    return WIN - (stones + 1) if won else 0


@njit
def append_new(out, n, m):
    """``m`` appended to ``out[:n]`` unless already there: the new count."""
    for j in range(n):
        if out[j] == m:
            return n
    out[n] = m
    return n + 1


@njit
def order_moves(heights, rows, columns, order, tt_move, killers, ply, out):
    """Fill ``out`` with the legal columns: TT move, killers, then centre first; return count."""
    n = 0
    if tt_move >= 0 and heights[tt_move] < rows:
        out[0] = tt_move
        n = 1
    for k in range(2):
        m = killers[ply, k]
        if m >= 0 and heights[m] < rows:
            n = append_new(out, n, m)
    for i in range(columns):
        c = order[i]
        if heights[c] < rows:
            n = append_new(out, n, c)
    return n


@njit(cache=False)  # takes the evaluation kernel as an argument
def negamax(grid, heights, rows, columns, inarow, windows, evaluate, order,
             depth, alpha, beta, mark, root_mark, stones, key, zobrist,
             tt_key, tt_val, tt_info, tt_move, killers, moves, ply, deadline, counters, pv, pvlen):
    """Negamax alpha-beta value of a non-terminal position, ``mark`` to move.

    Fail-soft; exact when ``alpha < value < beta``, and then its principal variation
    is ``pv[ply, :pvlen[ply]]``. Transposition entries are used for cut-offs only at
    the same remaining depth and only where they prove a fail, so the result equals
    the plain minimax value at ``depth``; deeper or shallower entries still order
    moves. Sets ``counters[S_ABORTED]`` and returns 0 once the clock passes ``deadline``."""
    pvlen[ply] = 0
    counters[S_NODES] += 1
    if (counters[S_NODES] & CHECK_EVERY) == 0 and deadline > 0.0 and now() > deadline:
        counters[S_ABORTED] = 1
    if counters[S_ABORTED]:
        return 0
    if depth == 0:
        v = evaluate(grid, heights, rows, columns, inarow, windows, root_mark)
        return v if mark == root_mark else -v

    alpha_orig = alpha
    slot = np.int64(key & np.uint64(tt_key.shape[0] - 1))
    best_move = -1
    if tt_key[slot] == key:
        best_move = tt_move[slot]
        info = tt_info[slot]
        if (info >> 8) == depth:
            # a cut-off only where the entry proves a fail: a value inside the window
            # is searched again, so that the node has its line
            flag = (info >> 4) & 0xF
            v = tt_val[slot]
            if (v >= beta and flag != UPPER) or (v <= alpha and flag != LOWER):
                return v

    out = moves[ply]
    n = order_moves(heights, rows, columns, order, best_move, killers, ply, out)
    best = -INF
    for i in range(n):
        c = out[i]
        idx = drop(grid, heights, rows, columns, c, mark)
        won = is_win_at(grid, rows, columns, inarow, idx)
        if won or stones + 1 == rows * columns:
            v = ended(won, stones, counters, pvlen, ply + 1)
        else:
            child_key = key ^ zobrist[mark, idx]
            v = -negamax(grid, heights, rows, columns, inarow, windows, evaluate, order,
                          depth - 1, -beta, -alpha, 3 - mark, root_mark, stones + 1, child_key,
                          zobrist, tt_key, tt_val, tt_info, tt_move, killers, moves, ply + 1,
                          deadline, counters, pv, pvlen)
        undo(grid, heights, rows, columns, c)
        if counters[S_ABORTED]:
            return 0
        if v > best:
            best = v
            best_move = c
            if alpha < v < beta:
                take_line(pv, pvlen, ply, c)
        if v > alpha:
            alpha = v
        if alpha >= beta:
            if killers[ply, 0] != c:
                killers[ply, 1] = killers[ply, 0]
                killers[ply, 0] = c
            break

    if best <= alpha_orig:
        flag = UPPER
    elif best >= beta:
        flag = LOWER
    else:
        flag = EXACT
    tt_key[slot] = key
    tt_val[slot] = best
    tt_info[slot] = (depth << 8) | (flag << 4)
    tt_move[slot] = best_move
    return best


@njit(cache=False)  # takes the evaluation kernel as an argument
def root_search(grid, heights, rows, columns, inarow, windows, evaluate, order, depth, mark,
                 zobrist, tt_key, tt_val, tt_info, tt_move, killers, moves, deadline,
                 first_move, counters, scores, pv, pvlen):
    """Negamax value of every legal root move at ``depth`` (``scores``; -INF if full or cut).

    Searches ``first_move`` first (the previous iteration's best), then centre first,
    each with the window (best so far, +INF) so the best score is exact and ties keep
    the earlier move; its line is left in ``pv[0, :pvlen[0]]``. Returns the best
    column, or -1 if aborted."""
    stones = 0
    for c in range(columns):
        stones += heights[c]
    key = _hash(grid, zobrist)
    # np.int64 rather than literals: one compiled copy of each kernel, not one per literal
    n = order_moves(heights, rows, columns, order, first_move, killers, np.int64(0), moves[0])
    root_moves = moves[0].copy()
    best = -INF
    best_move = -1
    for c in range(columns):
        scores[c] = -INF
# the child step below is negamax's (the root keeps every column's score and its own
# window: one kernel for both would add a branch to every node of the tree)
    for i in range(n):
        c = root_moves[i]
        idx = drop(grid, heights, rows, columns, c, mark)
        won = is_win_at(grid, rows, columns, inarow, idx)
        if won or stones + 1 == rows * columns:
            v = ended(won, stones, counters, pvlen, 1)
        else:
            v = -negamax(grid, heights, rows, columns, inarow, windows, evaluate, order,
                          depth - 1, -INF, -best, 3 - mark, mark, stones + 1,
                          key ^ zobrist[mark, idx], zobrist, tt_key, tt_val, tt_info, tt_move,
                          killers, moves, np.int64(1), deadline, counters, pv, pvlen)
        undo(grid, heights, rows, columns, c)
        if counters[S_ABORTED]:
            return -1
        best, best_move = root_score(scores, pv, pvlen, c, v, best, best_move, True)
    return best_move
