"""Background compilation (agents.players.warmup) and the no-kernel first move of ``perfect``."""
import json
import os
import random
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

from agents.board import rules
from agents.board.grid import column_heights, grid_winner
from agents.board.rules_reference import random_position, ref_drop, ref_legal_moves
from agents.players.warmup import Warmup
from tests.conftest import ROOT

SHAPES = [(6, 7, 4), (4, 5, 3), (5, 4, 3), (3, 3, 3), (8, 9, 5), (1, 5, 2), (5, 1, 3), (4, 4, 6),
          (2, 2, 1)]


@pytest.mark.parametrize("shape", SHAPES)
def test_numpy_twins_match_the_kernels(shape):
    """_winner_np / _heights_np (used before the kernels compile) give the kernels'
    answers, on random positions and on every position one move after them (wins
    included)."""
    rows, columns, inarow = shape
    cfg = rules.Config(rows, columns, inarow)
    rng = random.Random(sum(shape))
    boards = []
    while len(boards) < 20:
        b = random_position(rows, columns, inarow, rng.randrange(rows * columns), rng)
        if b is None:
            continue
        boards.append(b)
        boards.extend(ref_drop(b, c, m, rows, columns)
                      for c in ref_legal_moves(b, rows, columns) for m in (1, 2))
    for b in boards:
        grid = np.array(b, dtype=np.int8)
        assert rules._winner_np(grid, cfg) == int(grid_winner(grid, rows, columns, inarow))
        assert list(rules._heights_np(grid, cfg)) == list(column_heights(grid, rows, columns))


def _burn(stop):
    x = 0
    while not stop.is_set():
        x += 1


def test_the_other_threads_cpu_is_what_a_busy_thread_uses():
    """``_others_cpu``, the warmup's measure of a busy process, rises while another
    thread computes and not by the calling thread's own work."""
    from agents.players import warmup
    stop = threading.Event()
    busy = threading.Thread(target=_burn, args=(stop,), daemon=True)
    before = warmup._others_cpu()
    busy.start()
    try:
        deadline = time.perf_counter() + 30
        while warmup._others_cpu() - before < 0.05 and time.perf_counter() < deadline:
            time.sleep(0.01)
        assert warmup._others_cpu() - before >= 0.05
    finally:
        stop.set()
        busy.join()
    mine = warmup._others_cpu()
    _spin(0.2)
    assert warmup._others_cpu() - mine < 0.1


def _spin(seconds):
    end = time.thread_time() + seconds
    while time.thread_time() < end:
        pass


def test_warmup_waits_while_the_process_is_busy_and_runs_in_lent_time(monkeypatch):
    """Outside our moves no unit starts while another thread of the process computes;
    inside a lent window only units that fit start; finish() runs the rest.

    The other thread's CPU is the rule's input, given here as a clock that runs a full
    core while ``busy`` is set (what ``_others_cpu`` reads of a thread that computes; the
    test above checks that reading): a real busy thread gets under a core on a machine
    loaded past its cores, and the rule would rightly see idle gaps."""
    from agents.players import warmup
    busy = threading.Event()
    busy.set()
    clock = [0.0]

    def others_cpu():
        if busy.is_set():
            clock[0] += 1.0  # every probe sees a core's worth of other threads' CPU
        return clock[0]

    monkeypatch.setattr(warmup, "_others_cpu", others_cpu)
    started = []

    def unit(name):
        return lambda: started.append((name, time.perf_counter()))
    w = Warmup([("a", unit("a"), 0.01), ("big", unit("big"), 50.0), ("c", unit("c"), 0.01)])
    w.start()
    time.sleep(0.3)
    assert started == [], "a unit started while another thread was busy"
    end = time.perf_counter() + 1.0
    w.lend(end)
    assert [n for n, _ in started] == ["a"], "the cheap unit runs in our move, the big one waits"
    assert started[0][1] <= end
    time.sleep(0.3)
    assert [n for n, _ in started] == ["a"], "a busy process outside our move: nothing starts"
    busy.clear()
    assert w.finish(time.perf_counter() + 30)
    assert [n for n, _ in started] == ["a", "big", "c"]


def test_warmup_runs_while_the_process_is_idle():
    done = threading.Event()
    w = Warmup([("a", lambda: None, 0.01), ("b", done.set, 0.01)]).start()
    assert done.wait(10), "units did not run in an idle process"
    assert w.done() and not w.errors


