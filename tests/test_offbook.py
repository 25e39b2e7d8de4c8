"""The perfect Kaggle file off its book before its kernels have compiled (issue 52), and
the shallow plain-Python search it falls back on when waiting does not fit.

The file is built by ``connectx build`` and loaded as Kaggle loads it, in fresh ``python
-I`` processes; its moves are judged against exact scores from the solver with BitBully's
12-ply database (the ``databases`` extra, part of ``dev``): an independent source for
every 7x6 position of up to 12 stones, where the file uses its own opening scores and
solver.
"""
import json
import os
import random
import subprocess
import sys
import tempfile
import time

import numpy as np
import pytest

from agents.board.bitboard import popcount
from agents.board.rules import parse_config
from agents.board.rules_reference import board_from_moves
from agents.players.base import Clock
from agents.players.budget import COMPILE_MARGIN, COMPILE_SHARE, OVERAGE_KEEP, SHALLOW_MAX
from agents.players import perfect
from agents.players.perfect import PerfectAgent
from agents.players.warmup import ranked_columns
from agents.solver import shallow
from agents.solver.bits import winning_cells as winning_cells_kernel
from agents.solver.book import load_book
from agents.solver.labels import FULL
from agents.solver.openings import OPENING_PLY
from agents.solver.position import Position, winning_cells
from agents.solver.shallow import shallow_move, shallow_values
from agents.solver.solver import Solver, geometry
from submission import build as bld


def _random_position(rng, stones, rows=6, columns=7, inarow=4):
    """A position of ``stones`` random moves in which nobody has won and the side to move
    cannot win at once (a move string, 1-based, and the Position)."""
    while True:
        p, moves = Position(rows, columns, inarow), ""
        for _ in range(stones):
            cols = [c for c in range(columns) if p.can_play(c)]
            c = rng.choice(cols)
            if p.is_winning_move(c):
                break
            p.play(c)
            moves += str(c + 1)
        else:
            if not p.can_win_next():
                return moves, p


def _labelled(solver, p):
    """Every column's exact score (``None`` for a full column)."""
    scores = solver.analyze(p)
    return [None if s == FULL else s for s in scores]


def _sign(x):
    return (x > 0) - (x < 0)


def _search_inputs(moves):
    """What the perfect agent's shallow search gets for the 7x6 position ``moves``: the
    Position, Kaggle's grid, the heights, the mark and the column order it searches in."""
    p = Position.from_moves(moves)
    grid = np.array(board_from_moves(moves, 6, 7), dtype=np.int8)
    heights = [moves.count(str(c + 1)) for c in range(7)]
    mark = 1 + len(moves) % 2
    return p, grid, heights, mark, ranked_columns(grid, heights, mark, 6, 7, 4)


def _nodes_through(moves, depth):
    """The nodes the agent's shallow search visits on ``moves`` to finish depths 1 to
    ``depth`` (plain Python on integers: the same count on every machine)."""
    p, _, _, _, order = _search_inputs(moves)
    return shallow_move(p, float("inf"), order, max_depth=depth)[3]


def offbook_positions(seed=52):
    """Seeded random 7x6 positions of 2 to 8 stones outside the move book: one or two of
    each number of stones below 8 (the opening scores answer them) and two of 8 (the
    solver's), one of them first: the first call in the process waits for the compile."""
    rng, book = random.Random(seed), load_book()
    out = []
    for stones, k in ((8, 1), (2, 2), (3, 2), (4, 2), (5, 1), (6, 1), (7, 1), (8, 1)):
        found = 0
        while found < k:
            moves, p = _random_position(rng, stones)
            if book.lookup(p) is None and moves not in out:
                out.append(moves)
                found += 1
    return out


