"""The ``perfect`` agent at a chosen strength: ``perfect:skill=S`` (S = 0..20, as
Stockfish's ``Skill Level``; 20 is ``perfect`` itself, the default) and
``perfect:elo=E`` (a rating on the scale of ``connectx bench levels``, where kaggle's
``negamax`` is :data:`ANCHOR_ELO`). A mixin of :class:`agents.players.perfect.PerfectAgent`.

How a level below 20 moves (``level`` is S, or the level that ``elo`` maps to):

1. above level 0, a column that wins at once is played (a win in one is never missed);
2. with probability :func:`random_share` (1 at level 0, falling to 0 at level 5) a
   uniformly random legal column;
3. otherwise a column drawn by a softmax over the columns' *utilities* at the level's
   :func:`temperature` (falling with the level): the utility of a column of exact score
   ``s`` is ``sign(s) + s / (2 * smax)`` (``smax`` the board's largest score), so losing
   the win or the draw costs about 1 and a slower win or a faster loss a little.

The exact scores are the solver's analysis of every column (:meth:`Solver.analyze`)
within a share of the move's budget. Where it cannot finish in time, or the board does
not fit the solver, the stand-in utilities are 1 for the column the full-strength agent
plays (book, solver or the alphabeta fallback), -1 for a column that lets the opponent
win at once, 0 for the others. While a Kaggle file's kernels still compile in the
background (its first moves), the full-strength column is the book's if the book has the
position, else none, so that no move waits for the compile; the win in one and the
opponent's wins are found in plain Python. Random draws come from the agent's ``seed``.
"""
import time

import numpy as np

from agents.board.bitboard import fits_bitboard
from agents.board.rules_reference import ref_lines
from agents.solver.labels import FULL

SKILL_MAX = 20
RANDOM_UNTIL = 5  # the levels below this play some random moves
T_TOP, T_DECAY = 2.0, 0.9  # the softmax temperature at level 0 and its factor a level
ANALYSIS_SHARE = 0.6  # of the plain budget, for the exact analysis of every column
# the elo scale: (level, rating) fitted by ``connectx bench levels --games 10 --workers 2
# --time 0.2 --score-positions 200 --probes 12.5`` on 2026-11-26 (660 games, T_TOP 2.0,
# docs/judging.md), with kaggle's negamax at ANCHOR_ELO; elo=E plays at the level of
# rating E, interpolated
ANCHOR_ELO = 1000.0
ELO_OF_LEVEL = ((0, 405.0), (5, 926.0), (10, 1037.0), (15, 1370.0), (20, 1798.0))


def random_share(level):
    """The probability of a uniformly random move at ``level`` (1 at 0, 0 from
    :data:`RANDOM_UNTIL` on)."""
    return max(0.0, 1.0 - level / RANDOM_UNTIL)


def temperature(level):
    """The softmax temperature at ``level`` (utility units): ``T_TOP * T_DECAY**level``."""
    return T_TOP * T_DECAY ** level


def level_of_elo(elo):
    """The level (a float in 0..20) whose fitted rating is ``elo`` (linear between the
    fitted levels); ``ValueError`` outside the fitted range."""
    lo, hi = ELO_OF_LEVEL[0][1], ELO_OF_LEVEL[-1][1]
    if isinstance(elo, bool) or not isinstance(elo, (int, float)) or not lo <= elo <= hi:
        raise ValueError(f"option elo must be a number from {lo:g} to {hi:g} (the fitted "
                         f"levels 0-20; kaggle's negamax is {ANCHOR_ELO:g}), got {elo!r}")
    for (l0, e0), (l1, e1) in zip(ELO_OF_LEVEL, ELO_OF_LEVEL[1:]):
        if e0 <= elo <= e1:
            return l0 + (l1 - l0) * (elo - e0) / (e1 - e0) if e1 > e0 else float(l0)
    return float(SKILL_MAX)


def elo_of_level(level, scale=ELO_OF_LEVEL):
    """The rating of ``level`` on ``scale`` (``(level, rating)`` pairs, levels rising):
    linear between its points."""
    return float(np.interp(level, [lv for lv, _ in scale], [e for _, e in scale]))


