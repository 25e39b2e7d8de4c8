"""``perfect``: the game-theoretic best move, within Kaggle's time limits.

For each move, in this order:

1. the opening book (7x6, four in a row only): positions the agent meets when it
   plays its own book moves, as either colour, solved by :mod:`agents.search.solver`
   (``scripts/make_book.py``), mirror images folded. Entries are EXACT (optimal
   column), WEAK (the column keeps the win or the draw) or HEURISTIC (the
   first plies, too early for the solver: a fixed-depth alphabeta move). In a
   position proven lost (WEAK, score -1) every move loses against perfect play
   and the slowest loss is out of the solver's reach so early; there the book
   holds the move of a fixed-depth alphabeta search, which sets a fallible
   opponent the most problems (``make_book --lost-heuristic``). A few lost
   positions past 7 stones that games against ``alphabeta`` keep passing through
   hold the optimal column that lost least when played out against a ladder of
   ``alphabeta`` opponents (``scripts/playout_book.py``);
2. the exact solver (:func:`agents.search.solver.Solver.best_move`) under the time
   budget. Its first probes ask "can I win?" then "can I at least draw?", so
   even when it runs out of time it often knows a column that keeps the
   game-theoretic outcome, and plays it;
3. otherwise the ``alphabeta`` agent's move with the time that is left.

Traps (option ``traps``, default on): in a drawn or lost position several
columns often keep the same score. Against perfect play they are equal; against
a fallible opponent they are not. Among them the agent plays the one whose
likely reply is a mistake: the opponent model is the ``alphabeta`` agent
(depth-limited alpha-beta with the ``threats`` heuristic), asked at every depth
it reaches in a share of the move's time, and each predicted reply is solved.
The opponent's replies to earlier traps narrow down the nodes its search
completes (each depth of the model costs a known number of nodes), and later
traps weigh each depth by that evidence.
The column never leaves the optimal set, so the game-theoretic value and the
score (slowest loss) are kept; when the slowest loss is not proven in time but
the loss is, every column is a candidate. As second player, after the first
player's proven-winning centre opening, traps and the playout book entries are
what turn alphabeta's wins into draws and losses (:meth:`PerfectAgent._trap`).

Scores count stones (see :mod:`agents.search.solver`), so the best score is also the
fastest win or the slowest loss.

Time: ``actTimeout`` less the safety margin of :class:`agents.players.base.Clock`, or
``time_limit`` (the *plain budget*). With ``use_overage`` (default) the agent
spends ``remainingOverageTime`` on two things only:

* **settling**: when the exact search in the plain budget has not proven the
  outcome (win, draw or loss), a weak search (outcome only, same table) runs on
  until it has: up to half the overage above ``OVERAGE_KEEP``, at most
  ``SETTLE_MAX`` seconds a move (``SETTLE_EARLY_MAX`` on boards too empty to
  solve). On 7x6 this is what keeps the value on positions outside the book;
* **traps**: the overage above ``TRAP_FLOOR`` only (5 s of Kaggle's 60 in a
  game), so a game that needs no settling ends with at least 55 s left.

On a board where no line of ``inarow`` cells fits, every game is a draw and the
agent plays the centre-most open column at once.

Compiling (option ``warmup``): ``"now"`` compiles the kernels in the constructor
(local play: nothing to pay during the game); ``"background"`` (the Kaggle file)
compiles them in a thread while the book answers (:mod:`agents.players.warmup`), so the
first move costs a few tenths of a second.
"""
import time

import numpy as np

from agents.players.base import (Agent, Clock, _field, boolean, choice, optional, positive_int, positive_number)
from agents.search.tactics import tactical_move
from agents.players.lookahead import AlphaBetaAgent
from agents.search.scores import PROVEN
from agents.board.bitboard import fits_bitboard
from agents.board.grid import center_order
from agents.search.book_format import KIND_NAMES, load_book
from agents.search.position import Position
from agents.search.solver import DEFAULT_TT_BITS, Solver, warmup_units as solver_units
from agents.players.warmup import Warmup

