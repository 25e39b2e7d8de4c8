"""PUCT with the network: the forward pass in numba (:mod:`agents.search.network_kernel`)
against the numpy one, the kernel (:mod:`agents.search.mcts` with the network as its
evaluator) against the slow reference (:mod:`agents.search.puct_reference`), the
reference's planes, exact game ends, and with the exact solver as its evaluator the
search keeps the game value; ``mcts:prior=net.npz``: options, errors, tree reuse and
Kaggle-file resources."""
import random

import numpy as np
import pytest

import agents
from agents.board.rules_reference import board_from_moves, random_position
from agents.board.bitboard import bb_from_grid, fits_bitboard
from agents.board.rules import parse_config
from agents.board.grid import planes_of
from agents.players.network import Network, features, policy_logits, save_network
from agents.search import mcts
from agents.search.network_kernel import evaluate_bb, evaluate_grid, pack_network
from agents.search.puct_reference import planes_of_position, search
from agents.solver.position import Position

ARCH = {"trunk": [4], "kernel": 3, "value_hidden": 3}


# the course's network (connectx learn --mode recipe): one plane, valid padding, a
# dense layer, a linear value
RECIPE_ARCH = {"inputs": "marks", "trunk": [5, 6], "kernel": 3, "padding": "valid",
               "dense": 7, "value_hidden": 0}


def tiny_net(rows=6, columns=7, inarow=4, seed=0, arch=ARCH):
    from agents.players.network import shapes
    rng = np.random.default_rng(seed)
    params = {k: (0.3 * rng.standard_normal(s)).astype(np.float32)
              for k, s in shapes(rows, columns, arch).items()}
    return Network(rows, columns, inarow, arch, params)


def positions(rows, columns, inarow, n, seed, most=None):
    """``n`` seeded random positions ``(board, mark)`` with a legal move."""
    r = random.Random(seed)
    out = []
    while len(out) < n:
        board = random_position(rows, columns, inarow, r.randrange(most or rows * columns), r)
        if board is not None and 0 in board:
            out.append((board, 1 + sum(v != 0 for v in board) % 2))
    return out


# the default architecture's 32 channels: the width the vectorised loops run at
WIDE_ARCH = {"trunk": [32, 32, 32, 32], "kernel": 3, "value_hidden": 32}


@pytest.mark.parametrize("arch,shape", [(ARCH, (6, 7, 4)), (RECIPE_ARCH, (6, 7, 4)),
                                        (ARCH, (4, 5, 3)), (RECIPE_ARCH, (8, 7, 5)),
                                        (WIDE_ARCH, (7, 9, 4))])
def test_numba_forward_equals_the_numpy_forward(arch, shape):
    """The numba pass (float32 sums, vectorised) gives numpy's logits and value on 7x6
    and on other boards, to 1e-5 (of the largest logit, for the wide network's)."""
    rows, columns, inarow = shape
    net = tiny_net(rows, columns, inarow, arch=arch, seed=4)
    weights, layout = pack_network(net.params, net.architecture, rows, columns)
    for board, mark in positions(rows, columns, inarow, 12, 5):
        grid = np.array(board, dtype=np.int8)
        want_logits, want_value = policy_logits(net.params,
                                                  planes_of(grid, mark, rows, columns)[None], arch)
        logits = np.empty(columns)
        value = evaluate_grid(grid, rows, columns, mark, weights, layout, logits)
        legal = np.isfinite(want_logits[0])  # the numpy one masks full columns
        # float32 sums: the error scales with the largest logit (about 250 for the wide
        # seeded network), so the tolerance is 1e-5 of that, at least 1e-5
        scale = max(1.0, float(np.abs(want_logits[0][legal]).max()))
        np.testing.assert_allclose(logits[legal], want_logits[0][legal], atol=1e-5 * scale)
        assert value == pytest.approx(float(want_value[0]), rel=1e-5, abs=1e-5)
        if fits_bitboard(rows, columns):  # 7x9 needs 72 bits: the grid form only
            current, mask = bb_from_grid(grid, rows, columns, mark)
            bb_logits = np.empty(columns)
            assert evaluate_bb(current, mask, rows, columns, weights, layout, bb_logits) == value
            np.testing.assert_array_equal(bb_logits, logits)


def kernel_visits(tree, node=0):
    """``{column: (visits, subtree)}`` below ``node`` of an :class:`mcts.Tree`."""
    f, n = int(tree.first[node]), int(tree.nchild[node])
    return {int(tree.move[k]): (int(tree.visits[k]), kernel_visits(tree, k))
            for k in range(f, f + n) if tree.visits[k] > 0}


def reference_visits(node):
    if node.children is None:
        return {}
    return {m: (ch.visits, reference_visits(ch))
            for m, ch in zip(node.moves, node.children) if ch is not None and ch.visits > 0}


