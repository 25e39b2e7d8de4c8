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
from scripts.arena.specs import config_struct, load_submission, observation

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
    * a text player: a fresh one (its counts of invalid answers are the game's);
    * a callable: itself."""
    if spec.kind == "callable":
        return spec.name
    if spec.kind == "kaggle":
        return _seeded_builtin(spec.name, seed)
    if spec.kind == "text":
        from scripts.arena.textplayer import text_player_from_options
        return text_player_from_options(spec.options)
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
    enough. A copy of the function sees ``choice`` of its own ``random.Random``, and
    faster stand-ins of kaggle's ``is_win`` and ``play`` (:func:`_tabled_is_win`,
    :func:`_play`: the same answers, so the same moves and the same draws; ``negamax``
    spends most of its time in them and runs about 2.5 times faster)."""
    from kaggle_environments.envs.connectx.connectx import agents as builtins
    fn = builtins[name]
    namespace = dict(fn.__globals__)
    namespace["choice"] = random.Random(seed).choice
    namespace["is_win"] = _tabled_is_win(fn.__globals__["is_win"])
    namespace["play"] = _play
    return types.FunctionType(fn.__code__, namespace, fn.__name__, fn.__defaults__,
                              fn.__closure__)


_RAYS = {}  # (rows, columns, inarow) -> for each cell, the lines through it as rays


def _dims(config):
    """``(rows, columns, inarow)`` of a configuration: item reads when it is a dict
    (kaggle's and the package's structs), as fast as a read can be; else attributes."""
    if isinstance(config, dict):
        return config["rows"], config["columns"], config["inarow"]
    return config.rows, config.columns, config.inarow


def _rays(rows, columns, inarow):
    """For each cell (``c + r * columns``) the four lines through it as kaggle's
    ``is_win`` counts them (downward; both ways across; both diagonals), each a tuple of
    rays: the cells up to ``inarow - 1`` away in one direction on the board, nearest first."""
    key = (rows, columns, inarow)
    if key not in _RAYS:
        def ray(r, c, dr, dc):  # the cells on the board form a prefix of the ray
            return tuple((c + dc * i) + (r + dr * i) * columns for i in range(1, inarow)
                         if 0 <= r + dr * i < rows and 0 <= c + dc * i < columns)
        axes = (((1, 0),), ((0, 1), (0, -1)), ((-1, -1), (1, 1)), ((-1, 1), (1, -1)))
        _RAYS[key] = [tuple(tuple(ray(r, c, dr, dc) for dr, dc in axis) for axis in axes)
                      for r in range(rows) for c in range(columns)]
    return _RAYS[key]


def _tabled_is_win(original):
    """kaggle's ``is_win(board, column, mark, config, has_played=True)`` with the lines
    through each cell tabled (:func:`_rays`): the same answer on any board
    (``tests/test_match.py`` compares them); ``has_played=True``, which its built-in
    agents never ask, is ``original``'s."""
    def is_win(board, column, mark, config, has_played=True):
        if has_played:
            return original(board, column, mark, config, has_played)
        rows, columns, inarow = _dims(config)
        row = _lowest_empty(board, column, rows, columns)
        need = inarow - 1
        for axis in _rays(rows, columns, inarow)[column + row * columns]:
            n = 0
            for cells in axis:
                for i in cells:
                    if board[i] != mark:
                        break
                    n += 1
            if n >= need:
                return True
        return False
    return is_win


def _lowest_empty(board, column, rows, columns):
    """kaggle's row for a drop: the largest empty row of ``column`` (``ValueError`` if
    none, as kaggle's ``max`` of nothing)."""
    row = rows - 1
    while board[column + row * columns] != 0:
        row -= 1
        if row < 0:
            raise ValueError(f"column {column} is full")
    return row


def _play(board, column, mark, config):
    """kaggle's ``play``: ``mark`` into the largest empty row of ``column``, in place."""
    rows, columns, _ = _dims(config)
    board[column + _lowest_empty(board, column, rows, columns) * columns] = mark


def warm_up(spec, cfg):
    """Call the agent once as each colour, untimed, so numba compiles before the
    first timed move (once per process and spec). Not a text player: its moves are
    questions to a model, not compiled code."""
    if spec.kind == "text" or getattr(spec.name, "asks_text", False):
        return
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
            agent(observation(board), config)
            board[(cfg.rows - 1) * cfg.columns + cfg.columns // 2] = 1
            agent(observation(board), config)
    except Exception:  # noqa: BLE001 - failures are reported by the timed game itself
        pass
