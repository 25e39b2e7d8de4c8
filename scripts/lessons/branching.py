"""The effective branching factor of Connect Four's search, per depth, for minimax,
alpha-beta and each of alpha-beta's ordering options, and the arithmetic of choosing a
depth limit from it.

The lesson says the nodes a search explores grow about as ``b ** d`` (``b`` the average
number of legal moves, ``d`` the plies), and it names ordering heuristics, the killer
heuristic among them, as what makes alpha-beta cut earlier; under its heading on
choosing a fixed depth limit it gives no arithmetic. The package's reading of that
arithmetic: with ``N(d)`` the nodes at depth ``d``, ``N(d) / N(d - 1)`` is the effective
branching factor at ``d``; alpha-beta's alternates between odd and even depths (a cut
saves more at one parity), so the prediction takes ``b* = sqrt(N(D) / N(D - 2))`` at the
deepest depth ``D`` searched, and a search of ``r`` nodes a second affords depth
``D + k`` within ``T`` seconds while ``N(D) * b* ** k <= r * T``. The row after checks
the prediction against the search two depths on.

Every count is the sum over the same seeded positions, the root's children and all
below (the root itself not counted), with the ``threats`` evaluation at the horizon and
no quiescence, from an empty transposition table (minimax's counts, which no evaluation
changes, come from the window count's faster kernel; its nodes a second are that
kernel's).
"""
import math
import random
import time

from scripts.lessons.rows import Row

ORDERINGS = (  # (label, alphabeta options): each of the kernel's ordering options
    ("alpha-beta, centre first + table move", dict(killers=False)),
    ("+ killers (the default)", dict(killers=True)),
    ("+ killers + history", dict(killers=True, history=True)),
    ("+ killers + PVS (null windows)", dict(killers=True, pvs=True)),
)
REFERENCE = "alpha-beta, left to right, no table (the reference, pure Python)"
SHORT = ("minimax", "the reference", "centre + table move", "+ killers", "+ history",
         "+ PVS")  # the rows' searches, in order, as the arithmetic's row names them
MOVE_SECONDS = 2.0  # Kaggle's actTimeout: the budget the arithmetic plans for


def positions(n, rng):
    """``n`` seeded 7x6 positions of 4-10 stones, no line yet: ``(grid, heights, mark)``."""
    import numpy as np

    from agents.board.grid import column_heights
    from agents.board.rules_reference import random_position, ref_winner
    out = []
    while len(out) < n:
        b = random_position(6, 7, 4, rng.randrange(4, 11), rng)
        if b is not None and not ref_winner(b, 6, 7, 4):
            grid = np.array(b, dtype=np.int8)
            out.append((grid, column_heights(grid, 6, 7), 1 + int((grid != 0).sum()) % 2))
    return out


def node_counts(search, boards, depths):
    """``[N(d) for d in depths]``: ``search(grid, heights, mark, d) -> nodes`` summed."""
    return [sum(search(g, h, m, d) for g, h, m in boards) for d in depths]


def factors(counts):
    """The effective branching factor at each depth after the first: N(d) / N(d - 1)."""
    return [b / a for a, b in zip(counts, counts[1:])]


def two_ply_factor(counts):
    """``sqrt(N(d) / N(d - 2))``: the factor of the last two depths together (alpha-beta's
    factor alternates between odd and even depths, so one depth alone misleads)."""
    return (counts[-1] / counts[-3]) ** 0.5


def affordable_depth(nodes, depth, rate, seconds):
    """``(d, predicted nodes)``: the deepest ``d >= depth`` whose predicted nodes
    ``nodes * b ** (d - depth)`` fit ``rate * seconds`` (``nodes``: a search's nodes at
    ``depth``, ``b``: :func:`two_ply_factor`; pass ``(counts, b)``)."""
    (n, b), budget = nodes, rate * seconds
    k = max(0, math.floor(math.log(budget / n) / math.log(b))) if budget > n else 0
    return depth + k, n * b ** k


