"""Perfect Connect Four solver (any board that fits the 64-bit bitboard).

The classic design of Pascal Pons' solver, written as numba kernels:

* the bitboard position of :mod:`agents.search.position` -- ``(pos, mask, moves)``:
  the stones of the side to move, all stones, the number of stones -- held as plain
  int64 (a board of at most 64 bits never sets bit 63 in a stone or in ``mask``,
  because bit 63 is a sentinel), with its bit kernels there;
* negamax with alpha-beta, written as an explicit stack (one kernel call per
  null-window probe, no recursion, no allocation inside the loop);
* moves that hand the opponent a win are never searched, a forced block is the
  only move searched, two opponent threats are a loss without search;
* on boards of an even number of rows, the claimeven bound of c4's "evens strategy"
  (:func:`agents.search.position.claimeven_bound`) caps the first player's score
  before the table is read;
* a node with one move left to search (a forced block, or every other move losing)
  passes its child's value up without reading or writing the table (c4's "static
  search" of forced moves);
* moves ordered by c4's guess of their worth (the winning cells a move creates, more
  when they sit right above a playable cell), centre first at equal guesses;
* a transposition table of lower/upper bounds keyed by the position, with
  mirror-symmetric positions sharing one entry (:mod:`agents.search.table`), probed
  for every child before any is searched (enhanced transposition cut-offs, as in
  Christophe Steininger's c4: 25% fewer nodes on ``begin.txt``);
* at the root, null-window probes narrow the score interval ("iterative
  deepening over the interval").

Score convention (side to move, the convention of the public benchmark sets,
see ``tests/data/positions/README.md``): 0 is a draw; a win with the winning
stone dropped when ``m`` stones are on the board scores ``(N + 1 - m) // 2``
(``N = rows * columns``), so a faster win scores higher; a loss is the negated
score of the opponent's win. On 7x6 this is "22 minus the winner's stones".

This file holds the search kernel, its four entry points (``_solve``, ``_analyze``,
``_moves_at_least``, ``_best_move``: they share the kernel's stack arrays, which is
why they stay in one file of ~550 lines) and the :class:`Solver` driver. Command
line: :mod:`agents.solver` (``python -m agents.solver``).
"""
import time

import numpy as np

from agents.board.bitboard import fits_bitboard, popcount
from agents.board.jit import njit, now
from agents.search.position import (G_BOARD, G_BOTTOM, G_EVEN, G_FAST, G_H, G_INAROW, G_N, G_ORDER, G_ROWS,
                                    G_SYM, G_DB, G_W, Position, can_win_next, claimeven_bound, column_of,
                                    non_losing_moves, possible_moves, winning_cells)
from agents.search.table import (DB_MISSING, DEFAULT_TT_BITS, SYM_STONES, db_probe, table_key, table_size,
                                 tt_get, tt_put)

INVALID_MOVE = -1000  # score printed by analyze() for a full column


# stats[] -- counters shared with Python; S_STOP, set by another thread, stops the search
# as the deadline does (read every 4096 nodes)
S_NODES, S_ABORTED, S_STOP = 0, 1, 2

# ---------------------------------------------------------------------------
# The search
# ---------------------------------------------------------------------------


