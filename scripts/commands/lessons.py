"""``connectx lessons``: the seed material's experiments beside its figures (the
experiments are :mod:`scripts.lessons`; this is their command line).

    connectx lessons                 list the experiments
    connectx lessons NAME [NAME ...] run them (``all``: every one, in the tour's order)
        [--quick] [--seed 0]
"""
import sys
import time

from scripts.args import ArgumentParser, add_seed_argument, report
from scripts.lessons import by_name, experiments, format_rows, listing


def main(argv=None, prog="python -m scripts.commands.lessons"):
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




if __name__ == "__main__":
    sys.exit(main())
