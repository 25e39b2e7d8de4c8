"""The perfect solver: labelled positions, a slow pure-Python negamax on small boards,
the threat kernel against its general path (bad input, time-outs and the command line:
tests/test_solver_cli.py)."""
import os
import random

import numpy as np
import pytest

from agents.solver import solver as S
from agents.solver.bits import (G_BOARD, G_BOTTOM, G_EVEN, G_FAST, claimeven_bound,
                                    has_line, mirror, winning_cells)
from agents.solver.table import (NEAR_EMPTY, near_table_size, table_key, table_size, tt_get, tt_key,
                                 tt_layout, tt_put, tt_slot)
from agents.solver.position import Position, _has_line
from agents.board.rules_reference import ref_drop, ref_legal_moves, ref_winner

from conftest import POSITIONS


@pytest.fixture(scope="module")
def solver():
    s = S.Solver(tt_bits=20)
    S.warm_up(s)
    return s


def read_lines(name):
    with open(os.path.join(POSITIONS, name)) as f:
        return [line.split() for line in f if line.strip()]


# ---------------------------------------------------------------------------
# Slow reference: plain negamax, memoised, no pruning (small boards only)
# ---------------------------------------------------------------------------


def ref_score(board, mark, rows, columns, inarow, memo):
    """Exact score of ``board`` (Kaggle flat list) with ``mark`` to move.

    A win by the stone dropped when ``m`` stones are on the board scores
    ``(rows*columns + 1 - m) // 2`` for the winner; a full board is 0."""
    key = (tuple(board), mark)
    if key in memo:
        return memo[key]
    n = rows * columns
    m = sum(1 for v in board if v)
    best = None
    for c in ref_legal_moves(board, rows, columns):
        child = ref_drop(board, c, mark, rows, columns)
        if ref_winner(child, rows, columns, inarow) == mark:
            v = (n + 1 - m) // 2
        elif m + 1 == n:
            v = 0
        else:
            v = -ref_score(child, 3 - mark, rows, columns, inarow, memo)
        best = v if best is None or v > best else best
    memo[key] = best
    return best


def random_line(rows, columns, inarow, stones, rng):
    """A random move string of ``stones`` moves that never completes a line, or None."""
    p = Position(rows, columns, inarow)
    seq = ""
    for _ in range(stones):
        cols = [c for c in range(columns) if p.can_play(c) and not p.is_winning_move(c)]
        if not cols:
            return None
        c = rng.choice(cols)
        p.play(c)
        seq += str(c + 1)
    return seq


def board_of(seq, rows, columns):
    board = [0] * (rows * columns)
    for i, ch in enumerate(seq):
        board = ref_drop(board, int(ch) - 1, 1 + i % 2, rows, columns)
    return board


# (rows, columns, inarow, fewest stones for the reference to finish quickly)
SMALL_SHAPES = [(4, 4, 3, 2), (4, 5, 4, 10), (5, 4, 3, 6), (4, 5, 3, 6), (3, 3, 3, 0),
                (5, 6, 4, 21), (3, 6, 4, 9), (2, 7, 4, 6), (6, 5, 4, 21), (4, 6, 5, 15),
                # five in a row, where a side is often left no line to complete (the draw
                # bounds of the solver's kernel): 5x5, and 7x4 with horizontal lines only
                (5, 5, 5, 12), (4, 7, 5, 12)]


@pytest.mark.parametrize("shape", SMALL_SHAPES, ids=lambda s: f"{s[1]}x{s[0]}/{s[2]}")
def test_matches_slow_negamax_on_random_positions(shape):
    rows, columns, inarow, fewest = shape
    rng = random.Random(rows * 100 + columns * 10 + inarow)
    s = S.Solver(rows, columns, inarow, tt_bits=12)
    memo = {}
    checked = 0
    while checked < 6:
        seq = random_line(rows, columns, inarow, rng.randrange(fewest, rows * columns), rng)
        if seq is None:
            continue
        board = board_of(seq, rows, columns)
        mark = 1 + len(seq) % 2
        expected = ref_score(board, mark, rows, columns, inarow, memo)
        assert s.solve(seq) == expected, seq
        weak = s.solve(seq, weak=True)
        assert weak == (expected > 0) - (expected < 0), seq
        scores = s.analyze(seq)
        for c in range(columns):
            if not Position.from_moves(seq, rows, columns, inarow).can_play(c):
                assert scores[c] == S.INVALID_MOVE
                continue
            child = ref_drop(board, c, mark, rows, columns)
            if ref_winner(child, rows, columns, inarow) == mark:
                want = (rows * columns + 1 - len(seq)) // 2
            elif len(seq) + 1 == rows * columns:
                want = 0
            else:
                want = -ref_score(child, 3 - mark, rows, columns, inarow, memo)
            assert scores[c] == want, (seq, c)
        assert max(scores) == expected
        for t in (expected, expected - 1, 0, expected + 1):
            assert s.moves_at_least(seq, t) == [c for c in range(columns)
                                                if scores[c] != S.INVALID_MOVE
                                                and scores[c] >= t], (seq, t)
        col, lo, hi, done = s.best_move(seq)
        assert done and lo == hi == expected and scores[col] == expected, seq
        checked += 1


