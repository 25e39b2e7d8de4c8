"""Searches against the pure-Python references: the tutorial's minimax and plain minimax."""
import random

import numpy as np
import pytest

import agents
from agents.board.rules_reference import random_position
from agents.games.protocol import Counter, minimax_value
from agents.players.kaggle_tutorial import (TutorialConfig, tutorial_get_heuristic,
                                            tutorial_heuristic_flat, tutorial_scores)
from agents.search.reference import ConnectX
from agents.board.grid import column_heights, window_table
from agents.board.rules import parse_config
from heuristics import threats_eval, windows_eval


def positions(shape, n, seed, max_stones=None):
    rows, columns, inarow = shape
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        stones = rng.randrange(0, max_stones or rows * columns - 1)
        b = random_position(rows, columns, inarow, stones, rng)
        if b is not None and any(v == 0 for v in b):
            out.append((b, 1 + sum(1 for v in b if v) % 2))
    return out


def to_move_and_arrays(board, rows, columns):
    """``(mark, grid, heights)`` of a flat board: the side to move, the int8 grid, the
    column heights."""
    grid = np.array(board, dtype=np.int8)
    return 1 + sum(1 for v in board if v) % 2, grid, column_heights(grid, rows, columns)


def arrays(shape, n, seed, max_stones=None):
    """:func:`positions` with each board's int8 grid and column heights:
    ``(board, mark, grid, heights)``."""
    rows, columns, _ = shape
    for board, _ in positions(shape, n, seed, max_stones):
        yield (board, *to_move_and_arrays(board, rows, columns))


@pytest.mark.parametrize("shape", [(6, 7, 4), (4, 5, 3), (8, 9, 5), (3, 3, 3), (5, 4, 6)])
def test_windows_heuristic_equals_tutorial(shape):
    rows, columns, inarow = shape
    windows = window_table(*shape)
    for board, mark, grid, h in arrays(shape, 30, seed=11):
        for m in (1, 2):
            expected = tutorial_get_heuristic(grid.reshape(rows, columns), m, TutorialConfig(*shape))
            assert windows_eval(grid, h, rows, columns, inarow, windows, m) == expected


