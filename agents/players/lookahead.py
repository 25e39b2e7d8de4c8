"""Search agents: ``minimax`` (the tutorial's depth-N minimax) and ``alphabeta``
(negamax, alpha-beta, move ordering, transposition table, iterative deepening)."""
import math
import time

import numpy as np

from heuristics import HEURISTIC_IDS, entry, get as get_heuristic

from agents.players.base import (Agent, KernelForm, boolean, heuristic_name, optional,
                                 play_kernel, positive_int, positive_number, seed_value,
                                 warmup_option)
from agents.search.tactics import safety_net, tactical_move
from agents.players.baselines import best_columns, tutorial_scores
from agents.board.grid import cell_window_table, center_order, window_table
from agents.search.alphabeta import Tables, root_search
from agents.search.minimax import minimax_line, minimax_line_counts
from agents.search.alphabeta_bb import (OPT_HISTORY, OPT_KILLERS, OPT_PVS, alphabeta_move,
                                        bb_root_search, packed_table)
from agents.search.horizon import QUIESCENCE_PLIES
from agents.board.bitboard import fits_bitboard
from heuristics.bitboard_eval import eval_geometry
from agents.search.scores import INF, PROVEN
from agents.search.counters import S_ABORTED, S_NODES, new_counters

# the bitboard evaluation's geometry, unused by the grid kernel (an int64 vector all the same)
NO_GEOMETRY = np.zeros(1, dtype=np.int64)


class MinimaxAgent(Agent):
    """Depth-``depth`` minimax exactly as the Kaggle tutorial defines it: the window
    heuristic at the horizon and at terminal nodes, random choice among tied best
    columns (``seed`` makes it reproducible). With ``tactics`` (default) a safety net
    (``agents.search.tactics.safety_net``) guarantees that an immediate win is not traded for a
    non-forced line and that a lone immediate threat is blocked; it never fires when the
    tutorial's choice already does both, which on random positions is always (the
    tutorial does sometimes delay a win by two plies, keeping it forced).

    After a move, ``last`` holds the search's ``column``, ``depth``, ``nodes``, the
    played column's ``value`` and its principal variation ``pv`` (0-based columns:
    :meth:`principal_variation`; None with ``line=False``, what a Kaggle file sets:
    nobody reads it there, and its kernel would add its compile to the first move)."""

    name = "minimax"
    OPTIONS = {"depth": (positive_int("depth", 12), 3), "heuristic": (heuristic_name, "windows"),
               "seed": (seed_value, None), "tactics": (boolean("tactics"), True),
               "line": (boolean("line"), True), "warmup": warmup_option()}
    # what submission.build uses unless told otherwise
    SUBMISSION_OPTIONS = {"line": False, "warmup": "background"}
    PRIVATE_OPTIONS = {"depth": 1}
    MOVE_COMPILE_SECONDS = 5.0

    def __init__(self, **options):
        super().__init__(**options)
        self.evaluate = get_heuristic(self.heuristic)
        self.last_nodes = 0
        self.last = {}

    def scores(self, grid, heights, mark, cfg):
        """The tutorial's score for each column (-INF for a full column) and the node count."""
        return tutorial_scores(grid, heights, mark, cfg, self.heuristic, self.evaluate,
                               self.depth)

    def principal_variation(self, grid, heights, mark, cfg, column):
        """The principal variation behind :meth:`scores`'s value of ``column`` (0-based
        columns, ``column`` first): played out, it stops at the horizon, a line or a
        full board, at a position whose evaluation for ``mark`` is that value
        (:func:`agents.search.minimax.minimax_line`)."""
        out = np.empty(self.depth, dtype=np.int64)
        if entry(self.heuristic).incremental:  # as tutorial_scores decides
            n = minimax_line_counts(grid, heights, cfg.rows, cfg.columns, cfg.inarow,
                                    window_table(*cfg), cell_window_table(*cfg), self.depth,
                                    mark, column, out)
        else:
            n = minimax_line(grid, heights, cfg.rows, cfg.columns, cfg.inarow, window_table(*cfg),
                             self.evaluate, self.depth, mark, column, out)
        return [int(c) for c in out[:n]]

    def choose(self, grid, heights, mark, cfg, clock):
        s, self.last_nodes = self.scores(grid, heights, mark, cfg)
        best = best_columns(s, heights, cfg)
        if self.tactics:
            best = safety_net(grid, heights, cfg, mark, best)
        col = best[int(self.rng.integers(len(best)))]
        self.last = {"column": int(col), "depth": self.depth, "nodes": self.last_nodes,
                     "value": int(s[col]),
                     "pv": self.principal_variation(grid, heights, mark, cfg, col)
                     if self.line else None}
        return col