def test_claimeven_bound_never_cuts_a_true_score():
    """The claimeven bound of a position with the first player to move, on boards of an
    even number of rows, is at least the exact score, and it does bound many."""
    rng = random.Random(11)
    fired = {0: 0, -1: 0}
    for rows, columns, inarow, fewest in [(4, 4, 3, 6), (4, 5, 4, 10), (6, 5, 4, 21),
                                          (4, 6, 5, 15), (2, 7, 4, 6), (6, 7, 4, 32)]:
        g = S.geometry(rows, columns, inarow)
        memo = {}
        checked = 0
        while checked < 25:
            stones = rng.randrange(fewest, rows * columns - 1)
            seq = random_line(rows, columns, inarow, stones - stones % 2, rng)
            if seq is None:
                continue
            p = Position.from_moves(seq, rows, columns, inarow)
            bound = claimeven_bound(p.pos, p.mask, g)
            exact = ref_score(board_of(seq, rows, columns), 1, rows, columns, inarow, memo)
            assert exact <= bound, (rows, columns, inarow, seq)
            if bound in fired:
                fired[bound] += 1
            checked += 1
    assert fired[0] > 5 and fired[-1] > 2, fired
    assert S.geometry(5, 7, 4)[G_EVEN] == 0  # odd rows: no bound


def test_claimeven_bound_when_every_line_of_the_first_player_lies_above_one_of_the_second():
    """The refinement: the first player's claimeven cells hold lines, each above a line
    of the second player's of the same direction and first column. Such positions
    (searched for among random ones) are lost for the first player, as the bound says."""
    rng = random.Random(12)
    found = 0
    for rows, columns, inarow, fewest in [(4, 4, 3, 4), (4, 5, 3, 6), (6, 4, 3, 8), (4, 6, 4, 12),
                                          (6, 5, 4, 18)]:
        g = S.geometry(rows, columns, inarow)
        memo = {}
        here = 0
        for _ in range(2000):
            if here == 6:
                break
            stones = rng.randrange(fewest, rows * columns - 2)
            seq = random_line(rows, columns, inarow, stones - stones % 2, rng)
            if seq is None:
                continue
            p = Position.from_moves(seq, rows, columns, inarow)
            possible = (p.mask + g[G_BOTTOM]) & g[G_BOARD]
            theirs = (p.pos ^ p.mask) | (g[G_EVEN] & ~(p.mask | possible))
            if not has_line(g[G_BOARD] & ~theirs, g) or claimeven_bound(p.pos, p.mask, g) != -1:
                continue
            exact = ref_score(board_of(seq, rows, columns), 1, rows, columns, inarow, memo)
            assert exact <= -1, (rows, columns, inarow, seq)
            here += 1
        found += here
    assert found >= 10, found


@pytest.mark.parametrize("shape", [(6, 7, 4), (4, 5, 3), (5, 4, 5), (7, 8, 4)])
def test_has_line_against_reference(shape):
    rows, columns, inarow = shape
    g = S.geometry(rows, columns, inarow)
    H = rows + 1
    rng = random.Random(5)
    for _ in range(500):
        cells = rng.getrandbits(64) & rng.getrandbits(64) & int(g[S.G_BOARD])
        assert has_line(cells, g) == _has_line(cells, H, inarow), (shape, cells)


def test_tiny_table_is_still_exact():
    """A table far too small for the search overwrites entries but never returns a
    wrong one (the slot and the stored quotient give the whole key back)."""
    s = S.Solver(tt_bits=10)
    for moves, score in read_lines("mid.txt")[::20]:
        assert s.solve(moves) == int(score), moves


