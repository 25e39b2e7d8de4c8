"""The options of ``alphabeta`` (killers, history, pvs, aspiration, quiescence) and its
principal variation, against the plain search and the pure-Python references."""
import random
import time

import numpy as np
import pytest

import agents
from agents.board.grid import column_heights, window_table
from agents.board.rules_reference import random_position, ref_drop, ref_winner
from agents.board.rules import parse_config
from agents.search.horizon import QUIESCENCE_PLIES
from agents.players.kaggle_tutorial import tutorial_heuristic_flat
from agents.search.reference import ConnectX, quiescence_value
from agents.search.scores import PROVEN, WIN
from heuristics import threats_eval, windows_eval

# the options that must leave the value (and the move) at a fixed depth unchanged, with
# quiescence (the default) and on the plain tree (quiescence=False)
SAME_VALUE = [{"killers": False}, {"history": True}, {"pvs": True},
              {"pvs": True, "history": True, "killers": False},
              {"pvs": True, "history": True, "aspiration": True},
              {"pvs": True, "history": True, "killers": False, "quiescence": False},
              {"pvs": True, "history": True, "aspiration": True, "quiescence": False}]


def sample(shape, count, seed, most=None):
    """``count`` seeded random positions (board, mark to move) that are not over."""
    rows, columns, inarow = shape
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        b = random_position(rows, columns, inarow,
                            rng.randrange(0, most or rows * columns - 4), rng)
        if b is not None and any(v == 0 for v in b):
            out.append((b, 1 + sum(1 for v in b if v) % 2))
    return out


def arrays(board, shape):
    grid = np.array(board, dtype=np.int8)
    return grid, column_heights(grid, shape[0], shape[1])


@pytest.mark.parametrize("shape,depth", [((6, 7, 4), 6), ((5, 6, 4), 6), ((4, 5, 3), 7),
                                         ((8, 9, 4), 3)])  # 8x9: the grid kernel
@pytest.mark.parametrize("options", SAME_VALUE)
def test_options_keep_the_value_and_the_move(shape, depth, options):
    """At a fixed depth every option but quiescence gives the column and value of the
    search without it (with or without quiescence alike), on the bitboard and the grid
    kernel alike, and both kernels search the same tree; aspiration (an
    iterative-deepening option) is compared through ``search``."""
    cfg = parse_config(dict(zip(("rows", "columns", "inarow"), shape)))
    plain = agents.make("alphabeta", tt_bits=14, quiescence=options.get("quiescence", True))
    other = agents.make("alphabeta", tt_bits=14, **options)
    kernels = ["grid", "bits"] if other.uses_bitboards(cfg) else ["grid"]
    for board, mark in sample(shape, 8, seed=depth * 13 + shape[0]):
        grid, heights = arrays(board, shape)
        want = plain.fixed_depth(grid, heights, mark, cfg, depth)
        got = {k: other.fixed_depth(grid, heights, mark, cfg, depth, kernel=k) for k in kernels}
        assert len(set(got.values())) == 1, (board, got)
        assert got["grid"][:2] == want[:2], (board, got, want)
        col, val, reached, _ = other.search(grid, heights, mark, cfg, max_depth=depth)
        pcol, pval, preached, _ = plain.search(grid, heights, mark, cfg, max_depth=depth)
        assert (col, val, reached) == (pcol, pval, preached), board
        assert list(grid) == board


def test_history_and_pvs_search_fewer_nodes_on_7x6():
    """Not a speed claim: the same 20 positions at depth 7, counted nodes."""
    shape = (6, 7, 4)
    cfg = parse_config({})
    boards = sample(shape, 20, seed=5, most=20)
    totals = {}
    for name, opts in {"plain": {}, "pvs+history": {"pvs": True, "history": True},
                       "no killers": {"killers": False}}.items():
        a = agents.make("alphabeta", tt_bits=16, **opts)
        totals[name] = sum(a.fixed_depth(*arrays(b, shape), m, cfg, 7)[2] for b, m in boards)
    assert totals["pvs+history"] < totals["plain"] < totals["no killers"], totals


