"""Heuristic A against heuristic B at equal alpha-beta depth.

    python -m scripts.compare_heuristics [--a threats] [--b windows] [--depth 4] [--openings 50]

Both sides are ``alphabeta`` at the same fixed depth; each game starts from a
random opening of ``--plies`` moves (seeded) and every opening is played twice
with the colours swapped, so neither heuristic gets the better openings. Prints
W-D-L for A with a 95% interval on its score.
"""
import argparse
import math
import random

import numpy as np

import agents
from agents.rules import _drop, _heights, _is_win_at, parse_config


def play(first, second, opening, cfg):
    """Result for ``first`` (1 win, 0.5 draw, 0 loss) from the opening's position."""
    grid = np.zeros(cfg.rows * cfg.columns, dtype=np.int8)
    heights = np.zeros(cfg.columns, dtype=np.int64)
    mark = 1
    for c in opening:
        _drop(grid, heights, cfg.rows, cfg.columns, c, mark)
        mark = 3 - mark
    players = {1: first, 2: second}
    while heights.sum() < cfg.rows * cfg.columns:
        col = players[mark]({"board": grid.tolist(), "mark": mark}, dict(cfg._asdict()))
        idx = _drop(grid, heights, cfg.rows, cfg.columns, col, mark)
        if _is_win_at(grid, cfg.rows, cfg.columns, cfg.inarow, idx):
            return 1.0 if mark == 1 else 0.0
        mark = 3 - mark
    return 0.5


def random_opening(rng, plies, cfg):
    """A random opening that does not end the game."""
    while True:
        grid = np.zeros(cfg.rows * cfg.columns, dtype=np.int8)
        heights = _heights(grid, cfg.rows, cfg.columns)
        moves, ok = [], True
        for i in range(plies):
            c = rng.choice([c for c in range(cfg.columns) if heights[c] < cfg.rows])
            idx = _drop(grid, heights, cfg.rows, cfg.columns, c, 1 + i % 2)
            moves.append(c)
            if _is_win_at(grid, cfg.rows, cfg.columns, cfg.inarow, idx):
                ok = False
                break
        if ok:
            return moves


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--a", default="threats")
    p.add_argument("--b", default="windows")
    p.add_argument("--depth", type=int, default=4)
    p.add_argument("--openings", type=int, default=50)
    p.add_argument("--plies", type=int, default=2)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--config", default="6,7,4", help="rows,columns,inarow")
    args = p.parse_args(argv)
    rows, columns, inarow = (int(x) for x in args.config.split(","))
    cfg = parse_config({"rows": rows, "columns": columns, "inarow": inarow})
    a = agents.make("alphabeta", depth=args.depth, heuristic=args.a)
    b = agents.make("alphabeta", depth=args.depth, heuristic=args.b)
    rng = random.Random(args.seed)
    w = d = lo = 0
    for _ in range(args.openings):
        opening = random_opening(rng, args.plies, cfg)
        for a_first in (True, False):
            r = play(a, b, opening, cfg) if a_first else 1.0 - play(b, a, opening, cfg)
            w += r == 1.0
            d += r == 0.5
            lo += r == 0.0
    n = w + d + lo
    s = (w + 0.5 * d) / n
    half = 1.96 * math.sqrt(max(s * (1 - s), 1e-9) / n)
    print(f"{args.a} vs {args.b}, alphabeta depth {args.depth}, {rows}x{columns}/{inarow}, "
          f"{args.openings} openings x 2 colours: W-D-L {w}-{d}-{lo} for {args.a}, "
          f"score {s:.3f} +- {half:.3f}")


if __name__ == "__main__":
    main()