# Loads the file as kaggle_environments.agent.get_last_callable does. First a game: two
# copies of the file (Kaggle's self-play check) from argv[3], an off-book opening, each
# copy's overage counted as Kaggle counts it (a move's wall time over actTimeout); the
# first copy's first call meets uncompiled kernels ("-": no game). Then one new copy a
# position of argv[4:], each position its copy's first call. Prints one JSON line.
PLAY = r"""
import json, sys, time
path, overage, opening, positions = sys.argv[1], float(sys.argv[2]), sys.argv[3], sys.argv[4:]
rows, columns, act = 6, 7, 2.0
cfg = {"rows": rows, "columns": columns, "inarow": 4, "actTimeout": act, "timeout": act}

def load():
    env = {}
    exec(compile(open(path, encoding="utf-8").read(), path, "exec"), env)
    return [v for v in env.values() if callable(v)][-1]

def board_of(moves):
    board, h = [0] * (rows * columns), [0] * columns
    for i, ch in enumerate(moves):
        c = int(ch) - 1
        board[(rows - 1 - h[c]) * columns + c] = 1 + i % 2
        h[c] += 1
    return board

def call(agent, moves, left):
    t0 = time.perf_counter()
    col = agent({"board": board_of(moves), "mark": 1 + len(moves) % 2, "step": len(moves),
                 "remainingOverageTime": left}, cfg)
    state = agent.__globals__["_STATE"]
    last = state["player"].last
    return {"moves": moves, "column": col, "type": type(col).__name__,
            "seconds": time.perf_counter() - t0, "reason": state["moves"][-1],
            "depth": last.get("depth"), "value": last.get("value"), "nodes": last.get("nodes")}

def won(board, mark):
    for r in range(rows):
        for c in range(columns):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                if all(0 <= r + i * dr < rows and 0 <= c + i * dc < columns
                       and board[(r + i * dr) * columns + c + i * dc] == mark for i in range(4)):
                    return True
    return False

copies, left, least, first = [load(), load()], [overage, overage], [overage, overage], []
moves, k = opening, 0
while opening != "-" and len(moves) < rows * columns:
    r = call(copies[k], moves, left[k])
    if len(first) < 2:
        first.append(r)
    left[k] -= max(0.0, r["seconds"] - act)
    least[k] = min(least[k], left[k])
    moves += str(r["column"] + 1)
    if won(board_of(moves), 1 + (len(moves) - 1) % 2):
        break
    k = 1 - k
first += [call(load(), m, overage) for m in positions]
print(json.dumps({"first": first, "game": moves, "least": least}))
"""


def _play(path, overage, opening, positions=()):
    with tempfile.TemporaryDirectory() as cache:  # a file never writes numba's cache
        env = dict(os.environ, CONNECTX_NUMBA_CACHE=cache)
        proc = subprocess.run([sys.executable, "-I", "-c", PLAY, path, str(overage), opening,
                               *positions], capture_output=True, text=True, timeout=900,
                              cwd="/", env=env)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1]), proc.stderr


@pytest.fixture(scope="module")
def perfect_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("offbook") / "main.py"
    path.write_text(bld.build().text)
    return str(path)


@pytest.fixture(scope="module")
def judge():
    from agents.solver.database import DatabaseError, attach
    solver = Solver()
    try:
        if attach(solver) is None:
            raise DatabaseError("not installed")
    except DatabaseError as e:  # pragma: no cover - the dev extra installs it
        pytest.skip(f"the 12-ply database (databases extra) is needed for the labels: {e}")
    return solver


@pytest.mark.e2e
@pytest.mark.slow
def test_off_the_book_first_calls_keep_the_value_and_the_overage_lasts(perfect_file, judge):
    """One process (one compile, 30-36 s of CPU: one test, so that xdist never runs it
    twice on two workers), with Kaggle's 60 s overage: the file's self-play game from an
    off-book opening of 8 stones, then first calls on the other off-book positions.

    The file's first call on every off-book position keeps the game's value: from its
    opening scores (fewer than 8 stones: no kernel, an optimal column) or from the solver
    after waiting for its kernels (8 stones and more); a plain int, within actTimeout
    plus the overage, its reason in the file's record.

    The game: both copies' first calls come before the kernels are compiled (the first
    waits for them, the second for the rest); each copy's overage, counted as Kaggle
    counts it, never reaches zero.

    Only the process's first call may fall back to the shallow search after waiting out
    its wait (``most``, 38.7 s of wall: the compile's 8-12 s of CPU need 21-31% of a
    core in it, more than a 2-core machine gives at load 7-10). The second copy's first
    call comes after that whole wait and may wait as long again (its own 60 s of
    overage), the last position's after the whole game: 77 s of wall and more, which the
    compile misses only below 10-16% of a core (load 13-19 on 2 cores). So at least 11
    of the 12 first calls are judged, at least 2 of them by the solver. With the process
    stopped (SIGSTOP) 80% and 88% of the time the first call fell back after 38.7 s and
    the second copy's waited 1.5 and 19 s; unstopped, none fell back."""
    opening, *positions = offbook_positions()
    run, err = _play(perfect_file, 60.0, opening, positions)
    first = run["first"]
    assert len(first) == len(offbook_positions()) + 1  # the game's second copy too
    # the longest a first call waits for the compile with 60 s of overage (budget.py)
    most = 2 + COMPILE_SHARE * (60 - OVERAGE_KEEP) - COMPILE_MARGIN - SHALLOW_MAX
    excused = []
    for i, r in enumerate(first):
        p = Position.from_moves(r["moves"])
        scores = _labelled(judge, p)
        col = r["column"]
        assert r["type"] == "int" and scores[col] is not None, r
        assert r["seconds"] < 2 + 60, r
        source = r["reason"]["source"]
        if source == "shallow search" and r["reason"].get("waited", 0) >= most - 0.5:
            # by design on a machine too loaded to compile 10-12 s of CPU in the wait
            # (seen at load 10+ with five other sessions): nothing to judge
            print(f"the compile did not finish in {most:.1f} s: {r}")
            excused.append(i)
            continue
        best = max(s for s in scores if s is not None)
        assert _sign(scores[col]) == _sign(best), (r, scores)
        if p.moves < OPENING_PLY:
            assert source == "openings" and scores[col] == best, r
        else:
            assert source == "solver", r
    # the game's first call met uncompiled kernels, waited for them, and says so
    assert first[0]["reason"].get("waited", 0) > 0, first[0]
    assert "waited" in err and "for the kernels" in err
    # the whole game: the overage never ran out
    assert len(run["game"]) > 8 + 2
    assert min(run["least"]) > 0, run["least"]
    # the floor (see the docstring): a fallback later than the first call is no longer
    # the machine's load, it is a compile that did not finish or a wait that gave up
    assert excused in ([], [0]), [first[i] for i in excused]
    assert sum(r["reason"]["source"] == "solver" for r in first) >= 2, first


