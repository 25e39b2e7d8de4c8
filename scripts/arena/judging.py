"""Judge any player against perfect play: its move on every position of a labelled set
(:mod:`agents.solver.labels`), compared with the exact scores of the columns
(:func:`score`, ``connectx score``); or every move of game records
(:func:`judge_games`, ``connectx blunders``; records read by :mod:`scripts.arena.records`).

:func:`score` calls the agent once a position, as kaggle-environments would (a fresh
observation, ``actTimeout`` and a ``remainingOverageTime`` of ``overage`` seconds a
position), and checks each move by :func:`scripts.arena.games.move_failure` (Kaggle's rule: an
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

:func:`judge_games` replays each game (an illegal move is a ``ValueError`` before any
solving), scores every column of the position before each move with the exact solver,
and gives each move its verdict and accuracy (:func:`agents.solver.labels.accuracies`)
and each player the same report rows as :func:`score` (:func:`summarise` over the
player's positions as a labelled set).
"""
import functools
import os
import time

import numpy as np

from agents.board.grid import planes_of
from agents.resources import data_path
from agents.solver.labels import STAGES, LabelledSet, accuracies, move_text, stage_of, verdicts
from agents.solver.position import Position
from scripts.arena.games import FAILURES, move_failure
from scripts.arena.loading import build_agent, warm_up
from scripts.arena.pools import map_tasks
from scripts.arena.specs import (MatchConfig, Struct, config_struct, in_process_only, observation,
                                 parse_spec)
from scripts.arena.stats import wilson


# the shipped 7x6 set (connectx dataset --positions 1000 --seed 0)
DEFAULT_SET = str(data_path("scripts", "data", "labelled", "7x6.npz"))


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
            elapsed = time.perf_counter() - start
            failure = move_failure(action, elapsed, float(overage), heights, cfg)
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


def score(agent, labelled, act=2.0, overage=0.0, seed=0, on_move=None, workers=1, dask=None):
    """Judge ``agent`` on every position of ``labelled`` (a
    :class:`agents.solver.labels.LabelledSet`). ``agent``: an agent callable or a spec
    text (the package's agents with options, a kaggle built-in, a submission file; see
    :mod:`scripts.arena.specs`). The positions are judged in chunks of :data:`CHUNK`, each
    by an agent built (or, when it takes no seed, reused) as a game would, seeded from
    ``seed`` and the chunk, so the result does not depend on ``workers`` (processes
    judging chunks in parallel) or ``dask`` (a Dask scheduler judging them; agent
    callables in this process only). ``act``, ``overage``: the seconds a move, as
    ``actTimeout`` and ``remainingOverageTime`` (a fresh overage at every position).
    ``on_move()`` is called after each position (with workers or Dask, after each chunk,
    once a position). A :class:`~scripts.arena.specs.Struct`:
    ``agent`` (its text), ``config``, ``rows`` (:func:`summarise`), ``columns`` (played,
    -1 for a failure), ``failures`` (``{status: {"count", "first"}}``, the first message
    and its position's move string), ``seconds``. ``ValueError`` for a bad spec."""
    spec = parse_spec(agent)
    in_process_only([spec], workers, dask)
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
        if on_move is not None and parallel:
            for _ in cols:
                on_move()
    parallel = workers > 1 or dask is not None
    if parallel:
        map_tasks(_judge_chunk, tasks, workers, dask, done)
    else:
        map_tasks(functools.partial(_judge_chunk, on_move=on_move), tasks, on_result=done)
    failures = {}
    for i, (status, message) in sorted(failed.items()):
        first = f"{labelled.moves[i] or '(empty)'}: {message}"
        entry = failures.setdefault(status, {"count": 0, "first": first})
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


# ---- the judge of game records (connectx blunders) ----------------------------------

