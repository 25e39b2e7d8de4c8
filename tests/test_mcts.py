"""MCTS (agents.search.mcts) against its pure-Python reference (agents.search.uct_reference), the
solver's proofs against an exhaustive minimax, hand-drawn tic-tac-toe-sized positions,
and the agent's contract (every configuration, options, reproducibility, tree reuse)."""
import os
import random
from functools import lru_cache

import numpy as np
import pytest

import agents
from agents.search import mcts
from agents.board.bitboard import bb_winning_cells
from agents.search.mcts import DRAW, LOSS, UNKNOWN, WIN, search
from agents.search.rollout import seed_state
from agents.board.rules_reference import random_position, ref_drop, ref_legal_moves, ref_winner
from agents.board.bitboard import bb_from_grid, fits_bitboard
from agents.board.grid import column_heights, wins_by_playing
from agents.board.rules import parse_config
from agents.search.uct_reference import Board, best_move, uct_search
from agents.board.rules_reference import board_from_moves
from conftest import POSITIONS


def config(rows, columns, inarow):
    """A Kaggle config. The long ``actTimeout`` keeps the clock out of tests that fix the
    iteration count (the first call in a process compiles the kernels, which can take
    longer than Kaggle's 2 s on a loaded machine); ``time_limit`` still applies."""
    return {"rows": rows, "columns": columns, "inarow": inarow, "actTimeout": 600}


def drawn(picture):
    """Kaggle flat board from an ASCII drawing, top row first: ``X`` = 1, ``O`` = 2."""
    rows = [line.split() for line in picture.strip().splitlines()]
    return [{".": 0, "X": 1, "O": 2}[v] for row in rows for v in row]


def to_move(board):
    return 1 + sum(1 for v in board if v) % 2


def random_boards(shape, n, seed, max_fill=0.6):
    rows, columns, inarow = shape
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        stones = rng.randrange(max(1, int(rows * columns * max_fill)))
        b = random_position(rows, columns, inarow, stones, rng)
        if b is not None and any(v == 0 for v in b):
            out.append(b)
    return out


@lru_cache(maxsize=None)
def minimax(cells, shape, mark):
    """Exact value for ``mark`` to move: 1 win, 0 draw, -1 loss (exhaustive, memoised)."""
    rows, columns, inarow = shape
    legal = ref_legal_moves(cells, rows, columns)
    if not legal:
        return 0
    best = -1
    for c in legal:
        child = ref_drop(cells, c, mark, rows, columns)
        if ref_winner(child, rows, columns, inarow) == mark:
            return 1
        best = max(best, -minimax(tuple(child), shape, 3 - mark))
    return best


def move_values(board, shape, mark):
    """{column: exact value of playing it, for ``mark``}."""
    rows, columns, inarow = shape
    out = {}
    for c in ref_legal_moves(board, rows, columns):
        child = ref_drop(board, c, mark, rows, columns)
        out[c] = 1 if ref_winner(child, rows, columns, inarow) == mark \
            else -minimax(tuple(child), shape, 3 - mark)
    return out


PROOF_VALUE = {WIN: 1, DRAW: 0, LOSS: -1}  # for the player who moved into the node


# ---------------------------------------------------------------------------
# The pure-Python reference itself
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("shape", [(6, 7, 4), (4, 5, 3), (5, 4, 1), (3, 8, 5)])
def test_reference_board_matches_rules_reference(shape):
    rows, columns, inarow = shape
    for board in random_boards(shape, 15, seed=1):
        b = Board(rows, columns, inarow, board)
        assert b.legal() == ref_legal_moves(board, rows, columns)
        for c in b.legal():
            for mark in (1, 2):
                won = ref_winner(ref_drop(board, c, mark, rows, columns), rows, columns,
                                 inarow) == mark
                assert b.wins_by_playing(c, mark) == won
                assert b.cells == board  # undone


# ---------------------------------------------------------------------------
# numba kernel == pure-Python reference, node for node
# ---------------------------------------------------------------------------


def root_children(tree):
    return [(col, float(tree.visits[k]), float(tree.wins[k]), int(tree.proof[k]))
            for col, k in tree.children()]


def reference_children(root):
    return [(ch.move, ch.visits, ch.wins, ch.proof) for ch in root.children]


def kernel_subtree(tree, node=0):
    """The whole tree below ``node`` as nested tuples (move, visits, wins, proof, children)."""
    return (int(tree.move[node]), float(tree.visits[node]), float(tree.wins[node]),
            int(tree.proof[node]), [kernel_subtree(tree, k) for _, k in tree.children(node)])


def reference_subtree(node):
    return (node.move, node.visits, node.wins, node.proof,
            [reference_subtree(ch) for ch in node.children])