@pytest.mark.parametrize("shape,depth,heuristic", [((4, 5, 3), 2, "windows"),
                                                   ((4, 5, 3), 3, "threats"),
                                                   ((5, 4, 3), 1, "windows"),
                                                   ((6, 7, 4), 2, "threats")])
def test_quiescence_equals_its_reference(shape, depth, heuristic):
    """The kernels' quiescence value at a fixed depth equals
    ``agents.search.reference.quiescence_value`` (bitboards and grid)."""
    rows, columns, inarow = shape
    cfg = parse_config({"rows": rows, "columns": columns, "inarow": inarow})
    windows = window_table(*shape)
    kernel = {"windows": windows_eval, "threats": threats_eval}[heuristic]

    def flat(board, mark, rows, columns, inarow):
        grid = np.array(board, dtype=np.int8)
        return int(kernel(grid, column_heights(grid, rows, columns), rows, columns, inarow,
                          windows, mark))

    game = ConnectX(rows, columns, inarow, heuristic=flat)
    agent = agents.make("alphabeta", heuristic=heuristic, quiescence=True, tt_bits=12)
    proven = 0
    for board, mark in sample(shape, 25 if depth < 3 else 10, seed=depth + rows * 7):
        grid, heights = arrays(board, shape)
        state = (tuple(board), mark)
        want = max(quiescence_value(game, game.result(state, a), depth - 1, QUIESCENCE_PLIES,
                                    mark) for a in game.actions(state))
        got = {k: agent.fixed_depth(grid, heights, mark, cfg, depth, kernel=k)[1]
               for k in ("grid", "bits")}
        assert got == {"grid": want, "bits": want}, board
        proven += abs(want) >= PROVEN
    assert proven >= 3  # the positions exercise the forced lines


def test_quiescence_sees_a_threat_past_the_horizon():
    """O (mark 2) threatens to complete the bottom row in column 3; X (mark 1) is to
    move. At depth 1 the plain search scores every column by the evaluation; with
    quiescence each column but the block is the loss it is::

        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . X
        O O O . . X X
    """
    cfg = parse_config({})
    board = [0] * 42
    for c in (0, 1, 2):
        board[35 + c] = 2
    board[40] = board[41] = board[34] = 1
    grid, heights = arrays(board, (6, 7, 4))
    lost = -(WIN - 8)  # 6 stones, X's move, O's winning seventh... eighth stone
    for kernel in ("bits", "grid"):
        for quiescence in (False, True):
            agent = agents.make("alphabeta", quiescence=quiescence)
            t = agent.tables(cfg)
            t.clear()
            stats = np.zeros(2, dtype=np.int64)
            scores = np.full(7, 0, dtype=np.int64)
            col = agent.root(grid, heights, 1, cfg, 1, 0.0, -1, stats, scores, kernel)
            if quiescence:
                assert col == 3 and abs(scores[3]) < PROVEN
                assert all(scores[c] == lost for c in range(7) if c != 3), scores
            else:
                assert all(abs(s) < PROVEN for s in scores), scores


def play_line(board, mark, line, shape):
    """The positions along ``line`` from ``board``: (board, mark to move, winner)."""
    rows, columns, inarow = shape
    for c in line:
        assert board[c] == 0, (board, line)  # a legal move
        board = ref_drop(board, c, mark, rows, columns)
        mark = 3 - mark
        w = ref_winner(board, rows, columns, inarow)
        if w:
            return board, mark, w
    return board, mark, 0


@pytest.mark.parametrize("shape,depth,kernel", [((6, 7, 4), 5, "bits"), ((6, 7, 4), 4, "grid"),
                                                ((4, 5, 3), 6, "bits"), ((8, 9, 4), 3, "grid")])
