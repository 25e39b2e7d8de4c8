"""Opening databases (agents.solver.database): the package's format and BitBully's, read
back exactly; a corrupt, truncated or missing file refused; the solver stopping at the
database's positions gives the scores of the plain search; the principal variation
played out ends the game with the position's score."""
import os
import random

import numpy as np
import pytest

from agents.board import rules_reference

from agents.solver import database as D
from agents.solver.position import Position
from agents.solver.solver import Solver
from agents.solver.table import DB_MISSING

from conftest import POSITIONS

HAVE_BITBULLY = D.bitbully_path() is not None and os.path.isfile(D.bitbully_path() or "")


def positions_of(stones, rows, columns, inarow):
    """Every position of ``stones`` stones reached without a four (one per mirror pair not
    folded: a dict key -> Position), side to move unable to win at once."""
    out = {}
    frontier = [Position(rows, columns, inarow)]
    for _ in range(stones):
        nxt = {}
        for p in frontier:
            for c in range(columns):
                if p.can_play(c) and not p.is_winning_move(c):
                    q = p.copy()
                    q.play(c)
                    nxt[q.key()] = q
        frontier = list(nxt.values())
    for p in frontier:
        if not any(p.can_play(c) and p.is_winning_move(c) for c in range(columns)):
            out[p.key()] = p
    return out


def small_database(rows=4, columns=4, inarow=3, ply=4):
    """A database built here, by the plain solver (the builder's job, written plainly)."""
    s = Solver(rows, columns, inarow, tt_bits=16)
    entries = {}
    for p in positions_of(ply, rows, columns, inarow).values():
        k = D._key(p.pos, p.mask, s.g)
        entries[k] = s.solve(p)
    keys = np.array(sorted(entries), dtype=np.int64)
    return D.Database(rows, columns, inarow, ply, keys, [entries[k] for k in keys], "test")


def mirrored(p):
    """The mirror image of a Position."""
    m = Position(p.rows, p.columns, p.inarow, moves=p.moves)
    H, col = p.rows + 1, (1 << (p.rows + 1)) - 1
    for c in range(p.columns):
        m.mask |= ((p.mask >> (c * H)) & col) << ((p.columns - 1 - c) * H)
        m.pos |= ((p.pos >> (c * H)) & col) << ((p.columns - 1 - c) * H)
    return m


def random_position(rng, stones, rows, columns, inarow):
    """A random position of ``stones`` stones reached without a line (the package's one
    maker, drawn again until it succeeds), as a solver ``Position``."""
    while True:
        moves = rules_reference.random_position(rows, columns, inarow, stones, rng, as_moves=True)
        if moves is not None:
            return Position.from_moves("".join(str(c + 1) for c in moves), rows, columns, inarow)


# ---------------------------------------------------------------------------
# The package's own format
# ---------------------------------------------------------------------------


def test_own_format_round_trip_and_lookup(tmp_path):
    db = small_database()
    path = tmp_path / "db.cxdb"
    D.save(db, path)
    back = D.load(path)
    assert back.config == (4, 4, 3) and back.ply == 4 and len(back) == len(db) > 50
    assert np.array_equal(back.keys, db.keys) and np.array_equal(back.values, db.values)
    # a position and its mirror image find the same entry
    held = [p for p in positions_of(4, 4, 4, 3).values() if mirrored(p).key() != p.key()]
    assert len(held) > 20
    for p in held:
        assert back.score(p) is not None and back.score(p) == back.score(mirrored(p))
    assert back.score(Position.from_moves("12", 4, 4, 3)) is None  # not 4 stones