CASES = [((6, 7, 4), True, None), ((6, 7, 4), False, None), ((6, 7, 4), True, False),
         ((6, 7, 4), False, False), ((4, 5, 3), True, None), ((3, 3, 3), False, None),
         ((12, 12, 5), True, None), ((12, 12, 5), False, None), ((4, 4, 6), True, None),
         ((1, 5, 2), True, None), ((5, 1, 3), False, None), ((2, 3, 1), True, None),
         ((7, 9, 4), True, None)]


@pytest.mark.parametrize("shape,light,bitboard", CASES)
def test_kernel_builds_the_reference_tree(shape, light, bitboard):
    """Same seed, same iterations: same visits, wins and proofs at the root, same move."""
    rows, columns, inarow = shape
    cfg = parse_config(config(*shape))
    iterations = 60 if rows * columns > 100 else 200
    for i, board in enumerate(random_boards(shape, 3, seed=hash(shape) % 97)):
        mark = to_move(board)
        tree, stats = search(np.array(board, dtype=np.int8), mark, cfg, iterations=iterations,
                             c=1.3, light=light, seed=i, bitboard=bitboard)
        root, done = uct_search(Board(rows, columns, inarow, board), mark, iterations, 1.3,
                                light, int(seed_state(i)[0]))
        assert int(stats[mcts.S_ITERATIONS]) == done
        assert root_children(tree) == reference_children(root)
        assert int(tree.proof[0]) == root.proof
        assert kernel_subtree(tree) == reference_subtree(root)  # every node, not only the root
        k = mcts.best_child(0, tree.first, tree.nchild, tree.proof, tree.visits, tree.wins)
        assert int(tree.move[k]) == best_move(root)


def test_kernel_matches_reference_when_the_tree_is_full():
    """With few slots expansion stops and rollouts start from the leaves, in both."""
    cfg = parse_config({})
    board = [0] * 42
    for light in (True, False):
        tree, _ = search(np.array(board, dtype=np.int8), 1, cfg, iterations=300, c=1.0,
                         light=light, seed=5, max_nodes=40)
        root, _ = uct_search(Board(6, 7, 4, board), 1, 300, 1.0, light, int(seed_state(5)[0]),
                             max_nodes=40)
        assert tree.count[0] <= 40
        assert kernel_subtree(tree) == reference_subtree(root)


@pytest.mark.parametrize("shape", [(6, 7, 4), (4, 5, 3), (5, 4, 1), (3, 8, 5), (7, 8, 4),
                                   (4, 4, 6)])
def test_bitboard_winning_cells_match_the_array_rule(shape):
    rows, columns, inarow = shape
    assert fits_bitboard(rows, columns)
    H = rows + 1
    for board in random_boards(shape, 20, seed=2):
        grid = np.array(board, dtype=np.int8)
        heights = column_heights(grid, rows, columns)
        for mark in (1, 2):
            stones, mask = bb_from_grid(grid, rows, columns, mark)
            cells = int(bb_winning_cells(stones, H, inarow))
            for c in range(columns):
                if heights[c] < rows:
                    bit = 1 << (c * H + int(heights[c]))
                    assert bool(cells & bit) == bool(
                        wins_by_playing(grid, heights, rows, columns, inarow, c, mark))


# ---------------------------------------------------------------------------
# MCTS-Solver: proofs agree with exhaustive minimax
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("shape,stones", [((4, 4, 3), 5), ((4, 5, 3), 9), ((3, 4, 3), 3)])
def test_proven_values_agree_with_minimax(shape, stones):
    rows, columns, inarow = shape
    cfg = parse_config(config(*shape))
    rng = random.Random(11)
    checked = 0
    while checked < 8:
        board = random_position(rows, columns, inarow, stones + rng.randrange(3), rng)
        if board is None:
            continue
        mark = to_move(board)
        tree, stats = search(np.array(board, dtype=np.int8), mark, cfg, iterations=400_000,
                             seed=checked)
        values = move_values(board, shape, mark)
        # the root is proven (long before the iteration cap) ...
        assert tree.proof[0] != UNKNOWN
        assert stats[mcts.S_ITERATIONS] < 400_000
        # ... with minimax's value (root proofs are for the opponent, who moved into it)
        assert -PROOF_VALUE[int(tree.proof[0])] == max(values.values())
        for col, k in tree.children():
            if tree.proof[k] != UNKNOWN:
                assert PROOF_VALUE[int(tree.proof[k])] == values[col]
        # and the move played is an optimal one
        k = mcts.best_child(0, tree.first, tree.nchild, tree.proof, tree.visits, tree.wins)
        assert values[int(tree.move[k])] == max(values.values())
        checked += 1


def analysis_lines():
    """``(moves, [score of each column])`` of scripts/data/positions/analysis.txt: 7x6
    positions (end: 26-36 stones, mid: 15-25) labelled by an exact solver; -1000 marks
    a full column; scores are for the side to move (positive: it wins)."""
    with open(os.path.join(POSITIONS, "analysis.txt")) as f:
        for line in f:
            moves, *scores = line.split()
            yield moves, [int(v) for v in scores]


