"""The ``perfect`` agent: optimal columns, the book, time-outs, games on small boards."""
import os
import random
import time

import numpy as np
import pytest

import agents
from agents.solver import book as B
from agents.players import budget as BU
from agents.players.base import Clock
from agents.players import perfect as P
from agents.players import traps as T
from agents.board import rules
from agents.solver.position import Position, canonical
from agents.solver.solver import Solver

from agents.board.rules_reference import board_from_moves
from conftest import POSITIONS

CFG = {"rows": 6, "columns": 7, "inarow": 4, "actTimeout": 2}


@pytest.fixture(scope="module")
def agent():
    return agents.make("perfect", tt_bits=20)


def obs_of(moves, rows=6, columns=7, overage=60.0):
    return {"board": board_from_moves(moves, rows, columns), "mark": 1 + len(moves) % 2,
            "remainingOverageTime": overage}


def test_optimal_on_analysis_sample(agent):
    with open(os.path.join(POSITIONS, "analysis.txt")) as f:
        lines = [line.split() for line in f][5::20]
    for fields in lines:
        moves, scores = fields[0], [int(v) for v in fields[1:]]
        col = agent(obs_of(moves), CFG)
        assert type(col) is int
        assert scores[col] == max(scores), (moves, col, scores)
        assert agent.last["source"] in ("solver", "trap") and agent.last["complete"]


def test_empty_board_opens_in_the_centre_from_the_book(agent):
    if agent.opening_book is None:
        pytest.skip("no opening book in agents/data")
    assert agent(obs_of(""), CFG) == 3
    assert agent.last["source"] == "book"


def test_lost_position_still_returns_a_legal_int(agent):
    """o to move ("41516") and lost: x threatens columns 3 and 7 of the bottom row.
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        o . . . . . .
        o . . x x x .
    """
    col = agent(obs_of("41516"), CFG)
    assert type(col) is int and Position.from_moves("41516").can_play(col)
    assert agent.last["source"] == "solver" and agent.last["hi"] < 0


def test_lost_position_sets_a_trap_among_the_optimal_columns(agent):
    """o to move in "44444333313" (from a game against alphabeta) loses against
    perfect play whatever it does; columns 3, 4, 6 and 7 lose slowest. The solver
    alone keeps column 4, which alphabeta answers correctly at most depths; after 6
    or 7 its replies at several depths from 4 to 11 throw the win away (with the
    threats weights of 2026-11-24: after 6 at depths 4, 5, 7 and 9, after 7 at 4-8 and
    10), so the trap is one of those and the model's replies to it, averaged over
    those depths, are better for o than its replies to column 4."""
    moves = "44444333313"
    s = Solver(tt_bits=20)
    optimal = s.moves_at_least(moves, s.solve(moves))
    assert optimal == [2, 3, 5, 6]
    # the first trap search of a process compiles the model's search kernels: with a
    # cold numba cache that takes the move's 2 s, no depth of the model completes and
    # the solver's column is played (by design). One move first, then the trap.
    agent(obs_of(moves), CFG)
    col = agent(obs_of(moves), CFG)
    assert col in (5, 6) and agent.last["source"] == "trap", agent.last
    cfg = rules.parse_config(CFG)

    def outcomes(c):
        """o's outcome (1 win, 0 draw, -1 loss) after c and the model's reply, per depth."""
        line = moves + str(c + 1)
        grid = np.array(board_from_moves(line), dtype=np.int8)
        heights = np.array([sum(1 for ch in line if int(ch) == k + 1) for k in range(7)],
                           dtype=np.int64)
        return [s.solve(line + str(agent.model.fixed_depth(grid, heights, 1, cfg, d)[0] + 1),
                        weak=True) for d in range(4, 12)]
    trap, plain_col = outcomes(col), outcomes(3)
    assert trap.count(1) >= 3 and sum(trap) > sum(plain_col), (trap, plain_col)
    # without traps: the solver's first optimal column
    plain = agents.make("perfect", tt_bits=20, traps=False)
    assert plain(obs_of(moves), CFG) in optimal and plain.last["source"] == "solver"


