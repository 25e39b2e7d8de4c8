"""Make a labelled set (:mod:`agents.solver.labels`): positions from realistic play,
every legal column scored by the exact solver. The command line is ``connectx dataset``
(:mod:`scripts.commands.dataset`); this module holds the work, without printing.

*Realistic play*: game ``k`` (its random numbers from the set's seed and ``k`` only)
is played by two players drawn from :data:`PLAYERS` -- the package's ``random``,
``onestep`` and fixed-depth ``alphabeta`` agents (depths 2, 4, 6), each playing a
uniformly random legal column instead of its own with a probability (its *noise*) --
so the set holds the positions of weak and fair players, their blunders included,
not only of perfect ones. One position is taken from each game: game ``k`` gives a
position of stage ``stages[k mod len(stages)]`` (:func:`agents.solver.labels.stage_of`:
0 opening, 1 middle, 2 end; all three by default, so stage ``k mod 3``; only the end on a
board whose openings the solver cannot label in time), its number of stones drawn
uniformly among the game's positions of that stage (none if the game ended before it). A position already taken is skipped; more games
are played until the set has ``positions`` positions, in the order of ``k``. So the
stages are about balanced and the set depends on the seed alone (not on the workers).

Labels: :meth:`agents.solver.solver.Solver.analyze` (every column, exact), with the
installed opening database on 7x6 (milliseconds a position up to 12 stones).
"""
import math
import threading
from dataclasses import dataclass

import numpy as np

import agents
from agents.board.grid import planes_of
from agents.solver.labels import FULL, LabelledSet, labelling_solver, move_text, stage_of
from scripts.arena.games import play_out
from scripts.arena.pools import map_tasks
from scripts.arena.specs import MatchConfig

# (weight, agent spec, noise): who plays a game's sides; noise is the probability of a
# uniformly random legal move in place of the agent's own
PLAYERS = ((1, "random", 0.0), (2, "onestep", 0.0), (2, "alphabeta:depth=2,tt_bits=16", 0.15),
           (2, "alphabeta:depth=4,tt_bits=16", 0.1), (2, "alphabeta:depth=6,tt_bits=16", 0.05))
ACT = 3600.0  # the players' move time: fixed depths finish first, so games do not depend on load
MOST_TASK = 40  # games a task at most

_LOCAL = threading.local()  # one solver a thread (a Dask worker may run tasks in threads)


@dataclass(frozen=True)
class GameBatch:
    """Games ``start`` .. ``start + count - 1`` of a set."""
    start: int
    count: int
    rows: int
    columns: int
    inarow: int
    seed: int
    database: bool = True
    stages: tuple = (0, 1, 2)


def game_rng(seed, k):
    """The random numbers of game ``k`` of a set of seed ``seed``."""
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(k,)))


def _player(spec, noise, rng):
    """An ``agent(obs, config)``: ``spec``'s agent, or with probability ``noise`` a random
    legal column."""
    name, _, rest = spec.partition(":")
    options = dict(kv.split("=") for kv in rest.split(",")) if rest else {}
    options = {k: int(v) for k, v in options.items()}
    if "seed" in agents.agent_class(name).OPTIONS:
        agent = agents.make(name, seed=int(rng.integers(2 ** 31)), **options)
    else:  # deterministic (alphabeta clears its tables every search): one a process
        cache = _LOCAL.__dict__.setdefault("agents", {})
        if spec not in cache:
            cache[spec] = agents.make(name, **options)
        agent = cache[spec]

    def play(obs, config):
        if noise and rng.random() < noise:
            legal = [c for c in range(config.columns) if obs.board[c] == 0]
            return int(legal[int(rng.integers(len(legal)))])
        return agent(obs, config)
    return play


def game_position(task, k):
    """``(moves, names)`` of game ``k``: the 0-based columns up to the position it gives
    (None if the game ended before its stage) and its players' specs."""
    rng = game_rng(task.seed, k)
    weights = np.array([w for w, _, _ in PLAYERS], dtype=float)
    picks = rng.choice(len(PLAYERS), size=2, p=weights / weights.sum())
    players = [_player(PLAYERS[i][1], PLAYERS[i][2], rng) for i in picks]
    cfg = MatchConfig(task.rows, task.columns, task.inarow, ACT, 60.0)
    grid = np.zeros(task.rows * task.columns, dtype=np.int8)
    heights = np.zeros(task.columns, dtype=np.int64)
    out = play_out(players, cfg, grid, heights, timed=False)
    if out.error:
        raise RuntimeError(f"game {k}: {out.error}")  # the package's agents never fail
    stage = task.stages[k % len(task.stages)]
    # positions after 0 .. len(moves) - 1 moves are not over
    plies = [p for p in range(len(out.moves)) if stage_of(p, task.rows, task.columns) == stage]
    names = [PLAYERS[i][1] for i in picks]
    if not plies:
        return None, names
    return out.moves[:int(plies[int(rng.integers(len(plies)))])], names


