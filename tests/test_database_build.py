"""``connectx database build`` (scripts/arena/database_build.py): the positions it holds are those
of a plain enumeration; a complete small-board database equals the plain solver entry by
entry; a 7x6 database built on the published 12-ply database agrees with the published
opening values and with itself ply to ply; a build killed with SIGKILL resumes to the same
bytes; a process pool and a Dask LocalCluster write the same file; bad input is one line."""
import os
import signal
import subprocess
import sys

import numpy as np
import pytest

from agents.solver import database as D
from agents.solver.layers import positions
from agents.solver.position import Position
from agents.solver.solver import Solver
from scripts import cli
from scripts.arena import database_build as B

from conftest import ROOT, cli_error_line

HAVE_BITBULLY = D.bitbully_path() is not None and os.path.isfile(D.bitbully_path() or "")


def plain_levels(rows, columns, inarow, most):
    """For each number of stones 0..``most``, {canonical key: Position} of every position
    reached without a four, side to move unable to win at once: Position.play and a
    plain mirror."""
    def mirror_key(p):
        H = rows + 1
        k, out = p.key(), 0
        for c in range(columns):
            out |= ((k >> (c * H)) & ((1 << H) - 1)) << ((columns - 1 - c) * H)
        return min(k, out)

    def wins_now(p):
        return any(p.can_play(c) and p.is_winning_move(c) for c in range(columns))

    frontier = {0: Position(rows, columns, inarow)}
    levels = []
    for ply in range(most + 1):
        levels.append({k: p for k, p in frontier.items() if not wins_now(p)})
        nxt = {}
        for p in frontier.values():
            for c in range(columns):
                if p.can_play(c) and not p.is_winning_move(c):
                    q = p.copy()
                    q.play(c)
                    nxt.setdefault(mirror_key(q), q)
        frontier = nxt
    return levels


def test_positions_are_the_plain_enumeration():
    for shape, most in (((4, 4, 3), 16), ((4, 5, 4), 7), ((6, 7, 4), 4)):
        for ply, want in enumerate(plain_levels(*shape, most)):
            keys, pos, mask = positions(*shape, ply)
            assert keys.tolist() == sorted(want), (shape, ply)
            assert np.array_equal(keys, pos + mask)
            for k, p, m in zip(keys.tolist(), pos.tolist(), mask.tolist()):
                assert (m, p) == decode(k, shape[0], shape[1])


def test_complete_small_board_database_equals_the_plain_solver(tmp_path):
    """4x4, three in a row: every number of stones, every entry solved again by the
    plain solver from its Position; a build with a deeper database at the leaves writes
    the same bytes."""
    s = Solver(4, 4, 3, tt_bits=16)
    total = 0
    levels = plain_levels(4, 4, 3, 16)
    for ply in range(17):
        out = tmp_path / f"4x4-{ply}.cxdb"
        report = B.build(4, 4, 3, ply, out, leaves=None)
        db = D.load(out)
        assert (db.config, db.ply, report.positions) == ((4, 4, 3), ply, len(db))
        want = levels[ply]
        assert db.keys.tolist() == sorted(want)
        for k, v in zip(db.keys.tolist(), db.values.tolist()):
            assert v == s.solve(want[k]), (ply, k)
        total += len(db)
        assert not os.path.exists(B.parts_dir(out))
    assert total == 3932
    B.build(4, 4, 3, 5, tmp_path / "leaves.cxdb", leaves=str(tmp_path / "4x4-9.cxdb"))
    assert (tmp_path / "leaves.cxdb").read_bytes() == (tmp_path / "4x4-5.cxdb").read_bytes()


