"""Judge any player against perfect play: its move on every position of a labelled set
(:mod:`agents.solver.labels`), compared with the exact scores of the columns.

:func:`score` calls the agent once a position, as kaggle-environments would (a fresh
observation, ``actTimeout`` and a ``remainingOverageTime`` of ``overage`` seconds a
position), and checks each move by :func:`scripts.arena.games.judge` (Kaggle's rule: an
exception is ERROR, a move past ``actTimeout`` plus the overage is TIMEOUT, anything but a
plain ``int`` naming a legal column is INVALID). A move's verdict (perfect, good, its
loss) is :func:`agents.solver.labels.verdicts`', the package's one judge of a move.

A failed move is neither perfect nor good and has no loss; failures are counted by
status, and the first message of each is kept: a bad agent never stops the run. The
report gives each stage (opening, middle, end) and all positions: ``n``, the perfect-
and good-move rates with their 95% Wilson intervals, the mean loss over the moves
played, the failures. :func:`expected_random` is the perfect-move rate a uniformly
random player expects on the same positions (the share of best columns among the legal
ones), the floor to read a rate against.
"""
import functools
import os
import time

import numpy as np

from agents.solver.labels import STAGES, verdicts
from scripts.arena.games import FAILURES, judge
from scripts.arena.loading import build_agent, warm_up
from scripts.arena.pools import run_tasks
from scripts.arena.specs import (MatchConfig, Struct, config_struct, in_process_only, observation,
                                 parse_spec)
from scripts.arena.stats import wilson


# the shipped 7x6 set (connectx dataset --positions 1000 --seed 0)
DEFAULT_SET = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data",
                           "labelled", "7x6.npz")


def judge_moves(agent, labelled, index=None, act=2.0, overage=0.0, on_move=None):
    """``(columns, failures)`` of ``agent`` (a callable ``agent(obs, config)``) on the
    positions ``index`` of ``labelled`` (default: all): the column played at each (-1
    where the move failed) and ``{position: (status, message)}`` of the failed ones.
    ``on_move()`` is called after each position."""
    cfg = MatchConfig(labelled.rows, labelled.columns, labelled.inarow, float(act), float(overage))
    config = config_struct(cfg)
    index = range(len(labelled)) if index is None else index
    columns, failures = [], {}
    for i in index:
        board, mark = labelled.observation(i)
        heights = labelled.planes[i].sum(axis=(0, 2)).astype(np.int64)  # stones a column
        obs = observation(board, mark, int(heights.sum()), float(overage))
        start = time.perf_counter()
        try:
            action = agent(obs, config)
        except Exception as e:  # noqa: BLE001 - a failing agent is judged, never crashes the run
            failure = ("ERROR", f"{type(e).__name__}: {e}")
        else:
            failure = judge(action, time.perf_counter() - start, float(overage), heights, cfg)
        if failure is None:
            columns.append(int(action))
        else:
            columns.append(-1)
            failures[int(i)] = failure
        if on_move is not None:
            on_move()
    return columns, failures


def expected_random(labelled, index=None):
    """The mean over the positions of (best columns / legal columns): a uniformly random
    player's expected perfect-move rate."""
    index = range(len(labelled)) if index is None else index
    shares = [len(labelled.best(i)) / len(labelled.legal(i)) for i in index]
    return float(np.mean(shares)) if shares else float("nan")


def summarise(labelled, columns, failures):
    """Rows of the report, one a stage then ``"all"``: dicts of ``stage, n, perfect,
    perfect_low, perfect_high, good, good_low, good_high, loss`` (mean, over the moves
    played), ``failures`` (count) and ``random`` (a random player's expected perfect rate).
    ``labelled``: any :class:`agents.solver.labels.LabelledSet` (the game judge passes a
    game's positions); ``columns``: the column played at each (-1: a failed move)."""
    perfect, good, loss = verdicts(labelled.scores, columns)
    failed = np.array([c < 0 for c in columns], dtype=bool)
    rows = []
    for name, mask in [(s, labelled.stage == k) for k, s in enumerate(STAGES)] + \
            [("all", np.ones(len(labelled), dtype=bool))]:
        n = int(mask.sum())
        row = {"stage": name, "n": n}
        for what, hits in (("perfect", perfect), ("good", good)):
            rate = float(hits[mask].mean()) if n else float("nan")
            low, high = wilson(rate, n) if n else (float("nan"), float("nan"))
            row.update({what: rate, f"{what}_low": low, f"{what}_high": high})
        played = mask & ~failed
        row["loss"] = float(loss[played].mean()) if played.any() else float("nan")
        row["failures"] = int((mask & failed).sum())
        row["random"] = expected_random(labelled, np.flatnonzero(mask))
        rows.append(row)
    return rows


