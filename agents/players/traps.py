"""The ``perfect`` agent's traps and opponent model (see :mod:`agents.players.perfect`).

Among the columns that keep the game's value, the agent plays the one whose likely
reply is a mistake. The model is the ``alphabeta`` agent asked at every depth it
reaches; the opponent's replies to earlier traps vote for the node budgets they fit
(log bins), and later traps weigh each depth of the model by those votes. A mixin of
:class:`PerfectAgent`: it reads ``self.model``, ``self.warm``, ``self._budget_hits``,
``self._budget_obs``, ``self._watch``, ``self._columns``.
"""
import time

import numpy as np

from agents.search.scores import PROVEN
from agents.search.tactics import tactical_move

# The opponent model of the traps: the share of their time for its searches and its
# depths.
TRAP_MODEL_SHARE = 0.6
# a trap search needs its share of time to be this many times a table clear a candidate
TRAP_CLEARS = 4
TRAP_MIN_DEPTH = 4
# Seconds a book move in a drawn or lost line spends tracing the opponent's reply.
WATCH_MAX = 1.0
# Opponent node budgets considered (log-spaced bins) and the slack of an observation.
BUDGET_BINS = 2.0 ** np.arange(8.0, 32.0, 0.25)
BUDGET_SLACK = 1.5
TRAP_MAX_DEPTH = 24


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


class TrapsMixin:
    """The traps and the opponent model of :class:`agents.players.perfect.PerfectAgent`."""

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
        # each model search clears its table first: no trap when the clears alone
        # would take the time (tiny actTimeouts)
        if model_end - t0 < TRAP_CLEARS * len(cands) * self.model.tables(cfg).clear_seconds:
            return default
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
