"""The experiments of the seed material, re-run next to the figures it printed.

    connectx lessons seed-matches [--games 100] [--tutorial-games 20] [--workers K]

(its command line: :mod:`scripts.commands.lessons`)

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

# the book's result for the first agent of experiment 1: (won, tied, lost) of 100
BOOK_MINIMAX_VS_RULES = (68, 6, 26)
TUTORIAL = "tutorial"  # the pure-Python tutorial agent (agents/players/kaggle_tutorial.py)
TABLE_HEAD = f"{'experiment (first agent vs second)':<44} {'games':>5}  {'W-D-L':<9}  score [95% interval]"


def default_ours():
    """The package's strongest agent at a fixed depth when it has one (reproducible)."""
    options = agents.agent_class(agents.BEST).OPTIONS
    if "depth" in options:
        return f"{agents.BEST}:depth=7"
    return agents.BEST


def row(label, a, b, games, cfg, seed, workers, book=None, progress=False):
    """One printed row: ``a`` against ``b`` over ``games`` games, beside ``book``'s
    (won, tied, lost) where the material gives it."""
    _, s = match(a, b, games, cfg, seed, workers, progress=progress)
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
    return line


def rows(games=100, tutorial_games=20, ours=None, seed=0, workers=1, progress=False):
    """The experiments' rows (:data:`TABLE_HEAD`'s columns), one at a time as each match ends
    (``ours``: :func:`default_ours` when None)."""
    cfg = parse_match_config()
    ours = ours or default_ours()
    matches = [
        ("minimax:depth=4,heuristic=none (the book's)", "minimax:depth=4,heuristic=none,"
         "tactics=False", "rules:lookahead=3", games, BOOK_MINIMAX_VS_RULES),
        ("minimax:depth=3,tactics=False vs rules:3", "minimax:depth=3,tactics=False",
         "rules:lookahead=3", games, None),
        ("alphabeta:depth=4,heuristic=none vs rules:3", "alphabeta:depth=4,heuristic=none",
         "rules:lookahead=3", games, None),
        ("minimax:depth=3 (tactics) vs rules:3", "minimax:depth=3", "rules:lookahead=3",
         games, None),
        ("tutorial:nsteps=3 (pure Python) vs random", "tutorial:nsteps=3", "random",
         tutorial_games, None),
        ("minimax:depth=3,tactics=False vs random", "minimax:depth=3,tactics=False", "random",
         games, None),
        (f"{ours} vs random", ours, "random", games, None)]
    for label, a, b, n, book in matches:
        if a.startswith(TUTORIAL + ":") and TUTORIAL not in agents.AGENTS:
            yield f"{'tutorial agent vs random':<44} skipped: no agent {TUTORIAL!r} registered"
            continue
        yield row(label, a, b, n, cfg, seed, workers, book, progress)


if __name__ == "__main__":
    # the library, not a command: say which command runs it
    print("scripts.lessons.seed_experiments is a library: run `connectx lessons seed-matches` "
          "(python -m scripts.commands.lessons seed-matches)", file=sys.stderr)
    sys.exit(2)