def label_games(task):
    """``(games, [(k, moves, scores)])``: the task's number of games and, for each of its
    games that gives a position, the 0-based columns that lead to it and the solver's
    score of each column (FULL for a full one)."""
    from agents.solver.position import Position
    s = labelling_solver(task.rows, task.columns, task.inarow, task.database)
    found = []
    for k in range(task.start, task.start + task.count):
        moves, _ = game_position(task, k)
        if moves is None:
            continue
        p = Position(task.rows, task.columns, task.inarow)
        for c in moves:
            p.play(c)
        found.append((k, moves, [int(v) for v in s.analyze(p)]))
    return task.count, found


def _tasks(start, games, shape, seed, database, workers, stages=(0, 1, 2)):
    size = max(1, min(MOST_TASK, math.ceil(games / (4 * workers))))
    return [GameBatch(a, min(size, start + games - a), *shape, seed, database, tuple(stages))
            for a in range(start, start + games, size)]


def make_set(rows, columns, inarow, positions, seed=0, workers=1, dask=None, database=True,
             command=None, on_progress=None, stages=(0, 1, 2)):
    """A :class:`agents.solver.labels.LabelledSet` of ``positions`` positions (see the
    module docstring). ``stages``: the stages sampled, in turn (0 opening, 1 middle,
    2 end). ``database``: use the installed opening database (7x6) to label;
    ``command``: the command line recorded in the set's ``made``; ``on_progress(done,
    total)`` after each task (games played, games planned). ``ValueError`` for a board
    the solver does not take or a bad count."""
    from agents.solver.solver import geometry
    geometry(rows, columns, inarow)  # ValueError for a board past 64 bits
    if positions < 1:
        raise ValueError(f"positions must be at least 1, got {positions}")
    if inarow > max(rows, columns):
        raise ValueError(f"no line of {inarow} fits a {columns}x{rows} board: every position "
                         "is a draw")
    stages = tuple(int(k) for k in stages)
    if not stages or any(k not in (0, 1, 2) for k in stages) or len(set(stages)) < len(stages):
        raise ValueError(f"stages are distinct numbers among 0, 1, 2, got {stages}")
    shape = (rows, columns, inarow)
    start, seen, kept, planned, played = 0, set(), [], 0, 0
    for _round in range(50):
        games = max(3, math.ceil(1.3 * (positions - len(kept))) + 3)
        planned += games
        results = {}

        def done(answer):
            nonlocal played
            count, found = answer
            for k, moves, scores in found:
                results[k] = (moves, scores)
            played += count
            if on_progress is not None:
                on_progress(played, planned)
        map_tasks(label_games, _tasks(start, games, shape, seed, database, workers, stages),
                  workers, dask, done)
        for k in sorted(results):
            moves, scores = results[k]
            board = _board(moves, rows, columns)
            if len(kept) < positions and board.tobytes() not in seen:
                seen.add(board.tobytes())
                kept.append((moves, scores, board))
        start += games
        if len(kept) >= positions:
            break
    else:
        raise ValueError(f"only {len(kept)} distinct positions found in {start} games; ask for "
                         "fewer")
    n = len(kept)
    planes = np.zeros((n, rows, columns, 2), dtype=np.uint8)
    scores = np.zeros((n, columns), dtype=np.int16)
    stage = np.zeros(n, dtype=np.int8)
    texts = []
    for i, (moves, sc, board) in enumerate(kept):
        mark = 1 + len(moves) % 2
        planes[i] = planes_of(board, mark, rows, columns)
        scores[i] = sc
        stage[i] = stage_of(len(moves), rows, columns)
        texts.append(move_text(moves, columns))
    made = {"by": "connectx dataset (scripts.arena.dataset)", "command": command,
            "players": [list(p) for p in PLAYERS], "games": start,
            "sampling": ("one position a game: stage k mod 3, stones uniform in the stage"
                         if stages == (0, 1, 2) else
                         f"one position a game: stage {list(stages)}[k mod {len(stages)}], "
                         "stones uniform in the stage"),
            "labels": "agents.solver.solver.Solver.analyze (exact)",
            "full": FULL}
    return LabelledSet(rows, columns, inarow, planes, scores, stage, np.array(texts), seed, made)


def _board(moves, rows, columns):
    """Kaggle's flat board (int8) after the 0-based ``moves``."""
    board = np.zeros(rows * columns, dtype=np.int8)
    heights = np.zeros(columns, dtype=np.int64)
    for i, c in enumerate(moves):
        board[c + (rows - 1 - heights[c]) * columns] = 1 + i % 2
        heights[c] += 1
    return board