def test_warmup_records_a_failing_unit_and_goes_on():
    def bad():
        raise RuntimeError("boom")
    w = Warmup([("bad", bad, 0.01), ("ok", lambda: None, 0.01)])
    assert w.finish()
    assert w.errors == [("bad", "RuntimeError('boom')")]
    assert [n for n, _ in w.log] == ["bad", "ok"]


FIRST_MOVE = r"""
import json, sys
import agents.players.warmup
agents.players.warmup.Warmup.start = lambda self: self   # no background thread: see what the move needs
import agents
from agents.players import base, lookahead
from agents.search import alphabeta, minimax, tactics
from agents.solver import solver
from agents.board import bitboard, grid, rules
from agents.board.jit import is_compiled
a = agents.make("perfect", warmup="background")
cfg = {"rows": 6, "columns": 7, "inarow": 4, "actTimeout": 2}
out = []
for board, mark in json.loads(sys.argv[1]):
    out.append([a({"board": board, "mark": mark, "remainingOverageTime": 60}, cfg),
                a.last.get("source")])
kernels = [getattr(m, k) for m in (base, lookahead, bitboard, grid, rules, alphabeta, minimax, solver, tactics) for k in dir(m)
           if hasattr(getattr(m, k), "overloads")]
print(json.dumps({"moves": out, "compiled": sorted(k.py_func.__name__ for k in kernels
                                                     if is_compiled(k))}))
"""


def test_book_moves_need_no_kernel():
    """With the compiler held back, ``perfect`` still answers the book positions of
    both seats (the first moves of a Kaggle game) and compiles nothing to do so."""
    second = [0] * 42
    second[38] = 1
    third = list(second)
    third[31] = 2
    third[37] = 1
    positions = [([0] * 42, 1), (second, 2), (third, 2)]
    proc = subprocess.run([sys.executable, "-c", FIRST_MOVE, json.dumps(positions)], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout.splitlines()[-1])
    assert [m for m, _ in report["moves"]][0] == 3
    assert all(src == "book" for _, src in report["moves"])
    assert report["compiled"] == []


def test_background_and_now_play_the_same_moves():
    """The warmup mode changes when kernels compile, not what the agent plays."""
    import agents
    from agents.board.rules_reference import board_from_moves
    cfg = {"rows": 6, "columns": 7, "inarow": 4, "actTimeout": 2}
    background = agents.make("perfect", warmup="background")
    now = agents.make("perfect", tt_bits=20)
    for moves in ("", "4", "44", "4455", "332211", "12332365265661174712777667", "4444443"):
        obs = {"board": board_from_moves(moves), "mark": 1 + len(moves) % 2,
               "remainingOverageTime": 0}
        assert background(obs, cfg) == now(obs, cfg), moves
    assert background.warm.finish(time.perf_counter() + 120)
    assert not background.warm.errors


def test_finish_upto_a_unit_leaves_the_rest_to_the_thread():
    ran = []
    w = Warmup([(n, (lambda n=n: ran.append(n)), 0.01) for n in ("a", "b", "c")])
    assert not w.ready("a")
    assert w.finish(upto="b") and w.ready("b") and ran == ["a", "b"] and not w.done()
    with pytest.raises(ValueError, match="no warmup unit 'z'"):
        w.ready("z")
    assert w.finish() and ran == ["a", "b", "c"]


# ---------------------------------------------------------------------------
# Every agent's warm-up (agents.players.base): the fallback move while kernels compile
# ---------------------------------------------------------------------------


def _wins(board, col, mark, rows, columns, inarow):
    from agents.board.rules_reference import ref_winner
    return ref_winner(ref_drop(board, col, mark, rows, columns), rows, columns, inarow) == mark


