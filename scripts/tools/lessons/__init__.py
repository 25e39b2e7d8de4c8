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


def experiments():
    """Every experiment, in the order of the tour (docs/lessons.md)."""
    from scripts.tools.lessons import books, isolation, sampling
    return isolation.EXPERIMENTS + sampling.EXPERIMENTS + books.EXPERIMENTS


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


