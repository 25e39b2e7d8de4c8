"""Fuzz the agents: random valid configurations, random reachable positions, short budgets
(the command line: :mod:`scripts.commands.fuzz`, ``connectx fuzz``).

Agents are specs as in :mod:`scripts.arena.specs`
(``minimax:depth=2``, ``negamax``, ``main.py``); a registry agent without options
gets :func:`fuzz_options`.

Each game draws a configuration (rows and columns from 1 to ``--max-side``, now and
then a larger or a one-line board; ``inarow`` from 1 to beyond the board), an
``actTimeout`` and a random reachable position (random legal moves that complete no
line), then the agent plays *both* sides for ``--max-moves`` moves (or to the end), in
the one game loop (:func:`scripts.arena.games.play_out`), which checks every move the
way kaggle-environments does: ERROR (the agent raised), TIMEOUT (the move overran
``actTimeout`` by more than what is left of the game's 60 s ``remainingOverageTime``),
INVALID (not a plain ``int``, or not a legal column).

Reports per agent the games, moves, failures by status, the configurations covered
and the worst move time as a fraction of its budget (``actTimeout`` plus the overage left
before the move) and of ``actTimeout`` alone; the command exits 1 on any failure.
Agents are built once and warmed up (numba compile) before the clock matters.
"""
import random
import time

import numpy as np

import agents
from agents.board.grid import drop, is_win_at
from scripts.arena.games import play_out
from scripts.arena.loading import build_agent
from scripts.arena.bars import progress_bar
from scripts.arena.specs import (MatchConfig, config_struct, observation, parse_match_config,
                                 parse_spec)

# Agents that are not ConnectX players or have no time management of their own, and
# agents that need a file (policy: a network of connectx learn, for one board).
EXCLUDED = {"tutorial", "policy"}
ACT_TIMEOUTS = (0.1, 0.2, 0.5, 1.0, 2.0)
STATUSES = ("ERROR", "INVALID", "TIMEOUT")  # the report's columns


def default_agents():
    return [n for n in agents.names() if n not in EXCLUDED]


def fuzz_options(name):
    """Options that keep each agent fast enough for a fuzz run but still exercise it."""
    return {"minimax": {"depth": 3}, "rules": {"lookahead": 3}}.get(name, {})


def random_config(rng, max_side, act_timeouts=ACT_TIMEOUTS):
    r = rng.random()
    if r < 0.05:
        rows, columns = 1, rng.randint(1, 3 * max_side)
    elif r < 0.10:
        rows, columns = rng.randint(1, 3 * max_side), 1
    elif r < 0.15:
        rows, columns = rng.randint(max_side, 2 * max_side), rng.randint(max_side, 2 * max_side)
    else:
        rows, columns = rng.randint(1, max_side), rng.randint(1, max_side)
    inarow = rng.randint(1, max(rows, columns) + 2)
    return {"rows": rows, "columns": columns, "inarow": inarow,
            "actTimeout": rng.choice(act_timeouts), "remainingOverageTime": 60}


def random_reachable(rng, cfg):
    """(board, heights, mark to move) after random moves that complete no line."""
    rows, columns, inarow = cfg["rows"], cfg["columns"], cfg["inarow"]
    grid = np.zeros(rows * columns, dtype=np.int8)
    heights = np.zeros(columns, dtype=np.int64)
    mark = 1
    for _ in range(rng.randrange(rows * columns)):
        legal = [c for c in range(columns) if heights[c] < rows]
        rng.shuffle(legal)
        for c in legal:
            idx = drop(grid, heights, rows, columns, c, mark)
            if not is_win_at(grid, rows, columns, inarow, idx):
                break
            grid[idx] = 0
            heights[c] -= 1
        else:
            break
        mark = 3 - mark
    return grid, heights, mark