@pytest.mark.parametrize("bitboard", [True, False])
def test_kernel_builds_the_reference_tree_until_a_proof(bitboard):
    """With no proven node in its tree (the solver's extra), the kernel makes the very
    simulations of the plain-Python reference: the same visits node for node."""
    rows, columns, inarow = 6, 7, 4
    net = tiny_net()
    packed = pack_network(net.params, net.architecture, rows, columns)
    cfg = parse_config({"rows": rows, "columns": columns, "inarow": inarow})

    def evaluate(p):
        logits, value = net.evaluate(planes_of_position(p))
        return logits[0], value[0]
    compared = 0
    for board, mark in positions(rows, columns, inarow, 30, 6, most=6):
        tree, _ = mcts.search(np.array(board, dtype=np.int8), mark, cfg, iterations=40,
                              max_nodes=4096, bitboard=bitboard, network=packed)
        if np.any(tree.proof[:tree.count[0]] != mcts.UNKNOWN):
            continue
        _, root = search(Position.from_grid(board, rows, columns, inarow, mark), evaluate, 40)
        assert kernel_visits(tree) == reference_visits(root), board
        compared += 1
    assert compared >= 10


def uniform(p):
    return np.zeros(p.columns), 0.0


# Hand-drawn positions, row 0 at the top, x the first player (mark 1), and the network's
# input planes written out beside each: the stones of the side to move, the opponent's,
# the cell each non-full column's next stone takes (plane 2 of features; plane 3 is all
# ones). The move string (1-based) is checked against the drawing.
PLANE_CASES = [
    ((6, 7, 4), "4453", "x", """
        board    mover    opponent next
        .......  0000000  0000000  0000000
        .......  0000000  0000000  0000000
        .......  0000000  0000000  0000000
        .......  0000000  0000000  0001000
        ...o...  0000000  0001000  0010100
        ..oxx..  0001100  0010000  1100011
    """),
    ((6, 7, 4), "4444471", "o", """
        board    mover    opponent next
        .......  0000000  0000000  0001000
        ...x...  0000000  0001000  0000000
        ...o...  0001000  0000000  0000000
        ...x...  0000000  0001000  0000000
        ...o...  0001000  0000000  1000001
        x..x..o  0000001  1001000  0110110
    """),
    ((5, 4, 4), "111112", "x", """
        board  mover  opponent next
        x...   1000   0000     0000
        o...   0000   1000     0000
        x...   1000   0000     0000
        o...   0000   1000     0100
        xo..   1000   0100     0011
    """),
    ((5, 4, 4), "23242", "o", """
        board  mover  opponent next
        ....   0000   0000     0000
        ....   0000   0000     0100
        .x..   0000   0100     0000
        .x..   0000   0100     0011
        .xoo   0011   0100     1000
    """),
]


def drawing_columns(text):
    """The side-by-side drawing's columns, each a list of its rows (the header dropped)."""
    lines = [line.split() for line in text.strip().splitlines()[1:]]
    return [[line[k] for line in lines] for k in range(len(lines[0]))]


@pytest.mark.parametrize("shape,moves,mover,drawing", PLANE_CASES)
def test_planes_of_hand_drawn_positions(shape, moves, mover, drawing):
    """planes_of, planes_of_position and features give the planes written out by hand
    (on 7x6 and on a board taller than wide, either side to move)."""
    rows, columns, inarow = shape
    board, mine, theirs, following = drawing_columns(drawing)
    flat = [".xo".index(ch) for row in board for ch in row]
    assert flat == board_from_moves(moves, rows, columns)
    mark = ".xo".index(mover)
    assert mark == 1 + len(moves) % 2
    mine, theirs, following = (np.array([[int(ch) for ch in row] for row in plane])
                               for plane in (mine, theirs, following))
    planes = np.stack([mine, theirs], axis=-1)
    assert planes.shape == (rows, columns, 2)
    np.testing.assert_array_equal(planes_of(flat, mark, rows, columns), planes)
    np.testing.assert_array_equal(planes_of_position(Position.from_moves(moves, rows, columns,
                                                                         inarow)),
                                  planes[None])
    np.testing.assert_array_equal(features(planes[None])[0],
                                  np.stack([mine, theirs, following, np.ones_like(mine)], -1))
    # the course's one plane: 1 the mover's stone, 2 the opponent's
    np.testing.assert_array_equal(features(planes[None], {"inputs": "marks"})[0, ..., 0],
                                  mine + 2 * theirs)


