"""The seed material's experiments, re-run by the package: ``connectx lessons``.

Each :class:`Experiment` names its source (the book's chapters 4 and 5, the Kaggle
N-step lookahead tutorial, the adversarial-search lesson, the tic-tac-toe article),
what it measures, and a ``run(quick, seed, progress)`` returning a list of :class:`Row`: a
figure, what the material reports (or why it gives no number), what the package
measures now, and whether they agree. ``quick`` shrinks every size so that the
tests can run each experiment in a second or two; the full sizes take under a
minute each on the team's 2-core machine. Everything is seeded.

    connectx lessons                 list the experiments
    connectx lessons NAME [NAME ...] run them (``all``: every one, in the tour's order)
        [--quick] [--seed 0]

Each experiment prints its rows: what is measured, what the material reports ("-"
when it gives no number), what the package measures now, and the verdict, then the
command that reproduces it and the time it took. Seeded: the same seed prints the
same figures. ``--quick`` runs every experiment at tiny sizes (what the tests run).
docs/lessons.md is the guided tour with this round's figures.
"""
import sys
import textwrap
import time

from scripts.args import ArgumentParser, add_seed_argument, report
from scripts.tools.lessons.rows import Experiment


LESSON = "adversarial-search lesson"
BOOK4 = "book, tic-tac-toe chapter"
BOOK5 = "book, Connect Four chapter"


def experiments():
    """Every experiment, in the order of the tour (docs/lessons.md): name, source,
    title, the function that runs it."""
    from scripts.tools.lessons import books, isolation, sampling
    return [Experiment(*row) for row in [
        ("mini-isolation", LESSON, "mini-Isolation 3x2: the lesson's checks and the values of "
         "the five openings", isolation.mini),
        ("isolation-search", LESSON, "5x5 Isolation: minimax against alpha-beta, iterative "
         "deepening, symmetries", isolation.search5),
        ("isolation-evaluations", LESSON, "5x5 Isolation: my_moves - opponent_moves against "
         "my_moves", isolation.evaluations),
        ("isolation-3-players", LESSON + " (Korf 1991)", "3-player Isolation: max^n, shallow "
         "pruning and paranoid", isolation.multiplayer),
        ("isolation-sloppy", LESSON, "sloppy Isolation: expectimax against minimax that "
         "ignores chance", isolation.sloppy),
        ("rollout-book", LESSON, "an opening book from random rollouts (win counts) against "
         "exact values", sampling.book_experiment),
        ("mcts-uniform-vs-uct", LESSON, "uniform-sampling Monte Carlo against UCT at equal "
         "playouts", sampling.uct_experiment),
        ("tictactoe-think", BOOK4, "tic-tac-toe: think-1, think-2, think-3 against minimax, "
         "and the chapter's 10-game test", books.think),
        ("tictactoe-solved", "tic-tac-toe article", "tic-tac-toe solved by minimax and "
         "alpha-beta", books.solved),
        ("coin-game", "coin game lesson", "the coin game: 21 coins, take 1 or 2, the last coin "
         "wins", books.coins),
        ("connect4-think3", BOOK5, "Connect Four: depth-3 minimax against the think-3 player",
         books.connect4_think),
        ("tutorial-lookahead", "Kaggle N-step lookahead tutorial", "the tutorial's depth-3 "
         "minimax: its columns, and against random", books.tutorial),
    ]]


def by_name():
    return {e.name: e for e in experiments()}


def listing(experiments):
    width = max(len(e.name) for e in experiments)
    lines = [f"{e.name.ljust(width)}  {e.title} ({e.source})" for e in experiments]
    return "\n".join(lines + ["", "run one with 'connectx lessons NAME', every one with "
                              "'connectx lessons all'"])


def format_rows(rows):
    out = []
    for r in rows:
        out.append(textwrap.fill(r.figure, 96, initial_indent="  - ",
                                 subsequent_indent="    "))
        line = f"material: {r.material}  |  package: {r.ours}"
        if r.verdict:
            line += f"  |  {r.verdict}"
        out.append(textwrap.fill(line, 96, initial_indent="      ",
                                 subsequent_indent="        "))
    return "\n".join(out)


def main(argv=None, prog="python -m scripts.tools.lessons"):
    table = by_name()
    p = ArgumentParser(prog=prog, description=__doc__.split("\n\n")[0])
    p.add_argument("names", nargs="*", metavar="NAME",
                   help=f"experiments to run, or all (none: list them): {', '.join(table)}")
    p.add_argument("--quick", action="store_true", help="tiny sizes (seconds in all)")
    add_seed_argument(p, "every experiment")
    args = p.parse_args(argv)
    if not args.names:
        print(listing(experiments()))
        return 0
    names = list(table) if args.names == ["all"] else args.names
    unknown = [n for n in names if n not in table]
    if unknown:
        return report(f"{prog}: error: unknown experiment {unknown[0]!r} "
                      f"(choose from all, {', '.join(table)})")
    progress = sys.stderr.isatty()
    for name in names:
        e = table[name]
        print(f"[{e.name}] {e.title} ({e.source})", flush=True)
        start = time.perf_counter()
        rows = e.run(quick=args.quick, seed=args.seed, progress=progress)
        print(format_rows(rows))
        extra = (" --quick" if args.quick else "") + (f" --seed {args.seed}" if args.seed else "")
        print(f"  reproduce: connectx lessons {e.name}{extra}   "
              f"[{time.perf_counter() - start:.1f} s]\n", flush=True)
    return 0