def test_opponent_budget_from_its_replies():
    """The model trace after our move says which reply the opponent plays at each
    depth and how many nodes each depth costs; its actual reply narrows the node budget
    it searches with, and the next traps weigh each depth by that budget."""
    trace = [(1, 3, 10), (2, 3, 50), (3, 2, 300), (4, 2, 2000), (5, 4, 9000)]
    assert [T._reply_at(trace, d) for d in (1, 2, 3, 4, 5, 9)] == [3, 3, 2, 2, 4, 4]
    assert T._depth_weights(trace, [20, 100, 1000, 5000, 10 ** 6]) == {1: 1, 2: 1, 3: 1,
                                                                       4: 1, 5: 1}
    a = agents.make("perfect", tt_bits=10, book=False)
    a._columns = 7
    assert a._budget_bins() is None  # no evidence: the depth-weighted default

    def observe(reply):
        g2 = np.zeros(42, dtype=np.int8)
        g2[35 + 3] = 1  # our stone in column 4 (mark 1)
        grid = g2.copy()
        grid[35 + reply - (7 if reply == 3 else 0)] = 2  # on top of ours in column 4
        a._watch = (g2, 2, (trace, False))
        a._observe(grid, 1)

    # column 4 (index 3) is the reply at depths 1-2: under 450 nodes (300 x slack 1.5),
    # or past the trace (13500 on), where deeper depths might have played it too
    observe(3)
    b = a._budget_bins()
    assert not ((b >= 450) & (b < 13500)).any() and b.max() == T.BUDGET_BINS.max()
    assert b.min() < 450
    observe(4)  # depth 5 (9000 nodes, 6000 with slack) or more: both fit 13500 on
    b = a._budget_bins()
    assert b.min() >= 13500 and b.max() == T.BUDGET_BINS.max()
    observe(0)  # a reply no depth plays: no evidence, nothing changes
    assert list(a._budget_bins()) == list(b)


def test_board_without_room_for_a_line_is_played_at_once(agent):
    """3 columns x 10 rows, 11 in a row: nobody can win, nothing to search (the fuzz
    saw the solver spend 18 s of overage on such boards)."""
    cfg = {"rows": 10, "columns": 3, "inarow": 11, "actTimeout": 2}
    board = board_from_moves("2" * 10 + "1", 10, 3)
    t0 = time.perf_counter()
    col = agent({"board": board, "mark": 2, "remainingOverageTime": 60}, cfg)
    assert col == 0 and agent.last["source"] == "no line fits"
    assert time.perf_counter() - t0 < 0.5


def test_overage_budgets(agent):
    """Settling may take half the spare overage (at most SETTLE_MAX s; SETTLE_EARLY_MAX
    while the board is too empty to solve); traps only the overage above TRAP_FLOOR."""
    cfg = rules.parse_config({"rows": 7, "columns": 8, "inarow": 4})
    start = time.perf_counter()

    def clock_with(overage):  # the move's clock: actTimeout 2 s, this much overage left
        return Clock(start, {"remainingOverageTime": overage}, {"actTimeout": 2})
    clock = clock_with(60.0)
    plain = clock.deadline
    # with the overage the move's deadline moves, the plain one does not
    spending = Clock(start, {"remainingOverageTime": 60.0}, {"actTimeout": 2}, use_overage=True)
    assert spending.plain_deadline == plain < spending.deadline

    def extra(end):
        return end - max(plain, time.perf_counter())
    assert BU.SETTLE_EARLY_MAX - 0.1 < extra(agent._settle_deadline(clock, plain, 0, cfg)) \
        <= BU.SETTLE_EARLY_MAX  # 56 empty cells
    stones = 56 - BU.SETTLE_FROM_EMPTIES
    assert BU.SETTLE_MAX - 0.1 < extra(agent._settle_deadline(clock, plain, stones, cfg)) \
        <= BU.SETTLE_MAX  # min(25, (60 - 5) / 2)
    clock = clock_with(20.0)
    assert abs(extra(agent._settle_deadline(clock, plain, stones, cfg)) - 7.5) < 0.1
    assert agent._trap_deadline(clock, plain, 10) == plain  # 20 s left: none for traps
    clock = clock_with(58.0)
    assert abs(agent._trap_deadline(clock, plain, 10) - (plain + 3.0)) < 0.1
    agent.use_overage = False
    try:
        assert agent._settle_deadline(clock, plain, stones, cfg) == plain
        assert agent._trap_deadline(clock, plain, 10) == plain
    finally:
        agent.use_overage = True


