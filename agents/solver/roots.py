"""The exact solver's root entry points: each takes a position and the solver's shared
arrays (``g, tt, dbk, dbv, st, mv, sc, counters, deadline``, see :class:`agents.solver.solver.Solver`)
and calls the search kernel (:func:`agents.solver.kernel._search`) once per
null-window probe.

* ``_solve``: the exact score (null-window probes narrowing the interval);
* ``_columns``: every column's exact score, or whether it reaches a threshold;
* ``_best_move``: an optimal column and the score interval, usable when aborted;
* ``_line``: a principal variation of a position whose score is known.
"""
import numpy as np

from agents.board.bitboard import popcount
from agents.board.jit import njit
from agents.solver.bits import (G_DB, G_H, G_N, G_ORDER, G_ROWS, G_W, can_win_next, column_of,
                                    non_losing_moves, possible_moves, winning_cells)
from agents.solver.kernel import _half, _search
from agents.search.counters import S_ABORTED
from agents.solver.table import DB_MISSING, db_probe

INVALID_MOVE = -1000  # the score of a full column in ``_columns``' output
EXACT = INVALID_MOVE  # ``_columns``' threshold meaning "the exact score"
UNSOLVED = INVALID_MOVE - 1  # in ``_columns``' output: a column not solved (yet)


@njit
def _sibling_floor(pos, mask, g, dbk, dbv):
    """A lower bound of the score of a position of one stone more than the database's
    (``pos``: the stones of its side to move), from the database; -1000 if none.

    Take away the top stone of a column that belongs to the player who just moved: the
    position ``P'`` left has the database's stones, and putting the stone back is one of
    its moves, so ``score(P') >= -score(ours)``: ours is at least ``-score(P')``. The best
    of these bounds over the columns (putting back the last stone played is one of them:
    the floor of the position played from). ``P'`` the database does not hold (a win at
    once for its side to move, or not reachable) gives no bound."""
    W = g[G_W]
    H = g[G_H]
    mover = pos ^ mask
    best = -1000
    for x in range(W):
        stones = mask & g[G_ORDER + W + x]
        if stones == 0:
            continue
        top = (stones + (1 << (x * H))) >> 1  # the column's top stone
        if top & mover:
            known = db_probe(mover ^ top, mask ^ top, g, dbk, dbv)
            if known != DB_MISSING and -known > best:
                best = -known
    return best


