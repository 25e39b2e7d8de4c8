"""The shared game runner behind ``scripts.arena.match`` and ``scripts.arena.tournament``.

An agent *spec* is one of

* a registry name with options, ``name[:key=value,key=value]`` (``minimax:depth=4``,
  ``alphabeta:time_limit=0.2``); values are read as int, float, True/False, None or
  else a string;
* a kaggle-environments built-in: ``kaggle.random``, ``kaggle.negamax``, or plain
  ``negamax`` (plain ``random`` is the package's own seeded random agent);
* a path to a submission file ending in ``.py`` (its last callable is the agent, as
  kaggle-environments loads it).

A game is described by a :class:`Game` task (specs in colour order, its seed and the
config) and played by :func:`play_game` in whatever process runs it; the result is a
plain dict (JSON-ready). Games never raise: an agent that raises, returns a bad
column or runs out of time loses the game with status ERROR, INVALID or TIMEOUT, as
on Kaggle.

Reproducibility: each game's seed is derived from (match seed, game index) only, a
fresh registry agent with a ``seed`` option is built for every game and seeded from
it (the others are built once per process and reused), the kaggle built-ins get a private ``random.Random`` seeded from
it, and Python's ``random`` and numpy's global generator are seeded before each
game (for submission files). The numba kernels are compiled once per process. So a
match gives the same games whatever the number of workers -- for agents whose moves
do not depend on the clock (fixed depth or iterations, not ``time_limit``) and,
for unseeded registry agents and submission files, whose moves do not depend on
earlier games. A submission file drawing from the global generators is not
reproducible on a Dask worker, whose event loop draws from them in another thread.

Size: ~450 lines, one job (specs in, games out, on one machine, in a pool or on
dask); the summaries and statistics of the results live in :mod:`scripts.arena.match` and
:mod:`scripts.arena.stats`.
"""
import contextlib
import io
import math
import os
import random
import threading
import time
import types
from collections import namedtuple

import numpy as np

import agents
from agents.board.grid import drop, is_win_at
from agents.board.rules import parse_config
# the command lines' helpers, re-exported here for the scripts that import them from runner
from scripts.args import (ArgumentParser, fail, parse_options, parse_value, positive_int_arg, require)

from scripts.arena.stats import Z95, wilson

KAGGLE_PREFIX = "kaggle."
KAGGLE_BUILTINS = ("random", "negamax")
STATUSES = ("DONE", "INVALID", "TIMEOUT", "ERROR")
FAILURES = STATUSES[1:]

# kaggle-environments' defaults for the time control
ACT_TIMEOUT = 2.0
OVERAGE = 60.0
MAX_OUTPUT = 2000  # characters of an agent's printed output kept per game

Spec = namedtuple("Spec", "text kind name options")  # kind: registry | kaggle | file
# specs[0] plays mark 1; opening: 1-based move string played before the agents move
Game = namedtuple("Game", "index specs seed config opening", defaults=("",))
MatchConfig = namedtuple("MatchConfig", "rows columns inarow actTimeout remainingOverageTime")


class Struct(dict):
    """A dict that also reads as attributes, like kaggle-environments' observations."""

    def __getattr__(self, name):
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None


# ---------------------------------------------------------------------------
# Parsing (raises ValueError with a one-line message)
# ---------------------------------------------------------------------------