def test_table_buckets_against_a_dict():
    """Random puts and gets on a small table against a dict: a get returns the value
    last put for that key or 0 (evicted), never another key's; the first entry of a
    bucket keeps the entry of more work (the larger search). Keys span the whole int64 range (a
    64-bit board's keys can be negative), on a table as small as a 64-bit board allows."""
    rng = np.random.default_rng(7)
    tt = np.zeros(table_size(10, 64), dtype=np.int64)
    assert tt.size == 2**16 and table_size(20) == 2**20
    last = {}
    keys = rng.integers(-2**63, 2**63 - 1, size=3000, dtype=np.int64)
    # a few keys that share buckets, so that buckets overflow
    twins = []
    for key in keys[:300]:
        q, i = tt_slot(tt, int(key))
        assert tt_key(tt, q, i) == key  # the slot gives the whole key back
        twins += [tt_key(tt, q + 1, i), tt_key(tt, q - 7, i)]
    assert all(tt_slot(tt, t)[1] == tt_slot(tt, int(k))[1] for t, k in zip(twins[::2], keys))
    keys = np.concatenate([keys, np.array(twins, dtype=np.int64)])
    for step in range(20000):
        key = int(keys[rng.integers(keys.size)])
        if rng.random() < 0.5:
            value, work = int(rng.integers(1, 120)), int(rng.integers(0, 64))
            tt_put(tt, key, value, work)
            last[key] = value
            assert tt_get(tt, key) == value
        else:
            got = tt_get(tt, key)
            assert got in (0, last.get(key, 0)), (key, got)
    tt[:] = 0
    a, b, c = (tt_key(tt, q, 10) for q in (3, 4, 5))  # one bucket
    tt_put(tt, a, 10, 30)
    tt_put(tt, b, 11, 20)
    tt_put(tt, c, 12, 8)  # less work than the first: takes the second place
    assert (tt_get(tt, a), tt_get(tt, b), tt_get(tt, c)) == (10, 0, 12)
    tt_put(tt, b, 11, 40)  # more work: first place, the first moves down
    assert (tt_get(tt, a), tt_get(tt, b), tt_get(tt, c)) == (10, 11, 0)


def test_a_64_bit_board_enlarges_a_tiny_table():
    """8 columns x 7 rows use all 64 bits: tt_bits=10 would overflow the entry's key field,
    so the table gets 2**16 entries; its scores equal a 2**20 table's."""
    small, large = S.Solver(7, 8, 4, tt_bits=10), S.Solver(7, 8, 4, tt_bits=20)
    assert small.tt.size >= 2**16
    rng = random.Random(64)
    for _ in range(3):
        seq = None
        while seq is None:
            seq = random_line(7, 8, 4, 46, rng)
        assert small.solve(seq) == large.solve(seq), seq


def _stones_of_key(key, columns, H):
    """The stones of a table key (``pos + mask``: a column of ``h`` stones reads
    ``2**h - 1 .. 2**(h+1) - 2``, so ``h`` is the bit length of the column plus one, less one)."""
    return sum((((key >> (c * H)) & ((1 << H) - 1)) + 1).bit_length() - 1 for c in range(columns))


def test_the_near_table_holds_the_positions_of_few_empty_cells():
    """The solver's table array is the main table then the near table; after a solve every
    entry of the near table is a position of at most NEAR_EMPTY empty cells, every entry of
    the main table one of more, and both hold some (each entry's key decoded from its slot)."""
    assert (near_table_size(20), near_table_size(14), near_table_size(10, 64)) == (2**17, 2**11, 0)
    assert tt_layout(2**20 + 2**17) == (19, 16, 2**20) and tt_layout(2**16) == (15, 15, 0)
    s = S.Solver(tt_bits=14)
    main, near = table_size(14), near_table_size(14)
    assert s.tt.size == main + near
    s.solve("4453")
    N, H = 42, 7
    for region, few in ((s.tt[:main], False), (s.tt[main:], True)):
        full = np.flatnonzero(region)
        assert full.size > 100, few
        for i in full:
            key = tt_key(region, int(region[i]) >> 14, int(i) & ~1)
            assert (N - _stones_of_key(key, 7, H) <= NEAR_EMPTY) == few, (few, key)
    assert not S.Solver(7, 8, 4, tt_bits=10).tt.size & (2**16 - 1)  # a 64-bit board: no near table


# ---------------------------------------------------------------------------
# The labelled public sets (a sample; scripts/bench/solver.py runs them all)
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("name,step", [("end.txt", 4), ("mid.txt", 4)])
def test_labelled_positions(solver, name, step):
    for moves, score in read_lines(name)[::step]:
        assert solver.solve(moves) == int(score), moves


