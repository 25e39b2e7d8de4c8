"""What every agent shares: option checking, input validation, the time budget, when
its kernels compile. (The tactics every agent shares are search kernels:
:mod:`agents.search.tactics`.)

An agent is a callable ``agent(obs, config) -> int`` that kaggle-environments runs
directly. Subclasses declare ``OPTIONS`` (name -> (checker, default)) and implement
``choose(grid, heights, mark, cfg, clock)`` returning a legal column.

Compiling (the option ``warmup`` every ConnectX agent takes, :func:`warmup_option`):
``"lazy"`` (the default but for ``perfect``): numba compiles each kernel on its first
call, or loads it from the package's disk cache; ``"now"``: the constructor compiles
the agent's kernels (its :meth:`Agent.warmup_units`) for 7x6; ``"background"`` (what a
Kaggle file uses, ``SUBMISSION_OPTIONS``): the first call starts a thread that compiles
them (:mod:`agents.players.warmup`), and until they are ready each move is
:func:`agents.players.warmup.fallback_move`'s (a move that needs no kernel), which lends
the rest of its plain budget to the compiler. ``last["source"]`` is then
``"warm-up"`` and ``warm_moves`` counts these moves.
"""
import gc
import time
from typing import NamedTuple

import numpy as np

from agents.board.rules import parse_config, parse_position

# Seconds kept back from config.actTimeout: interpreter and kaggle-environments
# overhead around the call, garbage collection, process scheduling.
SAFETY_MARGIN = 0.25
SAFETY_FRACTION = 0.1
# kaggle-environments' defaults for the time control: actTimeout seconds a move, and the
# overage a game (remainingOverageTime at the start)
ACT_TIMEOUT = 2.0
OVERAGE = 60.0
WARMUPS = ("lazy", "now", "background")
RULES_UNIT = "grid.grid_winner+column_heights"


class KernelForm(NamedTuple):
    """An agent's move as a numba kernel, what the batched environments play
    (:meth:`Agent.kernel_form`; :mod:`agents.envs.opponents`).

    ``move``: the kernel the agent's own :meth:`Agent.choose` calls,
    ``move(grid, heights, rows, columns, inarow, mark, best, *args) -> int``: a column,
    or -1 with ``best`` (bool, one a column) marking the columns to draw one from
    uniformly (the agent draws with its ``seed``'s generator, an environment with the
    board's own random numbers); None: a uniformly random legal column (``random``).
    ``args``: the rest of its arguments, the agent's own options and search memory
    (arrays reused from move to move)."""

    move: object
    args: tuple


class Struct(dict):
    """A dict that also reads as attributes, as kaggle-environments' observations and
    configurations do (``obs.board`` and ``obs["board"]``): what the package hands an
    agent when it plays one itself (the arena, the environments)."""

    def __getattr__(self, name):
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None


def config_struct(cfg):
    """The ``config`` kaggle-environments hands an agent, for ``cfg`` (attributes and
    keys): its ``rows``, ``columns``, ``inarow``, and its ``actTimeout`` and
    ``remainingOverageTime`` if it has them (``scripts.arena.specs.MatchConfig``), else
    Kaggle's defaults (:data:`ACT_TIMEOUT`, :data:`OVERAGE`; an
    :class:`agents.board.rules.Config`). The one place this object is built."""
    act = getattr(cfg, "actTimeout", ACT_TIMEOUT)
    return Struct(rows=cfg.rows, columns=cfg.columns, inarow=cfg.inarow,
                  actTimeout=act, timeout=act,
                  agentTimeout=getattr(cfg, "remainingOverageTime", OVERAGE),
                  episodeSteps=1000, runTimeout=1200)


def observation(board, mark=None, step=None, remaining_overage=OVERAGE):
    """The observation kaggle-environments hands an agent (attributes and keys): ``board``
    as a flat list of ints; ``mark`` and ``step`` default to the side to move and the
    number of stones on the board. The one place this object is built."""
    board = [int(v) for v in board]
    stones = sum(1 for v in board if v)
    return Struct(board=board, mark=1 + stones % 2 if mark is None else mark,
                  step=stones if step is None else step,
                  remainingOverageTime=remaining_overage)