def sign(x):
    return (x > 0) - (x < 0)


@pytest.mark.parametrize("phase,iterations,min_roots", [("end", 100_000, 195), ("mid", 5_000, 0)])
def test_proofs_agree_with_the_exact_labels_on_7x6(phase, iterations, min_roots):
    """Every proof the search makes, at the root and for each column, has the sign of the
    exact score; on the end positions (6 to 16 empty cells) nearly every root gets
    proven (199 of 200 with these seeds)."""
    cfg = parse_config({})
    roots = checked = 0
    for moves, scores in analysis_lines():
        if (len(moves) >= 26) != (phase == "end"):
            continue
        board = board_from_moves(moves)
        tree, _ = search(np.array(board, dtype=np.int8), to_move(board), cfg,
                         iterations=iterations, seed=len(moves))
        if tree.proof[0] != UNKNOWN:
            roots += 1
            assert -PROOF_VALUE[int(tree.proof[0])] == max(sign(v) for v in scores
                                                           if v != -1000), moves
        for col, k in tree.children():
            if tree.proof[k] != UNKNOWN:
                checked += 1
                assert PROOF_VALUE[int(tree.proof[k])] == sign(scores[col]), (moves, col)
    assert roots >= min_roots
    assert checked > 100


# ---------------------------------------------------------------------------
# Hand-drawn positions on a tic-tac-toe-sized board (3x3, three in a row, gravity)
# ---------------------------------------------------------------------------

TTT = config(3, 3, 3)

WIN_NOT_BLOCK = """
. . .
X O .
X O .
"""  # X to move: column 0 wins at once (O threatens column 1; the win comes first)

ONLY_BLOCK = """
. . .
. O .
X O X
"""  # X to move: O threatens the top of column 1; anything else loses at once

FORCED_WIN_1 = """
. . .
. . O
X O X
"""  # X to move: column 1 wins by force (column 0 draws, column 2 loses)

FORCED_WIN_2 = """
. . .
O . .
X O X
"""  # X to move: column 1 wins by force (column 0 loses, column 2 draws)


@pytest.mark.parametrize("picture,best", [(WIN_NOT_BLOCK, 0), (ONLY_BLOCK, 1),
                                          (FORCED_WIN_1, 1), (FORCED_WIN_2, 1)])
def test_finds_the_forced_win_or_the_only_block(picture, best):
    board = drawn(picture)
    values = move_values(board, (3, 3, 3), to_move(board))
    assert [c for c, v in values.items() if v == max(values.values())] == [best]  # fixture
    for seed in range(5):
        agent = agents.make("mcts", iterations=2000, seed=seed)
        assert agent({"board": board, "mark": to_move(board)}, TTT) == best
        # proven, not guessed: the root and the move carry minimax's values
        assert -PROOF_VALUE[agent.last["root_proof"]] == values[best]
        assert PROOF_VALUE[agent.last["move_proof"]] == values[best]


def test_never_plays_a_proven_loss_and_plays_a_proven_win_at_once():
    """Tic-tac-toe-sized positions where minimax has a non-losing move: the agent, with
    very few iterations (proofs come from expansion), never picks a move it proved
    lost, and picks an immediate win whenever there is one."""
    shape = (3, 4, 3)
    cfg = config(*shape)
    for i, board in enumerate(random_boards(shape, 40, seed=4)):
        mark = to_move(board)
        agent = agents.make("mcts", iterations=1 + i % 7, seed=i)
        col = agent({"board": board, "mark": mark}, cfg)
        b = Board(*shape, board)
        wins_now = [c for c in b.legal() if b.wins_by_playing(c, mark)]
        if wins_now:
            assert col in wins_now
        if agent.last["move_proof"] == LOSS:
            assert max(move_values(board, shape, mark).values()) == -1


# ---------------------------------------------------------------------------
# The agent's contract
# ---------------------------------------------------------------------------

SHAPES = [(6, 7, 4), (1, 1, 1), (3, 3, 3), (12, 12, 5), (4, 4, 6), (1, 5, 2), (5, 1, 3),
          (2, 2, 1), (9, 7, 4), (6, 7, 10), (16, 3, 4), (40, 40, 4)]


