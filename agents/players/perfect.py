"""``perfect``: the game-theoretic best move, within Kaggle's time limits.

For each move, in this order:

1. the opening book (7x6, four in a row only): positions the agent meets when it
   plays its own book moves, as either colour, solved by :mod:`agents.solver.solver`
   (``scripts/tools/make_book.py``), mirror images folded. Entries are EXACT (optimal
   column), WEAK (the column keeps the win or the draw) or HEURISTIC (the
   first plies, too early for the solver: a fixed-depth alphabeta move). In a
   position proven lost (WEAK, score -1) every move loses against perfect play
   and the slowest loss is out of the solver's reach so early; there the book
   holds the move of a fixed-depth alphabeta search, which sets a fallible
   opponent the most problems (``make_book --lost-heuristic``). A few lost
   positions past 7 stones that games against ``alphabeta`` keep passing through
   hold the optimal column that lost least when played out against a ladder of
   ``alphabeta`` opponents (``scripts/tools/playout_book.py``). Entries whose column
   has the best score are EXACT (``make_book --rescore``, with the 12-ply database);
   where a WEAK entry's column is not the fastest win or the slowest loss and the
   solver has the database, the solver's exact move replaces it (step 2);
2. the exact solver (:func:`agents.solver.solver.Solver.best_move`) under the time
   budget. Its first probes ask "can I win?" then "can I at least draw?", so
   even when it runs out of time it often knows a column that keeps the
   game-theoretic outcome, and plays it;
3. otherwise the ``alphabeta`` agent's move with the time that is left.

With the ``books`` extra installed (option ``database``, default on) the solver stops at
the positions of BitBully's 12-ply database (:mod:`agents.solver.database`), so every
7x6 position of at most 12 stones is solved in milliseconds; a submission file has no
such database and plays as before.

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

Scores count stones (see :mod:`agents.solver.solver`), so the best score is also the
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
import sys
import time

import numpy as np

from agents.board.bitboard import fits_bitboard
from agents.board.grid import center_order
from agents.board.rules import parse_config
from agents.players.base import (Agent, boolean, checks_units, number, optional, positive_int,
                                 positive_number, seed_value, warmup_option)
from agents.players.budget import (FALLBACK_MAX, FALLBACK_MIN, FALLBACK_SHARE, SHALLOW_MAX,
                                   BudgetMixin)
from agents.players.levels import SKILL_MAX, LevelsMixin, skill_value
from agents.players.lookahead import AlphaBetaAgent
from agents.players.traps import BUDGET_BINS, WATCH_MAX, TrapsMixin
from agents.solver.book import EXACT, KIND_NAMES, WEAK, load_book
from agents.solver.openings import OPENING_CONFIG, OPENING_PLY, Openings
from agents.solver.position import Position
from agents.solver.shallow import shallow_move
from agents.solver.solver import DEFAULT_TT_BITS, Solver, kernel_calls

# the unit after which a move outside the book can search: best_move's kernels (and the
# weak search's: the same kernel); the columns' and solve's kernels serve only traps,
# which wait for every unit (TrapsMixin._model_ready)
SOLVER_READY = "solver._best_move"
ANALYSIS_READY = "solver._columns"  # and after it, the analysis of every column (the levels)
# compile CPU seconds of the solver's kernel groups (agents.solver.solver.kernel_calls) on
# the development machine (2026-11-26), for the warm-up's schedule
SOLVER_SECONDS = {"solver._search": 6.8, "solver._best_move": 2.8, "solver._columns": 2.7,
                  "solver._solve": 0.1}


def warmup_units():
    """The units of the kernels this agent plays with (validation, tactics, solver, the
    ``alphabeta`` model and fallback), for :class:`agents.players.warmup.Warmup`: what a
    move outside the book needs first (the solver), then what traps need: the
    alphabeta model on bitboards (the array kernels serve only boards the solver cannot
    take, where this agent is alphabeta and numba compiles them on first use). A move
    outside the book waits for the units up to :data:`SOLVER_READY` only."""
    rules, tactics = checks_units()
    units = solver_units()
    ready = [u[0] for u in units].index(SOLVER_READY) + 1
    # the input checks run numpy until their kernels exist: after what an off-book move
    # waits for (issue 43: that wait had grown from 10.4 to 14.3 s of CPU since 4e9cf9d)
    return units[:ready] + [rules] + units[ready:] + [tactics, model_unit()]


def model_unit():
    """The unit of the fallback's and the traps' model's search: what this agent calls of
    the ``alphabeta`` agent, :meth:`AlphaBetaAgent.search` (iterative deepening in Python
    over :func:`agents.search.alphabeta_bb.bb_root_search`; not its ``choose``, which plays
    :func:`agents.search.alphabeta_bb.alphabeta_move`), on the empty 7x6 board's
    bitboards, with a small table (the kernels' types do not depend on its size)."""
    cfg = parse_config(None)
    agent = AlphaBetaAgent(tt_bits=10)
    grid = np.zeros(cfg.rows * cfg.columns, dtype=np.int8)
    heights = np.zeros(cfg.columns, dtype=np.int64)

    def search():
        agent.search(grid, heights, 1, cfg, time.perf_counter() + 0.05, 2)
    return ("alphabeta.search", search, 8.0)


def solver_units(solver=None):
    """The solver's units for :class:`agents.players.warmup.Warmup`: ``(label, call,
    expected compile seconds)``, in the order a move needs them (``solver``: see
    :func:`agents.solver.solver.kernel_calls`)."""
    return [(name, call, SOLVER_SECONDS[name]) for name, call in kernel_calls(solver)]


def _settled(lo, hi, complete):
    """True when a search's result keeps the game's value: exact, or a proven win
    (``lo >= 1``), a proven draw (``lo >= 0 >= hi``) or a proven loss (``hi <= -1``,
    where every column loses)."""
    return complete or lo >= 1 or (lo >= 0 and hi <= 0) or hi <= -1


class PerfectAgent(BudgetMixin, TrapsMixin, LevelsMixin, Agent):
    """Plays the game-theoretic best move: opening book, exact solver under the
    time budget, the ``alphabeta`` agent if the solver cannot finish. Works on
    every board with ``columns * (rows + 1) <= 64`` (the book only on 7x6/4);
    on larger boards it is the ``alphabeta`` agent.

    Options: ``tt_bits`` (transposition table of about ``2**tt_bits`` 8-byte
    entries, default 20 = 8 MiB), ``time_limit`` (seconds a move, capped by
    ``actTimeout`` less a safety margin), ``use_overage`` (spend part of the
    overage reserve, default True), ``book`` (use the opening book, default True),
    ``traps`` (among equally scored columns in a drawn or lost position, prefer
    one whose likely reply is a mistake, default True), ``warmup`` (when the numba
    kernels compile: ``"now"``, in the constructor, the default for local play;
    ``"background"``, in a thread while the book answers, see
    :mod:`agents.players.warmup`: what the Kaggle file uses; ``"lazy"``: when a move
    first needs them).

    Strength (:mod:`agents.players.levels`): ``skill`` (0..20, default 20: full
    strength) or ``elo`` (a rating on the scale of ``connectx bench levels``, kaggle's
    negamax at 1000; not with ``skill``); ``seed`` seeds the lower levels' choices."""

    name = "perfect"
    # what a Kaggle file embeds (submission.build): the move book and the opening scores,
    # which answer every 7x6 position of fewer than OPENING_PLY stones without a kernel
    RESOURCES = ("book7x6.bin",) + tuple(Openings.file_name(k) for k in range(OPENING_PLY + 1))
    # what submission.build uses unless told otherwise: on Kaggle the first move must
    # not wait for numba (see agents.players.warmup)
    SUBMISSION_OPTIONS = {"warmup": "background", "database": False}
    OPTIONS = {"tt_bits": (positive_int("tt_bits", 28), DEFAULT_TT_BITS),
               "time_limit": (optional(positive_number("time_limit")), None),
               "use_overage": (boolean("use_overage"), True),
               "book": (boolean("book"), True),
               "database": (boolean("database"), True),
               "traps": (boolean("traps"), True),
               "warmup": warmup_option("now"),
               "skill": (skill_value, SKILL_MAX),
               "elo": (optional(number("elo")), None),
               "seed": (seed_value, None)}

    def __init__(self, **options):
        super().__init__(**options)
        if self.tt_bits < 10:
            raise ValueError(f"option tt_bits must be at least 10, got {self.tt_bits}")
        if self.elo is not None and "skill" in options:
            raise ValueError("give option skill or option elo, not both")
        self.level = self._level()  # ValueError for an elo outside the fitted scale
        self._solvers = {}
        self.opening_book = load_book() if self.book else None
        # the opening scores (read lazily, plain Python): with the book, see _openings_move
        self.openings = Openings() if self.book else None
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
        # the one Warmup of the process's perfect agents (with warmup="lazy" too: the
        # moves below finish() what they need)
        self.warm = self.warm or self._shared_warmup(parse_config(None))

    def warmup_units(self, cfg):
        return warmup_units()  # 7x6: the book's board, the only one Kaggle plays

    def warmup_key(self, cfg):
        return ("perfect",)  # the same kernels whatever the options

    def ready_to_move(self, grid, heights, mark, cfg):
        """Past the first move, :meth:`choose` waits for the units it needs (the
        solver's, outside the book and the opening scores) when that fits the clock,
        else plays the shallow search's move (:meth:`_unready_move`). So does the first
        move at full strength (skill 20: the value must be kept); the first move of a
        lower level (meant to err) waits for nothing: the book answers, or else
        :func:`agents.players.warmup.fallback_move`."""
        if self._calls > 1 or cfg.inarow > max(cfg.rows, cfg.columns):
            return True
        if not fits_bitboard(cfg.rows, cfg.columns):
            return False
        if self.level >= SKILL_MAX:
            return True
        if self.opening_book is None:
            return False
        p = Position.from_grid(grid, cfg.rows, cfg.columns, cfg.inarow, mark)
        hit = self.opening_book.lookup(p)
        return hit is not None and p.can_play(hit[0])

    def solver(self, rows, columns, inarow):
        key = (rows, columns, inarow)
        if key not in self._solvers:
            # one table at a time: a new shape replaces the old one (memory stays bounded)
            solver = Solver(rows, columns, inarow, self.tt_bits)
            if self.database:
                # the installed opening database (7x6: the books extra), None elsewhere and
                # in a submission file (no such package on Kaggle): loaded once a process
                from agents.solver.database import DatabaseError, attach
                try:
                    attach(solver)
                except DatabaseError as e:  # never lose a game on it: play without, say why
                    sys.stderr.write(f"perfect: opening database not used: {e}\n")
            self._solvers = {key: solver}
        return self._solvers[key]

    def book_move(self, grid, mark, cfg):
        """The opening book's column for the position (plain Python), or None."""
        if self.opening_book is None or not fits_bitboard(cfg.rows, cfg.columns):
            return None
        p = Position.from_grid(grid, cfg.rows, cfg.columns, cfg.inarow, mark)
        hit = self.opening_book.lookup(p)
        return hit[0] if hit is not None and p.can_play(hit[0]) else None

    def _solver_beats_book(self, hit, cfg):
        """True when the book's entry ``hit`` may not be a best column and the solver
        knows one at once: the entry is not EXACT (a WEAK win or loss keeps the value,
        not always the fastest win or the slowest loss; a HEURISTIC one is a guess) and
        the solver has the 12-ply database (every book position in milliseconds) and its
        kernels. Without the database (a Kaggle file) the book's column stands."""
        if hit[2] == EXACT or (hit[2] == WEAK and hit[1] == 0) or not self.database \
                or not self.warm.ready(SOLVER_READY):
            return False
        return self.solver(cfg.rows, cfg.columns, cfg.inarow).database is not None

    def solver_ready(self):
        """True once the kernels of the analysis of every column are compiled (at once
        with ``warmup="now"``)."""
        return self.warm.ready(ANALYSIS_READY)

    def choose(self, grid, heights, mark, cfg, clock):
        if self.level < SKILL_MAX:
            return self._level_move(grid, heights, mark, cfg, clock,
                                    lambda: self._best(grid, heights, mark, cfg, clock))
        return self._best(grid, heights, mark, cfg, clock)

    def _use_openings(self, p):
        """True when the opening scores answer ``p``: a 7x6 position of fewer than
        ``OPENING_PLY`` stones (every child scored), unless the solver is ready with the
        12-ply database (local play with the ``databases`` extra: then the solver, whose
        traps and tie order the golden moves pin, answers in milliseconds too)."""
        if self.openings is None or p.moves >= OPENING_PLY \
                or (p.rows, p.columns, p.inarow) != OPENING_CONFIG:
            return False
        if not self.warm.ready(SOLVER_READY) or not self.database:
            return True
        return self.solver(p.rows, p.columns, p.inarow).database is None

    def _openings_move(self, p, grid, heights, mark, cfg, clock):
        """An optimal column from the opening scores (plain Python, no kernel): the
        centre-most of the best score, or among them the traps' pick once every kernel
        is compiled (a draw or a loss, several optimal columns)."""
        scores = self.openings.analyze(p)
        best = max(scores)
        cands = [c for c in center_order(cfg.columns) if scores[c] == best]
        col = cands[0]
        self.last = {"source": "openings", "column": col, "score": best}
        plain = clock.plain_deadline
        if self.traps and best <= 0 and len(cands) > 1 and self.warm.done():
            s = self.solver(cfg.rows, cfg.columns, cfg.inarow)
            trap_end = self._trap_deadline(clock, plain, p.moves)
            col = self._trap(s, p, grid, heights, mark, cfg, sorted(cands), col, best, trap_end)
        elif not self.warm.done() and self._calls > 1:
            self.warm.lend(plain)  # the rest of the plain budget to the compiler
        return col

    def _wait_for_solver(self, clock):
        """Wait for the solver's kernels (up to :data:`SOLVER_READY`) when they compile in
        the background (the Kaggle file) and their expected compile time fits before the
        compile deadline less the shallow search's share
        (:meth:`agents.players.budget.BudgetMixin._compile_deadline`: the plain budget
        and ``COMPILE_SHARE`` of the overage above ``OVERAGE_KEEP``); with
        ``warmup="lazy"`` compile (or load from the disk cache) here until that deadline.
        The seconds waited."""
        t0 = time.perf_counter()
        end = self._compile_deadline(clock)
        if not self.warm.started():
            self.warm.finish(end, upto=SOLVER_READY)
        elif t0 + self.warm.expected_left(SOLVER_READY) <= end - SHALLOW_MAX:
            self.warm.finish(end - SHALLOW_MAX, upto=SOLVER_READY)
        return time.perf_counter() - t0

    def _unready_move(self, p, grid, heights, mark, cfg, clock, waited):
        """The move when the solver's kernels are not ready and waiting did not fit: the
        shallow plain-Python search (:mod:`agents.solver.shallow`: forced wins, forced
        losses a few plies ahead), the fallback's window count breaking ties, for at
        most ``SHALLOW_MAX`` seconds within the compile deadline; then the rest of the
        plain budget goes to the compiler (not in the first move, which loaded the file)."""
        from agents.players.warmup import ranked_columns
        now = time.perf_counter()
        end = min(now + SHALLOW_MAX, max(clock.plain_deadline, self._compile_deadline(clock)))
        order = ranked_columns(grid, heights, mark, cfg.rows, cfg.columns, cfg.inarow)
        col, value, depth, nodes = shallow_move(p, end, order)
        self.warm_moves += 1
        self.last = {"source": "shallow search", "column": col, "value": value,
                     "depth": depth, "nodes": nodes, "waited": round(waited, 2)}
        if self._calls > 1:
            self.warm.lend(clock.plain_deadline)
        return col

    def _best(self, grid, heights, mark, cfg, clock):
        """The full-strength move (book, solver, fallback; traps)."""
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
            if hit is not None and p.can_play(hit[0]) and not self._solver_beats_book(hit, cfg):
                self.last = {"source": "book", "column": hit[0], "score": hit[1],
                             "kind": KIND_NAMES[hit[2]]}
                if not self.warm.done():
                    # the kernels are still compiling (warmup="background"): lend them the
                    # rest of this move's plain budget, except on the first move, which
                    # also pays for loading the file
                    if self._calls > 1:
                        self.warm.lend(clock.plain_deadline)
                    return hit[0]
                if self.traps and hit[1] <= 0:
                    # a drawn or lost line: traps will follow, so spend a little of this
                    # move's unused time learning the opponent's search budget
                    plain = clock.plain_deadline
                    self._watch_reply(grid, heights, mark, cfg, hit[0],
                                      min(plain, time.perf_counter() + WATCH_MAX))
                return hit[0]
        if self._use_openings(p):
            return self._openings_move(p, grid, heights, mark, cfg, clock)
        waited = 0.0
        if not self.warm.ready(SOLVER_READY):
            waited = self._wait_for_solver(clock)
            if not self.warm.ready(SOLVER_READY):
                return self._unready_move(p, grid, heights, mark, cfg, clock, waited)
        s = self.solver(cfg.rows, cfg.columns, cfg.inarow)
        # 1. the exact search, in the plain budget (less a reserve for the fallback)
        plain = clock.plain_deadline
        reserve = min(FALLBACK_MAX, FALLBACK_SHARE * (plain - clock.start))
        col, lo, hi, done = s.best_move(p, plain - reserve)
        self.last = {"source": "solver", "column": col, "lo": lo, "hi": hi, "complete": done,
                     "nodes": s.nodes}
        if waited:
            self.last["waited"] = round(waited, 2)  # for the solver's kernels to compile
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
        if not self.warm.finish(deadline):
            # its kernels not ready within its own time (no overage for them: its move is
            # a guess too): the solver's column
            return col
        acol, val, depth, nodes = self.fallback.search(grid, heights, mark, cfg, deadline)
        if acol is None or acol < 0:
            return col
        self.last.update({"source": "alphabeta", "column": acol, "depth": depth})
        return acol