def game_solver(rows, columns, inarow, threads=2, database=True):
    """An exact solver for judging games on the board, with the installed opening
    database attached where ``database``, its kernels compiled (so that no judged
    position's time goes to numba); ``ValueError`` saying why when the solver does not
    take the board."""
    from agents.board.bitboard import fits_bitboard
    from agents.solver.database import attach
    from agents.solver.solver import Solver, warm_up
    if not fits_bitboard(rows, columns):
        raise ValueError(f"the solver does not take a {columns}x{rows} board (columns x "
                         f"rows: (rows + 1) * columns must fit 64 bits)")
    solver = Solver(rows, columns, inarow, threads=threads)
    attach(solver, database)
    warm_up(solver)
    return solver


def replay(moves, config, index=0):
    """Yield ``(ply, column, position, board)`` before each of ``moves`` (0-based columns
    from the empty board of ``config`` = ``(rows, columns, inarow)``): the solver's plain
    :class:`~agents.solver.position.Position` and Kaggle's flat board (row 0 at the top),
    both before the move. ``ValueError`` naming game ``index`` (0-based) and the move for
    a move off the board, into a full column, or after the game was won."""
    rows, columns, inarow = config
    p = Position(rows, columns, inarow)
    board, heights = [0] * (rows * columns), [0] * columns
    where = f"game {index + 1}, move"
    for ply, c in enumerate(moves):
        if not 0 <= c < columns:
            raise ValueError(f"{where} {ply + 1}: column {c + 1} is off the {columns}-column "
                             "board")
        if not p.can_play(c):
            raise ValueError(f"{where} {ply + 1}: column {c + 1} is full")
        yield ply, c, p, board
        won = p.is_winning_move(c)
        board[c + (rows - 1 - heights[c]) * columns] = 1 + ply % 2
        heights[c] += 1
        p.play(c)
        if won and ply + 1 < len(moves):
            raise ValueError(f"{where} {ply + 2} comes after the game was won by move {ply + 1}")


def check_games(games, config):
    """``ValueError`` (:func:`replay`'s) for the first illegal move of ``games``."""
    for index, g in enumerate(games):
        for _ in replay(g["moves"], config, index):
            pass


def judge_game(moves, solver, opening=0, seconds=3.0, index=0):
    """Every move of one game (0-based ``moves`` from the empty board), judged: a list of
    dicts ``ply`` (0-based), ``seat`` (0 moved first), ``column``, ``stones``, ``stage``,
    ``board`` (Kaggle's flat board before the move), ``scores`` (every column's exact
    score, :data:`agents.solver.labels.FULL` for a full one; None where the solver did not
    finish within ``seconds``), ``perfect``, ``good``, ``loss`` and ``accuracy`` (of
    :mod:`agents.solver.labels`; None when unscored). The first ``opening`` moves are
    replayed, not judged. ``ValueError`` for an illegal move (:func:`replay`). The
    solver's kernels compile (on a fresh install: seconds) in a first analysis of 1 ms of
    its own, never in a move's ``seconds``."""
    rows, columns = solver.rows, solver.columns
    out = []
    compiled = False
    for ply, c, p, board in replay(moves, (rows, columns, solver.inarow), index):
        if ply >= opening:
            if not compiled:
                solver.analyze(p, deadline=time.perf_counter() + 0.001)
                compiled = True
            scores = solver.analyze(p, deadline=time.perf_counter() + seconds)
            out.append({"ply": ply, "seat": ply % 2, "column": int(c), "stones": ply,
                        "stage": stage_of(ply, rows, columns), "board": list(board),
                        "scores": scores})
    scored = [m for m in out if m["scores"] is not None]
    if scored:
        table = [m["scores"] for m in scored]
        cols = [m["column"] for m in scored]
        perfect, good, loss = verdicts(table, cols)
        acc = accuracies(table, cols)
        for k, m in enumerate(scored):
            m.update(perfect=bool(perfect[k]), good=bool(good[k]), loss=int(loss[k]),
                     accuracy=float(acc[k]))
    for m in out:
        if m["scores"] is None:
            m.update(perfect=None, good=None, loss=None, accuracy=None)
    return out


_SOLVERS = {}  # (config, threads) -> this process's judging solver (the workers' own)