CHUNK = 50  # positions a chunk: each is judged by an agent seeded from (seed, chunk)


def _judge_chunk(task, on_move=None):
    """``(start, columns, failures)`` of one chunk (see :func:`score`), in any process."""
    spec, labelled, start, stop, seed, act, overage = task
    cfg = MatchConfig(labelled.rows, labelled.columns, labelled.inarow, float(act), float(overage))
    warm_up(spec, cfg)
    seeds = np.random.SeedSequence(seed, spawn_key=(start // CHUNK,)).generate_state(1)
    player = build_agent(spec, int(seeds[0]))
    columns, failures = judge_moves(player, labelled, range(start, stop), act, overage, on_move)
    return start, columns, failures


def score(agent, labelled, act=2.0, overage=0.0, seed=0, on_move=None, workers=1):
    """Judge ``agent`` on every position of ``labelled`` (a
    :class:`agents.solver.labels.LabelledSet`). ``agent``: an agent callable or a spec
    text (the package's agents with options, a kaggle built-in, a submission file; see
    :mod:`scripts.arena.specs`). The positions are judged in chunks of :data:`CHUNK`, each
    by an agent built (or, when it takes no seed, reused) as a game would, seeded from
    ``seed`` and the chunk, so the result does not depend on ``workers`` (processes
    judging chunks in parallel; agent callables in this process only). ``act``,
    ``overage``: the seconds a move, as ``actTimeout`` and ``remainingOverageTime`` (a
    fresh overage at every position). ``on_move()`` is called after each position (with
    workers, after each chunk, once a position). A :class:`~scripts.arena.specs.Struct`:
    ``agent`` (its text), ``config``, ``rows`` (:func:`summarise`), ``columns`` (played,
    -1 for a failure), ``failures`` (``{status: {"count", "first"}}``, the first message
    and its position's move string), ``seconds``. ``ValueError`` for a bad spec."""
    spec = parse_spec(agent)
    in_process_only([spec], workers, None)
    cfg = MatchConfig(labelled.rows, labelled.columns, labelled.inarow, float(act), float(overage))
    warm_up(spec, cfg)  # numba compiles here (before the forks), not in a judged move
    tasks = [(spec, labelled, a, min(a + CHUNK, len(labelled)), seed, act, overage)
             for a in range(0, len(labelled), CHUNK)]
    start = time.perf_counter()
    columns, failed = [0] * len(labelled), {}

    def done(answer):
        first, cols, fails = answer
        columns[first:first + len(cols)] = cols
        failed.update(fails)
        if on_move is not None and workers > 1:
            for _ in cols:
                on_move()
    if workers > 1:
        run_tasks(_judge_chunk, tasks, workers, done)
    else:
        run_tasks(functools.partial(_judge_chunk, on_move=on_move), tasks, 1, done)
    failures = {}
    for i, (status, message) in sorted(failed.items()):
        entry = failures.setdefault(status, {"count": 0, "first": f"{labelled.moves[i] or '(empty)'}"
                                                                 f": {message}"})
        entry["count"] += 1
    return Struct(agent=spec.text, config=list(labelled.config),
                  rows=summarise(labelled, columns, failed), columns=columns, failures=failures,
                  seconds=time.perf_counter() - start)


def format_report(result):
    """The printed table of a :func:`score` result (text)."""
    lines = [f"{result['agent']} on {len(result['columns'])} positions of "
             f"{result['config'][1]}x{result['config'][0]}/{result['config'][2]} "
             f"({result['seconds']:.1f} s)",
             f"{'stage':8} {'n':>5}  {'perfect':>7} {'95% interval':>13}  {'good':>6} "
             f"{'95% interval':>13}  {'loss':>5}  {'random':>6}  failed"]
    for r in result["rows"]:
        lines.append(f"{r['stage']:8} {r['n']:5d}  {_pct(r['perfect'])} "
                     f"{_interval(r['perfect_low'], r['perfect_high'])}  {_pct(r['good'], 6)} "
                     f"{_interval(r['good_low'], r['good_high'])}  {r['loss']:5.2f}  "
                     f"{_pct(r['random'], 6)}  {r['failures']}")
    for status, f in result["failures"].items():
        lines.append(f"{status}: {f['count']} position(s); first: {f['first']}")
    lines.append("perfect: a best column; good: keeps win/draw/loss; loss: stones of score "
                 "given up (mean over the moves played); random: a random player's perfect rate")
    return "\n".join(lines)


def _pct(x, width=7):
    return f"{100 * x:{width - 1}.1f}%"


def _interval(low, high):
    return f"{100 * low:5.1f}-{100 * high:5.1f}%"