def test_own_format_refuses_bad_files(tmp_path):
    db = small_database()
    path = tmp_path / "db.cxdb"
    D.save(db, path)
    data = path.read_bytes()
    cases = {
        "truncated": data[:-3],
        "header only": data[:10],
        "corrupt": data[:40] + bytes([data[40] ^ 1]) + data[41:],
        "version": data[:5] + b"\x02" + data[6:],
    }
    words = {"truncated": "truncated", "header only": "truncated", "corrupt": "corrupt",
             "version": "version"}
    for name, blob in cases.items():
        bad = tmp_path / f"{name}.cxdb"
        bad.write_bytes(blob)
        with pytest.raises(D.DatabaseError, match=words[name]):
            D.load(bad)
    with pytest.raises(D.DatabaseError, match="no such database file"):
        D.load(tmp_path / "nothing.cxdb")
    # unsorted keys with a correct checksum: still refused
    swapped = D.Database(4, 4, 3, 4, db.keys[::-1].copy(), db.values[::-1].copy(), "x")
    D.save(swapped, tmp_path / "unsorted.cxdb")
    with pytest.raises(D.DatabaseError, match="ascending"):
        D.load(tmp_path / "unsorted.cxdb")


# ---------------------------------------------------------------------------
# The solver with a database: the scores of the plain search
# ---------------------------------------------------------------------------


def test_solver_with_database_matches_plain_solver():
    db = small_database()
    plain = Solver(4, 4, 3, tt_bits=16)
    fast = Solver(4, 4, 3, tt_bits=16)
    fast.use_database(db)
    rng = random.Random(7)
    probed = 0
    for _ in range(120):
        p = random_position(rng, rng.randrange(0, 9), 4, 4, 3)
        assert fast.analyze(p) == plain.analyze(p), p.moves
        assert fast.solve(p) == plain.solve(p)
        probed += p.moves <= db.ply
    assert probed > 40
    # the database stops the search: fewer nodes from the empty board
    plain.reset()
    plain.solve("")
    fast.solve("")
    assert fast.nodes < plain.nodes


def test_the_search_stops_at_the_database():
    """From a position one stone short of the database, a null-window search enters the
    position and at most one child a column, whose scores the database gives: a child
    with one reply is entered too (not passed over to the position after its reply)."""
    db = small_database()
    s = Solver(4, 4, 3, tt_bits=16)
    s.use_database(db)
    plain = Solver(4, 4, 3, tt_bits=16)
    searched = 0
    for p in positions_of(db.ply - 1, 4, 4, 3).values():
        score = plain.solve(p)
        for t in range(score - 1, score + 2):
            answer = s.score_at_least(p, t)
            assert answer == (score >= t), (p.moves, t)
            assert s.nodes <= 1 + 4, (p.moves, t, s.nodes)
            searched += s.nodes > 1
    assert searched > 20


def test_sibling_floor_bounds_the_positions_one_stone_past_the_database():
    """Past the database by one stone, taking away a top stone of the player who just
    moved leaves a position the database holds, whose score bounds ours from below; the
    best bound is often the exact score, and the searches that start from it (one thread
    and two) give the plain solver's scores."""
    from agents.solver.roots import _sibling_floor
    db = small_database()
    plain = Solver(4, 4, 3, tt_bits=16)
    one = Solver(4, 4, 3, tt_bits=16)
    one.use_database(db)
    two = Solver(4, 4, 3, tt_bits=16, threads=2)
    two.use_database(db)
    exact = bounded = 0
    positions = list(positions_of(db.ply + 1, 4, 4, 3).values())
    for p in positions:
        score = plain.solve(p)
        floor = int(_sibling_floor(p.pos, p.mask, one.g, one.dbk, one.dbv))
        assert floor <= score, p.moves
        exact += floor == score
        bounded += floor > -1000
        assert one.solve(p) == score and two.solve(p) == score
    assert exact > len(positions) // 4, (exact, bounded, len(positions))
    assert bounded > len(positions) // 2, (bounded, len(positions))


def test_use_database_checks_the_board():
    with pytest.raises(ValueError, match="database is 4x4/3, solver is 7x6/4"):
        Solver().use_database(small_database())