@pytest.mark.slow
def test_7x6_opening_databases_on_the_published_12_ply_database(tmp_path):
    """0-4 stones built with BitBully's 12-ply database at the leaves: the published
    values of the opening (the empty board is a first-player win with the 41st stone,
    score 1; the columns score -2 -1 0 1 0 -1 -2) and every entry equal to the best of
    its children's entries in the next database (or the win at once)."""
    if not HAVE_BITBULLY:
        pytest.skip('the databases extra is not installed (pip install "connectx-search[databases]")')
    dbs = []
    for ply in range(5):
        report = B.build(6, 7, 4, ply, tmp_path / f"{ply}.cxdb", workers=1)
        assert report.leaves == D.bitbully_path()
        dbs.append(D.load(tmp_path / f"{ply}.cxdb"))
    assert dbs[0].score(Position()) == 1
    first = [-dbs[1].score(Position.from_moves(str(c))) for c in range(1, 8)]
    assert first == [-2, -1, 0, 1, 0, -1, -2]
    assert [len(db) for db in dbs] == [1, 4, 25, 121, 568]
    for ply in range(4):
        for k, v in zip(dbs[ply].keys.tolist(), dbs[ply].values.tolist()):
            p = Position(6, 7, 4, pos=0, mask=0, moves=ply)
            p.mask, p.pos = decode(k)
            best = -99
            for c in range(7):
                if not p.can_play(c):
                    continue
                if p.is_winning_move(c):
                    best = max(best, (43 - ply) // 2)
                    continue
                q = p.copy()
                q.play(c)
                child = dbs[ply + 1].score(q)
                if child is None:  # the opponent wins at once: not held
                    child = (43 - ply - 1) // 2
                best = max(best, -child)
            assert best == v, (ply, k)


def decode(key, rows=6, columns=7):
    """(mask, pos) of a key ``pos + mask``: a column of ``h`` stones adds
    ``2**h - 1 + its side-to-move stones``, between ``2**h - 1`` and ``2**(h+1) - 2``."""
    H = rows + 1
    mask = 0
    for c in range(columns):
        col = (key >> (c * H)) & ((1 << H) - 1)
        mask |= ((1 << ((col + 1).bit_length() - 1)) - 1) << (c * H)
    return mask, key - mask


# ---------------------------------------------------------------------------
# Resuming, pools, Dask
# ---------------------------------------------------------------------------

SHAPE = (4, 5, 4)  # 4 rows, 5 columns: 1,500 positions of 6 stones, a second or so


@pytest.mark.slow
def test_a_killed_build_resumes_to_the_same_file(tmp_path):
    """A build killed with SIGKILL after its fourth chunk, then the same command: the
    chunks on disk are kept, the rest solved, the file identical to an uninterrupted
    build's."""
    out = tmp_path / "killed.cxdb"
    code = ("import os, signal, sys\n"
            "from scripts.arena import database_build as B\n"
            "def stop(index, written):\n"
            "    if written == 4: os.kill(os.getpid(), signal.SIGKILL)\n"
            f"B.build(*{SHAPE!r}, 6, {str(out)!r}, chunk=100, leaves=None, on_chunk=stop)\n")
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == -signal.SIGKILL, proc.stderr
    assert not out.exists()
    parts = B.parts_dir(out)
    assert len([f for f in os.listdir(parts) if f.startswith("chunk-")]) == 4
    report = B.build(*SHAPE, 6, out, chunk=100, leaves=None)
    assert (report.chunks, report.resumed) == (15, 4)
    assert not os.path.exists(parts)
    B.build(*SHAPE, 6, tmp_path / "whole.cxdb", chunk=100, leaves=None)
    assert out.read_bytes() == (tmp_path / "whole.cxdb").read_bytes()


def test_damaged_chunks_are_solved_again_and_other_builds_refused(tmp_path):
    out = tmp_path / "db.cxdb"
    B.build(*SHAPE, 5, tmp_path / "whole.cxdb", chunk=100, leaves=None)
    written = []

    def stop(index, n):
        written.append(index)
        if n == 3:
            raise KeyboardInterrupt
    with pytest.raises(KeyboardInterrupt):
        B.build(*SHAPE, 5, out, chunk=100, leaves=None, on_chunk=stop)
    parts = B.parts_dir(out)
    with open(B.chunk_path(parts, written[0]), "r+b") as f:  # a flipped score
        f.seek(-1, os.SEEK_END)
        last = f.read(1)
        f.seek(-1, os.SEEK_END)
        f.write(bytes([last[0] ^ 1]))
    with pytest.raises(ValueError, match="another build"):
        B.build(*SHAPE, 5, out, chunk=50, leaves=None)
    report = B.build(*SHAPE, 5, out, chunk=100, leaves=None)
    assert report.resumed == 2
    assert out.read_bytes() == (tmp_path / "whole.cxdb").read_bytes()


def test_process_pool_writes_the_same_file(tmp_path):
    B.build(*SHAPE, 6, tmp_path / "one.cxdb", chunk=200, leaves=None)
    report = B.build(*SHAPE, 6, tmp_path / "two.cxdb", chunk=200, leaves=None, workers=2)
    assert report.chunks == 8
    assert (tmp_path / "one.cxdb").read_bytes() == (tmp_path / "two.cxdb").read_bytes()


# ---------------------------------------------------------------------------
# The command
# ---------------------------------------------------------------------------


def test_command_builds_a_database_the_solver_uses(tmp_path, capsys):
    out = tmp_path / "5x4.cxdb"
    assert cli.main(["database", "build", "--config", "rows=4,columns=5,inarow=4", "--plies", "4",
                     "--out", str(out), "--no-progress"]) == 0
    printed = capsys.readouterr().out
    assert f"{out}: 177 positions of 4 stones, 5x4/4" in printed
    db = D.load(out)
    fast, plain = Solver(4, 5, 4, tt_bits=16), Solver(4, 5, 4, tt_bits=16)
    fast.use_database(db)
    for line in ("", "3", "33", "312", "3124", "31245"):
        assert fast.analyze(line) == plain.analyze(line)


@pytest.mark.parametrize("argv, words", [
    (["database"], "a command is required"),
    (["book", "build", "--out", "x"], "--plies"),  # the former name, kept as an alias
    (["database", "build", "--out", "x"], "--plies"),
    (["database", "build", "--plies", "-1", "--out", "x"], "--plies"),
    (["database", "build", "--plies", "43", "--out", "x"], "0..42"),
    (["database", "build", "--plies", "2", "--out", "x", "--config", "rows=9,columns=9"], "64"),
    (["database", "build", "--plies", "2", "--out", "x", "--config", "depth=3"], "depth"),
    (["database", "build", "--plies", "2", "--out", "/nonexistent/x"], "no such directory"),
    (["database", "build", "--plies", "2", "--out", "x", "--workers", "2", "--dask", "tcp://h:1"],
     "not allowed with"),
    (["database", "build", "--plies", "2", "--out", "x", "--leaves", "/nonexistent/db"],
     "no such database file"),
])
def test_bad_input_is_one_line(argv, words, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    line = cli_error_line(argv, capsys)
    assert line.startswith(f"connectx {argv[0]}") and words in line, line


# ---------------------------------------------------------------------------
# BitBully's 8-ply file (the documented cross-check): a file written here
# ---------------------------------------------------------------------------


def huffman8(p, outcome):
    """A 3-byte record of BitBully's 8-ply file, written plainly: the board's code (first
    player to move), its last two bits minus the outcome (0 a draw, 1 a loss)."""
    bits = ""
    for c in range(7):
        for r in range(6):
            cell = 1 << (c * 7 + r)
            if not p.mask & cell:
                break
            bits += "10" if p.pos & cell else "11"
        bits += "0"
    bits += "0"
    assert len(bits) == 24
    return (int(bits, 2) | -outcome).to_bytes(3, "big")


def test_bitbully_8ply_reader_and_comparison(tmp_path):
    keys, pos, mask = positions(6, 7, 4, 8)
    rng = np.random.default_rng(4)
    pick = np.sort(rng.choice(len(keys), 300, replace=False))
    values = rng.choice([-3, 0, 5], size=300).astype(np.int8)
    db = D.Database(6, 7, 4, 8, keys[pick], values, "test")
    records = []
    for i, v in zip(pick.tolist(), values.tolist()):
        p = Position(6, 7, 4, int(pos[i]), int(mask[i]), 8)
        if v <= 0:  # wins are left out of the file
            records.append(huffman8(p, -1 if v < 0 else 0))
    records.sort()
    path = tmp_path / "book_8ply.dat"
    path.write_bytes(b"".join(records))
    book = B.read_bitbully_8ply(path)
    assert len(book) == len(records)
    assert B.compare_bitbully_8ply(db, path) == {"entries": 300, "records": len(records),
                                                 "agree": 300, "disagree": 0, "unknown": 0}
    wrong = D.Database(6, 7, 4, 8, db.keys, -db.values, "test")
    found = B.compare_bitbully_8ply(wrong, path)
    assert found["disagree"] == int(np.sum(values != 0))
    path.write_bytes(b"".join(records)[:-1])
    with pytest.raises(ValueError, match="3-byte records"):
        B.read_bitbully_8ply(path)