@pytest.mark.parametrize("options", [{}, {"pvs": True, "history": True}, {"quiescence": False},
                                     {"heuristic": "windows", "pvs": True}])
def test_the_principal_variation_reaches_the_value(shape, depth, kernel, options):
    """Played out from the position, the line of a fixed-depth search ends in a won or
    full board worth the reported value, or reaches the horizon (with quiescence: the
    horizon and the forced blocks after it) at a position whose static value is the
    reported value. (The recursive kernel's line equals these kernels':
    ``tests/test_search.py``.)"""
    rows, columns, inarow = shape
    cfg = parse_config({"rows": rows, "columns": columns, "inarow": inarow})
    agent = agents.make("alphabeta", tt_bits=14, **options)
    evaluate = {"threats": threats_eval, "windows": windows_eval}[agent.heuristic]
    ends = set()
    for board, mark in sample(shape, 12, seed=depth * 3 + rows):
        grid, heights = arrays(board, shape)
        col, value, _ = agent.fixed_depth(grid, heights, mark, cfg, depth, kernel=kernel)
        line = agent.pv
        assert line[0] == col
        leaf, _, won = play_line(list(board), mark, line, shape)
        stones = sum(1 for v in leaf if v)
        if won:
            assert value == (1 if won == mark else -1) * (WIN - stones), (board, line)
            ends.add("won")
        elif all(leaf):
            assert value == 0
        else:
            assert len(line) == depth or (agent.quiescence and len(line) > depth)
            g = np.array(leaf, dtype=np.int8)
            static = evaluate(g, column_heights(g, rows, columns), rows, columns, inarow,
                              window_table(*shape), mark)
            assert value == static, (board, line, value, static)
            ends.add("horizon")
    assert "horizon" in ends or shape == (4, 5, 3)  # a small board: often all won


@pytest.mark.parametrize("shape,depth", [((6, 7, 4), 3), ((6, 7, 4), 4), ((4, 5, 3), 5),
                                         ((8, 9, 4), 2)])