@njit
def _score_bounds(g):
    """(MIN_SCORE, MAX_SCORE): the extreme scores of a position that is not won next move."""
    n = g[G_N]
    return -(n // 2) + 3, (n + 1) // 2 - 3


@njit
def _frame(st, d, pos, mask, alpha, beta, key, n, forced):
    """Fill the stack frame of depth ``d`` (see :func:`_search`)."""
    st[d, 0] = pos
    st[d, 1] = mask
    st[d, 2] = alpha
    st[d, 3] = beta
    st[d, 4] = key
    st[d, 5] = n
    st[d, 6] = forced


@njit(nogil=True)
def _search(pos0, mask0, moves0, alpha0, beta0, g, tt, dbk, dbv, st, mv, sc, stats, deadline):
    """Negamax value of a position whose side to move cannot win at once.

    Fail-soft alpha-beta: a result ``<= alpha0`` is an upper bound, ``>= beta0``
    a lower bound, in between the exact score. Explicit stack: ``st[d]`` holds
    (pos, mask, alpha, beta, key, moves left to try, 1 for a forced move) of depth
    ``d``; ``mv[d]`` the moves, best last. With ``deadline > 0`` the clock is read
    every 4096 nodes (and ``stats[S_STOP]``, which another thread may set); past it
    ``stats[S_ABORTED]`` is set and 0 returned (never
    stored)."""
    N = g[G_N]
    W = g[G_W]
    MIN, MAX = _score_bounds(g)
    d = 0
    pos = pos0
    mask = mask0
    alpha = alpha0
    beta = beta0
    nodes = stats[S_NODES]
    while True:
        # ---- enter the node at depth d: a value r (leaf) or a sorted move list
        moves = moves0 + d
        nodes += 1
        leaf = True
        r = 0
        if (nodes & 4095) == 0 and (stats[S_STOP] != 0 or (deadline > 0.0 and now() > deadline)):
            stats[S_NODES] = nodes
            stats[S_ABORTED] = 1
            return 0
        # non_losing_moves, keeping the opponent's winning cells for the move order
        known = DB_MISSING
        if dbk is not None:  # pruned at compile time without a database (dbk None)
            if moves == g[G_DB]:  # a position of the database's stones: its exact score
                known = db_probe(pos, mask, g, dbk, dbv)
        possible = (mask + g[G_BOTTOM]) & g[G_BOARD]
        opp = winning_cells(pos ^ mask, mask, g)
        forced = possible & opp
        if forced != 0:
            possible = 0 if (forced & (forced - 1)) != 0 else forced
        possible &= ~(opp >> 1)
        if known != DB_MISSING:
            r = known
        elif possible == 0:
            r = -((N - moves) // 2)
        elif moves >= N - 2:
            r = 0
        else:
            lo = -((N - 2 - moves) // 2)
            hi = (N - 1 - moves) // 2
            key = 0
            done = False
            if alpha < lo:
                alpha = lo
                if alpha >= beta:
                    r = alpha
                    done = True
            if not done and beta > hi:
                beta = hi
                if alpha >= beta:
                    r = beta
                    done = True
            if not done and (moves & 1) == 0 and g[G_EVEN] != 0 and beta > -1:
                hi = claimeven_bound(pos, mask, g)
                if beta > hi:
                    beta = hi
                    if alpha >= beta:
                        r = beta
                        done = True
            if not done and (possible & (possible - 1)) == 0:
                # one move: searched without the table (its child stores the same value)
                done = True
                leaf = False
                mv[d, 0] = possible
                _frame(st, d, pos, mask, alpha, beta, 0, 1, 1)
            if not done:
                key = table_key(pos, mask, moves, g)
                val = tt_get(tt, key)
                if val != 0:
                    if val > MAX - MIN + 1:
                        lo = val + 2 * MIN - MAX - 2
                        if alpha < lo:
                            alpha = lo
                            if alpha >= beta:
                                r = alpha
                                done = True
                    else:
                        hi = val + MIN - 1
                        if beta > hi:
                            beta = hi
                            if alpha >= beta:
                                r = beta
                                done = True
            if not done:
                # enhanced transposition cut-off (as in Steininger's c4; every node: on
                # begin.txt it measured better than c4's "only above 15 empty cells"): a
                # child whose table entry bounds its value from above bounds ours from below
                cpos = pos ^ mask
                rest = possible
                while rest != 0:
                    move = rest & -rest
                    rest ^= move
                    cval = tt_get(tt, table_key(cpos, mask | move, moves + 1, g))
                    if cval != 0 and cval <= MAX - MIN + 1:
                        clo = 1 - MIN - cval  # -(the child's upper bound)
                        if clo > alpha:
                            alpha = clo
                            if alpha >= beta:
                                r = alpha
                                done = True
                                break
            if not done:
                leaf = False
                n = 0
                for i in range(W - 1, -1, -1):  # centre last in, first out at equal score
                    move = possible & g[G_ORDER + W + g[G_ORDER + i]]
                    if move != 0:
                        # c4's guess of a move's worth: the mover's winning cells after
                        # it, except those right above an opponent's winning cell (never
                        # theirs to keep), weighted 12 when the cell right above a
                        # playable one, 5 when two above, 3 anywhere
                        m2 = mask | move
                        thr = winning_cells(pos | move, m2, g) & ~(opp << 1)
                        above = ((m2 + g[G_BOTTOM]) & g[G_BOARD]) << 1
                        s = (12 * popcount(thr & above) + 3 * popcount(thr)
                             + 5 * popcount(thr & ((above & g[G_BOARD]) << 1)))
                        j = n
                        while j > 0 and sc[d, j - 1] > s:
                            sc[d, j] = sc[d, j - 1]
                            mv[d, j] = mv[d, j - 1]
                            j -= 1
                        sc[d, j] = s
                        mv[d, j] = move
                        n += 1
                _frame(st, d, pos, mask, alpha, beta, key, n, 0)
        # ---- hand values up the stack until a node has another move to try
        while leaf:
            if d == 0:
                stats[S_NODES] = nodes
                return r
            d -= 1
            score = -r
            if st[d, 6] == 1:  # a forced move: its value, nothing stored
                r = score
                continue
            if score >= st[d, 3]:
                tt_put(tt, st[d, 4], score + MAX - 2 * MIN + 2, moves0 + d)
                r = score
                continue
            if score > st[d, 2]:
                st[d, 2] = score
            if st[d, 5] == 0:
                tt_put(tt, st[d, 4], st[d, 2] - MIN + 1, moves0 + d)
                r = st[d, 2]
                continue
            leaf = False
        # ---- descend into the next move of depth d
        st[d, 5] -= 1
        move = mv[d, st[d, 5]]
        pos = st[d, 0] ^ st[d, 1]
        mask = st[d, 1] | move
        alpha = -st[d, 3]
        beta = -st[d, 2]
        d += 1


@njit
def _half(x):
    """x / 2 rounded toward zero (C semantics, as in the reference solver)."""
    if x < 0:
        return -((-x) // 2)
    return x // 2


@njit(nogil=True)
def _solve(pos, mask, moves, weak, g, tt, dbk, dbv, st, mv, sc, stats, deadline, floor=-1000):
    """Exact score (weak: -1, 0, 1) of a position that is not over; 0 if aborted.
    ``floor``: a score the position is known to reach (the first probe asks whether it
    does better)."""
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
    if not weak and floor > lo:
        lo = floor
        med = floor
    while lo < hi:
        r = _search(pos, mask, moves, med, med + 1, g, tt, dbk, dbv, st, mv, sc, stats, deadline)
        if stats[S_ABORTED]:
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
def _analyze(pos, mask, moves, weak, g, tt, dbk, dbv, st, mv, sc, stats, deadline, out):
    """Score of playing each column into ``out`` (INVALID_MOVE for a full column)."""
    N = g[G_N]
    win = winning_cells(pos, mask, g)
    # a position the database holds: no column scores above its score, so each child's
    # search starts at that bound (one null-window probe settles the best columns)
    floor = -1000
    if dbk is not None:
        if moves == g[G_DB]:
            known = db_probe(pos, mask, g, dbk, dbv)
            if known != DB_MISSING:
                floor = -known
    for c in range(g[G_W]):
        move = _column_move(mask, c, g)
        if move == 0:
            out[c] = INVALID_MOVE
            continue
        if win & move:
            out[c] = 1 if weak else (N + 1 - moves) // 2
        else:
            out[c] = -_solve(pos ^ mask, mask | move, moves + 1, weak, g, tt, dbk, dbv, st, mv, sc,
                             stats, deadline, floor)
        if stats[S_ABORTED]:
            return


# duplicates: the column walk of _analyze, asking one null-window question per column
# instead of the exact score; each entry point stays a tight loop of its own.
@njit(nogil=True)
def _moves_at_least(pos, mask, moves, t, g, tt, dbk, dbv, st, mv, sc, stats, deadline, out):
    """``out[c]`` = 1 if playing column ``c`` scores at least ``t``, else 0 (and
    INVALID_MOVE for a full column): one null-window search per column."""
    N = g[G_N]
    win = winning_cells(pos, mask, g)
    for c in range(g[G_W]):
        move = _column_move(mask, c, g)
        if move == 0:
            out[c] = INVALID_MOVE
            continue
        if win & move:
            out[c] = 1 if (N + 1 - moves) // 2 >= t else 0
            continue
        if moves + 1 >= N:  # the board is full after this move: a draw
            out[c] = 1 if t <= 0 else 0
            continue
        if can_win_next(pos ^ mask, mask | move, g):  # hands the opponent a four
            r = -((N - moves) // 2)
        else:
            r = -_search(pos ^ mask, mask | move, moves + 1, -t, -(t - 1), g, tt, dbk, dbv, st, mv, sc,
                         stats, deadline)
        if stats[S_ABORTED]:
            return
        out[c] = 1 if r > t - 1 else 0


@njit(nogil=True)
def _best_move(pos, mask, moves, weak_first, weak, g, tt, dbk, dbv, st, mv, sc, stats, deadline, result):
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
    H = g[G_H]
    rows = g[G_ROWS]
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
                         stats, deadline)
            if stats[S_ABORTED]:
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
    _ = H
    _ = rows


# ---------------------------------------------------------------------------
# Python API
# ---------------------------------------------------------------------------


def geometry(rows, columns, inarow, symmetric=True):
    """The int64 vector ``g`` of a board shape (see the G_* indices). ``symmetric``:
    True (mirror keys below SYM_STONES stones), False, or a number of stones."""
    if not fits_bitboard(rows, columns):
        raise ValueError(f"a {columns}x{rows} board needs {columns * (rows + 1)} bits; the solver "
                         f"handles boards with columns * (rows + 1) <= 64")
    H = rows + 1
    order = sorted(range(columns), key=lambda c: (abs(2 * c - (columns - 1)), c))
    g = np.zeros(G_ORDER + 2 * columns, dtype=np.int64)
    g[G_W], g[G_ROWS], g[G_H], g[G_INAROW] = columns, rows, H, inarow
    g[G_FAST] = 1 if inarow == 4 and 3 * (H + 1) < 64 else 0
    g[G_BOTTOM] = sum(1 << (c * H) for c in range(columns))
    g[G_BOARD] = sum(((1 << rows) - 1) << (c * H) for c in range(columns))
    g[G_DB] = -1
    g[G_SYM] = SYM_STONES if symmetric is True else int(symmetric)
    g[G_N] = rows * columns
    if rows % 2 == 0:
        g[G_EVEN] = sum(((1 << rows) - 1) // 3 << (c * H + 1) for c in range(columns))
    g[G_ORDER:G_ORDER + columns] = order
    for c in range(columns):
        g[G_ORDER + columns + c] = ((1 << rows) - 1) << (c * H)
    return g


# No database: the kernels get None for its arrays, and numba compiles them without the
# probe (a specialisation of its own: the probe's code in the node loop cost 24% of the
# CPU time on begin.txt's 79 positions of 12-14 stones, same nodes, even never called)
_NO_KEYS = _NO_VALUES = None


class Solver:
    """Exact solver for one board shape; the transposition table persists between calls.

    ``tt_bits``: the table has about ``2**tt_bits`` entries of 8 bytes, two a bucket
    (default 20: 8 MiB; at least 2**16 on a 64-bit board; see ``agents.search.table``). ``symmetric``: mirror images share table entries in the
    first ``SYM_STONES`` plies (True), never (False), or below a given number of stones."""

    def __init__(self, rows=6, columns=7, inarow=4, tt_bits=DEFAULT_TT_BITS, symmetric=True,
                 threads=1):
        for name, v in (("rows", rows), ("columns", columns), ("inarow", inarow)):
            if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < 1:
                raise ValueError(f"{name} must be an integer >= 1, got {v!r}")
        if isinstance(tt_bits, bool) or not isinstance(tt_bits, (int, np.integer)) \
                or not 10 <= tt_bits <= 30:
            raise ValueError(f"tt_bits must be an integer in 10..30, got {tt_bits!r}")
        if isinstance(threads, bool) or not isinstance(threads, (int, np.integer)) \
                or not 1 <= threads <= 64:
            raise ValueError(f"threads must be an integer in 1..64, got {threads!r}")
        self.rows, self.columns, self.inarow = int(rows), int(columns), int(inarow)
        self.g = geometry(self.rows, self.columns, self.inarow, symmetric)  # rejects > 64 bits
        size = table_size(int(tt_bits), self.columns * (self.rows + 1))
        self.tt = np.zeros(size, dtype=np.int64)
        depth = self.rows * self.columns + 2
        self.st = np.zeros((depth, 7), dtype=np.int64)
        self.mv = np.zeros((depth, self.columns), dtype=np.int64)
        self.sc = np.zeros((depth, self.columns), dtype=np.int64)
        self.stats = np.zeros(3, dtype=np.int64)
        self.nodes = 0
        self.dbk, self.dbv, self.database = _NO_KEYS, _NO_VALUES, None
        self.threads = int(threads)
        self._helpers = [_Helper(self, k) for k in range(1, self.threads)]
        self._pool = None

    def reset(self):
        """Empty the transposition table."""
        self.tt[:] = 0

    def position(self, moves=""):
        return Position.from_moves(moves, self.rows, self.columns, self.inarow)

    def _check(self, p):
        if (p.rows, p.columns, p.inarow) != (self.rows, self.columns, self.inarow):
            raise ValueError(f"position is {p.columns}x{p.rows}/{p.inarow}, solver is "
                             f"{self.columns}x{self.rows}/{self.inarow}")

    def use_database(self, db):
        """Stop the search at every position ``db`` (an :class:`agents.search.database.Database`
        of this board shape) holds; ``None`` searches without one. The table is emptied:
        its bounds do not depend on the database, but a fresh start keeps runs comparable."""
        if db is None:
            self.dbk, self.dbv = _NO_KEYS, _NO_VALUES
            self.g[G_DB] = -1
        else:
            if db.config != (self.rows, self.columns, self.inarow):
                raise ValueError(f"database is {db.columns}x{db.rows}/{db.inarow}, solver is "
                                 f"{self.columns}x{self.rows}/{self.inarow}")
            self.dbk, self.dbv = db.keys, db.values
            self.g[G_DB] = db.ply
        self.database = db
        self.reset()

    def _run(self, fn, p, extra, deadline, *out):
        """``fn(pos, mask, moves, *extra, g, tables..., stats, deadline, *out)``.

        With ``threads > 1`` (lazy SMP, as in c4 and chess engines): each helper thread
        runs the same call on its own stack arrays, sharing the table (its int64 entries
        are written whole, and each holds its key, so a race loses an entry at worst,
        never gives a wrong bound), with the columns' tie order mirrored or rotated so
        the threads part ways; the bounds they store cut the main search short. Only the
        main thread's answer is used; the helpers stop when it returns (``S_STOP``).
        ``nodes`` counts every thread's."""
        self.stats[:] = 0
        futures = []
        if self._helpers:
            if self._pool is None:
                from concurrent.futures import ThreadPoolExecutor
                self._pool = ThreadPoolExecutor(len(self._helpers), "solver-helper")
            for h in self._helpers:
                h.stats[:] = 0  # here, not in the thread: a stop set before it starts holds
            futures = [self._pool.submit(h.run, fn, p, extra, deadline, out) for h in self._helpers]
        r = fn(p.pos, p.mask, p.moves, *extra, self.g, self.tt, self.dbk, self.dbv, self.st, self.mv,
               self.sc, self.stats, float(deadline), *out)
        nodes = int(self.stats[S_NODES])
        for h in self._helpers:
            h.stats[S_STOP] = 1
        for f in futures:
            nodes += f.result()
        self.nodes = nodes
        return r

    def solve(self, p, weak=False, deadline=0.0):
        """Score of ``p`` (a Position or a move string); None if ``deadline`` passed."""
        if isinstance(p, str):
            p = self.position(p)
        self._check(p)
        r = self._run(_solve, p, (bool(weak),), deadline)
        return None if self.stats[S_ABORTED] else int(r)

    def analyze(self, p, weak=False, deadline=0.0):
        """Score of each column (INVALID_MOVE = -1000 for a full one); None if out of time."""
        if isinstance(p, str):
            p = self.position(p)
        self._check(p)
        out = np.full(self.columns, INVALID_MOVE, dtype=np.int64)
        self._run(_analyze, p, (bool(weak),), deadline, out)
        return None if self.stats[S_ABORTED] else [int(v) for v in out]

    def moves_at_least(self, p, t, deadline=0.0):
        """Columns whose score is at least ``t`` (0-based, left to right); None if
        ``deadline`` passed. With ``t`` the position's exact score these are the
        optimal columns; with ``t = 0`` the columns that keep at least a draw."""
        if isinstance(p, str):
            p = self.position(p)
        self._check(p)
        out = np.full(self.columns, INVALID_MOVE, dtype=np.int64)
        self._run(_moves_at_least, p, (int(t),), deadline, out)
        if self.stats[S_ABORTED]:
            return None
        return [c for c in range(self.columns) if out[c] == 1]

    def score_at_least(self, p, t, deadline=0.0):
        """True if the score of ``p`` is at least ``t``, False if it is below; None if
        ``deadline`` passed. One null-window search: bounding a score this way is much
        cheaper than solving it when ``|t|`` is large (short wins are all it looks for)."""
        if isinstance(p, str):
            p = self.position(p)
        self._check(p)
        n = self.rows * self.columns
        if p.moves >= n:
            return t <= 0
        if any(p.can_play(c) and p.is_winning_move(c) for c in range(self.columns)):
            return (n + 1 - p.moves) // 2 >= t
        r = self._run(_search, p, (int(t) - 1, int(t)), deadline)
        return None if self.stats[S_ABORTED] else bool(r >= t)

    def best_move(self, p, deadline=0.0, weak_first=True, weak=False):
        """``(column, lo, hi, complete)``: an optimal 0-based column when ``complete``;
        otherwise the column scores at least ``lo`` and the position is in ``[lo, hi]``.
        ``weak``: only the outcome, ``lo == hi`` in (-1, 0, 1), the column keeps it."""
        if isinstance(p, str):
            p = self.position(p)
        self._check(p)
        if p.moves >= self.rows * self.columns:
            raise ValueError("the board is full: no move to choose")
        result = np.zeros(3, dtype=np.int64)
        self._run(_best_move, p, (bool(weak_first), bool(weak)), deadline, result)
        col, lo, hi = int(result[0]), int(result[1]), int(result[2])
        if weak:  # the shortcuts (win now, all moves lose, last cells) give exact scores
            lo, hi = (lo > 0) - (lo < 0), (hi > 0) - (hi < 0)
        return col, lo, hi, not self.stats[S_ABORTED]

    def principal_variation(self, p, score=None, deadline=0.0):
        """``(line, complete)``: from ``p``, 0-based columns that keep the position's exact
        score at every ply, to the end of the game (the winner's quickest win, the loser's
        slowest loss: scores count stones, so keeping the score is both). ``score``: the
        score of ``p`` if known (else solved first). Each ply tries the columns centre
        first, one null-window search each, and keeps the first that holds the score.
        Past ``deadline`` the line found so far comes back with ``complete`` False."""
        if isinstance(p, str):
            p = self.position(p)
        self._check(p)
        n = self.rows * self.columns
        order = [int(c) for c in self.g[G_ORDER:G_ORDER + self.columns]]
        q = p.copy()
        if score is None:
            score = self.solve(q, deadline=deadline)
            if score is None:
                return [], False
        line = []
        s = int(score)  # the score of q, from its side to move
        while q.moves < n:
            legal = [c for c in order if q.can_play(c)]
            win = [c for c in legal if q.is_winning_move(c)]
            if win:
                line.append(win[0])
                return line, True
            for c in legal:
                child = q.copy()
                child.play(c)
                if child.moves >= n:  # the last cell: a draw
                    holds = s == 0
                else:
                    above = self.score_at_least(child, 1 - s, deadline)  # child >= -s + 1?
                    if above is None:
                        return line, False
                    holds = not above
                if holds:
                    line.append(c)
                    q, s = child, -s
                    break
            else:  # pragma: no cover - only if ``score`` was not the position's score
                raise ValueError(f"no column keeps the score {score}: it is not the position's")
        return line, True


class _Helper:
    """A helper thread's stack arrays and geometry (see :meth:`Solver._run`): the same
    board, the columns' tie order mirrored (helper 1) or rotated (the others)."""

    def __init__(self, solver, k):
        self.solver = solver
        self.st = np.zeros_like(solver.st)
        self.mv = np.zeros_like(solver.mv)
        self.sc = np.zeros_like(solver.sc)
        self.stats = np.zeros(3, dtype=np.int64)
        W = solver.columns
        order = [int(c) for c in solver.g[G_ORDER:G_ORDER + W]]
        mirrored = [W - 1 - c for c in order]
        self.order = mirrored if k == 1 else order[k % W:] + order[:k % W]

    def run(self, fn, p, extra, deadline, out):
        s = self.solver
        g = s.g.copy()  # the solver's current geometry (database stones included)
        g[G_ORDER:G_ORDER + s.columns] = self.order
        fn(p.pos, p.mask, p.moves, *extra, g, s.tt, s.dbk, s.dbv, self.st, self.mv, self.sc,
           self.stats, float(deadline), *[o.copy() for o in out])
        return int(self.stats[S_NODES])


def warmup_units(solver=None):
    """Units for :class:`agents.players.warmup.Warmup`: each compiles solver kernels by one
    call on a tiny position (types are the same for every shape). ``solver``: the
    solver to call (default: a private 7x6 one with a 1024-slot table)."""
    s = solver if solver is not None else Solver(6, 7, 4, 10)
    p = s.position("")
    for c in range(s.columns):
        if p.can_play(c) and not p.is_winning_move(c):
            p.play(c)
            break

    def soon():
        return time.perf_counter() + 0.001

    def bits():
        # the small kernels the searches call, with the types they pass (int64 bitboards)
        pos, mask, g = p.pos, p.mask, s.g
        _score_bounds(g)
        possible_moves(mask, g)
        non_losing_moves(pos, mask, g)
        can_win_next(pos, mask, g)
        popcount(pos)

    def table():
        pos, mask, g = p.pos, p.mask, s.g
        key = table_key(pos, mask, p.moves, g)
        tt_put(s.tt, key, 0, p.moves)
        tt_get(s.tt, key)
        _half(-3)
        column_of(_column_move(mask, 3, g), g)
        now()

    def search():
        # the null-window search every entry point below calls, compiled on its own
        s._run(_search, p, (0, 1), soon())

    def analyze():
        s.analyze(p, deadline=soon())
        s.reset()
    # (label, call, expected compile seconds on the development machine)
    return [("solver bitboard kernels", bits, 0.6),
            ("solver table kernels", table, 0.6),
            ("solver._search", search, 0.55),
            ("solver._best_move", lambda: s.best_move(p, deadline=soon()), 0.75),
            ("solver._moves_at_least", lambda: s.moves_at_least(p, 0, deadline=soon()), 0.35),
            ("solver._solve", lambda: s.solve(p, deadline=soon()), 0.33),
            ("solver._analyze", analyze, 0.35)]


def warm_up(solver):
    """Compile every kernel on a tiny position (numba compiles on first call)."""
    for _, fn, _ in warmup_units(solver):
        fn()