def parse_spec(text):
    """A validated :class:`Spec`; registry options are checked by building the agent.

    ``text`` may also be an agent callable (``agents.make(...)``, a function): its
    Spec has kind "callable", the callable as ``name`` and its ``__name__`` (or
    class name) as ``text``; such agents are played in this process only."""
    if callable(text):
        label = getattr(text, "__name__", None) or type(text).__name__
        return Spec(label, "callable", text, {})
    if not isinstance(text, str) or not text.strip():
        raise ValueError(f"empty agent spec {text!r}")
    text = text.strip()
    if text.endswith(".py"):
        load_submission(text)  # fails early, in the main process, with a clear message
        return Spec(text, "file", text, {})
    name, sep, rest = text.partition(":")
    options = parse_options(rest, f"agent {text!r}") if sep else {}
    if name in agents.AGENTS:
        try:
            agents.make(name, **options)
        except ValueError as e:
            raise ValueError(f"agent {text!r}: {e}") from None
        return Spec(text, "registry", name, options)
    builtin = name[len(KAGGLE_PREFIX):] if name.startswith(KAGGLE_PREFIX) else name
    if builtin in KAGGLE_BUILTINS and (name != builtin or builtin not in agents.AGENTS):
        if options:
            raise ValueError(f"kaggle built-in agent {name!r} takes no options")
        require("kaggle_environments", f"agent {name!r} (a kaggle built-in)")
        return Spec(text, "kaggle", builtin, {})
    valid = ", ".join(agents.names())
    kaggle = ", ".join(KAGGLE_PREFIX + b for b in KAGGLE_BUILTINS)
    raise ValueError(f"unknown agent {name!r}; valid: {valid}; kaggle built-ins: {kaggle}, "
                     "negamax; or a path to a submission .py file")


def in_process_only(specs, workers, dask):
    """``ValueError`` if agent callables are to be played in other processes."""
    if any(s.kind == "callable" for s in specs) and (workers > 1 or dask is not None):
        raise ValueError("agent callables are played in this process only: use workers=1 "
                         "and no dask, or pass spec strings")


def parse_match_config(text=None):
    """``"rows=R,columns=C,inarow=K"`` (also ``actTimeout``, ``remainingOverageTime``)
    -> :class:`MatchConfig`; missing fields take kaggle's defaults (6, 7, 4, 2 s, 60 s)."""
    values = parse_options(text, "--config") if text else {}
    allowed = MatchConfig._fields
    unknown = sorted(set(values) - set(allowed))
    if unknown:
        raise ValueError(f"unknown config field(s) {', '.join(unknown)}; valid: {', '.join(allowed)}")
    cfg = parse_config({k: values[k] for k in ("rows", "columns", "inarow") if k in values})
    times = {}
    for key, default in (("actTimeout", ACT_TIMEOUT), ("remainingOverageTime", OVERAGE)):
        value = values.get(key, default)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
            raise ValueError(f"config.{key} must be a number >= 0, got {value!r}")
        times[key] = float(value)
    return MatchConfig(cfg.rows, cfg.columns, cfg.inarow, **times)


def load_submission(path):
    """The agent in a submission file: its last callable, as kaggle-environments'
    ``agent.get_last_callable`` takes it. ``ValueError`` if the file cannot be read,
    does not run, or defines no callable."""
    try:
        with open(path, encoding="utf-8") as f:
            source = f.read()
    except (OSError, UnicodeDecodeError) as e:
        raise ValueError(f"cannot read submission file {path!r}: {e.strerror or e}") from None
    env = {"__name__": "__submission__", "__file__": os.path.abspath(path)}
    try:
        exec(compile(source, path, "exec"), env)
    except Exception as e:  # noqa: BLE001 - any failure of user code is reported, not raised
        raise ValueError(f"submission file {path!r} fails to load: "
                         f"{type(e).__name__}: {e}") from None
    found = [v for k, v in env.items() if callable(v) and k != "__builtins__"]
    if not found:
        raise ValueError(f"submission file {path!r} defines no callable agent")
    return found[-1]


def game_seeds(match_seed, n):
    """One 32-bit seed per game, from (match seed, game index) only."""
    children = np.random.SeedSequence(match_seed).spawn(n)
    return [int(c.generate_state(1)[0]) for c in children]


# ---------------------------------------------------------------------------
# Agents in the worker process
# ---------------------------------------------------------------------------

_local = threading.local()  # per process and thread: loaded agents, warmed specs


def _cache():
    if not hasattr(_local, "loaded"):
        _local.loaded, _local.warm = {}, set()
    return _local