def accepting(accepts):
    """Decorator: a checker of ``OPTIONS`` with ``accepts``, what it takes in a few words
    ("an integer 1..12"), which the generated reference prints (scripts.tools.reference)."""
    def mark(check):
        check.accepts = accepts
        return check
    return mark


def positive_number(name):
    @accepting("a number > 0")
    def check(value):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0:
            raise ValueError(f"option {name} must be a positive number, got {value!r}")
        return float(value)
    return check


def number(name):
    @accepting("a number")
    def check(value):
        if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
            raise ValueError(f"option {name} must be a number, got {value!r}")
        return float(value)
    return check


def positive_int(name, maximum=None):
    @accepting("an integer >= 1" if maximum is None else f"an integer 1..{maximum}")
    def check(value):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1 \
                or (maximum is not None and value > maximum):
            upper = f" and at most {maximum}" if maximum is not None else ""
            raise ValueError(f"option {name} must be an integer >= 1{upper}, got {value!r}")
        return int(value)
    return check


def optional(check):
    @accepting(f"{getattr(check, 'accepts', '?')} or none")
    def wrapped(value):
        return None if value is None else check(value)
    return wrapped


@accepting("an integer or none")
def seed_value(value):
    if value is not None and (isinstance(value, bool) or not isinstance(value, (int, np.integer))):
        raise ValueError(f"option seed must be an integer or None, got {value!r}")
    return value


def boolean(name):
    @accepting("true or false")
    def check(value):
        if not isinstance(value, bool):
            raise ValueError(f"option {name} must be True or False, got {value!r}")
        return value
    return check


def choice(name, values):
    @accepting(f"one of {', '.join(map(str, values))}")
    def check(value):
        if value not in values:
            raise ValueError(f"option {name} must be one of {', '.join(map(repr, values))}, "
                             f"got {value!r}")
        return value
    return check


def warmup_option(default="lazy"):
    """The ``warmup`` option's ``(checker, default)`` (module docstring)."""
    return choice("warmup", WARMUPS), default


@accepting("a heuristic's name (none: no evaluation)")
def heuristic_name(value):
    """A name of :data:`heuristics.HEURISTICS`; None is ``"none"`` (no evaluation: the
    spec ``heuristic=none`` reads as None)."""
    from heuristics import get as get_heuristic
    value = "none" if value is None else value
    get_heuristic(value)  # raises ValueError listing the valid names
    return value


class Clock:
    """The move's time budget, measured from the start of the call: built once a move,
    the one place that reads ``config.actTimeout`` and ``obs.remainingOverageTime``.

    ``budget`` = ``time_limit`` if given, capped by ``actTimeout`` less a safety
    margin; with ``use_overage`` a share of ``obs.remainingOverageTime`` is added.
    ``act``: ``actTimeout`` in seconds; ``overage``: the overage at the start of the
    move (>= 0); ``plain_deadline``: the deadline without any overage."""

    def __init__(self, start, obs, config, time_limit=None, use_overage=False, moves_left=20):
        self.start = start
        self.act = _seconds(field_of(config, "actTimeout", 2.0), 2.0)
        self.overage = max(0.0, _seconds(field_of(obs, "remainingOverageTime", 0.0) or 0.0, 0.0))
        cap = max(0.05, self.act - max(SAFETY_MARGIN, SAFETY_FRACTION * self.act))
        plain = cap if time_limit is None else min(time_limit, cap)
        if use_overage:
            cap += max(0.0, self.overage - 5.0) / max(1, moves_left)
        self.budget = cap if time_limit is None else min(time_limit, cap)
        # searches stop at ``deadline``; the last 5% of the budget is for unwinding the
        # search, returning and the scheduler (measured overshoot without it: ~7%)
        self.deadline = start + 0.95 * self.budget
        self.plain_deadline = start + 0.95 * plain

    def remaining(self):
        return self.deadline - time.perf_counter()


