"""Perfect Connect Four solver (any board that fits the 64-bit bitboard).

The classic design of Pascal Pons' solver, written as numba kernels:

* the bitboard position of :mod:`agents.solver.bits` -- ``(pos, mask, moves)``:
  the stones of the side to move, all stones, the number of stones -- held as plain
  int64 (a board of at most 64 bits never sets bit 63 in a stone or in ``mask``,
  because bit 63 is a sentinel), with its bit kernels there;
* negamax with alpha-beta, written as an explicit stack (one kernel call per
  null-window probe, no recursion, no allocation inside the loop);
* moves that hand the opponent a win are never searched, a forced block is the
  only move searched, two opponent threats are a loss without search;
* a side that has no line left to complete in its stones and the empty cells
  cannot win (c4's ``can_player_win``): a draw at best for it, at worst for the other;
* on boards of an even number of rows, the claimeven bound of c4's "evens strategy"
  (:func:`agents.solver.bits.claimeven_bound`) caps the first player's score
  before the table is read;
* a node with one move left to search (a forced block, or every other move losing)
  passes its child's value up without reading or writing the table (c4's "static
  search" of forced moves); its parent, which finds that reply while ordering its
  moves, plays it without entering the node, and its enhanced cut-off reads the
  table entry of the position after the reply instead of the node's (never stored);
* moves ordered by c4's guess of their worth (the winning cells a move creates, more
  when they sit right above a playable cell), centre first at equal guesses;
* a transposition table of lower/upper bounds keyed by the position, with
  mirror-symmetric positions sharing one entry and the positions of at most 16 empty
  cells in a small table of their own (:mod:`agents.solver.table`), probed
  for every child before any is searched (enhanced transposition cut-offs, as in
  Christophe Steininger's c4: 25% fewer nodes on ``begin.txt``); a child whose entry
  shows it cannot raise alpha is not searched (c4 drops the children its static
  search settles);
* at the root, null-window probes narrow the score interval ("iterative
  deepening over the interval").

Score convention (side to move, the convention of the public benchmark sets,
see ``scripts/data/positions/README.md``): 0 is a draw; a win with the winning
stone dropped when ``m`` stones are on the board scores ``(N + 1 - m) // 2``
(``N = rows * columns``), so a faster win scores higher; a loss is the negated
score of the opponent's win. On 7x6 this is "22 minus the winner's stones".

Three files: the search kernel (:mod:`agents.solver.kernel`: ``_search``, one
alpha-beta search on an explicit stack), the root entry points that call it
(:mod:`agents.solver.roots`: ``_solve``, ``_columns``, ``_best_move``) and, here,
the board geometry and the :class:`Solver` driver, which owns the table and the stack
arrays the kernels share. Command line: ``connectx solve`` (:mod:`scripts.commands.solve`).
"""
import time

import numpy as np

from agents.board.bitboard import fits_bitboard
from agents.search.counters import S_ABORTED, S_NODES, S_STOP, new_counters
from agents.solver.bits import (G_BOARD, G_BOTTOM, G_DB, G_EVEN, G_FAST, G_H, G_INAROW, G_N,
                                G_ORDER, G_ROWS, G_SYM, G_W)
from agents.solver.kernel import _search
from agents.solver.sizing import DEFAULT_TT_BITS, check_solver_options
from agents.solver.position import Position
from agents.solver.roots import (EXACT, INVALID_MOVE, UNSOLVED, _best_move, _columns, _line,
                                 _solve)
from agents.solver.split import solve_split
from agents.solver.table import SYM_STONES, solver_table