@pytest.mark.slow
def test_a_nearly_spent_overage_still_answers_in_time(perfect_file):
    """With 3 s of overage left the compile cannot fit: the first call answers at once
    with the shallow search (a plain int, a legal column, within actTimeout plus the
    overage, the file loading included) and says so on stderr, for the replay's logs."""
    run, err = _play(perfect_file, 3.0, "-", offbook_positions()[:1])
    r = run["first"][0]
    p = Position.from_moves(r["moves"])
    assert r["type"] == "int" and p.can_play(r["column"])
    assert r["reason"]["source"] == "shallow search" and r["depth"] >= 2, r
    # an unproven search stops only when its time is up: into the depth after its last
    # finished one, past that depth's nodes (counted again here). One that stopped at a
    # fixed depth would have visited exactly those nodes. (How deep the time goes on a
    # slow machine: test_the_shallow_search_reaches_depth_6_in_its_time_on_a_slow_machine.)
    if r["value"] == 0:
        assert r["nodes"] > _nodes_through(r["moves"], r["depth"]), r
    assert r["seconds"] < 2 + 3, r
    assert "by shallow search" in err


def test_only_full_strength_waits_on_its_first_move():
    """Skill 20 promises exact play: its first call off the book goes to ``choose``
    (openings, wait or shallow search); a lower level keeps the fallback's quick move."""
    grid = np.zeros(42, dtype=np.int8)
    p = Position.from_moves("554")
    for c in range(7):  # the grid of "554" (Kaggle's layout, row 0 at the top)
        for r in range(6):
            if (p.mask >> (c * 7 + r)) & 1:
                grid[(5 - r) * 7 + c] = 1 if ((p.pos >> (c * 7 + r)) & 1) == (p.moves % 2 == 0) else 2
    heights = np.array([popcount(p.mask & (((1 << 6) - 1) << (7 * c))) for c in range(7)])
    from agents.board.rules import parse_config
    cfg = parse_config(None)
    full, low = PerfectAgent(warmup="lazy"), PerfectAgent(warmup="lazy", skill=10)
    full._calls = low._calls = 1
    assert full.ready_to_move(grid, heights, 2, cfg)
    assert not low.ready_to_move(grid, heights, 2, cfg)


# ---------------------------------------------------------------------------
# The shallow search
# ---------------------------------------------------------------------------


# Nodes a second of the shallow search on a slow machine: a fifth of the 45,000-60,000
# it runs on one core of the development machine (2026-11, CPython 3.11, 8-stone 7x6
# positions), as a 2-core machine at load 10 gives it.
SLOW_NODES_PER_SECOND = 10_000


class _NodeClock:
    """A stand-in for ``time`` in :mod:`agents.solver.shallow` and in the agent's module
    (which sets the search's deadline): each look at the clock (the search's: one every
    ``_CHECK_EVERY + 1`` nodes) moves it on by what those nodes take at ``rate`` nodes a
    second, so that the search's seconds are a node budget, the same anywhere."""

    def __init__(self, rate):
        self.now = time.perf_counter()
        self.step = (shallow._CHECK_EVERY + 1) / rate

    def perf_counter(self):
        self.now += self.step
        return self.now