# begin.txt lines (6 to 14 stones) that the solver settles in about 0.1 s or less each
BEGIN_SAMPLE = ["7313337353445 -2", "52612135135274 -4", "644162142615 4", "56611122571 -9",
                "23752747634444 4", "546453316525 -4", "726325413174 3", "371215377276 0",
                "45545313455 -4", "22361376333 3", "6326443521722 11", "2161725371167 -14"]


def test_begin_sample(solver):
    labels = {m: int(s) for m, s in read_lines("begin.txt")}
    for line in BEGIN_SAMPLE:
        moves, score = line.split()
        assert labels[moves] == int(score)  # the sample is copied from the file
        assert solver.solve(moves) == int(score), moves


def test_analysis_sample(solver):
    for fields in read_lines("analysis.txt")[::10]:
        moves, expected = fields[0], [int(v) for v in fields[1:]]
        assert solver.analyze(moves) == expected, moves
        best = max(expected)
        for t in (best, best - 1, 0):  # the optimal columns, one worse, at least a draw
            want = [c for c in range(7) if expected[c] != S.INVALID_MOVE and expected[c] >= t]
            assert solver.moves_at_least(moves, t) == want, (moves, t)
        col, lo, hi, done = solver.best_move(moves)
        assert done and lo == hi == max(expected) and expected[col] == max(expected), moves


def test_two_threads_give_the_same_scores():
    """Lazy SMP: a helper thread shares the table; every entry point answers as with one
    thread, on labelled positions and on a tiny table where the threads' entries
    collide; a deadline stops both threads."""
    import time
    labels = [(m, int(s)) for m, s in read_lines("mid.txt")[::20]] + \
        [(line.split()[0], int(line.split()[1])) for line in BEGIN_SAMPLE[:6]]
    for tt_bits in (20, 10):
        two = S.Solver(tt_bits=tt_bits, threads=2)
        for moves, score in labels:
            assert two.solve(moves) == score, moves
        for fields in read_lines("analysis.txt")[::40]:
            moves, expected = fields[0], [int(v) for v in fields[1:]]
            assert two.analyze(moves) == expected, moves
            col, lo, hi, done = two.best_move(moves)
            assert done and lo == hi == max(expected) and expected[col] == max(expected)
            assert two.moves_at_least(moves, max(expected)) == \
                [c for c in range(7) if expected[c] == max(expected)]
    # solve returns only once the helper has stopped (it waits for it)
    assert two.solve("4", deadline=time.perf_counter() + 0.2) is None
    with pytest.raises(ValueError, match="threads"):
        S.Solver(threads=0)


def test_next_probe_spreads_the_threads_over_thresholds():
    """The main thread probes where one thread would; a helper at the nearest free
    threshold, on the side the interval last moved to first; the last one is shared."""
    from agents.solver.split import next_probe
    assert next_probe(0, -5, 5, 0, -1, set()) == 0
    assert next_probe(1, -5, 5, 0, -1, {0}) == -1
    assert next_probe(1, -5, 5, 0, 1, {0}) == 1
    assert next_probe(2, -5, 5, 0, -1, {0, -1}) == 1
    assert next_probe(2, -5, 5, 0, -1, {0, -1, 1}) == -2
    assert next_probe(0, -5, 5, 9, 1, set()) == 4  # clamped into [lo, hi - 1]
    assert next_probe(1, -5, 5, -9, -1, {-5}) == -4  # at the edge: the other side
    assert next_probe(1, 2, 3, 2, -1, {2}) == 2  # one threshold left: searched by both


def test_split_probes_give_true_bounds_and_the_score():
    """Two threads on their own probes: every answer that ran to the end is a true bound
    of the labelled score (fail-soft: ``<= t`` an upper bound, else a lower one), the
    score and the weak score are one thread's, and the helper's own thresholds were
    searched (not only the main thread's)."""
    two = S.Solver(threads=2)
    own = 0
    for line in BEGIN_SAMPLE[:8]:
        moves, score = line.split()[0], int(line.split()[1])
        two.reset()
        assert two.solve(moves) == score, moves
        assert two.probes and two.nodes > 0
        for k, t, r in two.probes:
            if r is not None:
                assert (score <= r) if r <= t else (score >= r), (moves, k, t, r)
        main = {t for k, t, _ in two.probes if k == 0}
        own += any(k == 1 and r is not None and t not in main for k, t, r in two.probes)
        two.reset()
        assert two.solve(moves, weak=True) == (score > 0) - (score < 0), moves
    assert own >= 2