def _judge_games_chunk(task):
    """``(first index, [judge_game of each game])`` of a chunk of games, in any process
    (a worker builds its solver once)."""
    first, games, config, seconds, threads = task
    key = (tuple(config), threads)
    if key not in _SOLVERS:
        _SOLVERS[key] = game_solver(*config, threads)
    solver = _SOLVERS[key]
    return first, [judge_game(g["moves"], solver, g.get("opening", 0), seconds, first + k)
                   for k, g in enumerate(games)]


def judge_games(games, config, seconds=3.0, solver=None, threads=2, on_game=None, workers=1,
                dask=None):
    """Judge every move of ``games`` (the games of :func:`scripts.arena.records.read_records`
    on the board ``config`` = ``(rows, columns, inarow)``). A
    :class:`~scripts.arena.specs.Struct`: ``config``, ``games`` (each ``agents``,
    ``moves``: :func:`judge_game`'s, ``invalid``), ``players`` (one a name, in order of
    appearance: ``moves`` judged, ``value_lost`` (moves that are not good), ``accuracy``
    (the mean of the moves', in percent), ``invalid`` (answers that were no legal move),
    ``rows``: :func:`summarise`'s perfect/good rates by stage, the same code as
    ``connectx score``), ``unjudged`` (moves the solver did not score within ``seconds``)
    and ``seconds``. ``solver``: the judging solver of this process (default: one of
    :func:`game_solver`); ``workers`` processes, or a Dask scheduler ``dask``, judge the
    games in parallel, each with its own solver of ``threads`` threads (the verdicts do not
    depend on it; only positions left unscored within ``seconds`` can). ``on_game()`` is
    called after each game. ``ValueError`` for a board the solver does not take or an
    illegal move (see :func:`replay`)."""
    rows, columns, inarow = config
    check_games(games, config)  # every game checked before the solver starts
    start = time.perf_counter()
    judged_moves = [None] * len(games)

    def done(answer):
        first, chunk = answer
        judged_moves[first:first + len(chunk)] = chunk
        if on_game is not None:
            for _ in chunk:
                on_game()
    if dask is not None or (workers > 1 and len(games) > 1):
        tasks = [(index, [g], tuple(config), seconds, threads) for index, g in enumerate(games)]
        map_tasks(_judge_games_chunk, tasks, workers, dask, done)
    else:
        solver = solver if solver is not None else game_solver(rows, columns, inarow, threads)
        for index, g in enumerate(games):
            done((index, [judge_game(g["moves"], solver, g.get("opening", 0), seconds, index)]))
    judged, per_player = [], {}
    for g, moves in zip(games, judged_moves):
        judged.append({"agents": g["agents"], "moves": moves, "invalid": g.get("invalid", [])})
        for m in moves:
            who = per_player.setdefault(g["agents"][m["seat"]], {"moves": [], "invalid": 0})
            m["agent"] = g["agents"][m["seat"]]
            m["line"] = move_text(g["moves"][:m["ply"]], columns)
            if m["scores"] is not None:
                who["moves"].append(m)
        for bad in g.get("invalid", []):
            per_player.setdefault(g["agents"][bad["player"]], {"moves": [], "invalid": 0})
            per_player[g["agents"][bad["player"]]]["invalid"] += 1
    players = {}
    for name, who in per_player.items():
        ms = who["moves"]
        n = len(ms)
        labelled = LabelledSet(
            rows, columns, inarow,
            np.array([planes_of(m["board"], 1 + m["ply"] % 2, rows, columns) for m in ms],
                     dtype=np.uint8).reshape(n, rows, columns, 2),
            np.array([m["scores"] for m in ms], dtype=np.int16).reshape(n, columns),
            np.array([m["stage"] for m in ms], dtype=np.int8), [m["line"] for m in ms])
        players[name] = {"moves": n, "value_lost": sum(not m["good"] for m in ms),
                         "accuracy": 100 * float(np.mean([m["accuracy"] for m in ms]))
                         if n else float("nan"),
                         "invalid": who["invalid"],
                         "rows": summarise(labelled, [m["column"] for m in ms], {})}
    unjudged = sum(m["scores"] is None for g in judged for m in g["moves"])
    return Struct(config=list(config), games=judged, players=players, unjudged=unjudged,
                  seconds=time.perf_counter() - start)