def test_book_round_trip_and_mirror():
    p = Position.from_moves("45")
    key, mirrored = canonical(p.key(), 6, 7)
    col = 5 if mirrored else 1  # column 2 (index 1) in p's orientation
    data = B.encode_book({key: (col, 3, B.EXACT), 12345: (0, -2, B.WEAK)}, 6, 7, 4, 8)
    book = B.Book(data)
    assert len(book) == 2 and book.counts() == {"exact": 1, "weak": 1}
    assert book.lookup(p) == (1, 3, B.EXACT)
    assert book.lookup(Position.from_moves("43")) == (5, 3, B.EXACT)  # the mirror image
    assert book.lookup(Position.from_moves("44")) is None
    with pytest.raises(ValueError, match="magic"):
        B.Book(b"nonsense" + data[8:])


def test_committed_book_is_consistent():
    from agents.solver.database import attach
    book = B.load_book()
    if book is None:
        pytest.skip("no opening book in agents/data")
    assert (book.rows, book.columns, book.inarow) == (6, 7, 4)
    assert book.lookup(Position()) is not None
    rng = random.Random(5)
    solver = Solver(tt_bits=20)
    checked = 0
    items = sorted(book.table.items())
    rng.shuffle(items)
    for key, (col, score, kind) in items:
        # rebuild the position from its key: mask = key's lowest set bits per column
        p = Position.from_key(key)
        assert p.can_play(col)
        if kind == B.WEAK and checked < 3 and p.moves >= 7:
            q = p.copy()
            if q.is_winning_move(col):
                assert score == 1
            else:
                q.play(col)
                assert -solver.solve(q, weak=True) == score
            checked += 1
    exact = Solver(tt_bits=16)
    if attach(exact) is None:
        return  # the databases extra is not installed: the EXACT entries are not checked
    for key, (col, score, kind) in items[:40]:  # EXACT: the column scores best, as stored
        p = Position.from_key(key)
        scores = exact.analyze(p)
        assert (kind == B.EXACT) == (scores[col] == max(scores) == score), (key, scores, col)


def test_options_are_checked():
    with pytest.raises(ValueError, match="tt_bits"):
        agents.make("perfect", tt_bits=0)
    with pytest.raises(ValueError, match="unknown option"):
        agents.make("perfect", depth=3)


def test_time_out_falls_back_to_alphabeta(agent):
    """An early position the solver cannot finish in 0.1 s (without the opening
    database and the opening scores, which answer it at once): alphabeta's legal move;
    with the opening scores (and no database), their optimal column."""
    a = agent
    saved = a.time_limit, a.use_overage, a.opening_book, a.database, a._solvers, a.openings
    try:
        a.time_limit, a.use_overage, a.opening_book, a.database, a._solvers, a.openings = \
            0.1, False, None, False, {}, None
        col = a(obs_of("44"), CFG)
        assert type(col) is int and 0 <= col < 7
        assert a.last["source"] == "alphabeta"
        a.openings = saved[-1]
        assert a(obs_of("44"), CFG) == 3 and a.last["source"] == "openings"
    finally:
        a.time_limit, a.use_overage, a.opening_book, a.database, a._solvers, a.openings = saved


def test_database_answers_the_opening_at_once(agent):
    """With the books extra: the same position, the same 0.1 s, an exact move."""
    from agents.solver.database import default_database
    if default_database() is None:
        pytest.skip("the books extra is not installed")
    a = agent
    saved = a.time_limit, a.use_overage, a.opening_book
    try:
        a.time_limit, a.use_overage, a.opening_book = 0.1, False, None
        col = a(obs_of("44"), CFG)
        assert a.last["source"] == "solver" and col == 3  # "44": only the centre wins
    finally:
        a.time_limit, a.use_overage, a.opening_book = saved