@njit(nogil=True)
def _solve(pos, mask, moves, weak, g, tt, dbk, dbv, st, mv, sc, counters, deadline, floor=-1000):
    """Exact score (weak: -1, 0, 1) of a position that is not over; 0 if aborted.
    ``floor``: a score the position is known to reach (the first probe asks whether it
    does better); a position of one stone more than the database's gets the database's
    bound (:func:`_sibling_floor`) too."""
    N = g[G_N]
    if moves >= N:
        return 0
    if can_win_next(pos, mask, g):
        r = (N + 1 - moves) // 2
        return 1 if weak else r
    lo = -((N - moves) // 2)
    hi = (N + 1 - moves) // 2
    if weak:
        lo = -1
        hi = 1
    # as Steininger's c4: the first probe halves the interval, each later one asks at the
    # bound the last returned (fail-soft)
    med = lo + (hi - lo) // 2
    if dbk is not None and moves == g[G_DB] + 1:
        floor = max(floor, _sibling_floor(pos, mask, g, dbk, dbv))
    if not weak and floor > lo:
        lo = floor
        med = floor
    while lo < hi:
        r = _search(pos, mask, moves, med, med + 1, g, tt, dbk, dbv, st, mv, sc, counters, deadline)
        if counters[S_ABORTED]:
            return 0
        if r <= med:
            hi = r
            med = r - 1
        else:
            lo = r
            med = r
        if med < lo:
            med = lo
        if med >= hi:
            med = hi - 1
    if weak:
        return 1 if lo > 0 else (-1 if lo < 0 else 0)
    return lo


@njit
def _column_move(mask, c, g):
    """The one-bit move of column ``c``; 0 if the column is full."""
    H = g[G_H]
    if mask & (1 << (c * H + g[G_ROWS] - 1)):
        return 0
    return (mask + (1 << (c * H))) & g[G_ORDER + g[G_W] + c]


@njit(nogil=True)
def _columns(pos, mask, moves, weak, t, reverse, g, tt, dbk, dbv, st, mv, sc, counters, deadline, out,
             claim):
    """Each column's verdict into ``out``: INVALID_MOVE for a full column; with ``t ==
    EXACT`` the exact score of playing it (weak: -1, 0, 1); otherwise 1 if playing it
    scores at least ``t``, else 0 (one null-window search a column, ``t > EXACT``).

    Columns are taken in move order (centre first; ``reverse``: edges first), each only
    if ``claim[c]`` is 0, which the call sets to 1 first; then each column still
    ``UNSOLVED`` in ``out`` is searched again. Threads sharing ``out`` and ``claim``
    split the columns between them, and the first to run out of columns searches the
    other's too (lazy SMP on that column; the same answer either way). Past the deadline
    the columns not done keep ``UNSOLVED``; ``out`` comes in filled with it."""
    N = g[G_N]
    W = g[G_W]
    win = winning_cells(pos, mask, g)
    for sweep in range(2):
        for i in range(W):
            c = g[G_ORDER + (W - 1 - i if reverse else i)]
            if sweep == 0:
                if claim[c] != 0:
                    continue
                claim[c] = 1
            elif out[c] != UNSOLVED:
                continue
            move = _column_move(mask, c, g)
            if move == 0:
                out[c] = INVALID_MOVE
                continue
            if win & move:
                r = 1 if weak else (N + 1 - moves) // 2
            elif t == EXACT:
                r = -_solve(pos ^ mask, mask | move, moves + 1, weak, g, tt, dbk, dbv, st, mv, sc,
                            counters, deadline)
            elif moves + 1 >= N:  # the board is full after this move: a draw
                r = 0
            elif can_win_next(pos ^ mask, mask | move, g):  # hands the opponent a four
                r = -((N - moves) // 2)
            else:
                r = -_search(pos ^ mask, mask | move, moves + 1, -t, -(t - 1), g, tt, dbk, dbv, st,
                             mv, sc, counters, deadline)
            if counters[S_ABORTED]:
                return
            if t == EXACT:
                out[c] = r
            else:
                out[c] = 1 if r >= t else 0


@njit(nogil=True)
def _best_move(pos, mask, moves, weak_first, weak, g, tt, dbk, dbv, st, mv, sc, counters, deadline, result):
    """An optimal column and the score interval, into ``result`` = (col, lo, hi).

    The column's score is at least ``lo``; the position's score is in
    ``[lo, hi]`` (``lo == hi`` unless aborted). Among several optimal columns the
    first in move order is kept, and since scores count stones a faster win
    (or slower loss) always scores strictly higher. ``weak_first`` probes
    "win?" then "at least a draw?" before narrowing, so an aborted search still
    returns a column that keeps the game-theoretic outcome whenever
    ``lo >= 1`` or ``lo >= 0 >= hi``. ``weak`` stops there: the interval is then
    one of [1, 1] (win), [0, 0] (draw), [-1, -1] (loss) and the column keeps
    the outcome."""
    N = g[G_N]
    W = g[G_W]
    possible = possible_moves(mask, g)
    win = winning_cells(pos, mask, g) & possible
    if win != 0:
        r = (N + 1 - moves) // 2
        c = column_of(win & -win, g)
        result[0] = c
        result[1] = r
        result[2] = r
        return
    safe = non_losing_moves(pos, mask, g)
    if safe == 0 or moves >= N - 2:
        r = 0 if safe != 0 else -((N - moves) // 2)
        pick = safe if safe != 0 else possible
        for i in range(W):
            c = g[G_ORDER + i]
            if pick & g[G_ORDER + W + c]:
                result[0] = c
                result[1] = r
                result[2] = r
                return
    # children in the search's move order (best first)
    n = 0
    cols = np.empty(W, dtype=np.int64)
    keys = np.empty(W, dtype=np.int64)
    for i in range(W - 1, -1, -1):
        c = g[G_ORDER + i]
        move = safe & g[G_ORDER + W + c]
        if move != 0:
            s = popcount(winning_cells(pos | move, mask, g))
            j = n
            while j > 0 and keys[j - 1] > s:
                keys[j] = keys[j - 1]
                cols[j] = cols[j - 1]
                j -= 1
            keys[j] = s
            cols[j] = c
            n += 1
    order = cols[:n][::-1].copy()
    lo = -((N - 2 - moves) // 2)
    hi = (N - 1 - moves) // 2
    best = order[0]
    if weak:
        lo = -1 if lo < -1 else lo
        hi = 1 if hi > 1 else hi
    result[0] = best
    result[1] = lo
    result[2] = hi
    while lo < hi:
        if weak_first and lo < 0 < hi:
            med = 0
        elif weak_first and lo < -1 and hi == 0:
            med = -1
        else:
            med = lo + (hi - lo) // 2
            if med <= 0 and _half(lo) < med:
                med = _half(lo)
            elif med >= 0 and _half(hi) > med:
                med = _half(hi)
        found = False
        rmax = lo
        for i in range(n):
            c = order[i]
            move = safe & g[G_ORDER + W + c]
            r = -_search(pos ^ mask, mask | move, moves + 1, -(med + 1), -med, g, tt, dbk, dbv, st, mv, sc,
                         counters, deadline)
            if counters[S_ABORTED]:
                return
            if r > med:
                lo = r
                best = c
                found = True
                # try the proven column first from now on
                for k in range(i, 0, -1):
                    order[k] = order[k - 1]
                order[0] = c
                break
            if r > rmax:
                rmax = r
        if not found:
            hi = rmax
        if weak:
            lo = 1 if lo > 1 else (-1 if lo < -1 else lo)
            hi = 1 if hi > 1 else (-1 if hi < -1 else hi)
        result[0] = best
        result[1] = lo
        result[2] = hi


@njit(nogil=True)
def _line(pos, mask, moves, score, g, tt, dbk, dbv, st, mv, sc, counters, deadline, line):
    """A principal variation of a position whose exact score is ``score`` (side to move),
    into ``line``: 0-based columns that keep the score at every ply to the end of the
    game; returns its length, or ``-1 - length`` when the deadline stopped it (``line``
    holds the part found). Each ply takes the first column in move order (centre first)
    that wins at once, else the first whose child is not above the score (one
    null-window search each, as ``Solver.score_at_least`` asks it: is the child at least
    ``1 - score``?). A score that is not the position's raises nothing here: the ply
    with no column keeping it ends the line early (its length < the plies left)."""
    N = g[G_N]
    W = g[G_W]
    k = 0
    s = score
    while moves < N:
        possible = possible_moves(mask, g)
        win = winning_cells(pos, mask, g) & possible
        found = -1
        for i in range(W):
            c = g[G_ORDER + i]
            move = possible & g[G_ORDER + W + c]
            if move != 0 and (win & move) != 0:
                found = c
                break
        if found >= 0:
            line[k] = found
            return k + 1
        nxt_pos = 0
        nxt_mask = 0
        for i in range(W):
            c = g[G_ORDER + i]
            move = possible & g[G_ORDER + W + c]
            if move == 0:
                continue
            cpos = pos ^ mask
            cmask = mask | move
            if moves + 1 >= N:  # the last cell: a draw
                holds = s == 0
            elif can_win_next(cpos, cmask, g):  # the child wins at once
                holds = (N - moves) // 2 < 1 - s
            else:
                r = _search(cpos, cmask, moves + 1, -s, 1 - s, g, tt, dbk, dbv, st, mv, sc, counters,
                            deadline)
                if counters[S_ABORTED]:
                    return -1 - k
                holds = r < 1 - s
            if holds:
                found = c
                nxt_pos = cpos
                nxt_mask = cmask
                break
        if found < 0:
            return k  # no column keeps ``score``: it was not the position's score
        line[k] = found
        k += 1
        pos = nxt_pos
        mask = nxt_mask
        moves += 1
        s = -s
    return k
