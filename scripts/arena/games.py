"""The one game loop: agents move in turn, each move checked as kaggle-environments
checks it.

:func:`play_out` plays from any position and is shared by every command that plays a
game (matches and tournaments through :func:`play_game`, ``fuzz``, ``play``, the
heuristic comparison). A move is checked by :func:`move_failure`, Kaggle's rule:

* ``ERROR``   the agent raised;
* ``TIMEOUT`` the move overran ``actTimeout`` by more than the overage left (every
  move's excess over ``actTimeout`` is taken from the agent's ``remainingOverageTime``);
* ``INVALID`` the move is not a plain ``int`` (numpy integers, bools and floats are
  rejected by the environment) or not a legal column.

A failure ends the game; the other mark wins. :func:`play_game` plays a
:class:`Fixture` task (specs in colour order, its seed, the config and an opening) in
whatever process runs it and returns a plain dict (JSON-ready); games never raise.

Reproducibility: each game's seed is derived from (match seed, game index) only
(:func:`game_seeds`); Python's ``random`` and numpy's global generator are seeded
before each game (for submission files), and the agents are seeded as
:mod:`scripts.arena.loading` says. So a match gives the same games whatever the number
of workers -- for agents whose moves do not depend on the clock (fixed depth or
iterations, not ``time_limit``) and, for unseeded registry agents and submission
files, whose moves do not depend on earlier games. A submission file drawing from the
global generators is not reproducible on a Dask worker, whose event loop draws from
them in another thread.
"""
import contextlib
import io
import os
import random
import time
import traceback
from collections import namedtuple

import numpy as np

from agents.board.grid import drop, is_win_at
from scripts.arena.loading import build_agent, warm_up
from scripts.arena.specs import config_struct, observation
from scripts.arena.textplayer import answers_so_far, game_answers

STATUSES = ("DONE", "INVALID", "TIMEOUT", "ERROR")
FAILURES = STATUSES[1:]
MAX_OUTPUT = 2000  # characters of an agent's printed output kept per game

# specs[0] plays mark 1; opening: 1-based move string played before the agents move
Fixture = namedtuple("Fixture", "index specs seed config opening", defaults=("",))

# moves: the columns played by the agents (0-based); winner: 1 or 2, 0 for a draw or a
# game stopped by max_moves; statuses: per mark; error: message of the failure or None;
# action, trace: the failing move's return value and (ERROR) its traceback;
# times: seconds per move, per mark; budgets: overage left before each move, per mark
Outcome = namedtuple("Outcome", "moves winner statuses error action trace times budgets")


def game_seeds(match_seed, n):
    """One 32-bit seed per game, from (match seed, game index) only."""
    children = np.random.SeedSequence(match_seed).spawn(n)
    return [int(c.generate_state(1)[0]) for c in children]


def is_legal(action, heights, cfg):
    """Whether kaggle-environments accepts ``action``: a plain int (numpy ints, bools and
    floats are invalid) naming a column that is not full."""
    return (type(action) is int and 0 <= action < cfg.columns
            and heights[action] < cfg.rows)


def move_failure(action, elapsed, overage, heights, cfg):
    """``None`` for a move Kaggle accepts, else ``(status, message)``: TIMEOUT if the move took
    more than ``actTimeout`` plus the ``overage`` left, then INVALID (as Kaggle
    checks)."""
    if elapsed - cfg.actTimeout > overage:
        return ("TIMEOUT", f"move took {elapsed:.3f} s with {cfg.actTimeout:g} s per move "
                           f"and {overage:.3f} s overage left")
    if not is_legal(action, heights, cfg):
        return ("INVALID", f"invalid column {action!r} ({type(action).__name__})")
    return None


def start_position(columns, cfg, label=None):
    """``(grid, heights)`` after the 0-based ``columns`` from the empty board;
    ``ValueError`` (naming ``label``, the opening's text) if a move is illegal or the
    position is already won."""
    label = repr(label if label is not None else list(columns))
    grid = np.zeros(cfg.rows * cfg.columns, dtype=np.int8)
    heights = np.zeros(cfg.columns, dtype=np.int64)
    for i, col in enumerate(columns):
        if not is_legal(col, heights, cfg):
            raise ValueError(f"opening {label}: move {i + 1} is not legal")
        idx = drop(grid, heights, cfg.rows, cfg.columns, col, 1 + i % 2)
        if is_win_at(grid, cfg.rows, cfg.columns, cfg.inarow, idx):
            raise ValueError(f"opening {label} is already won")
    return grid, heights