def test_large_board_is_alphabeta(agent):
    cfg = {"rows": 8, "columns": 8, "inarow": 4, "actTimeout": 2}
    a = agent
    saved = a.time_limit
    try:
        a.time_limit = 0.2
        col = a({"board": [0] * 64, "mark": 1}, cfg)
    finally:
        a.time_limit = saved
    assert type(col) is int and 0 <= col < 8 and a.last["source"] == "alphabeta"


def play(first, second, cfg, overage=60.0):
    """Result for the first player (1 win, 0 draw, -1 loss) of one game; every move
    is offered ``overage`` seconds of overage."""
    board = [0] * (cfg["rows"] * cfg["columns"])
    players = [first, second]
    for ply in range(cfg["rows"] * cfg["columns"]):
        mark = 1 + ply % 2
        col = players[ply % 2]({"board": board, "mark": mark, "remainingOverageTime": overage},
                               cfg)
        board = rules.drop_piece(board, col, mark, cfg)
        if rules.is_win(board, mark, cfg):
            return 1 if mark == 1 else -1
    return 0


@pytest.mark.parametrize("shape", [(4, 5, 4), (5, 4, 3), (5, 6, 4)])
def test_games_on_small_boards_reach_the_game_value(agent, shape):
    """As either colour against alphabeta the agent gets at least the game-theoretic
    value of the empty board (small boards, where the solver is exact at once). A short
    clock and no overage: the agent's trap hunting in drawn positions would otherwise
    spend seconds a move here."""
    rows, columns, inarow = shape
    cfg = {"rows": rows, "columns": columns, "inarow": inarow, "actTimeout": 0.5}
    value = Solver(rows, columns, inarow, tt_bits=16).solve("")
    sign = (value > 0) - (value < 0)
    opponent = agents.make("alphabeta", time_limit=0.05)
    assert play(agent, opponent, cfg, overage=0.0) >= sign
    assert -play(opponent, agent, cfg, overage=0.0) >= -sign


def grid_of_position(p):
    """Kaggle flat board of a Position (the side to move has mark 1 + moves % 2)."""
    H = p.rows + 1
    mover = 1 + p.moves % 2
    board = [0] * (p.rows * p.columns)
    for c in range(p.columns):
        for r in range(p.rows):
            bit = 1 << (c * H + r)
            if p.mask & bit:
                board[c + (p.rows - 1 - r) * p.columns] = mover if p.pos & bit else 3 - mover
    return board


def test_lost_book_entry_is_played_from_the_book(agent):
    """A position proven lost whose book column is a slowest loss (EXACT): the book's
    column, at once."""
    if agent.opening_book is None:
        pytest.skip("no opening book in agents/data")
    lost = [k for k, (c, s, kind) in sorted(agent.opening_book.table.items())
            if kind == B.EXACT and s < 0]
    if not lost:
        pytest.skip("no lost entry in the book")
    p = Position.from_key(lost[0])
    col = agent({"board": grid_of_position(p), "mark": 1 + p.moves % 2}, CFG)
    assert p.can_play(col) and agent.last["source"] == "book" and agent.last["score"] < 0
    assert col == agent.opening_book.lookup(p)[0]


