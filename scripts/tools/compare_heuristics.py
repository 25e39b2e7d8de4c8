"""Heuristic A against heuristic B at equal alpha-beta depth.

    python -m scripts.tools.compare_heuristics [--a threats] [--b windows] [--depth 4] [--openings 50]
                                         [--config rows=6,columns=7,inarow=4]

Both sides are ``alphabeta`` at the same fixed depth; each game starts from a
random opening of ``--plies`` moves (seeded) and every opening is played twice
with the colours swapped, so neither heuristic gets the better openings. Prints
W-D-L for A with a 95% interval on its score.
"""
import math
import random
import sys

import numpy as np

import agents
from agents.board.grid import column_heights, drop, is_win_at
from scripts.arena.games import play_out, start_position
from scripts.arena.specs import parse_match_config
from scripts.args import (ArgumentParser, add_config_argument, add_quiet_argument, add_seed_argument,
                          positive_int_arg, progress_bar)


def play(first, second, opening, cfg):
    """Result for ``first`` (1 win, 0.5 draw, 0 loss) from the opening's position, in the
    one game loop (untimed: both sides search to the same fixed depth)."""
    grid, heights = start_position(opening, cfg)
    winner = play_out((first, second), cfg, grid, heights, timed=False).winner
    return {0: 0.5, 1: 1.0, 2: 0.0}[winner]


def random_opening(rng, plies, cfg):
    """A random opening that does not end the game."""
    while True:
        grid = np.zeros(cfg.rows * cfg.columns, dtype=np.int8)
        heights = column_heights(grid, cfg.rows, cfg.columns)
        moves, ok = [], True
        for i in range(plies):
            c = rng.choice([c for c in range(cfg.columns) if heights[c] < cfg.rows])
            idx = drop(grid, heights, cfg.rows, cfg.columns, c, 1 + i % 2)
            moves.append(c)
            if is_win_at(grid, cfg.rows, cfg.columns, cfg.inarow, idx):
                ok = False
                break
        if ok:
            return moves


def main(argv=None, prog="python -m scripts.tools.compare_heuristics"):
    p = ArgumentParser(prog=prog, description="Heuristic A against heuristic B, both alphabeta "
                       "at the same fixed depth, from seeded random openings played with "
                       "both colours.")
    p.add_argument("--a", default="threats", help="heuristic A (default threats)")
    p.add_argument("--b", default="windows", help="heuristic B (default windows)")
    p.add_argument("--depth", type=positive_int_arg, default=4,
                   help="alphabeta depth of both sides (default 4)")
    p.add_argument("--openings", type=positive_int_arg, default=50,
                   help="random openings, each played twice (default 50)")
    p.add_argument("--plies", type=int, default=2, help="moves of each opening (default 2)")
    add_seed_argument(p, "the openings")
    add_config_argument(p, board_only=True)
    add_quiet_argument(p)
    args = p.parse_args(argv)
    try:
        cfg = parse_match_config(args.config)
        a = agents.make("alphabeta", depth=args.depth, heuristic=args.a)
        b = agents.make("alphabeta", depth=args.depth, heuristic=args.b)
    except ValueError as e:
        p.error(str(e))
    rows, columns, inarow = cfg.rows, cfg.columns, cfg.inarow
    rng = random.Random(args.seed)
    w = d = lo = 0
    bar = progress_bar(2 * args.openings, "games", "game", not args.quiet)
    for _ in range(args.openings):
        opening = random_opening(rng, args.plies, cfg)
        for a_first in (True, False):
            r = play(a, b, opening, cfg) if a_first else 1.0 - play(b, a, opening, cfg)
            w += r == 1.0
            d += r == 0.5
            lo += r == 0.0
            if bar is not None:
                bar.update(1)
    if bar is not None:
        bar.close()
    n = w + d + lo
    s = (w + 0.5 * d) / n
    half = 1.96 * math.sqrt(max(s * (1 - s), 1e-9) / n)
    print(f"{args.a} vs {args.b}, alphabeta depth {args.depth}, {rows}x{columns}/{inarow}, "
          f"{args.openings} openings x 2 colours: W-D-L {w}-{d}-{lo} for {args.a}, "
          f"score {s:.3f} +- {half:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
