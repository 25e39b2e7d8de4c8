"""PUCT (:mod:`agents.search.puct`) and ``mcts:prior=net.npz``: the planes of a
position, exact game ends, and with the exact solver as its evaluator the search keeps
the game value; the agent's options, errors and Kaggle-file resources."""
import random

import numpy as np
import pytest

import agents
from agents.board.reference import random_position
from agents.players.network import Network, features, planes_of_grid, save_network
from agents.search.puct import planes_of_position, search
from agents.solver.position import Position

ARCH = {"trunk": [4], "kernel": 3, "value_hidden": 3}


def tiny_net(rows=6, columns=7, inarow=4, seed=0):
    from agents.players.network import shapes
    rng = np.random.default_rng(seed)
    params = {k: (0.3 * rng.standard_normal(s)).astype(np.float32)
              for k, s in shapes(rows, columns, ARCH).items()}
    return Network(rows, columns, inarow, ARCH, params)


def uniform(p):
    return np.zeros(p.columns), 0.0


@pytest.mark.parametrize("rows,columns,inarow", [(6, 7, 4), (4, 5, 3), (7, 9, 5)])
def test_planes_of_position_equal_planes_of_grid(rows, columns, inarow):
    r = random.Random(rows * 100 + columns)
    for _ in range(30):
        stones = r.randrange(rows * columns)
        board = random_position(rows, columns, inarow, stones, r)
        if board is None:
            continue
        mark = 1 + stones % 2
        p = Position.from_grid(board, rows, columns, inarow, mark)
        np.testing.assert_array_equal(planes_of_position(p),
                                      planes_of_grid(board, mark, rows, columns))


def test_features_equal_a_loop_over_the_cells():
    rng = np.random.default_rng(3)
    r = random.Random(3)
    for rows, columns in ((6, 7), (3, 4)):
        for _ in range(20):
            board = random_position(rows, columns, 3, r.randrange(rows * columns + 1), r,
                                    wins=True) or [0] * (rows * columns)
            planes = planes_of_grid(board, int(rng.integers(1, 3)), rows, columns)
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
    assert a.RESOURCE_PATHS == {"tiny.npz": str(path)}   # the bundler embeds it
    with pytest.raises(ValueError, match="plays 7x6 boards"):
        a({"board": [0] * 20, "mark": 1}, {"rows": 4, "columns": 5, "inarow": 3})
    with pytest.raises(ValueError, match="cannot read network"):
        agents.make("mcts", prior=str(tmp_path / "missing.npz"))
    with pytest.raises(ValueError, match="option c"):
        agents.make("mcts", prior=str(path), c=0)