def test_weak_book_entries_give_way_to_the_database(agent):
    """A WEAK entry keeps the win or the loss but is not the fastest win or the slowest
    loss: with the 12-ply database the solver's best column, without it the book's."""
    from agents.solver.database import attach
    if agent.opening_book is None:
        pytest.skip("no opening book in agents/data")
    exact = Solver(tt_bits=16)
    if attach(exact) is None:
        pytest.skip("the databases extra is not installed")
    table = agent.opening_book.table
    weak = sorted((Position.from_key(k).moves, k) for k, (c, s, kind) in table.items()
                  if kind == B.WEAK)
    assert weak and all(table[k][1] != 0 for _, k in weak)
    lost = [k for _, k in weak if table[k][1] < 0]
    a = agent
    for key in [k for _, k in weak[:2]] + lost[:2]:  # the fewest stones (wins); losses
        p = Position.from_key(key)
        scores = exact.analyze(p)
        obs = {"board": grid_of_position(p), "mark": 1 + p.moves % 2, "remainingOverageTime": 0}
        col = a(obs, CFG)
        assert scores[col] == max(scores) and a.last["source"] in ("solver", "trap"), key
        saved = a.database, a._solvers
        try:
            a.database, a._solvers = False, {}
            col = a(obs, CFG)
            assert a.last["source"] == "book" and col == a.opening_book.lookup(p)[0]
            assert scores[col] < max(scores) and (scores[col] > 0) == (max(scores) > 0)
        finally:
            a.database, a._solvers = saved


def test_playout_book_pieces(agent):
    from scripts.tools import playout_book as PB
    # fewest losses first, then most wins, then most draws, then the solver's order
    assert PB.choose({0: "WWL", 2: "DDD", 5: "WDD"}, [0, 2, 5]) == 5
    assert PB.choose({0: "DD", 2: "DD"}, [2, 0]) == 2
    # a lost entry goes into the book, mirror-folded, and the book reaches its stones
    book = B.Book(PB.add_lost_entries(B.read_resource(B.BOOK_NAME),
                                      {"444443333": 2, "444445555": 4}))
    assert book.max_stones == 9
    assert book.lookup(Position.from_moves("444443333"))[:2] == (2, -1)
    assert book.lookup(Position.from_moves("444445555"))[:2] == (4, -1)
    # a played-out game: perfect never loses a position it does not lose on the board
    # played-out games from mid.txt: perfect to move in a won position wins; the
    # opponent to move in a drawn one, perfect does not lose
    for moves, want in (("123734351571272761637", "W"), ("2516421413477354411416", "WD")):
        result, game = PB.play_out(moves, "alphabeta:depth=2", agent)
        assert game.startswith(moves) and len(game) > len(moves)
        assert result in want, (moves, game, result)


def test_book_generator_is_resumable(tmp_path):
    """Three plies of fixed-depth alphabeta entries (the solver's part needs minutes
    from the empty board); a rerun reads the progress file and recomputes nothing."""
    from scripts.tools import make_book
    entries = make_book.generate(2, str(tmp_path), exact_from=3, heuristic_depth=2,
                                 tt_bits=12, quiet=True)
    lines = (tmp_path / "solved.txt").read_text().splitlines()
    # 1 root + 4 first moves (mirror-folded) + the first player's 2-stone positions
    assert len(entries) == len(lines) and len(entries) >= 5
    assert all(kind == B.HEURISTIC for _, _, kind in entries.values())
    again = make_book.generate(2, str(tmp_path), exact_from=3, heuristic_depth=2,
                               tt_bits=12, quiet=True)
    assert again == entries
    assert (tmp_path / "solved.txt").read_text().splitlines() == lines
    book = B.Book(B.encode_book(entries, 6, 7, 4, 2))
    assert book.lookup(Position()) is not None


@pytest.mark.slow
def test_keeps_the_value_outside_the_book_with_the_overage():
    """Positions of 6-12 stones (scripts/data/positions/early.txt, every 15th line, and
    5334156, a win that the agent once played into a loss): with a fresh 60 s
    overage each, the chosen column keeps the win, the draw or the loss, within the
    move's budget. The full
    file is ``python -m scripts.bench.perfect``."""
    from agents.solver.labels import read_lines
    from scripts.bench.perfect import run
    lines = read_lines(os.path.join(POSITIONS, "early.txt"))
    chosen = lines[::15] + [line for line in lines if line[0] == "5334156"]
    records = run(chosen, overage=60.0, act=2.0)
    assert [r["moves"] for r in records if not r["kept"]] == []
    # Kaggle's rule, not a speed figure (those are the benchmark's): no move spends more
    # than actTimeout plus the overage it was given.
    assert all(r["seconds"] < 2.0 + 60.0 for r in records)
