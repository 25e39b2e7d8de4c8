"""The experiments of the seed material, re-run next to the figures it printed.

    python -m scripts.lessons.seed_experiments [--games 100] [--tutorial-games 20] [--workers K]

1. The book's minimax against the rule-based think-3 player (``rules:lookahead=3``),
   100 games, colours alternating. The book printed 68 won, 26 lost, 6 tied for its
   ``minimax(env, depth=3)``, whose only payoffs are wins and losses and which searches
   3 plies below its own move, 4 in all: that agent is
   ``minimax:depth=4,heuristic=none,tactics=False`` (the first row; the package's depth
   counts plies as the tutorial's ``N_STEPS`` does, its own move included). The second
   row is the Kaggle tutorial's depth-3 minimax, with its window heuristic
   (``minimax:depth=3,tactics=False``), the third the book's payoffs in ``alphabeta``
   at 4 plies (centre first among equal moves, where minimax draws at random), the
   fourth our minimax with its default tactics (take a win, block a lone threat).
2. The tutorial agent (``tutorial``: the tutorial's own pure-Python code) and ours
   against ``random``: the tutorial's code is slow, so it plays ``--tutorial-games``.

Each row prints W-D-L for the first agent, its score with the 95% interval, and the
book's figure where the material gives one (with whether it lies inside our interval).
"""
import sys

import agents

from scripts.arena.match import match
from scripts.arena.specs import parse_match_config
from scripts.args import ArgumentParser, add_seed_argument, fail, positive_int_arg

# the book's result for the first agent of experiment 1: (won, tied, lost) of 100
BOOK_MINIMAX_VS_RULES = (68, 6, 26)
TUTORIAL = "tutorial"  # the pure-Python tutorial agent (agents/players/kaggle_tutorial.py)

def default_ours():
    """The package's strongest agent at a fixed depth when it has one (reproducible)."""
    options = agents.agent_class(agents.BEST).OPTIONS
    if "depth" in options:
        return f"{agents.BEST}:depth=7"
    return agents.BEST


def row(label, a, b, games, cfg, seed, workers, book=None):
    _, s = match(a, b, games, cfg, seed, workers, progress=sys.stderr.isatty())
    low, high = s["score_ci"]
    line = (f"{label:<44} {games:>5}  {s['wins']:>3}-{s['draws']}-{s['losses']:<3}  "
            f"{s['score']:.3f} [{low:.3f}, {high:.3f}]  ")
    if book is None:
        line += "no figure in the seed material"
    else:
        w, d, l = book
        bscore = (w + 0.5 * d) / (w + d + l)
        inside = "inside" if low <= bscore <= high else "OUTSIDE"
        line += f"book {w}-{d}-{l}, score {bscore:.3f} ({inside} our interval)"
    print(line, flush=True)


def main(argv=None, prog="python -m scripts.lessons.seed_experiments"):
    p = ArgumentParser(prog=prog, description=__doc__.split("\n")[0])
    p.add_argument("--games", type=positive_int_arg, default=100, help="games of each match (default 100)")
    p.add_argument("--tutorial-games", type=positive_int_arg, default=20,
                   help="games of the slow pure-Python tutorial agent (default 20)")
    p.add_argument("--ours", default=None, help=f"our agent against random (default {default_ours()})")
    p.add_argument("--workers", type=positive_int_arg, default=1,
                   help="processes playing games in parallel (default 1)")
    add_seed_argument(p, "the matches")
    args = p.parse_args(argv)
    cfg = parse_match_config()
    ours = args.ours or default_ours()
    print(f"{'experiment (first agent vs second)':<44} {'games':>5}  {'W-D-L':<9}  "
          f"score [95% interval]")
    try:
        row("minimax:depth=4,heuristic=none (the book's)", "minimax:depth=4,heuristic=none,"
            "tactics=False", "rules:lookahead=3", args.games, cfg, args.seed, args.workers,
            BOOK_MINIMAX_VS_RULES)
        row("minimax:depth=3,tactics=False vs rules:3", "minimax:depth=3,tactics=False",
            "rules:lookahead=3", args.games, cfg, args.seed, args.workers)
        row("alphabeta:depth=4,heuristic=none vs rules:3", "alphabeta:depth=4,heuristic=none",
            "rules:lookahead=3", args.games, cfg, args.seed, args.workers)
        row("minimax:depth=3 (tactics) vs rules:3", "minimax:depth=3", "rules:lookahead=3",
            args.games, cfg, args.seed, args.workers)
        if TUTORIAL in agents.AGENTS:
            row("tutorial:nsteps=3 (pure Python) vs random", "tutorial:nsteps=3", "random",
                args.tutorial_games, cfg, args.seed, args.workers)
        else:
            print(f"{'tutorial agent vs random':<44} skipped: no agent {TUTORIAL!r} registered")
        row("minimax:depth=3,tactics=False vs random", "minimax:depth=3,tactics=False", "random",
            args.games, cfg, args.seed, args.workers)
        row(f"{ours} vs random", ours, "random", args.games, cfg, args.seed, args.workers)
    except ValueError as e:
        fail(f"seed_experiments: {e}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