def test_principal_variation_ends_with_the_score():
    """Played out, the line ends the game (a four, or a full board for a draw) with the
    score the solver gave the position, from its side to move."""
    rng = random.Random(3)
    for shape in ((4, 4, 3), (4, 5, 4), (5, 4, 3)):
        s = Solver(*shape, tt_bits=16)
        for _ in range(25):
            p = random_position(rng, rng.randrange(0, 8), *shape)
            score = s.solve(p)
            line, complete = s.principal_variation(p, score)
            assert complete
            assert_line_ends_with(p, line, score)


def reference_line(s, p, score):
    """The principal variation the slow way (the contract of
    ``Solver.principal_variation``): each ply the first column, centre first, that wins
    at once or whose child is not above the score (``Solver.score_at_least``)."""
    n = p.rows * p.columns
    order = sorted(range(p.columns), key=lambda c: (abs(2 * c - (p.columns - 1)), c))
    q, line = p.copy(), []
    while q.moves < n:
        legal = [c for c in order if q.can_play(c)]
        win = [c for c in legal if q.is_winning_move(c)]
        if win:
            return line + [win[0]]
        for c in legal:
            child = q.copy()
            child.play(c)
            if child.moves >= n:
                holds = score == 0
            else:
                holds = not s.score_at_least(child, 1 - score)
            if holds:
                line.append(c)
                q, score = child, -score
                break
        else:
            raise AssertionError("no column keeps the score")
    return line


def test_principal_variation_is_the_reference_line_with_two_threads():
    """The kernel's line (one call, helper threads beside it) is the slow reference's,
    column for column, on seeded random positions of 7x6 and smaller boards."""
    rng = random.Random(8)
    for shape, stones, count in (((6, 7, 4), 14, 6), ((4, 5, 4), 4, 15), ((5, 4, 3), 3, 15)):
        s = Solver(*shape, tt_bits=18, threads=2)
        for _ in range(count):
            p = random_position(rng, rng.randrange(stones - 2, stones + 1), *shape)
            score = s.solve(p)
            line, complete = s.principal_variation(p, score)
            assert complete and line == reference_line(s, p, score), (p.pos, p.mask)
            assert_line_ends_with(p, line, score)


def test_principal_variation_rejects_a_wrong_score_and_stops_at_the_deadline():
    s = Solver(4, 5, 4, tt_bits=16)
    p = s.position("33")
    score = s.solve(p)
    with pytest.raises(ValueError, match="not the position's"):
        s.principal_variation(p, score + 1)
    big = Solver(6, 7, 4, tt_bits=16)
    line, complete = big.principal_variation(big.position("44"), -1, deadline=1e-9)
    assert complete is False and line == []


def assert_line_ends_with(p, line, score):
    rows, columns = p.rows, p.columns
    n = rows * columns
    q = p.copy()
    for i, c in enumerate(line):
        assert q.can_play(c)
        if q.is_winning_move(c):
            assert i == len(line) - 1, "the line goes on after a four"
            won = (n + 1 - q.moves) // 2
            assert score == (won if i % 2 == 0 else -won)
            return
        q.play(c)
    assert q.moves == n and score == 0, "the line stops before the end of the game"


def test_solve_command_prints_the_line():
    import io
    from scripts.commands.solve import main
    out = io.StringIO()
    main(["--pv", "--no-database", "--rows", "4", "--columns", "5"], stdin=io.StringIO("3\n23\n"),
         stdout=out)
    for row in out.getvalue().splitlines():
        moves, score, _, _, line = row.split()
        p = Position.from_moves(moves, 4, 5, 4)
        assert_line_ends_with(p, [int(ch) - 1 for ch in line], int(score))


# ---------------------------------------------------------------------------
# BitBully's format: a file written here by a plain encoder, then the real one
# ---------------------------------------------------------------------------