def build_agent(spec, seed):
    """A callable agent for one game.

    * a registry agent with a ``seed`` option: a fresh one, seeded with ``seed``
      unless the spec fixes the seed (then every game starts from that seed);
    * a registry agent without one: built once per process and reused (such
      agents -- alphabeta clears its tables every search -- must not carry
      anything from one game to the next; some, like perfect, load a book);
    * a kaggle built-in: a copy with its own ``random.Random(seed)``;
    * a submission file: loaded once per process;
    * a callable: itself."""
    if spec.kind == "callable":
        return spec.name
    if spec.kind == "kaggle":
        return _seeded_builtin(spec.name, seed)
    if spec.kind == "registry" and "seed" in agents.agent_class(spec.name).OPTIONS:
        return agents.make(spec.name, **{"seed": seed, **spec.options})
    cache = _cache().loaded
    if spec.text not in cache:
        cache[spec.text] = agents.make(spec.name, **spec.options) if spec.kind == "registry" \
            else load_submission(spec.name)
    return cache[spec.text]


def _seeded_builtin(name, seed):
    """kaggle's built-in agent ``name`` drawing from a private generator.

    The built-ins call ``random.choice`` (module-global state); a Dask worker's
    event loop draws from that same state in another thread, so seeding it is not
    enough. A copy of the function sees ``choice`` of its own ``random.Random``."""
    from kaggle_environments.envs.connectx.connectx import agents as builtins
    fn = builtins[name]
    namespace = dict(fn.__globals__)
    namespace["choice"] = random.Random(seed).choice
    return types.FunctionType(fn.__code__, namespace, fn.__name__, fn.__defaults__,
                              fn.__closure__)


def config_struct(cfg):
    return Struct(rows=cfg.rows, columns=cfg.columns, inarow=cfg.inarow,
                  actTimeout=cfg.actTimeout, timeout=cfg.actTimeout,
                  agentTimeout=cfg.remainingOverageTime, episodeSteps=1000, runTimeout=1200)