class AlphaBetaAgent(Agent):
    """Negamax with alpha-beta pruning, centre-first / transposition / killer move
    ordering, a transposition table of ``2**tt_bits`` entries and iterative deepening
    until ``depth`` plies or the time budget (``time_limit`` seconds, never more than
    ``config.actTimeout`` less a safety margin; with ``use_overage`` also a share of
    ``obs.remainingOverageTime``). ``heuristic`` names the evaluation at the horizon.

    The lesson's refinements, each an option: ``killers`` (two killer moves a ply, on
    by default), ``history`` (the other moves ordered by the cut-offs they caused),
    ``pvs`` (principal variation search: null windows after the first move),
    ``aspiration`` (each depth of the iterative deepening opens with a window around
    the previous value, the heuristic's registered ``aspiration`` each side, widened on
    a fail) -- all four
    leave the value and the move at a fixed depth unchanged and change only the
    nodes searched -- and ``quiescence`` (on by default: at the horizon, forced blocks
    and immediate wins are played out, :mod:`agents.search.horizon`), which changes
    values. ``deepening=false`` (with a ``depth`` and no ``time_limit`` or
    ``aspiration``) searches once at ``depth`` from an empty table instead of deepening
    to it: at depth 4 fewer nodes and no three shallower searches, not always the same
    move (the order of the table's moves differs). docs/results-search.md measures each and says why each default is what it is. The
    last search's principal variation (0-based columns) is :attr:`pv` and, after a
    move, ``last["pv"]``.

    Boards that fit 64 bits search on bitboards (:mod:`agents.search.alphabeta_bb`:
    the same tree as the array kernels, several times faster); larger boards on the
    array kernels of :mod:`agents.search.alphabeta`."""

    name = "alphabeta"
    # iterative deepening starts depth d + 1 only if this many times depth d's time is left
    NEXT_DEPTH_COST = 2.0
    OPTIONS = {"depth": (optional(positive_int("depth", 400)), None),
               "time_limit": (optional(positive_number("time_limit")), None),
               "heuristic": (heuristic_name, "threats"),
               "tt_bits": (positive_int("tt_bits", 28), 20),
               "use_overage": (boolean("use_overage"), False),
               "killers": (boolean("killers"), True),
               "history": (boolean("history"), False),
               "pvs": (boolean("pvs"), False),
               "aspiration": (boolean("aspiration"), False),
               "quiescence": (boolean("quiescence"), True),
               "deepening": (boolean("deepening"), True),
               "warmup": warmup_option()}
    PRIVATE_OPTIONS = {"depth": 2, "tt_bits": 10}
    MOVE_COMPILE_SECONDS = 12.0
    # the aspiration window's growth on each fail (its half-width is the heuristic's
    # registry record's): after ASPIRATION_TRIES fails the window is (-INF, INF)
    ASPIRATION_GROWTH = 4
    ASPIRATION_TRIES = 3

    def __init__(self, **options):
        super().__init__(**options)
        self.record = entry(self.heuristic)  # its kernels' hookup and aspiration
        self.evaluate = self.record.evaluate
        if self.quiescence and self.record.id is None:
            # the recursive kernel (any other evaluation) searches the plain tree only
            raise ValueError(f"heuristic {self.heuristic!r} has no quiescence search (only "
                             f"{', '.join(HEURISTIC_IDS)}): pass quiescence=false")
        if not self.deepening and (self.depth is None or self.time_limit is not None
                                   or self.aspiration):
            raise ValueError("deepening=false searches once at a fixed depth: it needs depth "
                             "and no time_limit or aspiration")
        self._tables = {}
        self.last = {}
        self.pv = []
        self.opts = ((OPT_KILLERS if self.killers else 0) | (OPT_HISTORY if self.history else 0)
                     | (OPT_PVS if self.pvs else 0))

    def table_bits(self, cfg):
        """``tt_bits``, or fewer on a board of at most 12 cells: ``2**bits`` slots at
        least its ``3**cells`` positions (at least 2**10). Each search clears its table;
        on a 1x9 board a 2**20 one made the clearing, not the search, the move's cost
        (about 2 ms a clear, nine clears in a trap search)."""
        cells = cfg.rows * cfg.columns
        return min(self.tt_bits, max(10, math.ceil(cells * math.log2(3))))

    def tables(self, cfg):
        key = (cfg.rows, cfg.columns)
        if key not in self._tables:
            self._tables = {key: Tables(cfg.rows, cfg.columns, self.table_bits(cfg))}
        return self._tables[key]

    def uses_bitboards(self, cfg):
        """True when this agent searches ``cfg``'s board on bitboards."""
        return (self.record.id is not None and fits_bitboard(cfg.rows, cfg.columns)
                and cfg.inarow >= 2)  # heuristics.bitboard_eval's windows need two cells

    KERNELS = ("bits", "grid", "recursive")

    def kernel_for(self, cfg):
        """The search kernel of ``cfg``'s board: ``"bits"`` (bitboards, boards that fit
        64 bits), ``"grid"`` (the same explicit-stack kernel on the Kaggle grid, any board;
        both kept in numba's disk cache) for a heuristic registered with a compiled
        hookup (an ``id`` in :data:`heuristics.REGISTRY`), else ``"recursive"``
        (:func:`agents.search.alphabeta.root_search`, which takes any evaluation kernel:
        compiled in each process). All three search the same tree."""
        if self.uses_bitboards(cfg):
            return "bits"
        return "grid" if self.record.id is not None else "recursive"

    def root(self, grid, heights, mark, cfg, depth, deadline, first, counters, scores,
             kernel=None, alpha=-INF, beta=INF):
        """One root search at ``depth`` with ``kernel`` (one of :attr:`KERNELS`; None:
        :meth:`kernel_for` decides) in the window (``alpha``, ``beta``): the best
        column, or -1 if aborted; its line in the tables' ``pv[0, :pvlen[0]]``."""
        t = self.tables(cfg)
        kernel = kernel or self.kernel_for(cfg)
        if kernel not in self.KERNELS:
            raise ValueError(f"unknown kernel {kernel!r}; valid: {', '.join(self.KERNELS)}")
        if kernel == "recursive":
            if self.opts != OPT_KILLERS or self.quiescence or (alpha, beta) != (-INF, INF):
                raise ValueError("the recursive kernel searches the plain tree only (killers, "
                                 "no history, pvs, aspiration or quiescence)")
            t.arrays_used = True
            return root_search(grid, heights, cfg.rows, cfg.columns, cfg.inarow,
                               window_table(*cfg), self.evaluate, center_order(cfg.columns),
                               depth, mark, t.zobrist, t.tt_key, t.tt_val, t.tt_info, t.tt_move,
                               t.killers, t.moves, deadline, first, counters, scores, t.pv,
                               t.pvlen)
        if t.packed is None:
            t.packed = packed_table(self.table_bits(cfg))
        windows = None  # the bitboard kernel (see agents.search.alphabeta_bb)
        if kernel == "grid":
            geo = NO_GEOMETRY
            windows = window_table(*cfg)
        else:
            if t.geo is None:
                t.geo = eval_geometry(cfg.rows, cfg.columns, cfg.inarow)
            geo = t.geo
        return bb_root_search(grid, heights, cfg.rows, cfg.columns, cfg.inarow, geo,
                              self.record.id, center_order(cfg.columns),
                              depth, mark, t.zobrist.view(np.int64), t.packed, t.killers,
                              t.moves, deadline, first, counters, scores, windows, self.opts,
                              t.history, t.pv, t.pvlen, alpha, beta,
                              QUIESCENCE_PLIES if self.quiescence else None)

    def fixed_depth(self, grid, heights, mark, cfg, depth, kernel=None):
        """One alpha-beta search at ``depth`` from an empty table: (column, value, nodes);
        its principal variation in :attr:`pv`.

        ``value`` equals the plain minimax value at ``depth`` (tested against
        ``agents.games.protocol.minimax_value``; with ``quiescence``, the value of
        ``agents.search.reference.quiescence_value``). ``kernel``: force one of
        :attr:`KERNELS` rather than let :meth:`kernel_for` choose."""
        t = self.tables(cfg)
        t.clear()
        counters = new_counters()
        scores = np.full(cfg.columns, -INF, dtype=np.int64)
        col = self.root(grid, heights, mark, cfg, depth, 0.0, -1, counters, scores, kernel)
        self.pv = [int(c) for c in t.pv[0, :t.pvlen[0]]]
        return int(col), int(scores[col]), int(counters[S_NODES])

    def search(self, grid, heights, mark, cfg, deadline=0.0, max_depth=None, trace=None):
        """Iterative deepening; returns (column, value, depth reached, nodes), and
        leaves the last completed depth's principal variation in :attr:`pv`.

        ``deadline`` (``time.perf_counter`` seconds, 0 = none) stops the search; the
        move of the last completed depth is returned. Depth 1 always completes (with
        ``deepening=false``, the one search at ``max_depth`` cut off by the deadline
        gives depth 1's move).
        ``trace``: a list that receives ``(depth, column, nodes)`` after each completed
        depth: the move this agent would play had it stopped there, and the nodes
        searched so far (the tables are cleared first, so a search of the same
        position always counts the same nodes)."""
        self.tables(cfg).clear()
        empties = int(cfg.rows * cfg.columns - heights.sum())
        limit = min(max_depth or empties, empties)
        counters = new_counters()
        scores = np.full(cfg.columns, -INF, dtype=np.int64)
        best_col, best_val, reached = -1, 0, 0
        first = -1
        t = self.tables(cfg)
        self.pv = []
        for depth in range(1 if self.deepening else limit, limit + 1):
            t0 = time.perf_counter()
            col = self.root_window(grid, heights, mark, cfg, depth,
                                   deadline if depth > 1 else 0.0, first, counters, scores,
                                   best_val if depth > 1 and self.aspiration else None)
            if (counters[S_ABORTED] or col < 0) and best_col < 0:
                # the one search of deepening=false ran out of time: depth 1's move
                counters[S_ABORTED] = 0
                t.clear()
                col = self.root(grid, heights, mark, cfg, 1, 0.0, -1, counters, scores)
                depth = 1
            elif counters[S_ABORTED] or col < 0:
                break
            best_col, best_val, reached, first = int(col), int(scores[col]), depth, int(col)
            self.pv = [int(c) for c in t.pv[0, :t.pvlen[0]]]
            if trace is not None:
                trace.append((depth, best_col, int(counters[S_NODES])))
            if abs(best_val) >= PROVEN:
                break
            spent = time.perf_counter() - t0
            # the next depth costs several times this one: do not start what cannot finish
            if deadline and time.perf_counter() + self.NEXT_DEPTH_COST * spent > deadline:
                break
        return best_col, best_val, reached, int(counters[S_NODES])

    def root_window(self, grid, heights, mark, cfg, depth, deadline, first, counters, scores,
                    guess):
        """:meth:`root` with an aspiration window around ``guess`` (None: the full
        window): on a fail low or high the failing side is widened
        :attr:`ASPIRATION_GROWTH` times, and after :attr:`ASPIRATION_TRIES` fails
        opened; the result is then the full window's."""
        if guess is None or abs(guess) >= PROVEN:
            return self.root(grid, heights, mark, cfg, depth, deadline, first, counters, scores)
        delta = self.record.aspiration
        lo, hi = guess - delta, guess + delta
        for tries in range(self.ASPIRATION_TRIES + 1):
            if tries == self.ASPIRATION_TRIES:
                lo, hi = -INF, INF
            col = self.root(grid, heights, mark, cfg, depth, deadline, first, counters, scores,
                            alpha=lo, beta=hi)
            if counters[S_ABORTED] or col < 0:
                return col
            v = int(scores[col])
            delta *= self.ASPIRATION_GROWTH
            if v <= lo:
                lo = max(-INF, v - delta)
            elif v >= hi:
                hi, first = min(INF, v + delta), int(col)
            else:
                return col
        return col

    def move_args(self, cfg, depth, deadline):
        """The arguments of :func:`agents.search.alphabeta_bb.alphabeta_move` after
        ``best`` for this agent on ``cfg``'s board: its options, ``depth`` (None: to the
        end), ``deadline`` (0.0: none) and its own tables. Only for a heuristic with a
        compiled hookup searched without ``aspiration`` (:meth:`has_move_kernel`)."""
        t = self.tables(cfg)
        if t.packed is None:
            t.packed = packed_table(self.table_bits(cfg))
        windows = None  # bitboards (as in root)
        if self.kernel_for(cfg) == "grid":
            geo, windows = NO_GEOMETRY, window_table(*cfg)
        else:
            if t.geo is None:
                t.geo = eval_geometry(cfg.rows, cfg.columns, cfg.inarow)
            geo = t.geo
        size = cfg.rows * cfg.columns
        return (size if depth is None else depth, self.deepening, self.record.id, self.opts,
                QUIESCENCE_PLIES if self.quiescence else None, geo, center_order(cfg.columns),
                t.zobrist.view(np.int64), t.packed, t.killers, t.moves, t.history, t.pv,
                t.pvlen, new_counters(), np.full(cfg.columns, -INF, dtype=np.int64), windows,
                deadline, self.NEXT_DEPTH_COST, np.zeros(3, dtype=np.int64),
                np.zeros(size + 2, dtype=np.int64))

    def has_move_kernel(self, cfg):
        """True when :meth:`choose` plays :func:`agents.search.alphabeta_bb.alphabeta_move`:
        a heuristic with a compiled hookup, no ``aspiration`` (the other moves go
        through :meth:`search`'s Python deepening)."""
        return self.kernel_for(cfg) != "recursive" and not self.aspiration

    def kernel_form(self, cfg):
        """:func:`agents.search.alphabeta_bb.alphabeta_move` with no clock, for a fixed
        ``depth`` with no ``time_limit`` (a move that does not depend on the machine's
        speed) and :meth:`has_move_kernel`; None otherwise."""
        if self.depth is None or self.time_limit is not None or not self.has_move_kernel(cfg):
            return None
        return KernelForm(alphabeta_move, self.move_args(cfg, self.depth, 0.0))

    def choose(self, grid, heights, mark, cfg, clock):
        # The immediate win or forced block first, as alphabeta_move's own first step
        # (the same kernel, so the same column): its kernel is compiled by every agent's
        # warm-up (agents.players.base.checks_units), whereas alphabeta_move has one form
        # a board representation (bitboards, the grid). A tactical move on a board of the
        # other form (a fuzz run's 3x7 board with inarow 1, after a 7x6 warm-up) thus
        # compiles nothing in the move (with an empty numba cache, 16-50 s of compiling).
        t = tactical_move(grid, heights, cfg, mark)
        if t >= 0:
            self.last = {"column": t, "depth": 0, "nodes": 0, "value": None, "pv": [t]}
            self.pv = [t]
            return t
        if self.has_move_kernel(cfg):
            args = self.move_args(cfg, self.depth, clock.deadline)
            col = play_kernel(KernelForm(alphabeta_move, args), self.rng, grid, heights, mark,
                              cfg)
            stats, info, line = args[14], args[-2], args[-1]
            self.pv = [int(c) for c in line[:info[2]]]
            self.last = {"column": col, "depth": int(info[0]), "nodes": int(stats[S_NODES]),
                         "value": int(info[1]) if info[0] else None, "pv": list(self.pv)}
            return col
        col, val, depth, nodes = self.search(grid, heights, mark, cfg, clock.deadline,
                                             self.depth)
        self.last = {"column": col, "depth": depth, "nodes": nodes, "value": val,
                     "pv": list(self.pv)}
        return col

