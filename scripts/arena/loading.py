"""Agents in the process that plays them: built once (or per game, when seeded),
warmed up before their first timed move.

Reproducibility: a fresh registry agent with a ``seed`` option is built for every game
and seeded from the game's seed (the others are built once per process and reused),
the kaggle built-ins get a private ``random.Random`` seeded from it. The numba kernels
are compiled once per process (:func:`warm_up`).
"""
import contextlib
import io
import random
import threading
import types

import agents
from agents.players.base import Struct
from scripts.arena.specs import OVERAGE, config_struct, load_submission

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