# Seconds of the move's budget kept for the alpha-beta fallback after an unfinished
# exact search (at most this share of the budget).
FALLBACK_SHARE = 0.25
FALLBACK_MAX = 0.4
OVERAGE_KEEP = 5.0  # seconds of overage never spent
FALLBACK_MIN = 0.25  # seconds the alpha-beta fallback always gets
# Settling (the weak search that keeps the value when the plain budget did not find
# it): at most this share of the spare overage, and at most SETTLE_MAX seconds a
# move (SETTLE_EARLY_MAX while more than SETTLE_FROM_EMPTIES cells are empty: 7x6
# before 6 stones, where only the book knows the value in time).
SETTLE_SHARE = 0.5
SETTLE_MAX = 25.0
SETTLE_EARLY_MAX = 5.0
SETTLE_FROM_EMPTIES = 36
# Traps (see PerfectAgent._trap): seconds they may take past the plain budget (before
# TRAP_EARLY_STONES stones and later), paid only from the overage above TRAP_FLOOR,
# the share of their time for the opponent model's searches, and the model's depths.
TRAP_MIN = 0.5
TRAP_EARLY_STONES = 14
TRAP_EARLY_MAX = 6.0
TRAP_FLOOR = 55.0
TRAP_MODEL_SHARE = 0.6
TRAP_MIN_DEPTH = 4
# Seconds a book move in a drawn or lost line spends tracing the opponent's reply.
WATCH_MAX = 1.0
# Opponent node budgets considered (log-spaced bins) and the slack of an observation.
BUDGET_BINS = 2.0 ** np.arange(8.0, 32.0, 0.25)
BUDGET_SLACK = 1.5
TRAP_MAX_DEPTH = 24


WARMUPS = ("now", "background")
SOLVER_READY = "solver._solve"  # the last solver unit of the warmup
_WARMUP = None


def shared_warmup():
    """The process's one :class:`agents.players.warmup.Warmup` of the kernels this agent plays
    with (validation, tactics, solver, the ``alphabeta`` model and fallback): every
    ``perfect`` agent of the process shares it, as they share the compiled kernels."""
    global _WARMUP
    if _WARMUP is None:
        from agents.players.base import warmup_units as base_units
        from agents.players.lookahead import warmup_units as alphabeta_units
        rules, tactics = base_units()
        units = [u for u in solver_units() if u[0] != "solver._analyze"]  # unused in play
        assert units[-1][0] == SOLVER_READY
        # what a move outside the book needs first (the solver), then what traps need
        _WARMUP = Warmup([rules] + units + [tactics] + alphabeta_units())
    return _WARMUP


def _settled(lo, hi, complete):
    """True when a search's result keeps the game's value: exact, or a proven win
    (``lo >= 1``), a proven draw (``lo >= 0 >= hi``) or a proven loss (``hi <= -1``,
    where every column loses)."""
    return complete or lo >= 1 or (lo >= 0 and hi <= 0) or hi <= -1


def _reply_at(trace, depth):
    """The model's reply at ``depth``: the move of the deepest completed depth <= it."""
    r = trace[0][1]
    for d, c, _ in trace:
        if d <= depth:
            r = c
    return r


def _depth_weights(trace, budgets):
    """{depth: weight}: the share of ``budgets`` (node counts) under which a search
    whose cumulative nodes per depth are ``trace`` would stop after each depth (the
    deepest traced depth also takes every larger budget)."""
    weights = {}
    for b in budgets:
        d = trace[0][0]
        for dd, _, nodes in trace:
            if nodes <= b:
                d = dd
        weights[d] = weights.get(d, 0) + 1
    return weights