__all__ = ["DEFAULT_TT_BITS", "INVALID_MOVE", "Solver", "geometry", "kernel_calls", "warm_up"]


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
    g[G_FAST] = (1 if inarow == 4 and 3 * (H + 1) < 64
                 else 2 if inarow >= 2 and (inarow - 1) * (H + 1) < 64 else 0)
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
    (default 20: 8 MiB; at least 2**16 on a 64-bit board), and the near table for the
    positions of few empty cells ``2**min(17, tt_bits - 3)`` more (see
    ``agents.solver.table``). ``symmetric``: mirror images share table entries in the first
    ``SYM_STONES`` plies (True), never (False), or below a given number of stones."""

    def __init__(self, rows=6, columns=7, inarow=4, tt_bits=DEFAULT_TT_BITS, symmetric=True,
                 threads=1):
        for name, v in (("rows", rows), ("columns", columns), ("inarow", inarow)):
            if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < 1:
                raise ValueError(f"{name} must be an integer >= 1, got {v!r}")
        check_solver_options(tt_bits, threads)
        self.rows, self.columns, self.inarow = int(rows), int(columns), int(inarow)
        self.g = geometry(self.rows, self.columns, self.inarow, symmetric)  # rejects > 64 bits
        self.tt = solver_table(int(tt_bits), self.columns * (self.rows + 1))
        depth = self.rows * self.columns + 2
        self.st = np.zeros((depth, 9), dtype=np.int64)
        self.mv = np.zeros((depth, 5 * self.columns), dtype=np.int64)
        self.sc = np.zeros((depth, self.columns), dtype=np.int64)
        self.counters = new_counters()
        self.nodes = 0
        self.dbk, self.dbv, self.database = _NO_KEYS, _NO_VALUES, None
        self.threads = int(threads)
        self._helpers = [_Helper(self, k) for k in range(1, self.threads)]
        self._pool = None
        self.probes = []  # with helpers, the last solve's probes (agents.solver.split)

    def reset(self):
        """Empty the transposition table."""
        self.tt[:] = 0

    def position(self, moves=""):
        return Position.from_moves(moves, self.rows, self.columns, self.inarow)

    def _position_of(self, p):
        """``p`` as a :class:`Position` of this solver's board: a move string is parsed
        (``ValueError`` on a bad one), a Position of another board is a ``ValueError``."""
        if isinstance(p, str):
            return self.position(p)
        if (p.rows, p.columns, p.inarow) != (self.rows, self.columns, self.inarow):
            raise ValueError(f"position is {p.columns}x{p.rows}/{p.inarow}, solver is "
                             f"{self.columns}x{self.rows}/{self.inarow}")
        return p

    def use_database(self, db):
        """Stop the search at every position ``db`` (an :class:`agents.solver.database.Database`
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

    def _run(self, fn, p, extra, deadline, *out, helper_extra=None, alone=False):
        """``fn(pos, mask, moves, *extra, g, tables..., counters, deadline, *out)``.

        With ``threads > 1`` (lazy SMP, as in c4 and chess engines): each helper thread
        runs the same call on its own stack arrays, sharing the table (its int64 entries
        are written whole, and each holds its key, so a race loses an entry at worst,
        never gives a wrong bound), with the columns' tie order mirrored or rotated so
        the threads part ways; the bounds they store cut the main search short. Only the
        main thread's answer is used; the helpers stop when it returns (``S_STOP``).

        ``helper_extra`` (a split of the work, as ``_columns`` does): the helpers' own
        arguments in place of ``extra``; they write into the same ``out`` arrays as the
        main thread, whose call returns when all the work is done (then the helpers are
        stopped: what they still search is a copy of done work). ``nodes`` counts every
        thread's. ``alone``: the main thread only (work too small to share)."""
        self.counters[:] = 0
        split = helper_extra is not None
        futures = []
        if self._helpers and not alone:
            pool = self._executor()
            for h in self._helpers:
                h.counters[:] = 0  # here, not in the thread: a stop set before it starts holds
            futures = [pool.submit(h.run, fn, p, helper_extra if split else extra, deadline,
                                         out, split) for h in self._helpers]
        r = fn(p.pos, p.mask, p.moves, *extra, self.g, self.tt, self.dbk, self.dbv, self.st, self.mv,
               self.sc, self.counters, float(deadline), *out)
        nodes = int(self.counters[S_NODES])
        for h in self._helpers:
            h.counters[S_STOP] = 1
        for f in futures:
            nodes += f.result()
        self.nodes = nodes
        return r

    def _executor(self):
        """The helpers' thread pool (made on first use)."""
        if self._pool is None:
            from concurrent.futures import ThreadPoolExecutor
            self._pool = ThreadPoolExecutor(len(self._helpers), "solver-helper")
        return self._pool

    def solve(self, p, weak=False, deadline=0.0):
        """Score of ``p`` (a Position or a move string); None if ``deadline`` passed."""
        p = self._position_of(p)
        if self._helpers:  # each thread on its own probe (agents.solver.split)
            return solve_split(self, p, bool(weak), deadline)
        r = self._run(_solve, p, (bool(weak),), deadline)
        return None if self.counters[S_ABORTED] else int(r)

    def analyze(self, p, weak=False, deadline=0.0, partial=False):
        """Score of each column (INVALID_MOVE = -1000 for a full one); None if ``deadline``
        passed first, or with ``partial`` the list so far, None for each column not solved.

        Columns are solved centre first; with ``threads > 1`` the threads split the
        columns (the main thread from the centre, a helper from the edges) rather than
        searching the same one. At the database's stones each column's search starts at
        the database's bound (``_sibling_floor``: at least the position's score)."""
        p = self._position_of(p)
        out = np.full(self.columns, UNSOLVED, dtype=np.int64)
        claim = np.zeros(self.columns, dtype=np.int64)
        # before the database's stones every column is a few probes of it: no threads
        small = 0 <= self.g[G_DB] and p.moves < self.g[G_DB]
        self._run(_columns, p, (bool(weak), EXACT, False), deadline, out, claim,
                  helper_extra=(bool(weak), EXACT, True), alone=small)
        if self.counters[S_ABORTED] and not partial:
            return None
        return [None if v == UNSOLVED else int(v) for v in out]

    def moves_at_least(self, p, t, deadline=0.0):
        """Columns whose score is at least ``t`` (0-based, left to right); None if
        ``deadline`` passed. With ``t`` the position's exact score these are the
        optimal columns; with ``t = 0`` the columns that keep at least a draw."""
        p = self._position_of(p)
        out = np.full(self.columns, UNSOLVED, dtype=np.int64)
        t = max(int(t), -self.rows * self.columns)  # every score is above -N (and EXACT)
        self._run(_columns, p, (False, t, False), deadline, out, np.zeros(self.columns, np.int64))
        if self.counters[S_ABORTED]:
            return None
        return [c for c in range(self.columns) if out[c] == 1]

    def score_at_least(self, p, t, deadline=0.0):
        """True if the score of ``p`` is at least ``t``, False if it is below; None if
        ``deadline`` passed. One null-window search: bounding a score this way is much
        cheaper than solving it when ``|t|`` is large (short wins are all it looks for)."""
        p = self._position_of(p)
        n = self.rows * self.columns
        if p.moves >= n:
            return t <= 0
        if any(p.can_play(c) and p.is_winning_move(c) for c in range(self.columns)):
            return (n + 1 - p.moves) // 2 >= t
        r = self._run(_search, p, (int(t) - 1, int(t)), deadline)
        return None if self.counters[S_ABORTED] else bool(r >= t)

    def best_move(self, p, deadline=0.0, weak_first=True, weak=False):
        """``(column, lo, hi, complete)``: an optimal 0-based column when ``complete``;
        otherwise the column scores at least ``lo`` and the position is in ``[lo, hi]``.
        ``weak``: only the outcome, ``lo == hi`` in (-1, 0, 1), the column keeps it."""
        p = self._position_of(p)
        if p.moves >= self.rows * self.columns:
            raise ValueError("the board is full: no move to choose")
        result = np.zeros(3, dtype=np.int64)
        self._run(_best_move, p, (bool(weak_first), bool(weak)), deadline, result)
        col, lo, hi = int(result[0]), int(result[1]), int(result[2])
        if weak:  # the shortcuts (win now, all moves lose, last cells) give exact scores
            lo, hi = (lo > 0) - (lo < 0), (hi > 0) - (hi < 0)
        return col, lo, hi, not self.counters[S_ABORTED]

    def principal_variation(self, p, score=None, deadline=0.0):
        """``(line, complete)``: from ``p``, 0-based columns that keep the position's exact
        score at every ply, to the end of the game (the winner's quickest win, the loser's
        slowest loss: scores count stones, so keeping the score is both). ``score``: the
        score of ``p`` if known (else solved first). Each ply tries the columns centre
        first, one null-window search each, and keeps the first that holds the score: one
        kernel call (``_line``; helper threads run it beside, in their own tie order, and
        fill the table). Past ``deadline`` the line found so far comes back with
        ``complete`` False; a ``score`` that is not the position's raises ValueError."""
        p = self._position_of(p)
        n = self.rows * self.columns
        q = p.copy()
        if score is None:
            score = self.solve(q, deadline=deadline)
            if score is None:
                return [], False
        out = np.zeros(n + 1, dtype=np.int64)
        k = self._run(_line, q, (int(score),), deadline, out)
        complete = k >= 0
        k = k if complete else -1 - k
        if complete and q.moves + k < n and not _ends(q, out[:k]):
            raise ValueError(f"no column keeps the score {score}: it is not the position's")
        return [int(c) for c in out[:k]], complete


def _ends(p, line):
    """True if playing ``line`` from ``p`` ends the game (a four or a full board)."""
    q = p.copy()
    for c in line[:-1]:
        q.play(int(c))
    return len(line) > 0 and (q.is_winning_move(int(line[-1])) or q.moves + 1 == q.rows * q.columns)


class _Helper:
    """A helper thread's stack arrays and geometry (see :meth:`Solver._run`): the same
    board, the columns' tie order mirrored (helper 1) or rotated (the others)."""

    def __init__(self, solver, k):
        self.solver = solver
        self.st = np.zeros_like(solver.st)
        self.mv = np.zeros_like(solver.mv)
        self.sc = np.zeros_like(solver.sc)
        self.counters = new_counters()
        W = solver.columns
        order = [int(c) for c in solver.g[G_ORDER:G_ORDER + W]]
        mirrored = [W - 1 - c for c in order]
        self.order = mirrored if k == 1 else order[k % W:] + order[:k % W]

    def geometry(self):
        """The solver's current geometry (database stones included), this helper's tie
        order."""
        s = self.solver
        g = s.g.copy()
        g[G_ORDER:G_ORDER + s.columns] = self.order
        return g

    def run(self, fn, p, extra, deadline, out, share):
        """The call of :meth:`Solver._run` on this thread's arrays (``out`` shared or copied)."""
        s = self.solver
        g = self.geometry()
        fn(p.pos, p.mask, p.moves, *extra, g, s.tt, s.dbk, s.dbv, self.st, self.mv, self.sc,
           self.counters, float(deadline), *(out if share else [o.copy() for o in out]))
        return int(self.counters[S_NODES])


def kernel_calls(solver=None):
    """``[(name, call)]``: each call compiles one group of the solver's kernels by using
    it once on a tiny position (numba compiles on first call; the types are the same for
    every board shape). ``solver``: the solver to call (default: a private 7x6 one with a
    1024-slot table). The players' warm-up (:mod:`agents.players.perfect`) times them."""
    s = solver if solver is not None else Solver(6, 7, 4, 10)
    p = s.position("")
    for c in range(s.columns):
        if p.can_play(c) and not p.is_winning_move(c):
            p.play(c)
            break

    def soon():
        return time.perf_counter() + 0.001

    def search():
        # the search kernel every entry point calls (and its small kernels), on its own
        s._run(_search, p, (0, 1), soon())

    def columns():
        s.analyze(p, deadline=soon())
        s.moves_at_least(p, 0, deadline=soon())
        s.reset()
    return [("solver._search", search),
            ("solver._best_move", lambda: s.best_move(p, deadline=soon())),
            ("solver._columns", columns),
            ("solver._solve", lambda: s.solve(p, deadline=soon()))]


def warm_up(solver):
    """Compile every kernel on a tiny position (numba compiles on first call): those of
    :func:`kernel_calls`, then the principal variation's (``_line``; the players never
    call it)."""
    for _, call in kernel_calls(solver):
        call()
    p = solver.position("")
    out = np.zeros(solver.rows * solver.columns + 1, dtype=np.int64)
    # a made-up score and a deadline 1 ms away: only the compiled kernel is wanted
    solver._run(_line, p, (0,), time.perf_counter() + 0.001, out)
    solver.reset()
