"""Benchmarks: ratios measured in one run (these machines are noisy).

    python -m scripts.bench [--positions N] [--seconds S]

* minimax depth 3 (numba) against the Kaggle tutorial's pure-Python agent
  (agents.search.reference) on the same random positions, after warm-up: per-move
  times and their ratio;
* nodes per second of ``minimax`` (depth 4) and ``alphabeta`` (fixed time) on
  the same positions;
* further sections from other modules (MCTS) when present.
"""
import importlib
import importlib.util
import random
import sys
import time

import numpy as np

import agents
from agents.board.reference import random_position
from agents.search.reference import _Cfg, tutorial_scores
from agents.board.grid import column_heights
from agents.board.rules import parse_config
from scripts.args import ArgumentParser, positive_int_arg, progress

SECTIONS = ["scripts.bench_mcts"]


def sample_positions(n, seed):
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        b = random_position(6, 7, 4, rng.randrange(0, 30), rng)
        if b is not None:
            out.append((b, 1 + sum(1 for v in b if v) % 2))
    return out


def bench_minimax_vs_tutorial(positions, quiet=False):
    cfg = parse_config({})
    mm = agents.make("minimax", depth=3)
    b0, m0 = positions[0]
    g0 = np.array(b0, dtype=np.int8)
    mm.scores(g0, column_heights(g0, 6, 7), m0, cfg)  # compile
    t_ref = t_ours = 0.0
    same = 0
    for board, mark in progress(positions, "tutorial vs minimax", "pos", not quiet):
        t = time.perf_counter()
        ref = tutorial_scores(board, mark, _Cfg(6, 7, 4), 3)
        t_ref += time.perf_counter() - t
        grid = np.array(board, dtype=np.int8)
        heights = column_heights(grid, 6, 7)
        t = time.perf_counter()
        ours, _ = mm.scores(grid, heights, mark, cfg)
        t_ours += time.perf_counter() - t
        same += all(ours[c] == s for c, s in ref.items())
    n = len(positions)
    print(f"minimax depth 3 vs tutorial agent on {n} random 7x6 positions "
          f"(identical column scores on {same}/{n})")
    print(f"  tutorial (pure Python): {1e3 * t_ref / n:9.3f} ms/move")
    print(f"  minimax (numba)       : {1e3 * t_ours / n:9.3f} ms/move")
    print(f"  speed-up              : {t_ref / t_ours:9.0f}x")


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


def main(argv=None, prog="python -m scripts.bench"):
    p = ArgumentParser(prog=prog, description=__doc__.splitlines()[0])
    p.add_argument("--positions", type=positive_int_arg, default=100,
                   help="random 7x6 positions timed (default 100)")
    p.add_argument("--seconds", type=float, default=0.25,
                   help="alphabeta time per position, in seconds (default 0.25)")
    p.add_argument("--seed", type=int, default=0, help="seed of the positions (default 0)")
    p.add_argument("--quiet", action="store_true", help="no progress bars")
    args = p.parse_args(argv)
    positions = sample_positions(args.positions, args.seed)
    bench_minimax_vs_tutorial(positions, args.quiet)
    bench_nodes_per_second(positions[:20], args.seconds, args.quiet)
    for name in SECTIONS:
        if importlib.util.find_spec(name) is not None:
            print()
            importlib.import_module(name).run()


if __name__ == "__main__":
    sys.exit(main())
