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
from agents.board.reference import random_position, ref_drop, ref_legal_moves
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


def test_warmup_waits_while_the_process_is_busy_and_runs_in_lent_time():
    """Outside our moves no unit starts while another thread of the process computes;
    inside a lent window only units that fit start; finish() runs the rest."""
    started = []

    def unit(name):
        return lambda: started.append((name, time.perf_counter()))
    w = Warmup([("a", unit("a"), 0.01), ("big", unit("big"), 50.0), ("c", unit("c"), 0.01)])
    stop = threading.Event()
    busy = threading.Thread(target=_burn, args=(stop,), daemon=True)
    busy.start()
    try:
        w.start()
        time.sleep(0.5)
        assert started == [], "a unit started while another thread was busy"
        end = time.perf_counter() + 0.5
        w.lend(end)
        assert [n for n, _ in started] == ["a"], "the cheap unit runs in our move, the big one waits"
        assert started[0][1] <= end
        time.sleep(0.3)
        assert [n for n, _ in started] == ["a"]
        assert w.finish(time.perf_counter() + 30)
        assert [n for n, _ in started] == ["a", "big", "c"]
    finally:
        stop.set()
        busy.join()


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
    from agents.board.reference import board_from_moves
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