@pytest.mark.parametrize("shape", SHAPES)
def test_plain_int_legal_column_on_every_configuration(shape):
    rows, columns, inarow = shape
    option_sets = ({"time_limit": 0.02}, {"iterations": 50, "seed": 1},
                   {"iterations": 30, "rollout": "random", "max_nodes": 5})
    boards = [[0] * (rows * columns)]
    if rows * columns > 400:  # rollouts longer than the budget: the clock stops them
        option_sets = option_sets[:1]
        boards.append(ref_drop(boards[0], 0, 1, rows, columns))
    else:
        boards += random_boards(shape, 3, seed=3)
    for options in option_sets:
        agent = agents.make("mcts", **options)
        for board in boards:
            col = agent({"board": board, "mark": to_move(board)}, config(*shape))
            assert type(col) is int
            assert col in ref_legal_moves(board, rows, columns)


def test_bad_options_and_input_raise_value_error():
    for bad in ({"c": 0}, {"c": "1"}, {"iterations": 0}, {"iterations": 1.5},
                {"time_limit": -1}, {"rollout": "heavy"}, {"max_nodes": 0}, {"seed": "x"},
                {"reuse": 1}, {"depth": 3}):
        with pytest.raises(ValueError):
            agents.make("mcts", **bad)
    agent = agents.make("mcts", iterations=10)
    with pytest.raises(ValueError, match="cells"):
        agent({"board": [0] * 41, "mark": 1}, config(6, 7, 4))
    with pytest.raises(ValueError, match="mark"):
        agent({"board": [0] * 42, "mark": 3}, config(6, 7, 4))
    with pytest.raises(ValueError, match="rows"):
        agent({"board": [], "mark": 1}, config(0, 7, 4))


def play_game(first, second, cfg, seed):
    """Moves of a game between two agents (plain Python, no kaggle env)."""
    rows, columns, inarow = cfg["rows"], cfg["columns"], cfg["inarow"]
    board = [0] * (rows * columns)
    players = {1: first, 2: second}
    moves = []
    mark = 1
    while ref_legal_moves(board, rows, columns) and not ref_winner(board, rows, columns, inarow):
        col = players[mark]({"board": board, "mark": mark}, cfg)
        moves.append(col)
        board = ref_drop(board, col, mark, rows, columns)
        mark = 3 - mark
    return moves, ref_winner(board, rows, columns, inarow)


def test_reproducible_with_fixed_iterations_and_seed():
    cfg = config(6, 7, 4)
    games = [play_game(agents.make("mcts", iterations=300, seed=7),
                       agents.make("random", seed=1), cfg, 0) for _ in range(2)]
    assert games[0] == games[1]
    assert games[0][1] == 1  # and it beats random


def test_tree_reuse_keeps_the_subtree_of_the_actual_reply():
    cfg = config(6, 7, 4)
    agent = agents.make("mcts", iterations=3000, seed=2)
    board = [0] * 42
    col = agent({"board": board, "mark": 1}, cfg)
    assert agent.last["reused_visits"] == 0
    old = agent._trees[0]
    (mine,) = [k for c, k in old.children() if c == col]
    reply, grandchild = max(((c, k) for c, k in old.children(mine)),
                            key=lambda ck: old.visits[ck[1]])
    kept = int(old.visits[grandchild])
    stats = root_children_of(old, grandchild)
    # the copy kernel reproduces the subtree exactly, root in slot 0
    copy = mcts.Tree(old.capacity)
    n = mcts.copy_subtree(int(grandchild), *old.arrays(), *copy.arrays(),
                           np.empty(old.capacity, dtype=np.int32))
    copy.count[0] = n
    expected = kernel_subtree(old, grandchild)
    assert kernel_subtree(copy) == expected
    assert copy.parent[0] == -1
    board = ref_drop(ref_drop(board, col, 1, 6, 7), reply, 2, 6, 7)
    agent({"board": board, "mark": 1}, cfg)
    assert agent.last["reused_visits"] == kept > 0
    tree = agent._trees[0]
    assert agent.last["iterations"] == 3000
    assert int(tree.visits[0]) == kept + 3000
    # the copied subtree is consistent: every child points back at its parent, and the
    # grandchildren's statistics only grew
    for node in range(int(tree.count[0])):
        for _, k in tree.children(node):
            assert tree.parent[k] == node
    after = dict((c, v) for c, v, _, _ in root_children(tree))
    for c, v in stats.items():
        assert after[c] >= v
    # a board that is not two plies on from the last one starts a new tree
    agent({"board": ref_drop([0] * 42, 0, 1, 6, 7), "mark": 2}, cfg)
    assert agent.last["reused_visits"] == 0


def root_children_of(tree, node):
    return {c: float(tree.visits[k]) for c, k in tree.children(node)}


def test_reuse_off_starts_afresh():
    cfg = config(4, 5, 3)
    agent = agents.make("mcts", iterations=200, seed=1, reuse=False)
    board = [0] * 20
    col = agent({"board": board, "mark": 1}, cfg)
    board = ref_drop(ref_drop(board, col, 1, 4, 5), 0, 2, 4, 5)
    agent({"board": board, "mark": 1}, cfg)
    assert agent.last["reused_visits"] == 0