@pytest.mark.parametrize("rows,columns,inarow", [(6, 7, 4), (4, 5, 3), (7, 9, 5)])
def test_planes_of_position_equal_planes_of_the_grid(rows, columns, inarow):
    r = random.Random(rows * 100 + columns)
    for _ in range(30):
        stones = r.randrange(rows * columns)
        board = random_position(rows, columns, inarow, stones, r)
        if board is None:
            continue
        mark = 1 + stones % 2
        p = Position.from_grid(board, rows, columns, inarow, mark)
        np.testing.assert_array_equal(planes_of_position(p),
                                      planes_of(board, mark, rows, columns)[None])


def test_features_equal_a_loop_over_the_cells():
    rng = np.random.default_rng(3)
    r = random.Random(3)
    for rows, columns in ((6, 7), (3, 4)):
        for _ in range(20):
            board = random_position(rows, columns, 3, r.randrange(rows * columns + 1), r,
                                    wins=True) or [0] * (rows * columns)
            planes = planes_of(board, int(rng.integers(1, 3)), rows, columns)[None]
            x = features(planes)
            g = np.asarray(board).reshape(rows, columns)
            for c in range(columns):
                free = [row for row in range(rows) if g[row, c] == 0]
                want = [1.0 if free and row == max(free) else 0.0 for row in range(rows)]
                assert x[0, :, c, 2].tolist() == want


def test_plays_a_win_and_blocks_a_threat():
    p = Position.from_moves("121212")   # x has three in column 1 (0 here), x to move
    col, root = search(p, uniform, simulations=5)
    assert col == 0 and root.exact == 1.0
    p = Position.from_moves("12121")    # o to move must block column 0
    col, root = search(p, uniform, simulations=50)
    assert col == 0
    assert all(root.children[i].exact == 1.0 for i in range(1, 7))  # x wins after each


def test_with_the_exact_value_the_search_keeps_the_game_value():
    from agents.solver.solver import Solver
    rows, columns, inarow = 5, 6, 4
    solver = Solver(rows, columns, inarow)

    known = {}

    def exact(p):
        if p.key() not in known:
            known[p.key()] = float(np.sign(solver.solve(p)))
        return np.zeros(columns), known[p.key()]
    r = random.Random(11)
    tried = 0
    while tried < 8:
        board = random_position(rows, columns, inarow, r.randrange(4, 16), r)
        if board is None:
            continue
        mark = 1 + sum(v != 0 for v in board) % 2
        p = Position.from_grid(board, rows, columns, inarow, mark)
        scores = solver.analyze(p)
        best = max(s for s in scores if s != -1000)
        col, root = search(p, exact, simulations=150)
        assert np.sign(scores[col]) == np.sign(best), (board, scores, col)
        assert root.visits == 151 or p.is_winning_move(col)
        tried += 1


def test_search_needs_a_limit_and_a_move():
    with pytest.raises(ValueError, match="simulations"):
        search(Position(), uniform)


def test_mcts_with_a_prior(tmp_path):
    path = tmp_path / "tiny.npz"
    save_network(path, tiny_net())
    cfg = {"rows": 6, "columns": 7, "inarow": 4, "actTimeout": 2}
    a = agents.make("mcts", prior=str(path), iterations=60, warmup="now")
    b = agents.make("mcts", prior=str(path), iterations=60, warmup="now")
    obs = {"board": [0] * 42, "mark": 1}
    col = a(obs, cfg)
    assert isinstance(col, int) and 0 <= col < 7
    assert col == b(obs, cfg)   # no randomness
    assert a.last["iterations"] == 60 and sum(a.last["visits"].values()) == 60
    assert a.last["nodes"] > 60 and -1 <= a.last["value"] <= 1
    board = [0] * 42   # the agent's move and a reply: the tree is reused
    board[35 + col] = 1
    board[35 + (col + 1) % 7] = 2
    a({"board": board, "mark": 1}, cfg)
    assert a.last["reused_visits"] > 0
    assert a.RESOURCE_PATHS == {"tiny.npz": str(path)}   # the bundler embeds it
    with pytest.raises(ValueError, match="plays 7x6 boards"):
        a({"board": [0] * 20, "mark": 1}, {"rows": 4, "columns": 5, "inarow": 3})
    with pytest.raises(ValueError, match="cannot read network"):
        agents.make("mcts", prior=str(tmp_path / "missing.npz"))
    with pytest.raises(ValueError, match="option c"):
        agents.make("mcts", prior=str(path), c=0)


def test_the_benchmark_times_the_default_architecture():
    """``connectx bench mcts`` keeps its own copy of the default network's architecture
    (the benchmarks do not import scripts/learn/): it must stay the default."""
    from scripts.bench.mcts import BENCH_ARCHITECTURE
    from scripts.learn.model import ARCHITECTURE
    assert BENCH_ARCHITECTURE == ARCHITECTURE