def test_threads_split_the_columns_and_partial_analysis():
    """``analyze`` with helpers splits the columns (three threads: the main one from the
    centre, two helpers from the edges, each then searching the columns still open):
    the scores of one thread. ``partial``: past the deadline, the columns solved so far
    (each its exact score), None for the others; without it, None."""
    import time
    one, three = S.Solver(tt_bits=16), S.Solver(tt_bits=16, threads=3)
    for fields in read_lines("analysis.txt")[5::30]:
        moves, expected = fields[0], [int(v) for v in fields[1:]]
        assert three.analyze(moves) == expected, moves
        for s in (one, three):
            s.reset()
            part = s.analyze(moves, deadline=time.perf_counter() + 0.003, partial=True)
            assert len(part) == 7 and all(v is None or v == e for v, e in zip(part, expected))
    for s in (one, three):  # one stone: many seconds of search
        part = s.analyze("4", deadline=time.perf_counter() + 0.05, partial=True)
        assert len(part) == 7 and None in part
        assert s.analyze("4", deadline=time.perf_counter() + 0.05) is None


def test_symmetric_table_changes_nothing_but_speed():
    a = S.Solver(tt_bits=16, symmetric=True)
    b = S.Solver(tt_bits=16, symmetric=False)
    for moves, score in read_lines("mid.txt")[1::25]:
        assert a.solve(moves) == b.solve(moves) == int(score)
        mirrored = "".join(str(8 - int(ch)) for ch in moves)
        assert a.solve(mirrored) == int(score)


# ---------------------------------------------------------------------------
# Kernels
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("shape,kind", [((6, 7, 4), 1), ((5, 6, 4), 1), ((4, 5, 4), 1), ((7, 8, 4), 1),
                                        ((6, 7, 5), 2), ((5, 7, 5), 2), ((6, 7, 3), 2), ((7, 8, 3), 2),
                                        ((7, 8, 6), 2), ((6, 9, 2), 2), ((7, 8, 5), 2)])
def test_fast_threats_match_general_path(shape, kind):
    """The shift paths (G_FAST 1: Pons' four in a row; 2: any inarow, explicit for three
    and five) give the general path's winning cells and lines, on both sides' stones and
    on the cells a side could still fill."""
    rows, columns, inarow = shape
    fast = S.geometry(rows, columns, inarow)
    slow = fast.copy()
    slow[G_FAST] = 0
    assert fast[G_FAST] == kind
    rng = random.Random(7)
    seen = 0
    for _ in range(200):
        seq = random_line(rows, columns, inarow, rng.randrange(rows * columns), rng)
        if seq is None:
            continue
        p = Position.from_moves(seq, rows, columns, inarow)
        for stones in (p.pos, p.pos ^ p.mask):
            assert winning_cells(stones, p.mask, fast) == winning_cells(stones, p.mask, slow)
            open_cells = stones | (int(fast[G_BOARD]) ^ p.mask)
            assert has_line(open_cells, fast) == has_line(open_cells, slow)
            seen += winning_cells(stones, p.mask, slow) != 0
    assert seen > 20  # positions with a cell to complete were met


def test_winning_cells_against_reference():
    """Every cell the kernel marks wins when played (once reachable), and only those."""
    rng = random.Random(3)
    for rows, columns, inarow in [(6, 7, 4), (4, 5, 3), (5, 4, 5), (7, 8, 4), (6, 9, 4)]:
        g = S.geometry(rows, columns, inarow)
        H = rows + 1
        for _ in range(60):
            seq = random_line(rows, columns, inarow, rng.randrange(rows * columns), rng)
            if seq is None:
                continue
            p = Position.from_moves(seq, rows, columns, inarow)
            cells = winning_cells(p.pos, p.mask, g)
            for c in range(columns):
                for r in range(rows):
                    bit = 1 << (c * H + r)
                    if p.mask & bit:
                        assert not cells & bit
                        continue
                    wins = _has_line(p.pos | bit, H, inarow)
                    assert bool(cells & bit) == wins, (seq, c, r)


def test_mirror_and_key():
    g = S.geometry(6, 7, 4)
    p = Position.from_moves("4453")
    q = Position.from_moves("4435")
    assert mirror(p.pos + p.mask, g) == q.pos + q.mask
    assert table_key(p.pos, p.mask, p.moves, g) == table_key(q.pos, q.mask, q.moves, g)
