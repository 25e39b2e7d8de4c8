"""``connectx lessons``: the seed material's experiments beside its figures (the
experiments are :mod:`scripts.lessons`; this is their command line).

    connectx lessons                 list the experiments
    connectx lessons NAME [NAME ...] run them (``all``: every one, in the tour's order)
        [--quick] [--seed 0]
    connectx lessons tree MOVES|TREE draw a search: the position after MOVES (1-based
        [--depth 2] [--minimax]      columns, "" the empty board) with each node's exact
        [--heuristic threats]        value, or a textbook TREE as nested lists
        [--no-exact] [--svg FILE]    ("[[3, 5], [2, 9]]"); text, and an SVG with --svg
        [--exact-time 10]
"""
import sys
import time

from scripts.args import ArgumentParser, add_seed_argument, report
from scripts.lessons import by_name, experiments, format_rows, listing


def main(argv=None, prog="python -m scripts.commands.lessons"):
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["tree"]:
        return tree_main(argv[1:], prog + " tree")
    table = by_name()
    p = ArgumentParser(prog=prog, description="The seed material's experiments beside its figures.")
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



def tree_main(argv, prog):
    """``connectx lessons tree``: a search drawn (:mod:`scripts.server.search_tree`)."""
    from heuristics import REGISTRY
    from scripts.server.search_tree import EXACT_TIME, MAX_DEPTH, position_tree, textbook_tree
    p = ArgumentParser(prog=prog, description="Draw a minimax or alpha-beta search: values "
                       "backed up, each node's alpha-beta window, the nodes alpha-beta never "
                       "visits (pruned), the principal variation (*), and for a position "
                       "each node's exact value by the solver.")
    p.add_argument("what", metavar="MOVES|TREE", help="moves from the empty 7x6 board "
                   "(1-based columns, e.g. 4453) or a textbook tree, e.g. '[[3, 5], [2, 9]]'")
    p.add_argument("--depth", type=int, default=2, help=f"plies, 1-{MAX_DEPTH} (default 2; "
                   "a textbook tree is searched to its leaves)")
    p.add_argument("--minimax", action="store_true", help="minimax (no pruning, no windows)")
    p.add_argument("--heuristic", default="threats", choices=sorted(REGISTRY),
                   help="the evaluation at the horizon (default threats)")
    p.add_argument("--no-exact", action="store_true", help="no solver values")
    p.add_argument("--exact-time", type=float, default=EXACT_TIME, metavar="SECONDS",
                   help=f"stop solving after this long (default {EXACT_TIME:g}; the "
                   "solver's compiling first is not counted)")
    p.add_argument("--svg", metavar="FILE", help="also write the picture as an SVG file")
    args = p.parse_args(argv)
    try:
        if args.what.lstrip().startswith("["):
            picture = textbook_tree(args.what, not args.minimax)
        else:
            picture = position_tree(args.what, args.depth, heuristic=args.heuristic,
                                    prune=not args.minimax, exact=not args.no_exact,
                                    exact_time=args.exact_time)
    except ValueError as e:
        return report(f"{prog}: error: {e}")
    print(picture.title)
    print(picture.text(windows=not args.minimax))
    if args.svg:
        with open(args.svg, "w", encoding="utf-8") as f:
            f.write(picture.svg(windows=not args.minimax))
        print(f"wrote {args.svg}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
