"""The horizon effect, the lesson's section on quiescence: Connect Four positions where
alpha-beta at a fixed depth plays a move that loses the exact value (the solver's)
because the threat lies beyond its horizon, and what two quiescence searches and two
more plies do to them, by nodes and by the exact value: the package's quiescence option
(``alphabeta:quiescence=True``: at the horizon, forced blocks are played out) and the
lesson's own reading, a search extended where the evaluation swings
(:func:`agents.search.horizon.swing_search`: a horizon position where a move changes the
evaluation by at least the heuristic's aspiration half-width is searched one ply more,
at most :data:`agents.search.horizon.SWING_PLIES` times on a line)."""
import random
import time

from scripts.arena.bars import ProgressCallback
from scripts.lessons.rows import Row

HORIZON_CLAIM = ("the horizon effect: a move best to the search's depth can be bad beyond "
                 "that depth")
HEURISTIC = "threats"  # the alphabeta agent's default evaluation
QUIESCENCE_CLAIM = "quiescence search mitigates the horizon effect"


def _positions(n, rng):
    """Seeded 7x6 positions of 10-19 stones (the middle game: threats build up), no
    line on the board."""
    from agents.board.rules_reference import random_position, ref_winner
    out = []
    while len(out) < n:
        b = random_position(6, 7, 4, rng.randrange(10, 20), rng)
        if b is not None and not ref_winner(b, 6, 7, 4) and not all(b):
            out.append(b)
    return out


def horizon(quick=False, seed=0, progress=False):
    import numpy as np

    import agents
    from agents.board.grid import column_heights
    from agents.board.rules import parse_config
    from agents.solver.position import Position
    from agents.solver.solver import Solver
    from agents.search.horizon import SWING_PLIES, swing_root
    from heuristics import entry
    record = entry(HEURISTIC)
    cfg = parse_config({"rows": 6, "columns": 7, "inarow": 4})
    depth = 2 if quick else 4
    boards = _positions(6 if quick else 400, random.Random(seed))
    solver = Solver(6, 7, 4, tt_bits=20)
    skipped = 0
    plain = agents.make("alphabeta", quiescence=False, tt_bits=14, heuristic=HEURISTIC)
    quiet = agents.make("alphabeta", quiescence=True, tt_bits=14, heuristic=HEURISTIC)
    nodes = {"plain": 0, "quiet": 0, "deeper": 0, "flat": 0, "swing": 0}
    lost = kept_quiet = kept_deeper = broken = kept_swing = broken_swing = flat_same = 0
    # the threshold's sensitivity: half and twice the registered one, (kept, lost) each
    others = {record.aspiration // 2: [0, 0], 2 * record.aspiration: [0, 0]}
    bar = ProgressCallback("horizon", "position", progress, len(boards))
    for b in boards:
        grid = np.array(b, dtype=np.int8)
        heights = column_heights(grid, 6, 7)
        mark = 1 + sum(1 for v in b if v) % 2
        # the solver's answer within 1 s, or the position is left out (counted)
        p = Position.from_grid(grid, 6, 7, 4, mark)
        scores = solver.analyze(p, deadline=time.perf_counter() + 1.0)
        bar.update()
        if scores is None:
            skipped += 1
            continue
        sign = {c: (s > 0) - (s < 0) for c, s in enumerate(scores) if heights[c] < 6}
        best = max(sign.values())
        moves = {}
        for name, agent, d in (("plain", plain, depth), ("quiet", quiet, depth),
                               ("deeper", plain, depth + 2)):
            col, _, n = agent.fixed_depth(grid, heights, mark, cfg, d)
            moves[name] = col
            nodes[name] += n
        for name, extend in (("flat", 0), ("swing", SWING_PLIES)):
            col, _, n = swing_root(grid, heights, mark, cfg, depth, record.id, extend,
                                   record.aspiration)
            moves[name] = col
            nodes[name] += n
        flat_same += moves["flat"] == moves["plain"]
        for swing, tally in others.items():
            col = swing_root(grid, heights, mark, cfg, depth, record.id, SWING_PLIES, swing)[0]
            if sign[moves["plain"]] < best:
                tally[0] += sign[col] == best
            else:
                tally[1] += sign[col] < best
        if sign[moves["plain"]] < best:
            lost += 1
            kept_quiet += sign[moves["quiet"]] == best
            kept_deeper += sign[moves["deeper"]] == best
            kept_swing += sign[moves["swing"]] == best
        else:
            broken += sign[moves["quiet"]] < best
            broken_swing += sign[moves["swing"]] < best
    bar.close()
    n = len(boards) - skipped
    return [
        Row(f"{n} seeded 7x6 positions (10-19 stones; {skipped} left out, not solved within "
            f"1 s): alpha-beta at depth {depth}, no "
            f"quiescence, plays a move that loses the exact value", HORIZON_CLAIM,
            f"{lost}/{n}", "same" if lost else "not shown at this size: no move lost"),
        Row(f"of those {lost}: the exact value kept with quiescence at depth {depth} / with "
            f"depth {depth + 2}; positions where quiescence loses a value the plain "
            f"search kept", QUIESCENCE_CLAIM,
            f"{kept_quiet}/{lost} / {kept_deeper}/{lost}; {broken}",
            "same" if kept_quiet > broken else "not shown at this size: it keeps no more "
            "values than it loses"),
        Row(f"nodes: depth {depth} / depth {depth} with quiescence / depth {depth + 2}", "-",
            " / ".join(str(nodes[k]) for k in ("plain", "quiet", "deeper")),
            f"package's reading {'holds' if nodes['quiet'] < nodes['deeper'] else 'fails'}: "
            f"quiescence costs less than two more plies"),
        Row(f"quiescence on evaluation swings, the package's reading of the lesson's (a "
            f"horizon position where a move wins or moves the {HEURISTIC} evaluation by >= "
            f"{record.aspiration} is searched one ply more, at most {SWING_PLIES} on a line: "
            f"threshold, evaluation and cap the package's choices; its own kernel, no table), "
            f"depth {depth}: of the {lost} the exact value kept; positions where it loses a "
            f"value the plain search kept", QUIESCENCE_CLAIM,
            f"{kept_swing}/{lost}; {broken_swing}",
            "same" if kept_swing > broken_swing else "not shown at this size: it keeps no "
            "more values than it loses"),
        Row(f"the same with the threshold halved / doubled ({' / '.join(map(str, others))}): of "
            f"the {lost} the values kept; values lost the plain search kept", "-",
            " / ".join(f"{k}/{lost}; {b}" for k, b in others.values()),
            f"package's reading "
            f"{'holds' if all(k > b for k, b in others.values()) else 'fails'}: it keeps "
            f"more values than it loses at either threshold too"),
        Row(f"nodes of that kernel at depth {depth}: plain / with the swing quiescence (each "
            f"move tried for a swing counted); plain, the positions where it plays the "
            f"alpha-beta agent's move", "-", f"{nodes['flat']} / {nodes['swing']} "
            f"({nodes['swing'] / max(nodes['flat'], 1):.1f}x); {flat_same}/{n}",
            f"package's reading {'holds' if nodes['swing'] < nodes['deeper'] else 'fails'}: "
            f"it costs less than two more plies ({nodes['deeper']} nodes, with a table)"),
    ]
