"""The package's opening scores (agents/solver/openings.py, agents/data/openings7x6-*.cxdb):
they hold exactly the positions a database build enumerates, their scores are the
solver's, the command line answers from them without loading numpy or numba, and a
damaged file is an error, never a score."""
import io
import os
import random
import subprocess
import sys

import numpy as np
import pytest

from agents.board import rules_reference

from agents.solver.position import Position
from agents.solver import database as D
from agents.solver.openings import OPENING_PLY, DatabaseError, Layer, Openings, parse
from agents.solver.layers import positions
from scripts.commands.solve import main as solver_main
from agents.resources import read_resource
from tests.conftest import POSITIONS, ROOT

OPENINGS = Openings()


def random_position(rng, stones):
    """A random 7x6 position of ``stones`` stones reached without a four (or None): the
    package's one maker, as a solver ``Position``."""
    moves = rules_reference.random_position(6, 7, 4, stones, rng, as_moves=True)
    return None if moves is None else Position.from_moves("".join(str(c + 1) for c in moves))


@pytest.mark.parametrize("ply", range(OPENING_PLY + 1))
def test_each_file_holds_every_position_of_its_stones(ply):
    layer = OPENINGS._layer(ply)
    keys, _, _ = positions(6, 7, 4, ply)
    assert np.array_equal(np.array(layer.keys, dtype=np.int64), keys)


@pytest.fixture(scope="module")
def solver():
    from agents.solver.solver import Solver
    s = Solver(6, 7, 4)
    if D.attach(s) is None:
        pytest.skip("the books extra is not installed: the solver alone takes minutes here")
    return s


def test_a_seeded_sample_of_entries_equals_the_solver(solver):
    rng = random.Random(7)
    checked = 0
    for ply in range(OPENING_PLY + 1):
        layer = OPENINGS._layer(ply)
        _, pos, mask = positions(6, 7, 4, ply)
        for i in rng.sample(range(len(layer.keys)), min(12, len(layer.keys))):
            p = Position(6, 7, 4, int(pos[i]), int(mask[i]), ply)
            assert layer.values[i] == solver.solve(p), (ply, i)
            checked += 1
    assert checked == 1 + 4 + 12 * (OPENING_PLY - 1)


def test_analysis_equals_the_solvers_on_random_positions(solver):
    rng = random.Random(11)
    for _ in range(30):
        p = random_position(rng, rng.randint(0, OPENING_PLY - 1))
        if p is None:
            continue
        assert OPENINGS.analyze(p) == solver.analyze(p)


def test_labelled_positions_of_few_stones_have_their_labels():
    seen = 0
    for name in ("begin.txt", "early.txt"):
        for line in open(os.path.join(POSITIONS, name)).read().splitlines():
            moves, *scores = line.split()
            p = Position.from_moves(moves)
            if p.moves <= OPENING_PLY and len(scores) == 1:
                assert OPENINGS.score(p) == int(scores[0]), moves
                seen += 1
            elif p.moves < OPENING_PLY and len(scores) == 7:
                assert OPENINGS.analyze(p) == [int(s) for s in scores], moves
                seen += 1
    assert seen > 0


def test_only_7x6_and_few_stones_are_answered():
    assert OPENINGS.score(Position(5, 6, 4)) is None
    assert OPENINGS.analyze(Position.from_moves("44443333")) is None  # children of 9 stones
    assert OPENINGS.score(Position.from_moves("444433335")) is None
    # a side to move that wins at once is scored without the files
    assert OPENINGS.score(Position.from_moves("445566")) == (42 + 1 - 6) // 2


def test_the_empty_board_from_the_command_line(solver):
    out = io.StringIO()
    assert solver_main(["-a"], stdin=io.StringIO("\n4\n"), stdout=out) == 0
    # the empty board's column scores as Pascal Pons publishes them
    assert out.getvalue().splitlines() == [" -2 -1 0 1 0 -1 -2",
                                           "4" + "".join(f" {s}" for s in solver.analyze("4"))]
    out = io.StringIO()
    solver_main(["-w"], stdin=io.StringIO("\n44\n"), stdout=out)
    empty, after_44 = out.getvalue().splitlines()
    assert empty.split()[:2] == ["1", "0"] and after_44.split()[:3] == ["44", "1", "0"]  # score, 0 nodes


def test_an_opening_line_loads_neither_numpy_nor_numba():
    code = ("import io, sys\n"
            "from scripts.commands.solve import main\n"
            "out = io.StringIO()\n"
            "main(['-a'], stdin=io.StringIO('\\n4453\\n'), stdout=out)\n"
            "print(out.getvalue(), end='')\n"
            "print(sorted(m for m in ('numpy', 'numba') if m in sys.modules))\n")
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0] == " -2 -1 0 1 0 -1 -2"
    assert lines[1].startswith("4453 ")
    assert lines[2] == "[]"


def test_past_the_openings_the_solver_takes_over():
    out = io.StringIO()
    solver_main(["-a"], stdin=io.StringIO("4444333\n\n"), stdout=out)
    first, second = out.getvalue().splitlines()
    assert first.startswith("4444333 ") and len(first.split()) == 8
    assert second == " -2 -1 0 1 0 -1 -2"


def test_a_damaged_file_is_an_error_never_a_score():
    good = read_resource(Openings.file_name(4))
    parse(good, "ok")
    with pytest.raises(DatabaseError, match="truncated or corrupt"):
        Layer(good[:-1], "cut", (6, 7, 4), 4)
    flipped = bytearray(good)
    flipped[-3] ^= 1
    with pytest.raises(DatabaseError, match="checksum"):
        Layer(bytes(flipped), "flipped", (6, 7, 4), 4)
    with pytest.raises(DatabaseError, match="expected 7x6/4 of 5"):
        Layer(good, "wrong", (6, 7, 4), 5)
    with pytest.raises(DatabaseError, match="missing"):
        Openings(read=lambda name: (_ for _ in ()).throw(FileNotFoundError(name))).score(Position())