def _seconds(value, default):
    try:
        return float(value)
    except (TypeError, ValueError):
        return default


def field_of(obj, name, default):
    if obj is None:
        return default
    if isinstance(obj, dict):
        return obj.get(name, default)
    return getattr(obj, name, default)


class Agent:
    """Base class: ``Agent(**options)(obs, config) -> int``."""

    OPTIONS = {}
    name = "agent"
    # what submission.build uses unless told otherwise: a Kaggle file's first move must
    # not wait for numba (module docstring)
    SUBMISSION_OPTIONS = {"warmup": "background"}
    # options of the private copy whose one move on an empty board compiles the
    # kernels (the last unit of warmup_units: small tables, a short search), and that
    # move's compile seconds on the development machine (hand-timed, for the schedule)
    PRIVATE_OPTIONS = {}
    MOVE_COMPILE_SECONDS = 1.0

    def __init__(self, **options):
        unknown = sorted(set(options) - set(self.OPTIONS))
        if unknown:
            valid = ", ".join(sorted(self.OPTIONS)) or "none"
            raise ValueError(
                f"unknown option(s) {', '.join(unknown)} for agent {self.name!r}; valid: {valid}")
        for key, (check, default) in self.OPTIONS.items():
            setattr(self, key, check(options[key]) if key in options else default)
        self.options = {k: getattr(self, k) for k in self.OPTIONS}
        self.rng = np.random.default_rng(getattr(self, "seed", None))
        self.warm = None      # the agents.players.warmup.Warmup of its kernels, if any
        self.warm_moves = 0   # moves answered by the fallback while they compiled
        self._calls = 0
        if getattr(self, "warmup", "lazy") == "now":
            self.warm = self._shared_warmup(parse_config(None))
            self.warm.finish()

    def __repr__(self):
        opts = ", ".join(f"{k}={v!r}" for k, v in self.options.items())
        return f"{type(self).__name__}({opts})"

    def __call__(self, obs, config):
        start = time.perf_counter()
        self._calls += 1
        background = getattr(self, "warmup", "lazy") == "background"
        # background: the checks' kernels once compiled, numpy until then
        grid, heights, mark, cfg = parse_position(obs, config, not background)
        clock = Clock(start, obs, config, getattr(self, "time_limit", None),
                      getattr(self, "use_overage", False),
                      moves_left=max(1, int((cfg.rows * cfg.columns - heights.sum()) // 2)))
        if background and self._calls == 1:
            self.warm = self.warm or self._shared_warmup(cfg)
            self.warm.start()
        # No garbage-collector pause inside the timed search: collect later, between moves.
        gc_was_enabled = gc.isenabled()
        gc.disable()
        try:
            if background and not self.warm.done() \
                    and not self.ready_to_move(grid, heights, mark, cfg):
                col = self._warming_move(grid, heights, mark, cfg, clock)
            else:
                col = int(self.choose(grid, heights, mark, cfg, clock))
        finally:
            if gc_was_enabled:
                gc.enable()
        if not (0 <= col < cfg.columns and heights[col] < cfg.rows):  # a bug, never a move
            raise RuntimeError(f"{self!r} chose illegal column {col}")
        return col

    def choose(self, grid, heights, mark, cfg, clock):
        raise NotImplementedError

    def kernel_form(self, cfg):
        """This agent's moves on ``cfg``'s board as a :class:`KernelForm`, or None if it
        has none (the environments then call the agent from Python). An agent that has
        one plays through that kernel itself, so that its every option plays the same
        in a match and as an environment's opponent."""
        return None

    # -- compiling (module docstring) ------------------------------------------------------

    def ready_to_move(self, grid, heights, mark, cfg):
        """True if :meth:`choose` may run while the warm-up's units are not all done
        (it needs none of them, or waits for what it needs itself): False here."""
        return False

    def warmup_units(self, cfg):
        """Units for :class:`agents.players.warmup.Warmup` (``(label, call, expected
        seconds)``) that compile every kernel a move of this agent on ``cfg``'s board
        needs: the input checks, the shared tactics, then one move of a private copy
        (``PRIVATE_OPTIONS``) on the empty board."""
        def move():
            twin = type(self)(**{**self.options, "warmup": "lazy", **self.PRIVATE_OPTIONS})
            grid = np.zeros(cfg.rows * cfg.columns, dtype=np.int8)
            heights = np.zeros(cfg.columns, dtype=np.int64)
            twin.choose(grid, heights, 1, cfg,
                        Clock(time.perf_counter(), None, None, time_limit=0.05))
        return checks_units(cfg) + [(f"{self.name}.move", move, self.MOVE_COMPILE_SECONDS)]

    def warmup_key(self, cfg):
        """Agents with equal keys compile the same kernels: they share one Warmup."""
        options = tuple(sorted((k, repr(v)) for k, v in self.options.items() if k != "warmup"))
        return (type(self).__name__, options, tuple(cfg))

    def _shared_warmup(self, cfg):
        from agents.players.warmup import shared
        return shared(self.warmup_key(cfg), lambda: self.warmup_units(cfg))

    def _warming_move(self, grid, heights, mark, cfg, clock):
        """:func:`agents.players.warmup.fallback_move`, then the rest of the move's plain
        budget lent to the compiler (not on the first move, which also pays for loading)."""
        from agents.players.warmup import fallback_move
        col = fallback_move(grid, heights, mark, cfg.rows, cfg.columns, cfg.inarow)
        self.warm_moves += 1
        self.last = {"source": "warm-up", "column": col}
        if self._calls > 1:
            self.warm.lend(clock.plain_deadline)
        return col



def checks_units(cfg=None):
    """Units for :class:`agents.players.warmup.Warmup`: the validation kernels every
    agent call runs (``grid_winner``, ``column_heights``) and the shared tactics
    (``tactical_column``), on ``cfg``'s board (default 7x6). The seconds are hand-timed
    compile costs on 7x6."""
    from agents.board.grid import column_heights, grid_winner, scan_cells
    from agents.search.tactics import tactical_move
    cfg = cfg or parse_config(None)
    grid = np.zeros(cfg.rows * cfg.columns, dtype=np.int8)
    heights = np.zeros(cfg.columns, dtype=np.int64)

    def rules():
        grid_winner(grid, cfg.rows, cfg.columns, cfg.inarow)
        column_heights(grid, cfg.rows, cfg.columns)
        # the one-pass check of a Kaggle board (a list of ints: int64)
        scan_cells(np.zeros(cfg.rows * cfg.columns, dtype=np.int64), cfg.rows, cfg.columns,
                   grid.copy(), np.zeros(cfg.columns, dtype=np.int64))
    return [(RULES_UNIT, rules, 1.7),
            ("tactics.tactical_column", lambda: tactical_move(grid, heights, cfg, 1), 0.5)]


def play_kernel(form, rng, grid, heights, mark, cfg):
    """Play :class:`KernelForm` ``form`` on the position: its column, or one of the
    columns it marks drawn from ``rng`` (:func:`pick`)."""
    best = np.zeros(cfg.columns, dtype=np.bool_)
    col = form.move(grid, heights, cfg.rows, cfg.columns, cfg.inarow, mark, best, *form.args)
    return int(col) if col >= 0 else pick(rng, np.flatnonzero(best), cfg)


def pick(rng, columns_list, cfg):
    """Uniform choice among ``columns_list`` (a plain int)."""
    return int(columns_list[int(rng.integers(len(columns_list)))])


def legal_columns(heights, cfg):
    return [c for c in range(cfg.columns) if heights[c] < cfg.rows]