def ref_side(board, mark, rows, columns, inarow):
    """One side of heuristics.threats restated: (open-window and centre value, threat cells)."""
    from heuristics import threats as T
    from agents.board.rules_reference import ref_lines
    value, cells = 0, set()
    for line in ref_lines(rows, columns, inarow):
        vals = [board[i] for i in line]
        mine, theirs = vals.count(mark), sum(1 for v in vals if v not in (0, mark))
        if theirs or not mine:
            continue
        if mine == inarow - 1:
            cells.add(next(i for i in line if board[i] == 0))
        elif mine == inarow - 2:
            value += T.OPEN_FULLER
        else:
            value += T.OPEN_OTHER
    centre = range((columns - 1) // 2, columns // 2 + 1)
    value += T.CENTRE * sum(1 for r in range(rows) for c in centre if board[c + r * columns] == mark)
    return value, cells


def ref_threats(board, rows, columns, inarow):
    """Straightforward re-statement of heuristics.threats: value(1) - value(2)."""
    from heuristics import threats as T
    heights = [sum(1 for r in range(rows) if board[c + r * columns]) for c in range(columns)]
    sides = {m: ref_side(board, m, rows, columns, inarow) for m in (1, 2)}
    total = 0
    first_odd = False
    for m, sign in ((1, 1), (2, -1)):
        value, cells = sides[m]
        others = sides[3 - m][1]
        for i in cells:
            c, r_bottom = i % columns, rows - 1 - i // columns
            # live: no threat of the other side lower in the same column
            live = not any(j % columns == c and rows - 1 - j // columns < r_bottom
                           for j in others)
            value += T.THREAT \
                + (T.PLAYABLE if heights[c] == r_bottom else 0) \
                + (T.PARITY if live and (r_bottom % 2 == 0) == (m == 1) else 0)
            first_odd = first_odd or (m == 1 and live and r_bottom % 2 == 0)
        total += sign * value
    return total + (T.ZUGZWANG if first_odd else 0)


@pytest.mark.parametrize("shape", [(6, 7, 4), (4, 5, 3), (9, 8, 5), (10, 10, 4)])
def test_threats_heuristic_matches_reference_and_is_symmetric(shape):
    rows, columns, inarow = shape
    windows = window_table(*shape)
    for board, _, grid, h in arrays(shape, 30, seed=5):
        v1 = threats_eval(grid, h, rows, columns, inarow, windows, 1)
        assert v1 == -threats_eval(grid, h, rows, columns, inarow, windows, 2)
        assert v1 == ref_threats(board, rows, columns, inarow)


def test_minimax_depth3_matches_tutorial_on_random_positions():
    """Same score for every column as the tutorial, so the same best-column set.
    (12 positions here; ``python -m scripts.bench.search`` checks 100 more and times them.)"""
    cfg = parse_config({})
    agent = agents.make("minimax", depth=3)
    for board, mark, grid, h in arrays((6, 7, 4), 12, seed=2024, max_stones=36):
        ours, _ = agent.scores(grid, h, mark, cfg)
        expected = tutorial_scores(board, mark, TutorialConfig(6, 7, 4), 3)
        assert {c: int(ours[c]) for c in expected} == expected
        # the agent's move (with its safety net) is one of the tutorial's best columns
        best = [c for c, s in expected.items() if s == max(expected.values())]
        assert agent({"board": board, "mark": mark}, {}) in best


@pytest.mark.parametrize("shape,depth", [((4, 5, 3), 1), ((4, 5, 3), 4), ((3, 4, 3), 5),
                                         ((4, 4, 4), 4), ((5, 4, 3), 3), ((3, 3, 3), 9),
                                         ((6, 7, 4), 2), ((2, 12, 3), 3)])
def test_alphabeta_value_equals_minimax_with_no_more_nodes(shape, depth):
    rows, columns, inarow = shape
    cfg = parse_config({"rows": rows, "columns": columns, "inarow": inarow})
    # the plain tree: the minimax value (quiescence's is tested against its own reference)
    agent = agents.make("alphabeta", heuristic="windows", quiescence=False)
    game = ConnectX(rows, columns, inarow, heuristic=tutorial_heuristic_flat)
    for board, mark, grid, h in arrays(shape, 12, seed=depth * 31 + rows):
        col, value, nodes = agent.fixed_depth(grid, h, mark, cfg, depth)
        state = (tuple(board), mark)
        counter = Counter()
        values = {}
        for a in game.actions(state):
            counter.nodes += 1
            values[a] = minimax_value(game, game.result(state, a), depth - 1, mark, counter)
        assert value == max(values.values())
        assert values[col] == value
        assert nodes <= counter.nodes


@pytest.mark.parametrize("shape", [(6, 7, 4), (4, 5, 3), (5, 4, 4), (7, 9, 5)])
def test_incremental_minimax_equals_the_plain_one(shape):
    """``minimax_scores_counts`` (window counts kept move by move, explicit stack) gives
    the plain recursive ``minimax_scores`` + ``windows_eval``: same scores, same nodes."""
    from agents.board.grid import cell_window_table
    from agents.search.minimax import minimax_scores, minimax_scores_counts
    rows, columns, inarow = shape
    windows, cells = window_table(rows, columns, inarow), cell_window_table(rows, columns, inarow)
    rng = random.Random(rows * 100 + columns)
    for _ in range(8):
        board = random_position(rows, columns, inarow, rng.randrange(0, rows * columns - 2), rng)
        if board is None:
            continue
        mark, grid, heights = to_move_and_arrays(board, rows, columns)
        for depth in (1, 2, 3, 4):
            plain, fast = np.zeros(2, dtype=np.int64), np.zeros(2, dtype=np.int64)
            want = minimax_scores(grid, heights, rows, columns, inarow, windows, windows_eval,
                                  depth, mark, plain)
            got = minimax_scores_counts(grid, heights, rows, columns, inarow, windows, cells,
                                        depth, mark, fast)
            assert list(got) == list(want) and fast[0] == plain[0] > 0, (board, depth)
            assert list(grid) == board


def test_forced_result_matches_its_reference():
    """The explicit-stack forced-win search gives the recursive plain-Python answer,
    from the side to move and after each legal move (the last stone checked)."""
    from agents.board.grid import drop, undo
    from agents.board.rules_reference import ref_drop
    from agents.search.reference import forced_result_reference
    from agents.search.tactics import forced_result
    rng = random.Random(5)
    seen = set()
    for rows, columns, inarow in [(6, 7, 4), (4, 5, 3), (5, 4, 4)]:
        for _ in range(12):
            board = random_position(rows, columns, inarow, rng.randrange(0, rows * columns - 1),
                                    rng)
            if board is None:
                continue
            mark, grid, heights = to_move_and_arrays(board, rows, columns)
            for depth in (1, 2, 3) if columns > 5 else (1, 2, 3, 4):
                got = forced_result(grid, heights, rows, columns, inarow, mark, depth, -1)
                assert got == forced_result_reference(board, mark, depth, rows, columns, inarow)
                seen.add(int(got))
            for c in range(columns):
                if heights[c] < rows:
                    idx = drop(grid, heights, rows, columns, c, mark)
                    got = forced_result(grid, heights, rows, columns, inarow, 3 - mark, 2, idx)
                    undo(grid, heights, rows, columns, c)
                    after = ref_drop(board, c, mark, rows, columns)
                    assert got == forced_result_reference(after, 3 - mark, 2, rows, columns,
                                                          inarow), (board, c)
            assert list(grid) == board
    assert seen == {-1, 0, 1}


def test_safety_net_matches_its_reference():
    """The one-kernel safety net gives the plain-Python rules' answer, on seeded random
    positions of several shapes and random 'best' sets (including empty-of-wins ones)."""
    from agents.search.reference import safety_net_reference
    from agents.search.tactics import safety_net
    rng = random.Random(7)
    checked = fired = 0
    for rows, columns, inarow in [(6, 7, 4), (5, 5, 3), (7, 9, 5), (4, 6, 3)]:
        cfg = parse_config({"rows": rows, "columns": columns, "inarow": inarow})
        for _ in range(60):
            board = random_position(rows, columns, inarow, rng.randrange(0, rows * columns - 2),
                                    rng)
            if board is None:
                continue
            mark = 1 + sum(1 for v in board if v) % 2
            legal = [c for c in range(columns) if board[c] == 0]
            best = sorted(rng.sample(legal, rng.randint(1, len(legal))))
            grid = np.array(board, dtype=np.int8)
            heights = column_heights(grid, rows, columns)
            got = safety_net(grid, heights, cfg, mark, best)
            assert list(grid) == board  # the kernel leaves the board as it found it
            want = safety_net_reference(board, mark, best, rows, columns, inarow)
            assert list(got) == want, (board, mark, best)
            checked += 1
            fired += got != best
    assert checked > 160 and fired > 8  # the net did change some answers


# ---------------------------------------------------------------------------
# Bitboard alpha-beta: the same evaluation, the same tree
# ---------------------------------------------------------------------------

BB_SHAPES = [(6, 7, 4), (5, 6, 4), (4, 5, 3), (7, 8, 4), (6, 7, 5), (2, 12, 3), (6, 6, 2),
             (1, 20, 4), (9, 5, 4)]


def gravity_boards(rows, columns, rng, count):
    """Random stone heaps (columns filled from the bottom, marks at random): lines of
    either mark, several lines, boards no game reaches; the evaluations must agree there
    too."""
    for _ in range(count):
        board = [0] * (rows * columns)
        for c in range(columns):
            for r in range(rng.randrange(0, rows + 1)):
                board[c + (rows - 1 - r) * columns] = rng.choice([1, 2])
        yield board


@pytest.mark.parametrize("shape", BB_SHAPES)
def test_bitboard_heuristics_equal_the_array_ones(shape):
    from agents.search.alphabeta_bb import stones_of
    from heuristics import REGISTRY
    from heuristics.bitboard_eval import bb_threats_eval, bb_windows_eval, eval_geometry
    from heuristics.dispatch import NONE, bitboard_evaluate, grid_evaluate
    rows, columns, inarow = shape
    geo, windows = eval_geometry(*shape), window_table(*shape)
    rng = random.Random(rows * 31 + columns * 7 + inarow)
    boards = [random_position(rows, columns, inarow, rng.randrange(0, rows * columns), rng)
              for _ in range(80)]
    boards = [b for b in boards if b is not None] + list(gravity_boards(rows, columns, rng, 80))
    values = set()
    for board in boards:
        grid = np.array(board, dtype=np.int8)
        heights = column_heights(grid, rows, columns)
        stones = stones_of(grid, rows, columns)
        for mark in (1, 2):
            want = threats_eval(grid, heights, rows, columns, inarow, windows, mark)
            assert bb_threats_eval(stones[mark], stones[3 - mark], mark, geo) == want, board
            want_w = windows_eval(grid, heights, rows, columns, inarow, windows, mark)
            assert bb_windows_eval(stones[mark], stones[3 - mark], mark, geo) == want_w, board
            values.add(int(want))
            # the searches' hookup by id gives each registered heuristic's own value
            for h in REGISTRY.values():
                if h.id is None or h.id == NONE:  # NONE: 0 at a horizon, never a won board
                    continue
                want_h = h.evaluate(grid, heights, rows, columns, inarow, windows, mark)
                assert bitboard_evaluate(stones, mark, h.id, geo) == want_h, board
                assert grid_evaluate(grid, heights, rows, columns, inarow, windows, mark,
                                     h.id) == want_h, board
    assert len(values) > 20  # the positions are varied enough to mean something


@pytest.mark.parametrize("shape,depth,count", [
    ((6, 7, 4), 5, 10), ((5, 6, 4), 5, 10), ((4, 5, 3), 6, 10), ((7, 8, 4), 4, 10),
    ((2, 12, 3), 5, 10), ((6, 6, 2), 4, 10),
    ((10, 10, 5), 3, 4), ((8, 9, 4), 4, 4), ((7, 12, 6), 3, 4)])  # over 64 bits: no bitboards
@pytest.mark.parametrize("heuristic", ["threats", "windows"])
def test_alphabeta_kernels_search_the_same_tree(shape, depth, count, heuristic):
    """Fixed depth from an empty table: the bitboard kernel (where the board fits 64
    bits), the same kernel on the grid (the cached array path) and the recursive array
    kernel give the same column, value, node count and principal variation (same
    order, same table, same values)."""
    rows, columns, inarow = shape
    cfg = parse_config({"rows": rows, "columns": columns, "inarow": inarow})
    # the plain tree (quiescence off): the recursive kernel has no quiescence search; the
    # quiescence search is compared across grid and bitboards in test_alphabeta_options
    agent = agents.make("alphabeta", heuristic=heuristic, tt_bits=14, quiescence=False)
    kernels = ["recursive", "grid"]
    if agent.uses_bitboards(cfg):
        kernels.append("bits")
    assert agent.kernel_for(cfg) == kernels[-1]
    rng = random.Random(depth * 7 + rows)
    seen = 0
    while seen < count:
        board = random_position(rows, columns, inarow, rng.randrange(0, rows * columns - 4), rng)
        if board is None:
            continue
        mark, grid, heights = to_move_and_arrays(board, rows, columns)
        for d in range(1, depth + 1):
            got = {}
            for k in kernels:  # and the same principal variation
                got[k] = agent.fixed_depth(grid, heights, mark, cfg, d, kernel=k) + \
                    (tuple(agent.pv),)
            assert len(set(got.values())) == 1, (board, d, got)
        assert list(grid) == board and list(heights) == list(column_heights(grid, rows, columns))
        seen += 1
    with pytest.raises(ValueError, match="unknown kernel 'gpu'"):
        agent.fixed_depth(grid, heights, mark, cfg, 1, kernel="gpu")


def test_alphabeta_tables_fit_tiny_boards():
    """A board of at most 12 cells gets a table of 2**ceil(cells * log2 3) slots (every
    clear of a 2**20 one cost more than its search); larger boards keep ``tt_bits``."""
    from types import SimpleNamespace
    from agents.players.lookahead import AlphaBetaAgent
    a = AlphaBetaAgent()
    bits = {(r, c): a.table_bits(SimpleNamespace(rows=r, columns=c, inarow=3))
            for r, c in [(1, 9), (2, 4), (1, 3), (3, 4), (6, 7)]}
    assert bits == {(1, 9): 15, (2, 4): 13, (1, 3): 10, (3, 4): 20, (6, 7): 20}
    assert AlphaBetaAgent(tt_bits=12).table_bits(SimpleNamespace(rows=1, columns=9)) == 12
    cfg = parse_config({"rows": 1, "columns": 9, "inarow": 4})
    t = a.tables(cfg)
    assert t.tt_key.size == 2**15 and t.clear_seconds == 0.0
    grid = np.zeros(9, dtype=np.int64)
    col, _, reached, _ = a.search(grid, np.zeros(9, dtype=np.int64), 1, cfg)
    assert 0 <= col < 9 and reached == 9 and t.packed.shape == (2**15, 3) and t.clear_seconds > 0