def warm_up(spec, cfg):
    """Call the agent once as each colour, untimed, so numba compiles before the
    first timed move (once per process and spec)."""
    state = _cache()
    key = (id(spec.name) if spec.kind == "callable" else spec.text, cfg.rows, cfg.columns,
           cfg.inarow)
    if key in state.warm:
        return
    state.warm.add(key)
    agent = build_agent(spec, 0)
    config = config_struct(cfg)
    board = [0] * (cfg.rows * cfg.columns)
    sink = io.StringIO()
    try:
        with contextlib.redirect_stdout(sink), contextlib.redirect_stderr(sink):
            agent(Struct(board=list(board), mark=1, step=0, remainingOverageTime=OVERAGE), config)
            board[(cfg.rows - 1) * cfg.columns + cfg.columns // 2] = 1
            agent(Struct(board=list(board), mark=2, step=1, remainingOverageTime=OVERAGE), config)
    except Exception:  # noqa: BLE001 - failures are reported by the timed game itself
        pass


# ---------------------------------------------------------------------------
# One game
# ---------------------------------------------------------------------------


def _valid_column(action, heights, cfg):
    # kaggle-environments accepts a plain int only (numpy ints and floats are invalid)
    return (type(action) is int and 0 <= action < cfg.columns
            and heights[action] < cfg.rows)


def play_game(game):
    """Play :class:`Game` ``game``; a JSON-ready dict:

    ``index, seed, agents`` (spec texts by mark), ``opening`` (the game's opening, a
    1-based move string, "" for the empty board), ``moves`` (columns, 0-based, the
    opening's first: the agents move from step ``len(opening)`` on and see an
    ordinary observation of that position),
    ``winner`` (mark 1 or 2, 0 for a draw), ``result`` ("1-0", "0-1" or "1/2-1/2"),
    ``statuses`` (DONE, INVALID, TIMEOUT or ERROR per mark), ``error`` (message of
    the failure, or None), ``times`` (seconds per move, per mark), ``cpu`` (CPU
    seconds of the game's process during the game: on a busy machine the move times
    are wall times and can be several times larger), ``wall`` (seconds the game
    took), ``worker`` (id of the process that played it), ``output`` (what each agent
    printed, at most :data:`MAX_OUTPUT` characters)."""
    cfg = game.config
    for spec in game.specs:
        warm_up(spec, cfg)
    cpu_start, wall_start = time.process_time(), time.perf_counter()
    seq = np.random.SeedSequence(game.seed)
    py_seed, np_seed, seed1, seed2 = (int(s) for s in seq.generate_state(4))
    random.seed(py_seed)
    np.random.seed(np_seed)
    players = [build_agent(game.specs[0], seed1), build_agent(game.specs[1], seed2)]
    config = config_struct(cfg)
    grid = np.zeros(cfg.rows * cfg.columns, dtype=np.int8)
    heights = np.zeros(cfg.columns, dtype=np.int64)
    overage = [cfg.remainingOverageTime] * 2
    moves, times = [], [[], []]
    output = [io.StringIO(), io.StringIO()]
    statuses = ["DONE", "DONE"]
    winner, error = 0, None
    for i, ch in enumerate(game.opening):  # checked by scripts.arena.openings: legal, not over
        col = int(ch) - 1
        if not _valid_column(col, heights, cfg):
            raise ValueError(f"opening {game.opening!r}: move {i + 1} is not legal")
        idx = drop(grid, heights, cfg.rows, cfg.columns, col, 1 + i % 2)
        if is_win_at(grid, cfg.rows, cfg.columns, cfg.inarow, idx):
            raise ValueError(f"opening {game.opening!r} is already won")
        moves.append(col)
    for step in range(len(game.opening), cfg.rows * cfg.columns):
        p = step % 2
        mark = p + 1
        obs = Struct(board=[int(v) for v in grid], mark=mark, step=step,
                     remainingOverageTime=overage[p])
        start = time.perf_counter()
        # like kaggle-environments, keep what the agent prints out of our output
        with contextlib.redirect_stdout(output[p]), contextlib.redirect_stderr(output[p]):
            try:
                action = players[p](obs, config)
                failure = None
            except Exception as e:  # noqa: BLE001 - the agent's bug loses the game, not the run
                action, failure = None, ("ERROR", f"{type(e).__name__}: {e}")
        elapsed = time.perf_counter() - start
        times[p].append(elapsed)
        if failure is None and elapsed - cfg.actTimeout > overage[p]:
            failure = ("TIMEOUT", f"move took {elapsed:.3f} s with {cfg.actTimeout:g} s per move "
                                  f"and {overage[p]:.3f} s overage left")
        if failure is None and not _valid_column(action, heights, cfg):
            failure = ("INVALID", f"invalid column {action!r} ({type(action).__name__})")
        if failure is not None:
            statuses[p], error = failure
            winner = 2 - p  # the other mark
            break
        overage[p] -= max(0.0, elapsed - cfg.actTimeout)
        moves.append(action)
        idx = drop(grid, heights, cfg.rows, cfg.columns, action, mark)
        if is_win_at(grid, cfg.rows, cfg.columns, cfg.inarow, idx):
            winner = mark
            break
    result = {0: "1/2-1/2", 1: "1-0", 2: "0-1"}[winner]
    return {"index": game.index, "seed": game.seed, "agents": [s.text for s in game.specs],
            "opening": game.opening, "moves": moves, "winner": winner, "result": result,
            "statuses": statuses, "error": error, "times": times, "cpu": time.process_time() - cpu_start,
            "wall": time.perf_counter() - wall_start, "worker": os.getpid(),
            "output": [o.getvalue()[:MAX_OUTPUT] for o in output]}


# ---------------------------------------------------------------------------
# Many games: in process, in a process pool, or on a Dask cluster
# ---------------------------------------------------------------------------


def run_games(games, workers=1, dask=None, on_result=None, pool=None):
    """Play ``games`` and return their results in the order given.

    ``workers`` > 1 plays them in that many processes; ``dask`` (an address such as
    ``tcp://host:8786``, or a ``distributed.Client``) plays them on a Dask cluster.
    ``on_result(result)`` is called as each game finishes (in completion order).
    ``pool``: a :func:`process_pool` to play them in (kept open by the caller across
    calls, so the same worker processes play every round of an SPRT)."""
    games = list(games)
    results = [None] * len(games)
    position = {g.index: i for i, g in enumerate(games)}

    def done(result):
        results[position[result["index"]]] = result
        if on_result is not None:
            on_result(result)

    if dask is not None:
        _run_dask(games, dask, done)
    elif pool is not None or (workers > 1 and len(games) > 1):
        from concurrent.futures import as_completed
        with contextlib.ExitStack() as stack:
            if pool is None:
                pool = stack.enter_context(process_pool(games, workers))
            futures = [pool.submit(play_game, g) for g in games]
            for f in as_completed(futures):
                done(f.result())
    else:
        for g in games:
            done(play_game(g))
    return results


def process_pool(games, workers):
    """A ``ProcessPoolExecutor`` of ``workers`` processes for ``games`` (forked where
    the platform allows, after compiling each spec here once: the workers inherit the
    machine code)."""
    from concurrent.futures import ProcessPoolExecutor
    context = _fork_context()
    if context is not None:
        todo = {(s.text, g.config): (s, g.config) for g in games for s in g.specs}
        for spec, cfg in todo.values():
            warm_up(spec, cfg)
    return ProcessPoolExecutor(max_workers=workers, mp_context=context)


def _fork_context():
    """The "fork" start method where the platform has it (Linux), else None (the
    default: each worker then compiles the kernels itself)."""
    import multiprocessing
    if "fork" in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("fork")
    return None


def _run_dask(games, dask, done):
    require("distributed", "--dask")
    from distributed import Client, as_completed
    own = not isinstance(dask, Client)
    try:
        client = Client(dask, timeout="10s") if own else dask
    except (OSError, TimeoutError, ValueError) as e:
        raise ValueError(f"cannot connect to Dask scheduler {dask!r}: {e}") from None
    try:
        # the scheduler unpickles the tasks and the workers run them: both need this
        # package importable (installed, same version), not only this machine
        try:
            client.run_on_scheduler(exec, "import scripts.arena.runner")
            client.run(exec, "import scripts.arena.runner")
        except ImportError as e:
            raise ValueError(f"the Dask scheduler or a worker cannot import this package "
                             f"({e}); install it on every machine of the cluster") from None
        futures = client.map(play_game, games, pure=False)
        for f in as_completed(futures):
            done(f.result())
    finally:
        if own:
            client.close()


# ---------------------------------------------------------------------------
# Scores and intervals
# ---------------------------------------------------------------------------



def score_of(result, mark):
    """1, 0.5 or 0 for the agent that played ``mark`` in ``result``."""
    if result["winner"] == 0:
        return 0.5
    return 1.0 if result["winner"] == mark else 0.0


def score_interval(score, n, z=Z95):
    """Wilson interval for a mean score over ``n`` games (draws count 1/2: conservative)."""
    if n == 0:
        return 0.0, 1.0
    low, high = wilson(score, n, z)
    # exact ends for all wins / all losses (rounding would leave 0.9999999999999999)
    return (0.0 if score <= 0 else low), (1.0 if score >= 1 else high)


def elo_difference(score):
    """400 log10(s / (1 - s)); +-inf at 1 and 0."""
    if score >= 1:
        return float("inf")
    if score <= 0:
        return float("-inf")
    return 400.0 * math.log10(score / (1 - score))


def format_elo(value):
    if math.isinf(value):
        return "+inf" if value > 0 else "-inf"
    return f"{value:+.0f}"

