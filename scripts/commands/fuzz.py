"""``connectx fuzz``: random configurations and positions, short budgets; no ERROR,
INVALID or TIMEOUT allowed (what is played and judged: :mod:`scripts.arena.fuzz`).

    connectx fuzz [--agents SPEC ...] [--submission main.py] [--games N]
                  [--seconds S] [--seed S] [--max-side 20]

Prints per agent the games, moves, failures by status, the configurations covered and
the worst move time as a fraction of its budget and of ``actTimeout``; exits 1 on any
failure.
"""
import sys

from scripts.arena.fuzz import ACT_TIMEOUTS, STATUSES, default_agents, fuzz
from scripts.arena.specs import parse_spec
from scripts.args import (ArgumentParser, SPEC_HELP, add_quiet_argument, add_seed_argument,
                          positive_int_arg)


def run(names, submission, games, seconds, seed, max_side, out=sys.stdout,
        act_timeouts=ACT_TIMEOUTS, max_moves=16, options=None, progress=False):
    """:func:`scripts.arena.fuzz.fuzz`, its report printed on ``out``; returns the report."""
    report, played, elapsed = fuzz(names, submission, games, seconds, seed, max_side,
                                   act_timeouts, max_moves, options, progress)
    print(f"fuzz: {played} configurations in {elapsed:.0f} s, seed {seed}", file=out)
    print(f"{'agent':<28}{'games':>7}{'moves':>8}{'configs':>9}"
          + "".join(f"{s:>9}" for s in STATUSES) + f"{'worst t/budget':>16}"
          + f"{'worst t/actTimeout':>20}", file=out)
    for name, r in report.items():
        print(f"{name:<28}{r['games']:>7}{r['moves']:>8}{len(r['configs']):>9}"
              + "".join(f"{r[s]:>9}" for s in STATUSES) + f"{r['worst']:>16.3f}"
              + f"{r['worst_act']:>20.3f}", file=out)
        if r["worst_cfg"] and r["worst"] > 0.5:
            print(f"  worst move on {r['worst_cfg']}", file=out)
        for cfg, status, detail in r["examples"]:
            print(f"  {status} on {cfg}: {detail}", file=out)
    return report


def main(argv=None, prog="python -m scripts.commands.fuzz"):
    p = ArgumentParser(prog=prog, description="Fuzz the agents: random valid configurations, "
                       "random reachable positions, short budgets; exit 1 on any ERROR, "
                       "INVALID or TIMEOUT.")
    p.add_argument("--agents", nargs="+", metavar="SPEC",
                   help="agents to fuzz (default: every ConnectX agent of the package); "
                        + SPEC_HELP)
    p.add_argument("--submission", metavar="PATH.py", help="also fuzz this submission file")
    p.add_argument("--games", type=positive_int_arg,
                   help="configurations to play (default: until --seconds)")
    p.add_argument("--seconds", type=float,
                   help="time to fuzz, in seconds (default 60 without --games)")
    add_seed_argument(p, "the configurations")
    p.add_argument("--max-side", type=positive_int_arg, default=20,
                   help="largest rows and columns drawn, mostly (default 20)")
    p.add_argument("--max-moves", type=int, default=16,
                   help="moves per game from its random position (0: play to the end)")
    p.add_argument("--act-timeouts", default=",".join(map(str, ACT_TIMEOUTS)),
                   help="actTimeout values to draw from (seconds, comma-separated)")
    add_quiet_argument(p)
    args = p.parse_args(argv)
    names = args.agents or default_agents()
    seconds = args.seconds if args.seconds is not None or args.games else 60.0
    try:
        act_timeouts = tuple(float(x) for x in args.act_timeouts.split(","))
        if not act_timeouts or min(act_timeouts) <= 0:
            raise ValueError
    except ValueError:
        p.error(f"--act-timeouts must be positive numbers, got {args.act_timeouts!r}")
    try:
        for text in names + ([args.submission] if args.submission else []):
            parse_spec(text)
        report = run(names, args.submission, args.games, seconds, args.seed, args.max_side,
                     act_timeouts=act_timeouts, max_moves=args.max_moves or None,
                     progress=not args.quiet)
    except ValueError as e:
        p.error(str(e))
    failed = sum(r[s] for r in report.values() for s in STATUSES)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