def play_game(agent, cfg, rng, max_moves=None):
    """Self-play from a random reachable position, at most ``max_moves`` moves (None: to
    the end), checked by the one game loop (:func:`scripts.arena.games.play_out`);
    returns (moves, failures, worst ratio to the budget, worst ratio to actTimeout)."""
    grid, heights, _ = random_reachable(rng, cfg)
    match_cfg = MatchConfig(cfg["rows"], cfg["columns"], cfg["inarow"], cfg["actTimeout"],
                            float(cfg["remainingOverageTime"]))
    out = play_out((agent, agent), match_cfg, grid, heights, max_moves=max_moves)
    failures, timed = [], []
    for mark in (0, 1):
        times, budgets = out.times[mark], out.budgets[mark]
        status = out.statuses[mark]
        if status == "ERROR":  # the call that raised made no move
            times, budgets = times[:-1], budgets[:-1]
            failures.append((status, out.trace))
        elif status != "DONE":
            failures.append((status, f"move {out.action!r} ({type(out.action).__name__}) "
                                     f"in {times[-1]:.3f} s"))
        timed += zip(times, budgets)
    act = cfg["actTimeout"]
    worst = max((t / (act + b) for t, b in timed), default=0.0)
    worst_act = max((t / act for t, _ in timed), default=0.0)
    return len(timed), failures, worst, worst_act


def build(text, options=None):
    """The agent of spec ``text``, warmed up (numba compiled) on an empty 7x6 board.
    A registry agent gets :func:`fuzz_options`, then ``options[name]``, then the
    spec's own options."""
    spec = parse_spec(text)
    if spec.kind == "registry":
        agent = agents.make(spec.name, **{**fuzz_options(spec.name),
                                          **(options or {}).get(spec.name, {}), **spec.options})
    else:
        agent = build_agent(spec, 0)
    agent(observation([0] * 42), config_struct(parse_match_config()))  # compile
    return agent


def fuzz(names, submission, games, seconds, seed, max_side, act_timeouts=ACT_TIMEOUTS,
         max_moves=16, options=None, progress=False):
    """Fuzz the agent specs ``names`` (and the file ``submission``) for ``games``
    configurations or ``seconds``, whichever ends first (None: no limit); returns
    ``(report, configurations played, seconds)``, the report a dict per spec.
    ``options`` maps an agent name to options that override :func:`fuzz_options`;
    ``progress`` shows a bar on stderr. ``ValueError`` for a bad spec."""
    texts = list(names) + ([submission] if submission else [])
    players = [(t, build(t, options)) for t in texts]
    rng = random.Random(seed)
    report = {n: {"games": 0, "moves": 0, "worst": 0.0, "worst_act": 0.0, "worst_cfg": None,
                  "configs": set(),
                  **{s: 0 for s in STATUSES}, "examples": []} for n, _ in players}
    start = time.perf_counter()
    played = 0
    by_games = games is not None
    bar = progress_bar(games if by_games else seconds, "fuzz", "config" if by_games else "s",
                       progress)
    while (games is None or played < games) and \
            (seconds is None or time.perf_counter() - start < seconds):
        cfg = random_config(rng, max_side, act_timeouts)
        game_seed = rng.randrange(2**31)
        for name, agent in players:
            moves, failures, worst, worst_act = play_game(agent, cfg, random.Random(game_seed),
                                                          max_moves)
            r = report[name]
            r["games"] += 1
            r["moves"] += moves
            if worst > r["worst"]:
                r["worst"], r["worst_cfg"] = worst, cfg
            r["worst_act"] = max(r["worst_act"], worst_act)
            r["configs"].add((cfg["rows"], cfg["columns"], cfg["inarow"]))
            for status, detail in failures:
                r[status] += 1
                if len(r["examples"]) < 5:
                    r["examples"].append((cfg, status, detail))
        played += 1
        if bar is not None:
            bar.update(1 if by_games else min(seconds, time.perf_counter() - start) - bar.n)
    if bar is not None:
        bar.close()
    return report, played, time.perf_counter() - start