def test_the_shallow_search_reaches_depth_6_in_its_time_on_a_slow_machine(monkeypatch):
    """docs/submission.md: the shallow search reaches depth 6-7 in its ``SHALLOW_MAX``
    (0.8 s). The perfect agent's own search (``_unready_move``, as the Kaggle file plays
    it with 3 s of overage left) on the off-book 8-stone positions, its clock a node
    budget: 0.8 s at :data:`SLOW_NODES_PER_SECOND` is 8,000 nodes, where depth 6 takes
    2,495 and 3,488 nodes (2.3x to spare; depth 7 takes 5,971 and 9,347). The depth is a
    function of the node count alone, so the test holds on any machine; the file gets
    depth 6 wherever the search runs 4,400 nodes a second (a tenth of the development
    machine's rate)."""
    cfg = parse_config(None)
    eight = [m for m in offbook_positions() if len(m) >= OPENING_PLY]
    assert len(eight) == 2
    for moves in eight:
        p, grid, heights, mark, _ = _search_inputs(moves)
        agent = PerfectAgent(warmup="lazy")
        clock = Clock(time.perf_counter(), {"remainingOverageTime": 3.0}, {"actTimeout": 2.0})
        node_clock = _NodeClock(SLOW_NODES_PER_SECOND)
        with monkeypatch.context() as m:
            m.setattr(shallow, "time", node_clock)
            m.setattr(perfect, "time", node_clock)
            col = agent._unready_move(p, grid, heights, mark, cfg, clock, 0.0)
        last = agent.last
        assert last["source"] == "shallow search" and p.can_play(col), last
        assert last["depth"] >= 6 and _nodes_through(moves, 6) * 2 < 8_000, (moves, last)
        # the node budget held (the clock is read every 128 nodes)
        assert last["nodes"] <= SHALLOW_MAX * SLOW_NODES_PER_SECOND + 128, last


@pytest.mark.parametrize("shape", [(6, 7, 4), (4, 5, 3), (5, 4, 4), (7, 8, 5), (3, 3, 3)])
def test_plain_winning_cells_equal_the_kernel(shape):
    rows, columns, inarow = shape
    g = geometry(rows, columns, inarow)
    rng = random.Random(sum(shape))
    for _ in range(150):
        p = Position(rows, columns, inarow)
        for _ in range(rng.randrange(rows * columns)):
            cols = [c for c in range(columns) if p.can_play(c)]
            if not cols:
                break
            p.play(rng.choice(cols))
        for stones in (p.pos, p.pos ^ p.mask):
            assert winning_cells(stones, p.mask, rows, columns, inarow) == \
                int(winning_cells_kernel(stones, p.mask, g))


def test_shallow_search_sees_an_open_three_and_a_double_threat():
    """Two plies ahead:

    ``334`` (second player to move)::

        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . O . . . .
        . . X X . . .

    X threatens the open three ``. X X X .`` on the bottom row: only columns 2 and 5
    (1-based) stop it.

    ``6332`` (first player to move)::

        . . . . . . .
        . . X . . . .
        . O O . . X .

    O threatens the same on the left; the fallback's window count plays on top of
    column 3, and O's column 4 makes two threats: lost at once (-18, the solver's
    score). The shallow search blocks (columns 1 or 4).
    """
    p = Position.from_moves("334")
    col, value, depth, _ = shallow_move(p, float("inf"), max_depth=4)
    assert col in (1, 4), (col, value, depth)
    values = shallow_values(p, 4)
    assert all(values[c] < 0 for c in values if c not in (1, 4)), values

    from agents.players.warmup import fallback_move
    p = Position.from_moves("6332")
    grid = np.zeros(42, dtype=np.int8)
    grid[[40, 37, 30, 36]] = [1, 2, 1, 2]  # 6, 3, 3, 2 (1-based), row 0 at the top
    assert fallback_move(grid, [0, 1, 2, 0, 0, 1, 0], 1, 6, 7, 4) == 2
    assert shallow_values(p, 4)[2] == -18
    col, value, depth, _ = shallow_move(p, float("inf"), max_depth=4)
    assert col in (0, 3) and value == 0 and depth == 4, (col, value, depth)


@pytest.mark.parametrize("shape", [(6, 7, 4), (4, 5, 3), (5, 6, 4)])
def test_shallow_values_are_proven(shape):
    """Sound against the exact solver on seeded random positions: a column the shallow
    search scores above 0 wins, below 0 loses, and its value is at most the exact score
    for a win (the quickest win it sees is no quicker than the best), exactly it for a
    loss it proves within its horizon."""
    rows, columns, inarow = shape
    solver = Solver(rows, columns, inarow, tt_bits=16)
    rng = random.Random(rows * columns)
    checked = 0
    for _ in range(40):
        # late positions: the exact solver is quick there
        stones = rng.randrange(rows * columns * 2 // 3, rows * columns - 2)
        _, p = _random_position(rng, stones, rows, columns, inarow)
        exact = solver.analyze(p)
        for c, v in shallow_values(p, 4).items():
            if v > 0:
                assert 0 < v <= exact[c], (p.key(), c, v, exact)
            elif v < 0:
                assert exact[c] < 0, (p.key(), c, v, exact)
            checked += 1
    assert checked > 60
