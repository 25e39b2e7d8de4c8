"""An agent's warm-up compiles what its moves call: after it, playing compiles nothing.

Each agent's :meth:`agents.players.base.Agent.warmup_units` must compile exactly the
kernels (every signature) its ``choose`` calls on that board, or the first moves of a
Kaggle file (``warmup="background"``) or of a fuzz run compile inside their time. Found
the hard way: the ``alphabeta`` player moved onto :func:`agents.search.alphabeta_bb.
alphabeta_move` while a fuzz run's agent, warmed by one 7x6 move, met a 3x7 board with
``inarow`` 1 (a grid board, the kernel's other form): the move, a win in one, compiled
the grid form inside it (16.6 s in CI, with an empty numba cache).

The checks run in a fresh process (in this one, any earlier test may have compiled the
kernels already, and the test would pass whatever the warm-up does): it records every
signature of every kernel of the package after the warm-up and after the moves, and
names the kernels that gained one. The cases run in an order where no case compiles what
a later case must compile itself (the bitboard form, then the tactical moves on grid
boards, then the grid form; ``onestep``'s, ``rules``' and ``minimax``'s kernels are
called by no other agent here but for the tactics and the safety net).
"""
import json
import os
import subprocess
import sys
import textwrap

import pytest

from agents.board import jit

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

needs_numba = pytest.mark.skipif(not jit.HAVE_NUMBA or os.environ.get("NUMBA_DISABLE_JIT") == "1",
                                 reason="needs numba's compiler")

PROBE = textwrap.dedent("""
    import json, sys
    import numpy as np
    from numba.core.dispatcher import Dispatcher
    import agents
    from agents.board.grid import drop, is_win_at
    from agents.board.rules import Config
    from agents.players.base import Struct
    from agents.players.warmup import Warmup

    def signatures():
        out = set()
        for name, mod in list(sys.modules.items()):
            if name.split(".")[0] in ("agents", "heuristics"):
                for obj in list(vars(mod).values()):
                    if isinstance(obj, Dispatcher):
                        out |= {(obj.py_func.__module__ + "." + obj.__name__, str(s))
                                for s in obj.signatures}
        return out

    def play(agent, rows, columns, inarow, plies, board=None, mark=1):
        # self-play from ``board`` (default empty) for ``plies`` moves or to the end
        grid = np.array(board or [0] * (rows * columns), dtype=np.int8)
        heights = np.array([sum(grid[c::columns] != 0) for c in range(columns)])
        config = Struct(rows=rows, columns=columns, inarow=inarow, actTimeout=2.0, timeout=2.0)
        for _ in range(plies):
            obs = Struct(board=[int(v) for v in grid], mark=mark, remainingOverageTime=60)
            col = agent(obs, config)
            idx = drop(grid, heights, rows, columns, col, mark)
            if is_win_at(grid, rows, columns, inarow, idx) or heights.sum() == grid.size:
                break
            mark = 3 - mark

    def new_since(before):
        return sorted({name for name, _ in signatures() - before})

    def warmed(spec, options, rows, columns, inarow):
        # the agent's own warm-up on a board, then its moves there
        agent = agents.make(spec, **options)
        Warmup(agent.warmup_units(Config(rows, columns, inarow))).finish()
        before = signatures()
        play(agent, rows, columns, inarow, 8)
        report[f"{spec} {options} on {rows}x{columns}"] = new_since(before)

    report = {}
    play(agents.make("random"), 6, 7, 4, 2)  # this probe's own kernels (drop, is_win_at)
    warmed("alphabeta", {"depth": 3}, 6, 7, 4)
    # a fuzz run's warm-up (one move on the empty 7x6 board), then tactical moves on grid
    # boards: a win in one on 3x7 with inarow 1, a forced block on 9x9
    a = agents.make("alphabeta", depth=3)
    play(a, 6, 7, 4, 1)
    before = signatures()
    play(a, 3, 7, 1, 1)
    block = [0] * 81
    block[72:75] = [2, 2, 2]
    block[63] = block[78] = block[80] = 1
    play(a, 9, 9, 4, 1, block, mark=1)
    report["alphabeta tactical on grid boards"] = new_since(before)
    warmed("alphabeta", {"depth": 3}, 9, 9, 4)
    warmed("onestep", {}, 6, 7, 4)
    warmed("rules", {}, 6, 7, 4)
    warmed("minimax", {}, 6, 7, 4)
    print(json.dumps(report))
""")


@needs_numba
def test_moves_after_the_warm_up_compile_nothing():
    env = dict(os.environ)
    env.pop("NUMBA_DISABLE_JIT", None)
    proc = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    report = json.loads(proc.stdout.strip().splitlines()[-1])
    assert len(report) == 6, report
    compiled = {case: names for case, names in report.items() if names}
    assert not compiled, f"kernels compiled inside moves after the warm-up: {compiled}"
