"""Benchmarks: ratios measured in one run (these machines are noisy).

    python -m scripts.bench.search [--positions N] [--seconds S] [--depth D]

* minimax depth 3 (numba) against the Kaggle tutorial's pure-Python agent
  (agents.players.kaggle_tutorial) on the same random positions with 2-30 stones, both
  called whole as Kaggle calls them, after warm-up: median times and their ratio;
* the per-call overhead of each agent: the call less the time inside its search;
* the bitboard alpha-beta kernel against the array kernel (the baseline) at a fixed
  depth: the same tree (moves and node counts compared), the nodes/s ratio;
* nodes per second of ``minimax`` (depth 4) and ``alphabeta`` (fixed time) on
  the same positions;
* the ablation of ``alphabeta``'s options (killers, history, pvs, aspiration,
  quiescence): nodes and time to a fixed depth against the plain tree
  (``--only ablation`` prints it alone);
* further sections from other modules (MCTS) when present.
"""
import importlib
import importlib.util
import random
import sys
import time

import numpy as np

import agents
from agents.board.rules_reference import random_position
from agents.players.kaggle_tutorial import TutorialConfig, make_tutorial_agent, tutorial_scores
from agents.board.grid import column_heights
from agents.board.rules import parse_config
from scripts.arena.specs import config_struct, observation, parse_match_config
from scripts.args import ArgumentParser, add_positions_arguments, positive_int_arg, progress

SECTIONS = ["scripts.bench.mcts"]


def sample_positions(n, seed):
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        b = random_position(6, 7, 4, rng.randrange(2, 31), rng)
        if b is not None:
            out.append((b, 1 + sum(1 for v in b if v) % 2))
    return out


def bench_minimax_vs_tutorial(positions, quiet=False):
    """Whole agent calls, as Kaggle makes them: ``minimax`` depth 3 (numba, validation
    included) against the tutorial's own agent (pure Python, ``N_STEPS = 3``), both
    warmed, on the same positions; medians and the median of the per-position ratios.
    The column scores of the two searches are compared too (they must be identical)."""
    config = config_struct(parse_match_config())  # kaggle's 7x6, 2 s, 60 s
    cfg = parse_config(config)
    mm = agents.make("minimax", depth=3, seed=0)
    tutorial = make_tutorial_agent(3, seed=0)
    b0, m0 = positions[0]
    for agent in (mm, tutorial):
        agent(observation(b0, m0), config)  # warm up
    # one agent after the other, each warm: interleaving them measures a cold numba call
    # (caches and branch predictors full of the tutorial's Python), 2-4x slower
    t_ref, t_ours, same = [], [], 0
    obs = [observation(b, m) for b, m in positions]
    for o in progress(obs, "tutorial", "pos", not quiet):
        t = time.perf_counter()
        tutorial(o, config)
        t_ref.append(time.perf_counter() - t)
    for o in obs:
        t = time.perf_counter()
        mm(o, config)
        t_ours.append(time.perf_counter() - t)
    for board, mark in positions:
        grid = np.array(board, dtype=np.int8)
        ours, _ = mm.scores(grid, column_heights(grid, 6, 7), mark, cfg)
        ref = tutorial_scores(board, mark, TutorialConfig(6, 7, 4), 3)
        same += all(ours[c] == s for c, s in ref.items())
    n = len(positions)
    ratios = np.array(t_ref) / np.array(t_ours)
    print(f"minimax depth 3 vs the tutorial's agent, whole calls on {n} random 7x6 positions "
          f"with 2-30 stones (identical column scores on {same}/{n})")
    print(f"  tutorial (pure Python): median {1e3 * np.median(t_ref):9.3f} ms/move")
    print(f"  minimax (numba)       : median {1e3 * np.median(t_ours):9.3f} ms/move")
    print(f"  speed-up              : {np.median(t_ref) / np.median(t_ours):9.0f}x (ratio of "
          f"medians), {np.median(ratios):.0f}x (median ratio), {ratios.min():.0f}x (lowest)")


