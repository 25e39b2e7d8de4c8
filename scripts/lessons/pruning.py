"""The pruning experiments: the material's small trees backed up and pruned, and the
lesson's narrow-window searches (aspiration, null windows, MTD(f), SSS* in its MT form)
counted against alpha-beta on the same positions."""
import random

from agents.games.game import Counter, alphabeta_value, random_playout
from agents.games.searches.windows import (Memory, aspiration_value, mt_sss_value, mtdf_value,
                                           pvs_value)
from agents.games.tictactoe import TicTacToe
from agents.games.trees import Tree, backed_up, pruned_leaves, root_value
from scripts.lessons.rows import Row

ARTICLE_TREE = [[3, 5], [2, 9]]  # the tic-tac-toe article's tree (MAX at the root)
SSS_CLAIM = "SSS*: best-first, can take less time, at a heavy cost in space"


def trees(quick=False, seed=0, progress=False):
    """The article's tree: its backed-up value and the leaf alpha-beta never reads
    (:func:`agents.games.trees.draw` draws it)."""
    t = Tree(ARTICLE_TREE)
    values = backed_up(t)
    cut = pruned_leaves(t)
    leaves = " ".join(f"{t.node(p)} at {p}" for p in cut) or "none"
    return [
        Row("the tic-tac-toe article's tree [[3, 5], [2, 9]]: the root's backed-up value",
            "3", f"{values[()]} (minimax {root_value(t)})",
            "same" if values[()] == root_value(t) == 3 else "differs"),
        Row("the same tree: the leaves alpha-beta never reads, left to right first", "-",
            leaves, "package's reading " + ("holds" if cut == [(1, 1)] else "fails") +
            ": once the right MIN node shows 2 < 3 its other leaf cannot matter"),
    ]


def _tictactoe_positions(n, rng):
    game = TicTacToe()
    out = []
    while len(out) < n:
        s = random_playout(game, None, rng, rng.randrange(2, 5))
        if not game.is_terminal(s):
            out.append(s)
    return game, out


def windows(quick=False, seed=0, progress=False):
    """Nodes of alpha-beta, PVS, aspiration, MTD(f) and MT-SSS* on the same tic-tac-toe
    positions (the Game protocol, searched to the end), and on Connect Four positions
    (the grid kernel with its table: alpha-beta, aspiration, MTD(f))."""
    game, states = _tictactoe_positions(4 if quick else 30, random.Random(seed))
    counts = {k: Counter() for k in ("ab", "pvs", "asp", "mtdf", "sss")}
    same, memory = 0, 0
    for s in states:
        want = alphabeta_value(game, s, 9, None, counts["ab"])
        mem = Memory()
        got = [pvs_value(game, s, 9, None, counts["pvs"]),
               aspiration_value(game, s, 9, 0, 1, None, counts["asp"])[0],
               mtdf_value(game, s, 9, 0, None, counts["mtdf"])[0],
               mt_sss_value(game, s, 9, 10, None, counts["sss"], mem)[0]]
        same += all(v == want for v in got)
        memory += len(mem)
    n = len(states)
    ab, sss = counts["ab"].nodes, counts["sss"].nodes
    rows = [
        Row(f"tic-tac-toe, {n} seeded positions to the end: nodes alpha-beta / PVS / "
            f"aspiration (0 +- 1) / MTD(f) (from 0) / MT-SSS* (the last two keep a table "
            f"of bounds, the others none); the same value", "-",
            " / ".join(str(counts[k].nodes) for k in counts) + f"; {same}/{n}",
            f"package's reading {'holds' if same == n else 'fails'}: every search returns "
            f"alpha-beta's value"),
        Row(f"the same: MT-SSS*'s nodes against alpha-beta's, and the bounds it keeps",
            SSS_CLAIM, f"{sss} / {ab} nodes ({sss / ab:.2f}x); {memory} table entries "
            f"against none", "same" if sss < ab and memory > 0 else
            "not shown at this size: no fewer nodes"),
    ]
    return rows + connect4_windows(quick, seed)


def connect4_windows(quick, seed):
    import numpy as np

    from agents.board.grid import column_heights
    from agents.board.reference import random_position, ref_winner
    from agents.board.rules import parse_config
    from agents.search.mtdf import Window, aspiration, full_window, mtdf
    from heuristics import get
    cfg = parse_config({"rows": 6, "columns": 7, "inarow": 4})
    depth = 4 if quick else 7
    rng, boards = random.Random(seed), []
    while len(boards) < (2 if quick else 20):
        b = random_position(6, 7, 4, rng.randrange(0, 16), rng)
        if b is not None and not ref_winner(b, 6, 7, 4):
            boards.append(b)
    names = ("alpha-beta", "aspiration", "MTD(f) from 0", "MTD(f) from depth - 1")
    nodes, same = dict.fromkeys(names, 0), 0
    for b in boards:
        grid = np.array(b, dtype=np.int8)
        mark = 1 + sum(1 for v in b if v) % 2

        def fresh():
            return Window(grid, column_heights(grid, 6, 7), mark, cfg, get("windows"), 16)

        runs = {}
        for name in names:
            w = fresh()
            if name == "alpha-beta":
                v = full_window(w, depth)
            elif name == "MTD(f) from 0":
                v = mtdf(w, depth, 0)
            else:
                g = full_window(fresh(), depth - 1)  # iterative deepening's guess
                v = aspiration(w, depth, g, 8) if name == "aspiration" else mtdf(w, depth, g)
            runs[name] = v
            nodes[name] += w.nodes
        same += len(set(runs.values())) == 1
    n = len(boards)
    return [Row(f"Connect Four 7x6, {n} seeded positions, depth {depth}, the grid kernel with "
                f"its table: nodes {' / '.join(names)} (guesses from depth {depth - 1}, "
                f"whose own search is not counted; aspiration +-8); the same value", "-",
                " / ".join(str(nodes[k]) for k in names) + f"; {same}/{n}",
                f"package's reading {'holds' if same == n else 'fails'}: every search "
                f"returns alpha-beta's value")]