def experiment(quick=False, seed=0, progress=False):
    """The rows: each search's nodes and factors per depth (the pure-Python reference to
    depth 4 at most: a few thousand nodes a second), the depth each affords in
    :data:`MOVE_SECONDS`, and the check."""
    import agents
    from agents.board.rules import parse_config
    from agents.games.protocol import Counter, alphabeta_value
    from agents.search.reference import ConnectX, flat_heuristic
    cfg = parse_config({})
    boards = positions(2 if quick else 6, random.Random(seed))
    depth = 3 if quick else 6
    depths = list(range(1, depth + 1))
    mean_moves = sum(int((h < 6).sum()) for _, h, _ in boards) / len(boards)
    rows = []
    # minimax visits every node whatever its evaluation: the window count's incremental
    # kernel (kept in numba's disk cache; the threats one compiles for seconds each run)
    minimax = agents.make("minimax", depth=1, heuristic="windows")

    def mm(g, h, m, d):
        minimax.depth = d
        return int(minimax.scores(g, h, m, cfg)[1])

    counts, rates = {}, {}

    def measure(label, search, ds):
        counts[label] = node_counts(search, boards, ds)
        start = time.perf_counter()  # the deepest searches again, timed (compiled by now)
        nodes = node_counts(search, boards, ds[-1:])[0]
        rates[label] = nodes / max(time.perf_counter() - start, 1e-9)

    measure("minimax", mm, depths)
    game = ConnectX(heuristic=flat_heuristic("threats"))

    def reference(g, h, m, d):  # the lessons' alpha-beta: left to right, no table
        c = Counter()
        alphabeta_value(game, (tuple(int(v) for v in g), m), d, m, c)
        return c.nodes

    measure(REFERENCE, reference, depths[:min(len(depths), 4)])
    for label, options in ORDERINGS:
        ab = agents.make("alphabeta", quiescence=False, tt_bits=16, **options)
        measure(label, lambda g, h, m, d, ab=ab: ab.fixed_depth(g, h, m, cfg, d)[2], depths)
    n = len(boards)
    for label, c in counts.items():
        f = factors(c)
        rows.append(Row(
            f"{label}: nodes at depths 1-{len(c)} ({n} positions, {mean_moves:.1f} "
            f"legal moves at the root on average); effective branching factor N(d)/N(d-1)",
            "nodes grow about as b ** d, b the average number of legal moves"
            if label == "minimax" else
            "ordering heuristics (the killer heuristic) make alpha-beta cut earlier"
            if label == ORDERINGS[1][0] else "-",
            " ".join(f"{x:,}" for x in c) + "; b*: " + " ".join(f"{x:.2f}" for x in f),
            _verdict(label, c, counts, mean_moves)))
    afford = {label: affordable_depth((c[-1] / n, two_ply_factor(c)), len(c), rates[label],
                                      MOVE_SECONDS)[0] for label, c in counts.items()}
    rows.append(Row(
        f"choosing a depth limit: the deepest depth d whose predicted nodes a position, "
        f"N(D) * b*^(d - D) with b* = sqrt(N(D) / N(D - 2)) at each search's deepest D, fit "
        f"a {MOVE_SECONDS:g} s move at the nodes a second measured here", "-",
        "; ".join(f"{short}: {rates[label]:,.0f} nodes/s, b* "
                  f"{two_ply_factor(counts[label]):.2f}, depth {afford[label]}"
                  for label, short in zip(counts, SHORT)),
        "package's reading " + ("holds" if all(afford[o[0]] > afford["minimax"]
                                              for o in ORDERINGS) else "fails") +
        ": alpha-beta affords deeper searches than minimax in the same time"))
    label, options = ORDERINGS[1]
    ab = agents.make("alphabeta", quiescence=False, tt_bits=16, **options)
    check, b = depth + 2, two_ply_factor(counts[label])
    measured = node_counts(lambda g, h, m, d: ab.fixed_depth(g, h, m, cfg, d)[2], boards,
                           [check])[0]
    guess = counts[label][-1] * b * b
    rows.append(Row(
        f"the arithmetic checked: N({check}) of alpha-beta with killers predicted as "
        f"N({depth}) * b*^2 against the search at depth {check}", "-",
        f"predicted {guess:,.0f}, measured {measured:,}",
        f"package's reading {'holds' if 0.5 <= measured / guess <= 2 else 'fails'}: within "
        f"a factor of 2 ({measured / guess:.2f}x)"))
    return rows


def _verdict(label, c, counts, mean_moves):
    last = factors(c)[-1]
    if label == "minimax":
        close = abs(last - mean_moves) <= 0.15 * mean_moves
        return (f"same: b* {last:.2f} against {mean_moves:.1f} legal moves" if close else
                f"differs: b* {last:.2f} against {mean_moves:.1f} legal moves")
    if label == ORDERINGS[1][0]:
        plain = counts[ORDERINGS[0][0]]
        return ("same" if c[-1] < plain[-1] else "not shown at this depth") + \
            f": {c[-1]:,} nodes against {plain[-1]:,} without killers"
    mm = counts["minimax"][len(c) - 1]
    return (f"package's reading {'holds' if c[-1] < mm else 'fails'}: fewer nodes than "
            f"minimax at depth {len(c)} ({c[-1]:,} against {mm:,})")