def bench_call_overhead(positions, quiet=False):
    """What an agent call costs beyond its search: the whole call (validation, clock,
    conversion, tie-breaking) less the time inside ``choose``, per agent, warmed."""
    config = config_struct(parse_match_config())  # kaggle's 7x6, 2 s, 60 s
    specs = [("random", {}), ("rules", {}), ("minimax", {"depth": 3}),
             ("alphabeta", {"depth": 4}), ("mcts", {"iterations": 100, "seed": 0})]
    print(f"per-call overhead on {len(positions)} random 7x6 positions (call - choose, "
          "microseconds)")
    for name, opts in specs:
        agent = agents.make(name, **opts)
        inner = agent.choose
        spent = []

        def timed_choose(*a, _inner=inner, _spent=spent):
            t = time.perf_counter()
            try:
                return _inner(*a)
            finally:
                _spent.append(time.perf_counter() - t)
        agent.choose = timed_choose
        calls = []
        for k, (board, mark) in enumerate(positions):
            obs = observation(board, mark)
            if k == 0:
                agent(obs, config)  # warm up
                spent.clear()
            t = time.perf_counter()
            agent(obs, config)
            calls.append(time.perf_counter() - t)
        over = 1e6 * (np.array(calls) - np.array(spent))
        print(f"  {name:10} median {np.median(over):6.1f}   p90 {np.percentile(over, 90):6.1f}"
              f"   (median call {1e6 * np.median(calls):9.1f})")


def bench_nodes_per_second(positions, seconds, quiet=False):
    cfg = parse_config({})
    mm = agents.make("minimax", depth=4)
    ab = agents.make("alphabeta")
    nodes = 0
    t_total = 0.0
    for board, mark in positions:
        grid = np.array(board, dtype=np.int8)
        h = column_heights(grid, 6, 7)
        mm.scores(grid, h, mark, cfg)
        t = time.perf_counter()
        _, n = mm.scores(grid, h, mark, cfg)
        t_total += time.perf_counter() - t
        nodes += n
    print(f"minimax depth 4 (windows heuristic): {nodes / t_total:12,.0f} nodes/s")
    ab.search(np.zeros(42, np.int8), np.zeros(7, np.int64), 1, cfg, 0.0, 2)  # compile
    nodes, t_total, depths = 0, 0.0, []
    for board, mark in progress(positions, "alphabeta", "pos", not quiet):
        grid = np.array(board, dtype=np.int8)
        h = column_heights(grid, 6, 7)
        t = time.perf_counter()
        _, _, depth, n = ab.search(grid, h, mark, cfg, time.perf_counter() + seconds)
        t_total += time.perf_counter() - t
        nodes += n
        depths.append(depth)
    print(f"alphabeta {seconds:.2f} s/move (threats heuristic): {nodes / t_total:12,.0f} nodes/s, "
          f"mean depth {np.mean(depths):.1f}")


def bench_alphabeta_kernels(positions, depth, quiet=False):
    """The bitboard alpha-beta kernel against the array kernel it replaced on 7x6
    (kept as the baseline: larger boards still use it), the same fixed-depth search
    from an empty table on every position: the node counts and moves must be equal
    (the same tree); the ratio of nodes per second is the speed-up."""
    cfg = parse_config({})
    # a 2**16-entry table: clearing it before each search costs little beside the search
    # the plain tree: the recursive kernel has no quiescence search
    agent = agents.make("alphabeta", tt_bits=16, quiescence=False)
    grid0 = np.zeros(42, np.int8)
    for kernel in ("recursive", "bits"):  # compile both
        agent.fixed_depth(grid0, np.zeros(7, np.int64), 1, cfg, 2, kernel)
    runs = {}
    for kernel in ("recursive", "bits"):
        total, out = 0.0, []
        label = "bitboards" if kernel == "bits" else "arrays"
        for board, mark in progress(positions, f"alphabeta {label}", "pos", not quiet):
            grid = np.array(board, dtype=np.int8)
            h = column_heights(grid, 6, 7)
            t = time.perf_counter()
            out.append(agent.fixed_depth(grid, h, mark, cfg, depth, kernel))
            total += time.perf_counter() - t
        runs[kernel] = (total, out)
    (t_old, old), (t_new, new) = runs["recursive"], runs["bits"]
    nodes = sum(n for _, _, n in old)
    same = sum(a == b for a, b in zip(old, new))
    print(f"alphabeta kernels, depth {depth} from an empty table on {len(positions)} random 7x6 "
          f"positions ({nodes:,} nodes; same move, value and node count on {same}/"
          f"{len(positions)})")
    print(f"  arrays (baseline): {nodes / t_old:12,.0f} nodes/s")
    print(f"  bitboards        : {sum(n for _, _, n in new) / t_new:12,.0f} nodes/s")
    print(f"  speed-up         : {t_old / t_new:12.2f}x")