def skill_value(value):
    """The ``skill`` option: an integer 0..20."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) \
            or not 0 <= value <= SKILL_MAX:
        raise ValueError(f"option skill must be an integer from 0 to {SKILL_MAX}, got {value!r}")
    return int(value)


skill_value.accepts = f"an integer 0..{SKILL_MAX}"  # (agents.players.base.accepting)


def wins_at_once(board, cfg, col, mark):
    """True if ``mark`` completes a line by dropping into ``col`` (which has room) of
    Kaggle's flat ``board`` (a list). Plain Python, no numba: a level's first move in a
    Kaggle file must not wait for a kernel to compile."""
    row = max(r for r in range(cfg.rows) if board[col + r * cfg.columns] == 0)
    cell = col + row * cfg.columns
    return any(all(i == cell or board[i] == mark for i in line)
               for line in ref_lines(cfg.rows, cfg.columns, cfg.inarow) if cell in line)


def utilities(scores, smax):
    """The utility of each column's exact score (None for a full column)."""
    return [None if s is None else (s > 0) - (s < 0) + s / (2.0 * smax) for s in scores]


class LevelsMixin:
    """What ``skill`` and ``elo`` change in :class:`PerfectAgent`: :meth:`_level_move`."""

    def _level(self):
        """The playing level (float, 0..20): from ``elo`` when given, else ``skill``."""
        return level_of_elo(self.elo) if self.elo is not None else float(self.skill)

    def _level_move(self, grid, heights, mark, cfg, clock, full_strength):
        """A column at the agent's level (see the module docstring); ``full_strength()``
        is the full-strength agent's move for the stand-in."""
        level = self.level
        legal = [c for c in range(cfg.columns) if heights[c] < cfg.rows]
        board = [int(v) for v in grid]
        if level > 0:
            for c in legal:
                if wins_at_once(board, cfg, c, mark):
                    self.last = {"source": "level", "column": c, "why": "win in one"}
                    return c
        if self.rng.random() < random_share(level):
            col = legal[int(self.rng.integers(len(legal)))]
            self.last = {"source": "level", "column": col, "why": "random"}
            return col
        util = self._exact_utilities(grid, mark, cfg, clock)
        why = "softmax"
        if util is None:
            if self.solver_ready() or not fits_bitboard(cfg.rows, cfg.columns):
                best = full_strength()
            else:
                # the Kaggle file's kernels are compiling: the book's column if it has one
                # (full strength would wait for the solver), and the rest of the move's
                # budget lent to the compile
                best = self.book_move(grid, mark, cfg)
                self.warm.lend(clock.plain_deadline)
            util = self._stand_in(board, mark, cfg, legal, best)
            why = "softmax, stand-in"
        values = np.array([util[c] for c in legal], dtype=float)
        z = (values - values.max()) / temperature(level)
        p = np.exp(z)
        col = legal[int(self.rng.choice(len(legal), p=p / p.sum()))]
        self.last = {"source": "level", "column": col, "why": why}
        return col

    def _exact_utilities(self, grid, mark, cfg, clock):
        """Every column's utility from the solver's exact scores, or None when the board
        does not fit the solver or the analysis does not finish in its share of the budget."""
        from agents.solver.position import Position
        if not fits_bitboard(cfg.rows, cfg.columns) or cfg.inarow > max(cfg.rows, cfg.columns):
            return None
        if not self.solver_ready():
            return None  # the Kaggle file's kernels are still compiling (warmup="background")
        s = self.solver(cfg.rows, cfg.columns, cfg.inarow)
        p = Position.from_grid(grid, cfg.rows, cfg.columns, cfg.inarow, mark)
        deadline = clock.start + ANALYSIS_SHARE * (clock.plain_deadline - clock.start)
        scores = s.analyze(p, deadline=max(deadline, time.perf_counter() + 0.01))
        if scores is None:
            return None
        smax = (cfg.rows * cfg.columns + 1) // 2
        return utilities([None if v == FULL else v for v in scores], smax)

    def _stand_in(self, board, mark, cfg, legal, best):
        """Stand-in utilities: 1 for ``best`` (None: no column is known best), -1 where the
        opponent then wins at once, 0 elsewhere."""
        util = [None] * cfg.columns
        for c in legal:
            after = list(board)
            after[max(r for r in range(cfg.rows) if board[c + r * cfg.columns] == 0)
                  * cfg.columns + c] = mark
            util[c] = -1.0 if any(after[d] == 0 and wins_at_once(after, cfg, d, 3 - mark)
                                  for d in range(cfg.columns)) else 0.0
        if best is not None:
            util[best] = 1.0
        return util

