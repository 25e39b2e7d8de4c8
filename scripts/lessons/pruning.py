"""The pruning experiments: the material's small trees backed up and pruned, and the
lesson's narrow-window searches (aspiration, null windows, Lalphabeta, MTD(f), SSS* in
its MT form) counted against alpha-beta on the same positions, without and with the
table of bounds MTD(f) and MT-SSS* keep (so that what the table saves is told apart from
what the best-first order saves)."""
import math
import random

from agents.games.protocol import Counter, alphabeta_value, random_playout
from agents.games.searches.windows import (Memory, aspiration_value, lalphabeta_value,
                                           mt_sss_value, mtdf_value, pvs_value, window_value)
from agents.games.tictactoe import TicTacToe
from agents.games.trees import GameTree, backed_up, pruned_leaves, root_value
from scripts.lessons.rows import Row

ARTICLE_TREE = [[3, 5], [2, 9]]  # the tic-tac-toe article's tree (MAX at the root)
# The Kaggle tutorial's depth-3 tree (two moves a turn) is an image; its text gives only
# that the opponent forces -1 on the left, +10 on the right, and that +40 lies on the
# left. The other five leaves are the package's own, chosen to agree with that text.
TUTORIAL_TREE = [[[40, 2], [-1, -5]], [[10, 3], [12, 11]]]
TUTORIAL_CLAIM = "left -1, right +10: the agent picks the right move"
SSS_CLAIM = "SSS*: best-first, can take less time, at a heavy cost in space"


def trees(quick=False, seed=0, progress=False):
    """The article's tree: its backed-up value and the leaf alpha-beta never reads
    (:func:`agents.games.trees.draw` draws it); the tutorial's tree backed up."""
    t = GameTree(ARTICLE_TREE)
    values = backed_up(t)
    cut = pruned_leaves(t)
    leaves = " ".join(f"{t.node(p)} at {p}" for p in cut) or "none"
    tutorial = backed_up(GameTree(TUTORIAL_TREE))
    left, right = tutorial[(0,)], tutorial[(1,)]
    return [
        Row(f"the Kaggle tutorial's depth-3 tree {TUTORIAL_TREE} (its text gives +40 and the "
            f"-1 and +10 the opponent forces; the other leaves are the package's reading): "
            f"the values minimax gives its two moves, and its choice",
            TUTORIAL_CLAIM, f"left {left:+d}, right {right:+d}: the "
            f"{'right' if right > left else 'left'} move",
            "same" if (left, right) == (-1, 10) else "differs"),
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
    """Nodes of alpha-beta (without and with a table of bounds), PVS, Lalphabeta,
    aspiration, MTD(f) and MT-SSS* on the same tic-tac-toe positions (the Game protocol,
    searched to the end), and on Connect Four positions (the grid kernel with its table:
    alpha-beta, aspiration, MTD(f))."""
    game, states = _tictactoe_positions(4 if quick else 30, random.Random(seed))
    counts = {k: Counter() for k in ("ab", "ab+table", "pvs", "lab", "asp", "mtdf", "sss")}
    same, memory = 0, {"ab+table": 0, "sss": 0}
    for s in states:
        want = alphabeta_value(game, s, 9, None, counts["ab"])
        tables = {k: Memory() for k in memory}
        got = [window_value(game, s, 9, -math.inf, math.inf, None, counts["ab+table"],
                            tables["ab+table"]),
               pvs_value(game, s, 9, None, counts["pvs"]),
               lalphabeta_value(game, s, 9, None, counts["lab"]),
               aspiration_value(game, s, 9, 0, 1, None, counts["asp"])[0],
               mtdf_value(game, s, 9, 0, None, counts["mtdf"])[0],
               mt_sss_value(game, s, 9, 10, None, counts["sss"], tables["sss"])[0]]
        same += all(v == want for v in got)
        for k in memory:
            memory[k] += len(tables[k])
    n = len(states)
    ab, table, sss = counts["ab"].nodes, counts["ab+table"].nodes, counts["sss"].nodes
    pvs, lab = counts["pvs"].nodes, counts["lab"].nodes
    rows = [
        Row(f"tic-tac-toe, {n} seeded positions to the end: nodes alpha-beta / alpha-beta "
            f"with a table of bounds / PVS / Lalphabeta / aspiration (0 +- 1) / MTD(f) (the "
            f"package's addition, which the lesson does not name; from 0) / MT-SSS* (the "
            f"second and the last two keep a table of bounds, the others none); the same "
            f"value", "-",
            " / ".join(str(counts[k].nodes) for k in counts) + f"; {same}/{n}",
            f"package's reading {'holds' if same == n else 'fails'}: every search returns "
            f"alpha-beta's value"),
        Row("the same: Lalphabeta (the package's reading of the lesson's \"last move with "
            "minimal window\": PVS with the killer of each ply first) against PVS, nodes",
            "-", f"{lab} / {pvs} ({lab / pvs:.2f}x)",
            f"package's reading {'holds' if lab < pvs else 'fails'}: the killer first "
            f"saves nodes over PVS"),
        Row(f"the same: MT-SSS*'s nodes against alpha-beta's without a table / with the "
            f"same table of bounds (best-first order apart from the table), and the bounds "
            f"each keeps", SSS_CLAIM,
            f"{sss} / {ab} / {table} nodes ({sss / ab:.2f}x / {sss / table:.2f}x); "
            f"{memory['sss']} / none / {memory['ab+table']} table entries",
            ("same: fewer nodes than alpha-beta with the same table" if sss < table else
             f"differs: fewer nodes than alpha-beta without a table, but alpha-beta with "
             f"the same table reads {table} to MT-SSS*'s {sss}: the saving is the table's, "
             f"not the best-first order's") if memory["sss"] > 0 and sss < ab else
            "not shown at this size: no fewer nodes than alpha-beta"),
    ]
    return rows + connect4_windows(quick, seed)


def connect4_windows(quick, seed):
    import numpy as np

    from agents.board.grid import column_heights
    from agents.board.rules_reference import random_position, ref_winner
    from agents.board.rules import parse_config
    from agents.search.mtdf import WindowSearch, aspiration, full_window, mtdf
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
            return WindowSearch(grid, column_heights(grid, 6, 7), mark, cfg, get("windows"), 16)

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
                f"its table: nodes {' / '.join(names)} (MTD(f) the package's addition; "
                f"guesses from depth {depth - 1}, "
                f"whose own search is not counted; aspiration +-8); the same value", "-",
                " / ".join(str(nodes[k]) for k in names) + f"; {same}/{n}",
                f"package's reading {'holds' if same == n else 'fails'}: every search "
                f"returns alpha-beta's value")]