@pytest.mark.parametrize("heuristic", ["windows", "threats"])
def test_minimax_reports_its_line(shape, depth, heuristic):
    """The ``minimax`` agent's move info has the line behind the played column's value:
    played out from the position, it stops after ``depth`` plies, at a line or at a full
    board, at a position whose evaluation for the mover is the reported value (the
    tutorial's minimax scores terminal nodes by the heuristic too), and it is the
    tutorial's: every ply's move is a best reply by the tutorial's scores there."""
    from agents.players.kaggle_tutorial import TutorialConfig, tutorial_minimax
    rows, columns, inarow = shape
    config = {"rows": rows, "columns": columns, "inarow": inarow}
    agent = agents.make("minimax", depth=depth, heuristic=heuristic, seed=1)
    evaluate = {"threats": threats_eval, "windows": windows_eval}[heuristic]
    ends = set()
    for board, mark in sample(shape, 10, seed=depth * 5 + rows, most=rows * columns // 2):
        col = agent({"board": board, "mark": mark}, config)
        last = agent.last
        line, value = last["pv"], last["value"]
        assert line[0] == col == last["column"] and last["depth"] == depth and last["nodes"] > 0
        leaf, _, won = play_line(list(board), mark, line, shape)
        assert len(line) == depth or won or all(leaf), (board, line)
        ends.add("won" if won else "full" if all(leaf) else "horizon")
        g = np.array(leaf, dtype=np.int8)
        assert value == evaluate(g, column_heights(g, rows, columns), rows, columns, inarow,
                                 window_table(*shape), mark), (board, line)
        if heuristic == "windows" and depth <= 3:  # by the reference, every ply keeps the value
            cfg = TutorialConfig(rows, columns, inarow)
            node, mover = list(board), mark
            for k, c in enumerate(line):
                node = ref_drop(node, c, mover, rows, columns)
                mover = 3 - mover
                grid = np.array(node).reshape(rows, columns)
                assert tutorial_minimax(grid, depth - k - 1, mover == mark, mark, cfg) == value
    assert "horizon" in ends
    quiet = agents.make("minimax", depth=depth, heuristic=heuristic, seed=1, line=False)
    assert quiet({"board": board, "mark": mark}, config) == col and quiet.last["pv"] is None


def test_search_and_moves_report_the_line():
    """``search`` leaves the last completed depth's line in ``pv``; a move's ``last``
    info has it too (the immediate win or block as a line of one)."""
    cfg = parse_config({})
    agent = agents.make("alphabeta", depth=6)
    grid, heights = arrays([0] * 42, (6, 7, 4))
    col, value, reached, _ = agent.search(grid, heights, 1, cfg, max_depth=6)
    assert reached == 6 and len(agent.pv) == 6 and agent.pv[0] == col
    col = agent({"board": [0] * 42, "mark": 1}, {"actTimeout": 1e6})  # no clock: depth 6
    assert agent.last["pv"][0] == col and len(agent.last["pv"]) == 6
    board = [0] * 42
    board[35] = board[36] = board[37] = 1
    board[28] = board[29] = board[30] = 2
    assert agent({"board": board, "mark": 1}, {"actTimeout": 1e6}) == 3
    assert agent.last["pv"] == [3]


@pytest.mark.parametrize("shape", [(6, 7, 4), (8, 9, 4)])  # bitboards, the grid kernel
def test_deepening_false_is_one_search_at_the_depth(shape):
    """``deepening=false``: the column, value and nodes of one search at the depth from
    an empty table (``fixed_depth``); cut off by the deadline, depth 1's column; without
    a depth, or with a clock or aspiration, one error naming the option."""
    rows, columns, inarow = shape
    cfg = parse_config({"rows": rows, "columns": columns, "inarow": inarow})
    one = agents.make("alphabeta", depth=4, deepening=False, tt_bits=12)
    plain = agents.make("alphabeta", tt_bits=12)
    for board, mark in sample(shape, 12, 8):
        grid, heights = arrays(board, shape)
        depth = min(4, rows * columns - int(heights.sum()))
        col, value, reached, nodes = one.search(grid, heights, mark, cfg, max_depth=4)
        assert (col, value, nodes) == plain.fixed_depth(grid, heights, mark, cfg, depth)
        assert reached == depth
    deep = agents.make("alphabeta", depth=14, deepening=False, tt_bits=12)
    grid, heights = arrays([0] * (rows * columns), shape)
    col, _, reached, _ = deep.search(grid, heights, 1, cfg, deadline=time.perf_counter() - 1,
                                     max_depth=14)
    assert reached == 1 and col == plain.fixed_depth(grid, heights, 1, cfg, 1)[0]
    for options in ({}, {"depth": 4, "time_limit": 0.1}, {"depth": 4, "aspiration": True}):
        with pytest.raises(ValueError, match="deepening=false"):
            agents.make("alphabeta", deepening=False, **options)


def test_the_recursive_kernel_refuses_the_options():
    cfg = parse_config({})
    grid, heights = arrays([0] * 42, (6, 7, 4))
    with pytest.raises(ValueError, match="plain tree only"):
        agents.make("alphabeta", pvs=True).fixed_depth(grid, heights, 1, cfg, 2,
                                                       kernel="recursive")
    with pytest.raises(ValueError, match="option history must be True or False"):
        agents.make("alphabeta", history=1)


def test_no_heuristic_is_the_win_loss_payoff():
    """``heuristic="none"``: 1 for a line of ``mark``, -1 for the opponent's, else 0
    (random stone heaps with at most one line owner, and games)."""
    from heuristics import get
    from agents.board.rules_reference import ref_winner
    payoff = get("none")
    rng = random.Random(3)
    for shape in [(6, 7, 4), (4, 5, 3), (10, 10, 5)]:
        rows, columns, inarow = shape
        windows = window_table(*shape)
        seen = set()
        for _ in range(200):
            board = [0] * (rows * columns)
            for c in range(columns):
                for r in range(rng.randrange(0, rows + 1)):
                    board[c + (rows - 1 - r) * columns] = rng.choice([1, 2])
            w = ref_winner(board, rows, columns, inarow)
            grid = np.array(board, dtype=np.int8)
            heights = column_heights(grid, rows, columns)
            for mark in (1, 2):
                got = payoff(grid, heights, rows, columns, inarow, windows, mark)
                if w == 0:
                    assert got == 0
                elif not (ref_winner([v if v != w else 0 for v in board], rows, columns,
                                     inarow)):  # one owner of lines only
                    assert got == (1 if w == mark else -1), board
                    seen.add(got)
        assert seen == {1, -1}


@pytest.mark.parametrize("shape,depth", [((6, 7, 4), 4), ((4, 5, 3), 5), ((8, 9, 4), 2)])
def test_no_heuristic_searches_equal_their_references(shape, depth):
    """``alphabeta:heuristic=none,quiescence=false`` is plain minimax with win/loss
    values only (0 at the horizon), and with quiescence (the default) the quiescence
    reference's value; ``minimax:heuristic=none`` is the tutorial's minimax with the
    payoff at terminal nodes (1 / -1 / 0) and 0 at the horizon. Its depth counts plies
    as the tutorial's ``N_STEPS`` does, its own move included: the book chapter's
    ``minimax(env, depth=3)`` looks 4 plies ahead and is ``minimax:depth=4`` (checked in
    tests/test_material.py)."""
    from agents.players.baselines import tutorial_scores
    from agents.games.protocol import minimax_value
    from heuristics import get
    rows, columns, inarow = shape
    cfg = parse_config({"rows": rows, "columns": columns, "inarow": inarow})
    game = ConnectX(rows, columns, inarow)  # evaluate: 0
    ab = agents.make("alphabeta", heuristic="none", tt_bits=12, quiescence=False)
    abq = agents.make("alphabeta", heuristic="none", tt_bits=12)

    def tutorial(board, mover, mark, d):  # the tutorial's minimax with payoffs only, for ``mark``
        w = ref_winner(board, rows, columns, inarow)
        if w or d == 0 or all(board):
            return 0 if not w else (1 if w == mark else -1)
        values = [tutorial(ref_drop(board, c, mover, rows, columns), 3 - mover, mark, d - 1)
                  for c in range(columns) if board[c] == 0]
        return max(values) if mover == mark else min(values)

    proven = 0
    for board, mark in sample(shape, 6, seed=depth + 11 * rows, most=rows * columns // 2):
        grid, heights = arrays(board, shape)
        state = (tuple(board), mark)
        want = max(minimax_value(game, game.result(state, a), depth - 1, mark)
                   for a in game.actions(state))
        # the pure-Python quiescence reference takes ~25 s on 7x6 at depth 4: not there
        wantq = None if shape == (6, 7, 4) else max(
            quiescence_value(game, game.result(state, a), depth - 1, QUIESCENCE_PLIES, mark)
            for a in game.actions(state))
        for kernel in (["grid", "bits"] if ab.uses_bitboards(cfg) else ["grid"]):
            assert ab.fixed_depth(grid, heights, mark, cfg, depth, kernel=kernel)[1] == want
            if wantq is not None:
                assert abq.fixed_depth(grid, heights, mark, cfg, depth, kernel=kernel)[1] == wantq
        proven += want != 0
        if depth <= 4:
            scores, _ = tutorial_scores(grid, heights, mark, cfg, "none", get("none"), 3)
            for c in range(columns):
                if heights[c] < rows:
                    child = ref_drop(list(board), c, mark, rows, columns)
                    assert scores[c] == tutorial(child, 3 - mark, mark, 2), (board, c)
    assert proven >= 1