class PerfectAgent(Agent):
    """Plays the game-theoretic best move: opening book, exact solver under the
    time budget, the ``alphabeta`` agent if the solver cannot finish. Works on
    every board with ``columns * (rows + 1) <= 64`` (the book only on 7x6/4);
    on larger boards it is the ``alphabeta`` agent.

    Options: ``tt_bits`` (transposition table of ``next_prime(2**tt_bits)``
    8-byte slots, default 24 = 128 MiB), ``time_limit`` (seconds a move, capped by
    ``actTimeout`` less a safety margin), ``use_overage`` (spend part of the
    overage reserve, default True), ``book`` (use the opening book, default True),
    ``traps`` (among equally scored columns in a drawn or lost position, prefer
    one whose likely reply is a mistake, default True), ``warmup`` (when the numba
    kernels compile: ``"now"``, in the constructor, the default for local play;
    ``"background"``, in a thread while the book answers, see
    :mod:`agents.players.warmup`: what the Kaggle file uses)."""

    name = "perfect"
    # what submission.build uses unless told otherwise: on Kaggle the first move must
    # not wait for numba (see agents.players.warmup)
    SUBMISSION_OPTIONS = {"warmup": "background"}
    OPTIONS = {"tt_bits": (positive_int("tt_bits", 28), DEFAULT_TT_BITS),
               "time_limit": (optional(positive_number("time_limit")), None),
               "use_overage": (boolean("use_overage"), True),
               "book": (boolean("book"), True),
               "traps": (boolean("traps"), True),
               "warmup": (choice("warmup", WARMUPS), "now")}

    def __init__(self, **options):
        super().__init__(**options)
        if self.tt_bits < 10:
            raise ValueError(f"option tt_bits must be at least 10, got {self.tt_bits}")
        self._solvers = {}
        self.opening_book = load_book() if self.book else None
        self.fallback = AlphaBetaAgent()
        # the opponent model of _trap: the default alphabeta agent itself, same table
        # size, so its replies are the ones that agent would play at each depth (the
        # fallback and the traps never run in the same move)
        self.model = self.fallback
        self._watch = None
        self._columns = 7
        self._budget_hits = np.zeros(len(BUDGET_BINS), dtype=np.int64)
        self._budget_obs = 0
        self.last = {}
        self._overage = 0.0
        self._obs = self._config = None
        self._calls = 0
        self.warm = shared_warmup()
        if self.warmup == "now":
            self.warm.finish()

    def solver(self, rows, columns, inarow):
        key = (rows, columns, inarow)
        if key not in self._solvers:
            # one table at a time: a new shape replaces the old one (memory stays bounded)
            self._solvers = {key: Solver(rows, columns, inarow, self.tt_bits)}
        return self._solvers[key]

    def __call__(self, obs, config):
        self._calls += 1
        if self._calls == 1 and not self.warm.done():
            self.warm.start()  # warmup="background": compile while the book answers
        self._obs, self._config = obs, config
        over = _field(obs, "remainingOverageTime", 0.0)
        try:
            self._overage = max(0.0, float(over or 0.0))
        except (TypeError, ValueError):
            self._overage = 0.0
        return super().__call__(obs, config)

    def _overage_left(self, clock):
        """Seconds of ``remainingOverageTime`` left if this move ended now (Kaggle
        charges the overage with a move's excess over ``actTimeout``)."""
        act = _field(self._config, "actTimeout", 2.0)
        try:
            act = float(act)
        except (TypeError, ValueError):
            act = 2.0
        return self._overage - max(0.0, time.perf_counter() - clock.start - act)

    def _settle_deadline(self, clock, plain, stones, cfg):
        """How long the weak search that settles an unsettled position may run: a
        share of the overage above ``OVERAGE_KEEP``, at most ``SETTLE_MAX`` seconds
        (``SETTLE_EARLY_MAX`` while more than ``SETTLE_FROM_EMPTIES`` cells are empty,
        where even the weak value is usually out of reach), from ``plain`` on."""
        if not self.use_overage:
            return plain
        spare = max(0.0, self._overage_left(clock) - OVERAGE_KEEP)
        empties = cfg.rows * cfg.columns - stones
        cap = SETTLE_MAX if empties <= SETTLE_FROM_EMPTIES else SETTLE_EARLY_MAX
        return max(plain, time.perf_counter()) + min(cap, SETTLE_SHARE * spare)

    def _trap_deadline(self, clock, plain, stones):
        """Traps take the plain budget; before ``TRAP_EARLY_STONES`` stones (``TRAP_MIN``
        later) up to ``TRAP_EARLY_MAX`` seconds more, paid from the overage above
        ``TRAP_FLOOR`` only: the game's overage is for keeping the value."""
        now = time.perf_counter()
        want = now + (TRAP_EARLY_MAX if stones < TRAP_EARLY_STONES else TRAP_MIN)
        spare = max(0.0, self._overage_left(clock) - TRAP_FLOOR) if self.use_overage else 0.0
        return max(plain, min(want, max(now, plain) + spare))

    def choose(self, grid, heights, mark, cfg, clock):
        self._columns = cfg.columns
        self._observe(grid, mark)
        if cfg.inarow > max(cfg.rows, cfg.columns):
            # no line of inarow cells fits on the board: every game is a draw
            col = next(c for c in center_order(cfg.columns) if heights[c] < cfg.rows)
            self.last = {"source": "no line fits", "column": int(col)}
            return int(col)
        if not fits_bitboard(cfg.rows, cfg.columns):
            self.warm.finish()
            col, val, depth, nodes = self.fallback.search(grid, heights, mark, cfg, clock.deadline)
            self.last = {"source": "alphabeta", "column": col, "depth": depth, "nodes": nodes}
            return col
        p = Position.from_grid(grid, cfg.rows, cfg.columns, cfg.inarow, mark)
        if self.opening_book is not None:
            hit = self.opening_book.lookup(p)
            if hit is not None and p.can_play(hit[0]):
                self.last = {"source": "book", "column": hit[0], "score": hit[1],
                             "kind": KIND_NAMES[hit[2]]}
                if not self.warm.done():
                    # the kernels are still compiling (warmup="background"): lend them the
                    # rest of this move's plain budget, except on the first move, which
                    # also pays for loading the file
                    if self._calls > 1:
                        self.warm.lend(Clock(clock.start, self._obs, self._config,
                                             self.time_limit, False).deadline)
                    return hit[0]
                if self.traps and hit[1] <= 0:
                    # a drawn or lost line: traps will follow, so spend a little of this
                    # move's unused time learning the opponent's search budget
                    plain = Clock(clock.start, self._obs, self._config, self.time_limit,
                                  False).deadline
                    self._watch_reply(grid, heights, mark, cfg, hit[0],
                                      min(plain, time.perf_counter() + WATCH_MAX))
                return hit[0]
        self.warm.finish(upto=SOLVER_READY)  # the solver's kernels, in this move's time
        s = self.solver(cfg.rows, cfg.columns, cfg.inarow)
        # 1. the exact search, in the plain budget (less a reserve for the fallback)
        plain = Clock(clock.start, self._obs, self._config, self.time_limit, False).deadline
        reserve = min(FALLBACK_MAX, FALLBACK_SHARE * (plain - clock.start))
        col, lo, hi, done = s.best_move(p, plain - reserve)
        self.last = {"source": "solver", "column": col, "lo": lo, "hi": hi, "complete": done,
                     "nodes": s.nodes}
        deadline = plain
        if not _settled(lo, hi, done):
            # 2. the outcome is not known: the weak search (win/draw/loss only, the
            # table kept from step 1) with overage, until the column keeps the value
            deadline = self._settle_deadline(clock, plain, p.moves, cfg)
            if deadline > time.perf_counter():
                wcol, wlo, whi, wdone = s.best_move(p, deadline, weak=True)
                self.last["settle_nodes"] = s.nodes
                if _settled(wlo, whi, wdone):
                    # weak scores: 1 win, 0 draw, -1 loss (the slowest loss unknown)
                    col, lo, hi, done = wcol, wlo, whi, False
                    self.last.update({"column": col, "lo": lo, "hi": hi, "weak": True})
        trap_end = self._trap_deadline(clock, plain, p.moves)
        if done or lo >= 1 or (lo >= 0 and hi <= 0):
            if self.traps and lo <= 0 and self._model_ready(plain):
                # a draw or a loss: among the columns that keep the score (or the draw),
                # the one whose likely replies are mistakes
                keep = lo if done else 0
                cands = s.moves_at_least(p, keep, trap_end)
                if cands and len(cands) > 1:
                    col = self._trap(s, p, grid, heights, mark, cfg, cands, col, keep, trap_end)
            return col
        if self.traps and hi <= -1 and self._model_ready(plain):
            # proven lost, the slowest loss not found in time: every column loses
            cands = [c for c in range(cfg.columns) if p.can_play(c)]
            tcol = self._trap(s, p, grid, heights, mark, cfg, cands, -1, -1, trap_end)
            if tcol >= 0:
                return tcol
        # the fallback: what is left of the plain budget (a settled loss needs no more:
        # every column loses), at least FALLBACK_MIN
        deadline = max(plain, time.perf_counter() + FALLBACK_MIN)
        self.warm.finish()
        acol, val, depth, nodes = self.fallback.search(grid, heights, mark, cfg, deadline)
        if acol is None or acol < 0:
            return col
        self.last.update({"source": "alphabeta", "column": acol, "depth": depth})
        return acol

    def _model_ready(self, until):
        """True when the opponent model's kernels are compiled (warmup="background":
        they come after the solver's); if not, they may compile until ``until``, the
        end of the plain budget, and traps wait for a later move if they did not."""
        if not self.warm.done():
            self.warm.lend(until)
        return self.warm.done()

    def _trap(self, s, p, grid, heights, mark, cfg, cands, default, value, end):
        """Among ``cands`` (columns of equal game-theoretic value ``value``: 0 or
        below), the one that sets a fallible opponent the best trap; ``default`` if
        none does better than it (-1 if none does better than ``value``).

        The opponent model is the ``alphabeta`` agent (depth-limited alpha-beta with
        the ``threats`` heuristic, after its immediate win/block check): its reply
        after each candidate at every depth from ``TRAP_MIN_DEPTH`` to the depth
        reached in the candidate's share of the time, each reply weak-solved (win 1,
        draw 0, loss -1 for us; ``value`` if unsolved in time). A candidate's score is
        the mean over the depths all candidates reached, weighted by depth (from 1 at
        ``TRAP_MIN_DEPTH`` up); once the opponent's replies to earlier traps have shown
        its search budget in nodes (``_observe``), each depth weighs by the share of
        those budgets that stop the search there. The move stays among
        ``cands``, so against perfect play nothing is given up."""
        t0 = time.perf_counter()
        model_end = t0 + TRAP_MODEL_SHARE * max(0.0, end - t0)
        other = 3 - mark
        N = cfg.rows * cfg.columns
        replies = {}
        for i, m in enumerate(cands):
            g2, h2 = grid.copy(), heights.copy()
            g2[m + (cfg.rows - 1 - h2[m]) * cfg.columns] = mark
            h2[m] += 1
            t = tactical_move(g2, h2, cfg, other)
            if t >= 0:
                replies[m] = ([(1, t, 0)], True)
                continue
            now = time.perf_counter()
            slice_end = now + max(0.0, model_end - now) / (len(cands) - i)
            trace = []
            _, val, reached, _ = self.model.search(g2, h2, other, cfg, slice_end,
                                                   TRAP_MAX_DEPTH, trace)
            final = abs(val) >= PROVEN or reached >= N - p.moves - 1
            replies[m] = (trace, final)
        common = min((tr[-1][0] for tr, fin in replies.values() if not fin and tr),
                     default=TRAP_MAX_DEPTH)
        lo_d = min(TRAP_MIN_DEPTH, common)
        outcome = {}
        scores = {}
        budgets = self._budget_bins()
        # without evidence on the opponent: deeper replies weigh more (an opponent with
        # time to spare searches deep)
        weights = {d: d - lo_d + 1 for d in range(lo_d, common + 1)}
        def mean_outcome(m, trace, w_of):
            """Outcome of ``m`` averaged over the model's replies, depth d weighing w_of[d]."""
            total = 0
            for d, w in w_of.items():
                r = _reply_at(trace, d)
                if (m, r) not in outcome:
                    outcome[m, r] = self._outcome(s, p, m, r, value, end)
                total += w * outcome[m, r]
            return total / sum(w_of.values())

        plain_scores = {}
        for m in cands:
            trace, final = replies[m]
            plain_scores[m] = mean_outcome(m, trace, weights)
            if budgets is not None and not final:
                scores[m] = mean_outcome(m, trace, _depth_weights(trace, budgets))
            else:
                scores[m] = plain_scores[m]
        # ties (on the budget-weighted score) go to the depth-weighted score
        best = max(scores.values())
        top = max(plain_scores[m] for m in cands if scores[m] == best)
        if default in scores and scores[default] >= best and plain_scores[default] >= top:
            pick = default
        elif default < 0 and best <= value:
            pick = -1
        else:
            pick = next(m for m in cands if scores[m] == best and plain_scores[m] == top)
        played = pick if pick >= 0 else default
        if played in replies:  # watch the reply: evidence on the opponent's search budget
            g2 = grid.copy()
            g2[played + (cfg.rows - 1 - heights[played]) * cfg.columns] = mark
            self._watch = (g2, other, replies[played])
        self.last.update({"source": "trap" if pick != default else self.last.get("source"),
                          "column": played,
                          "trap_scores": {m + 1: round(v, 2) for m, v in scores.items()},
                          "trap_depths": (lo_d, common),
                          "trap_budget": None if budgets is None else
                          (int(budgets[0]), int(budgets[-1])),
                          "trap_time": round(time.perf_counter() - t0, 3)})
        return pick

    # -- what the opponent's replies say about its search ---------------------------
    # The opponent's reply to a move whose model trace we have is consistent with some
    # depths of that trace, hence with a range of node budgets (the nodes an iterative
    # deepening search completes before its clock stops it). Budgets are binned on a log
    # scale; each observation adds one to every bin it is consistent with. The bins
    # with the most hits (ties all kept, so one odd reply does not rule anything out)
    # give each depth of a new trace its weight.

    def _watch_reply(self, grid, heights, mark, cfg, col, end):
        """Trace the model after our ``col`` until ``end``; the next move reads the reply."""
        g2, h2 = grid.copy(), heights.copy()
        g2[col + (cfg.rows - 1 - h2[col]) * cfg.columns] = mark
        h2[col] += 1
        if tactical_move(g2, h2, cfg, 3 - mark) >= 0:
            return
        trace = []
        _, val, reached, _ = self.model.search(g2, h2, 3 - mark, cfg, end, TRAP_MAX_DEPTH, trace)
        final = abs(val) >= PROVEN or reached >= cfg.rows * cfg.columns - int(h2.sum())
        self._watch = (g2, 3 - mark, (trace, final))

    def reset_opponent_model(self):
        """Forget what the opponent's replies said (done at each new game)."""
        self._budget_hits[:] = 0
        self._budget_obs = 0
        self._watch = None

    def _observe(self, grid, mark):
        """Called at the start of a move: read the opponent's reply to our last trap."""
        watch, self._watch = self._watch, None
        if int((grid != 0).sum()) <= 1:  # a new game
            self.reset_opponent_model()
            return
        if watch is None:
            return
        g2, other, (trace, final) = watch
        if g2.shape != grid.shape or other != 3 - mark:
            return
        diff = np.flatnonzero(grid != g2)
        if len(diff) != 1 or g2[diff[0]] != 0 or grid[diff[0]] != other:
            return
        reply = int(diff[0] % self._columns)
        if final or trace[-1][2] == 0:
            return  # a forced or proven reply says nothing about the depth
        # budgets past the traced depths reach depths whose replies we never saw: they
        # stay possible
        hit = BUDGET_BINS >= trace[-1][2] * BUDGET_SLACK
        for i, (d, col, nodes) in enumerate(trace):
            if col != reply:
                continue
            lo = nodes / BUDGET_SLACK
            hi = trace[i + 1][2] * BUDGET_SLACK if i + 1 < len(trace) else np.inf
            hit |= (BUDGET_BINS >= lo) & (BUDGET_BINS < hi)
        if hit.any():
            self._budget_hits += hit
            self._budget_obs += 1

    def _budget_bins(self):
        """Node budgets most consistent with the opponent's replies so far (None: no
        evidence yet)."""
        if self._budget_obs == 0:
            return None
        best = self._budget_hits.max()
        return BUDGET_BINS[self._budget_hits == best]

    @staticmethod
    def _outcome(s, p, m, r, value, end):
        """Weak outcome for us (1, 0, -1) after our ``m`` and the reply ``r``;
        ``value`` if not solved by ``end``."""
        q = p.copy()
        q.play(m)
        if not q.can_play(r):
            return value
        if q.is_winning_move(r):
            return -1
        q.play(r)
        if q.moves >= q.rows * q.columns:
            return 0
        if time.perf_counter() >= end:
            return value
        v = s.solve(q, weak=True, deadline=end)
        return value if v is None else v
