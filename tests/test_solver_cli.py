"""The perfect solver's edges: bad input, time-outs, its command line, and the solver
benchmark's reference columns (the searches themselves: tests/test_solver.py)."""
import io
import os
import sys

import pytest

from agents.solver import solver as S
from agents.solver.position import Position
from scripts.commands.solve import main as solver_main

from conftest import POSITIONS, ROOT


@pytest.fixture(scope="module")
def solver():
    s = S.Solver(tt_bits=20)
    S.warm_up(s)
    return s


# ---------------------------------------------------------------------------
# Validation, time-outs, CLI
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("moves,words", [("48", "move 2 is '8'"), ("1111111", "full"),
                                         ("1212121", "already won"), ("12x", "'x'"),
                                         ("0", "move 1 is '0'")])
def test_bad_move_strings(moves, words):
    with pytest.raises(ValueError, match=words):
        Position.from_moves(moves)


def test_bad_solver_options():
    with pytest.raises(ValueError, match="64"):
        S.Solver(8, 8, 4)
    with pytest.raises(ValueError, match="tt_bits"):
        S.Solver(tt_bits=40)
    with pytest.raises(ValueError, match="rows"):
        S.Solver(rows=0)


def test_deadline_in_the_past_aborts_but_best_move_is_legal(solver):
    import time
    p = solver.position("4")
    assert solver.solve(p, deadline=time.perf_counter() - 1) is None
    col, lo, hi, done = solver.best_move(p, deadline=time.perf_counter() - 1)
    assert not done and p.can_play(col) and lo <= hi


def test_win_in_one_and_forced_block(solver):
    """Win in one, x to move ("121212"):   Forced block, o to move ("2126257"):
        . . . . . . .                        . . . . . . .
        . . . . . . .                        . . . . . . .
        . . . . . . .                        . . . . . . .
        x o . . . . .                        . x . . . . .
        x o . . . . .                        . x . . . . .
        x o . . . . .                        o x . . o o x
    x wins at once in column 1 (index 0), scoring 18; o must block column 2."""
    col, lo, hi, done = solver.best_move("121212")
    assert (col, lo, hi, done) == (0, 18, 18, True)
    import time
    col, lo, hi, done = solver.best_move("2126257", deadline=time.perf_counter() + 0.05)
    assert col == 1  # the only move that does not lose at once, searched or not


def test_cli_scores_and_errors():
    out = io.StringIO()
    lines = "12332365265661174712777667 junk\n48\n1111111\n1212121\n" + "136172562576671 11\n"
    solver_main([], stdin=io.StringIO(lines), stdout=out)
    rows = out.getvalue().splitlines()
    assert len(rows) == 5
    assert rows[0].split()[:2] == ["12332365265661174712777667", "-7"]
    assert len(rows[0].split()) == 4
    assert "error" in rows[1] and "'8'" in rows[1]
    assert "error" in rows[2] and "full" in rows[2]
    assert "error" in rows[3] and "won" in rows[3]
    assert rows[4].split()[:2] == ["136172562576671", "11"]


def test_cli_analyze():
    out = io.StringIO()
    with open(os.path.join(POSITIONS, "analysis.txt")) as f:
        fields = f.readline().split()
    solver_main(["-a"], stdin=io.StringIO(fields[0] + "\n"), stdout=out)
    assert out.getvalue().split() == fields


# ---------------------------------------------------------------------------
# scripts.bench.solver: the reference columns and the whole-process mode
# ---------------------------------------------------------------------------


def test_bench_solver_times_references_and_processes(tmp_path, capsys):
    """A stand-in reference (our own solver CLI behind a script, so its scores are
    right) is timed beside ours per file and as a whole process; a missing binary is
    a one-line error."""
    from scripts.bench import solver as bench_solver
    ref = tmp_path / "ref"
    ref.write_text(f"#!/bin/sh\ncd {ROOT} && exec {sys.executable} -m scripts.commands.solve "
                   "--tt-bits 16\n")
    ref.chmod(0o755)
    assert bench_solver.main(["--files", "end", "--tt-bits", "16", "--c4", str(ref)]) == 0
    rows = [line.split() for line in capsys.readouterr().out.splitlines()[1:]]
    assert [r[:4] for r in rows] == [["end", "ours", "200", "0"], ["end", "c4", "200", "0"]]
    assert bench_solver.main(["--files", "end", "--tt-bits", "16", "--process",
                              "--reference", str(ref)]) == 0
    out = capsys.readouterr().out
    rows = {line.split()[0]: line.split() for line in out.splitlines()[2:]}
    assert rows["ours"][1] == "0" and rows["pons"][1] == "0" and len(rows["pons"]) == 6
    with pytest.raises(SystemExit) as exit_info:
        bench_solver.main(["--c4", str(tmp_path / "missing")])
    assert exit_info.value.code == 2
    assert "c4 binary" in capsys.readouterr().err