def huffman(p):
    """BitBully's code of a 12-stone 7x6 position (first player to move), as its package
    writes it: columns left to right, bottom to top, 10 / 11 a first / second player's
    stone, 0 the end of a column (after a full one too), one 0 at the end."""
    bits = ""
    first = p.pos  # 12 stones: the side to move is the first player
    for c in range(7):
        for r in range(6):
            cell = 1 << (c * 7 + r)
            if not p.mask & cell:
                break
            bits += "10" if first & cell else "11"
        bits += "0"
    bits += "0"
    assert len(bits) == 32
    v = int(bits, 2)
    return v - (1 << 32) if v >= 1 << 31 else v


def bitbully_bytes(records):
    records = sorted(records)
    return b"".join(code.to_bytes(4, "big", signed=True) + v.to_bytes(1, "big", signed=True)
                    for code, v in records)


def plain_score(v):
    """BitBully's value of a 12-stone position into the solver's scale, plainly: a win
    ``d = 100 - v`` plies later drops the winning stone onto ``11 + d`` stones."""
    if v == 0:
        return 0
    d = 100 - abs(v)
    s = (43 - (11 + d)) // 2
    return s if v > 0 else -s


def test_bitbully_reader_on_a_file_written_here(tmp_path):
    rng = random.Random(12)
    records, want = [], {}
    while len(records) < 200:
        p = random_position(rng, 12, 6, 7, 4)
        if any(p.can_play(c) and p.is_winning_move(c) for c in range(7)):
            continue
        d = rng.randrange(1, 31)
        v = 0 if rng.random() < 0.2 else (100 - d if d % 2 == 1 else -(100 - d))
        code = huffman(p)
        if code in dict(records):
            continue
        records.append((code, v))
        want[p.key()] = (p, plain_score(v))
    path = tmp_path / "book.dat"
    path.write_bytes(bitbully_bytes(records))
    db = D.load(path, cache=False)
    assert db.config == (6, 7, 4) and db.ply == 12
    for p, score in want.values():
        assert db.score(p) == score
        assert db.score(mirrored(p)) == score
    # truncated, a stone too many, an impossible distance, unsorted: refused
    data = path.read_bytes()
    bad = {"truncated": data[:-2],
           "not a legal 12-stone": bitbully_bytes([(0x7FFFFFF0, 0)]),
           "exact score": bitbully_bytes([(records[0][0], 98)]),  # a win on the loser's ply
           "not sorted": data[5:10] + data[:5] + data[10:]}
    for word, blob in bad.items():
        f = tmp_path / "bad.dat"
        f.write_bytes(blob)
        with pytest.raises(D.DatabaseError, match=word):
            D.load(f, cache=False)


def test_bitbully_cache_is_used_and_rebuilt(tmp_path, monkeypatch):
    monkeypatch.setenv("CONNECTX_CACHE", str(tmp_path / "cache"))
    rng = random.Random(5)
    records = {}
    while len(records) < 20:
        p = random_position(rng, 12, 6, 7, 4)
        if not any(p.can_play(c) and p.is_winning_move(c) for c in range(7)):
            records[huffman(p)] = 0
    path = tmp_path / "book.dat"
    path.write_bytes(bitbully_bytes(records.items()))
    first = D.load(path)
    cached = os.listdir(D.cache_dir())
    assert len(cached) == 1
    again = D.load(path)
    assert np.array_equal(first.keys, again.keys) and again.source == str(path)
    # a damaged cached copy is converted again, never used
    f = os.path.join(D.cache_dir(), cached[0])
    blob = bytearray(open(f, "rb").read())
    blob[-1] ^= 1
    open(f, "wb").write(bytes(blob))
    assert np.array_equal(D.load(path).values, first.values)


@pytest.fixture(scope="module")
def bitbully():
    if not HAVE_BITBULLY:
        pytest.skip('the databases extra is not installed (pip install "connectx-search[databases]")')
    return D.load(D.bitbully_path())