# the ablation of alphabeta's options: (label, options); the first row is the baseline,
# the plain tree (killers, the default until quiescence won its SPRT), the value-keeping
# options on top of it; quiescence (today's default) last: it changes values and was
# compared by strength instead
PLAIN = {"quiescence": False}
ABLATION = [("plain (killers)", PLAIN),
            ("no killers", {**PLAIN, "killers": False}),
            ("history", {**PLAIN, "history": True}),
            ("pvs", {**PLAIN, "pvs": True}),
            ("aspiration", {**PLAIN, "aspiration": True}),
            ("pvs + history", {**PLAIN, "pvs": True, "history": True}),
            ("pvs + history + aspiration", {**PLAIN, "pvs": True, "history": True,
                                            "aspiration": True}),
            ("quiescence (default)", {})]


def bench_alphabeta_options(positions, depth, quiet=False, rows=ABLATION):
    """The ablation table of ``alphabeta``'s options: iterative deepening to ``depth``
    from an empty table (``search(max_depth=depth)``, no clock) on every position,
    total nodes and time against the first row (the plain tree), and on how many
    positions the move and value equal the first row's (all of them but for
    quiescence, which changes values by design). Returns ``{label: (nodes, seconds,
    same)}``."""
    cfg = parse_config({})
    grid0, h0 = np.zeros(42, np.int8), np.zeros(7, np.int64)
    out, base = {}, None
    for label, options in rows:
        agent = agents.make("alphabeta", tt_bits=16, **options)
        agent.search(grid0, h0, 1, cfg, 0.0, 2)  # compile
        nodes, seconds, results = 0, 0.0, []
        for board, mark in progress(positions, label, "pos", not quiet):
            grid = np.array(board, dtype=np.int8)
            h = column_heights(grid, 6, 7)
            t = time.perf_counter()
            col, value, _, n = agent.search(grid, h, mark, cfg, 0.0, depth)
            seconds += time.perf_counter() - t
            nodes += n
            results.append((col, value))
        if base is None:
            base = results
        out[label] = (nodes, seconds, sum(a == b for a, b in zip(results, base)))
    n0, t0, _ = out[rows[0][0]]
    print(f"alphabeta's options: iterative deepening to depth {depth} from an empty table on "
          f"{len(positions)} random 7x6 positions (threats heuristic)")
    print(f"  {'options':<28} {'nodes':>12} {'nodes/base':>10} {'time/base':>9}  same move+value")
    for label, (n, t, same) in out.items():
        print(f"  {label:<28} {n:>12,} {n / n0:>10.3f} {t / t0:>9.3f}  {same}/{len(positions)}")
    return out


def main(argv=None, prog="python -m scripts.bench.search"):
    p = ArgumentParser(prog=prog, description=__doc__.splitlines()[0])
    add_positions_arguments(p, 100, "random 7x6 positions timed")
    p.add_argument("--seconds", type=float, default=0.25,
                   help="alphabeta time per position, in seconds (default 0.25)")
    p.add_argument("--depth", type=positive_int_arg, default=8,
                   help="depth of the alpha-beta kernel comparison (default 8)")
    p.add_argument("--only", choices=["ablation"], default=None,
                   help="print only this section")
    args = p.parse_args(argv)
    positions = sample_positions(args.positions, args.seed)
    if args.only == "ablation":
        bench_alphabeta_options(positions, args.depth, args.quiet)
        return 0
    bench_minimax_vs_tutorial(positions, args.quiet)
    print()
    bench_call_overhead(positions, args.quiet)
    print()
    bench_alphabeta_kernels(positions, args.depth, args.quiet)
    print()
    bench_nodes_per_second(positions[:20], args.seconds, args.quiet)
    print()
    bench_alphabeta_options(positions, args.depth, args.quiet)
    for name in SECTIONS:
        if importlib.util.find_spec(name) is not None:
            print()
            importlib.import_module(name).run()


if __name__ == "__main__":
    sys.exit(main())