@pytest.mark.parametrize("shape", SHAPES)
def test_fallback_move_wins_blocks_and_avoids_a_gift(shape):
    """On seeded random positions, against the pure-Python rules: a plain int legal column
    that wins when a win exists, else blocks an immediate threat, else (when a column
    exists that does) does not hand the opponent a win in the cell above."""
    from agents.players.warmup import fallback_move
    rows, columns, inarow = shape
    rng = random.Random(7 * sum(shape))
    seen = 0
    for _ in range(80):
        b = random_position(rows, columns, inarow, rng.randrange(rows * columns), rng)
        if b is None:
            continue
        legal = ref_legal_moves(b, rows, columns)
        mark = 1 + sum(v != 0 for v in b) % 2
        grid = np.array(b, dtype=np.int8)
        col = fallback_move(grid, rules._heights_np(grid, rules.Config(rows, columns, inarow)),
                            mark, rows, columns, inarow)
        assert type(col) is int and col in legal
        seen += 1
        win = [c for c in legal if _wins(b, c, mark, rows, columns, inarow)]
        if win:
            assert col in win
            continue
        threats = [c for c in legal if _wins(b, c, 3 - mark, rows, columns, inarow)]
        if threats:
            assert col in threats
            continue

        def gift(c):
            after = ref_drop(b, c, mark, rows, columns)
            return c in ref_legal_moves(after, rows, columns) \
                and _wins(after, c, 3 - mark, rows, columns, inarow)
        if any(not gift(c) for c in legal):
            assert not gift(col)
    assert seen > 10


WARMING = r"""
import json, sys
import agents.players.warmup
agents.players.warmup.Warmup.start = lambda self: self   # no thread: see what a move needs
import agents
from agents.players import base, lookahead, uct
from agents.search import alphabeta, alphabeta_bb, mcts, minimax, tactics
from agents.board import bitboard, grid, rules
from agents.board.jit import is_compiled
cfg = {"rows": 6, "columns": 7, "inarow": 4, "actTimeout": 2}
out = {}
for name in sys.argv[1:]:
    a = agents.make(name, warmup="background")
    board = [0] * 42
    board[38] = 1
    col = a({"board": board, "mark": 2, "remainingOverageTime": 60}, cfg)
    out[name] = [col, (getattr(a, "last", None) or {}).get("source"), a.warm_moves,
                 a.warm.done()]
kernels = [getattr(m, k) for m in (base, lookahead, bitboard, grid, rules, alphabeta,
                                   alphabeta_bb, minimax, mcts, tactics) for k in dir(m)
           if hasattr(getattr(m, k), "overloads")]
out["compiled"] = sorted(k.py_func.__name__ for k in kernels if is_compiled(k))
print(json.dumps(out))
"""


def test_every_agent_answers_without_kernels_while_they_compile():
    """With the compiler held back, each agent built with ``warmup="background"`` answers
    its first move with the fallback (a legal int, counted in ``warm_moves``) and
    compiles nothing to do so; ``random`` needs no kernel for its move at all."""
    names = ["alphabeta", "minimax", "mcts", "onestep", "rules", "random"]
    proc = subprocess.run([sys.executable, "-c", WARMING, *names], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout.splitlines()[-1])
    assert report.pop("compiled") == []
    for name in names[:-1]:
        col, source, moves, done = report[name]
        assert (source, moves, done) == ("warm-up", 1, False), name
        assert col == 3  # the centre, the fallback's choice on this board
    assert report["random"][2] == 0  # its own move: it needs no kernel


@pytest.mark.parametrize("name,options", [("alphabeta", {"depth": 4}),
                                          ("minimax", {"depth": 2, "seed": 1}),
                                          ("mcts", {"iterations": 300, "seed": 5})])
def test_once_compiled_a_background_agent_plays_its_own_moves(name, options):
    """After its warm-up is done the agent's moves are its own: the same as a ``lazy``
    agent's on the same positions (fixed depth or iterations, seeded)."""
    import agents
    from agents.board.rules_reference import board_from_moves
    cfg = {"rows": 6, "columns": 7, "inarow": 4, "actTimeout": 2}
    background = agents.make(name, warmup="background", **options)
    lazy = agents.make(name, **options)
    obs = {"board": [0] * 42, "mark": 1, "remainingOverageTime": 0}
    background(obs, cfg)  # starts the thread; this move may be the fallback's
    assert background.warm.finish(time.perf_counter() + 300) and not background.warm.errors
    for moves in ("4", "44", "4455", "332211", "4444443"):
        obs = {"board": board_from_moves(moves), "mark": 1 + len(moves) % 2,
               "remainingOverageTime": 0}
        assert background(obs, cfg) == lazy(obs, cfg), moves
        assert background.last.get("source") != "warm-up"