def play_out(players, cfg, grid, heights, timed=True, outputs=None, max_moves=None,
             on_move=None):
    """Play from the position ``grid``, ``heights`` (changed in place; the side to move
    follows from the stone count) until a win, a full board, a failure or
    ``max_moves`` moves; an :class:`Outcome`.

    ``players[0]`` plays mark 1, ``players[1]`` mark 2, each called as
    ``player(obs, config)`` with kaggle's observation and config of :class:`MatchConfig`
    ``cfg``. ``timed``: check TIMEOUT and count the overage (else every move sees the
    full ``remainingOverageTime``). ``outputs``: two text streams that take what each
    player prints (None: leave it on the console). ``on_move(mark, column, grid)`` is
    called after each move is played. An exception that is not an ``Exception`` (a
    ``KeyboardInterrupt``, a human quitting) is not the player's ERROR: it propagates."""
    config = config_struct(cfg)
    overage = [cfg.remainingOverageTime] * 2
    moves, times, budgets = [], [[], []], [[], []]
    statuses = ["DONE", "DONE"]
    winner, failure, action, trace = 0, None, None, None
    step = int(heights.sum())
    while step < cfg.rows * cfg.columns and (max_moves is None or len(moves) < max_moves):
        p = step % 2
        mark = p + 1
        obs = observation(grid, mark, step, overage[p])
        budgets[p].append(overage[p])
        with contextlib.ExitStack() as stack:
            if outputs is not None:  # like kaggle-environments, keep it out of our output
                stack.enter_context(contextlib.redirect_stdout(outputs[p]))
                stack.enter_context(contextlib.redirect_stderr(outputs[p]))
            start = time.perf_counter()
            try:
                action = players[p](obs, config)
            except Exception as e:  # noqa: BLE001 - the agent's bug loses the game, not the run
                action, failure = None, ("ERROR", f"{type(e).__name__}: {e}")
                trace = traceback.format_exc(limit=3)
            elapsed = time.perf_counter() - start
        times[p].append(elapsed)
        if failure is None:
            left = overage[p] if timed else float("inf")
            failure = move_failure(action, elapsed, left, heights, cfg)
        if failure is not None:
            statuses[p] = failure[0]
            winner = 2 - p  # the other mark
            break
        if timed:
            overage[p] -= max(0.0, elapsed - cfg.actTimeout)
        moves.append(action)
        idx = drop(grid, heights, cfg.rows, cfg.columns, action, mark)
        if on_move is not None:
            on_move(mark, action, grid)
        if is_win_at(grid, cfg.rows, cfg.columns, cfg.inarow, idx):
            winner = mark
            break
        step += 1
    return Outcome(moves, winner, statuses, failure[1] if failure else None, action, trace,
                   times, budgets)


def play_game(game):
    """Play :class:`Fixture` ``game``; a JSON-ready dict:

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
    printed, at most :data:`MAX_OUTPUT` characters), ``text`` (for a text player, its
    invalid answers and fallback moves in this game, else None, per mark:
    :func:`scripts.arena.textplayer.game_answers`)."""
    cfg = game.config
    for spec in game.specs:
        warm_up(spec, cfg)
    cpu_start, wall_start = time.process_time(), time.perf_counter()
    seq = np.random.SeedSequence(game.seed)
    py_seed, np_seed, seed1, seed2 = (int(s) for s in seq.generate_state(4))
    random.seed(py_seed)
    np.random.seed(np_seed)
    players = [build_agent(game.specs[0], seed1), build_agent(game.specs[1], seed2)]
    before = [answers_so_far(p) for p in players]
    opening = [int(ch) - 1 for ch in game.opening]  # checked by scripts.arena.suites
    grid, heights = start_position(opening, cfg, game.opening)
    output = [io.StringIO(), io.StringIO()]
    out = play_out(players, cfg, grid, heights, outputs=output)
    result = {0: "1/2-1/2", 1: "1-0", 2: "0-1"}[out.winner]
    return {"index": game.index, "seed": game.seed, "agents": [s.text for s in game.specs],
            "opening": game.opening, "moves": opening + out.moves, "winner": out.winner,
            "result": result, "statuses": out.statuses, "error": out.error,
            "times": out.times, "cpu": time.process_time() - cpu_start,
            "wall": time.perf_counter() - wall_start, "worker": os.getpid(),
            "output": [o.getvalue()[:MAX_OUTPUT] for o in output],
            "text": [game_answers(p, b) for p, b in zip(players, before)]}


def score_of(result, mark):
    """1, 0.5 or 0 for the agent that played ``mark`` in ``result``."""
    if result["winner"] == 0:
        return 0.5
    return 1.0 if result["winner"] == mark else 0.0