def test_bitbully_published_examples(bitbully):
    """The examples of the bitbully-databases package's documentation, in our scale."""
    assert len(bitbully) == 4200899
    # Player 1 wins in 29 moves (value 71); loses in 12 moves (-88); win in 27 (73)
    board71 = ["0000000", "0001000", "0102000", "0201020", "0102010", "0201020"]
    board88 = ["0000000", "0000000", "0011000", "0022000", "0121000", "0112022"]
    board73 = ["0000000", "0000000", "0100000", "0220100", "0210200", "1121200"]
    for rows, v in ((board71, 71), (board88, -88), (board73, 73)):
        grid = [int(ch) for row in rows for ch in row]
        p = Position.from_grid(grid, 6, 7, 4, 1)
        assert bitbully.score(p) == plain_score(v)


def labelled(name, most):
    with open(os.path.join(POSITIONS, name)) as f:
        rows = [line.split() for line in f if line.strip()]
    return [r for r in rows if len(r[0]) <= most]


def test_bitbully_scores_equal_the_labels(bitbully):
    """Every labelled position of at most 12 stones, scored through the database."""
    s = Solver()
    s.use_database(bitbully)
    checked = 0
    for name in ("begin.txt", "early.txt"):
        for row in labelled(name, 12):
            if name == "begin.txt":
                assert s.solve(row[0]) == int(row[1]), row[0]
            else:
                assert s.analyze(row[0]) == [int(x) for x in row[1:]], row[0]
            checked += 1
    assert checked > 150


@pytest.mark.slow
def test_bitbully_sample_equals_the_plain_solver(bitbully):
    """A seeded sample of the database's entries, solved without it."""
    s = Solver()
    found = 0
    r = random.Random(11)
    while found < 12:
        p = random_position(r, 12, 6, 7, 4)
        v = bitbully.score(p)
        if v is None:
            continue
        assert s.solve(p) == v, p
        found += 1


def test_probe_misses_outside_the_database():
    from agents.solver.table import db_probe
    db = small_database()
    s = Solver(4, 4, 3, tt_bits=16)
    p = Position.from_moves("111", 4, 4, 3)
    assert db_probe(p.pos, p.mask, s.g, db.keys, db.values) == DB_MISSING


def test_bench_analysis_runs_and_checks_the_labels(capsys):
    from scripts.bench import analysis as bench_analysis
    if D.default_database() is None:
        pytest.skip("the databases extra is not installed")
    assert bench_analysis.main(["--positions", "6", "--baseline", "0", "--quiet", "--page", "3"]) == 0
    out = capsys.readouterr().out
    assert "6 random positions of 0-12 stones" in out
    assert "the page's requests (/api/analyze, two threads, table emptied) on 3 of them" in out
    assert "the whole line in the answer: total" in out and "cut / whole: total" in out
    assert "labelled positions of at most 12 stones: 295/295 equal to their labels" in out


def test_without_a_database_commands_say_how_to_get_one(monkeypatch, capsys):
    from scripts.bench import analysis as bench_analysis
    monkeypatch.setattr(D, "_DEFAULT", {})
    monkeypatch.setenv("CONNECTX_DATABASE", "0")
    with pytest.raises(SystemExit) as e:
        bench_analysis.main(["--positions", "1", "--quiet"])
    assert e.value.code == 2
    assert 'pip install "connectx-search[databases]"' in capsys.readouterr().err


def test_a_corrupt_installed_database_is_an_error_not_a_score(monkeypatch, tmp_path, capsys):
    import io
    from scripts.commands.solve import main
    bad = tmp_path / "book.dat"
    bad.write_bytes(b"\x00" * 7)
    monkeypatch.setattr(D, "_DEFAULT", {})
    monkeypatch.setenv("CONNECTX_DATABASE", str(bad))
    # 9 stones: past the package's opening scores, so the installed database is read
    with pytest.raises(SystemExit) as e:
        main([], stdin=io.StringIO("444433335\n"), stdout=io.StringIO())
    assert e.value.code == 2
    assert "not a whole number of 5-byte records" in capsys.readouterr().err
