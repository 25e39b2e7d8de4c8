"""``connectx validate``: play a submission file the way Kaggle does (the library:
:mod:`submission.validate`).

    connectx validate main.py [--games self,random,negamax,alphabeta,mcts]
                              [--must-beat negamax] [--must-win-first alphabeta,mcts]
"""
import os
import sys

from scripts.args import ArgumentParser, add_config_argument, add_seed_argument, report, require
from scripts.arena.specs import parse_match_config
from submission.build import BuildError
from submission.validate import GAMES, MIN_OVERAGE, validate


def _names(text):
    return tuple(n for n in (p.strip() for p in text.split(",")) if n)


def main(argv=None, prog="python -m scripts.commands.validate"):
    parser = ArgumentParser(prog=prog, description="Play a submission file as Kaggle does, "
                            "each game in a fresh process (needs the games extra); exit 1 "
                            "if a game fails.")
    parser.add_argument("path", help="the submission file, e.g. main.py")
    parser.add_argument("--games", default=",".join(GAMES),
                        help="comma-separated, from: self (Kaggle's upload check), random, "
                             "negamax (kaggle's builtins), alphabeta, mcts (the package's, at "
                             "their defaults, each in a process of its own) (default: all)")
    parser.add_argument("--must-beat", default="", metavar="OPPONENTS",
                        help="comma-separated opponents the file must beat in every game")
    parser.add_argument("--must-win-first", default="", metavar="OPPONENTS",
                        help="comma-separated opponents the file must beat whenever it moves "
                             "first (7x6 is a first-player win)")
    parser.add_argument("--min-overage", type=float, default=MIN_OVERAGE,
                        help=f"seconds of the 60 s overage that must be left (default {MIN_OVERAGE:g})")
    add_seed_argument(parser, "the builtin agents' random choices (episode i uses seed+i)")
    parser.add_argument("--cpu-overage", action="store_true",
                        help="judge the overage by each move's CPU time, not wall time (on a "
                             "machine busy with other work; Kaggle counts wall time)")
    parser.add_argument("--no-numba", action="store_true",
                        help="block `import numba` in the game processes: the pure-Python fallback")
    add_config_argument(parser)
    args = parser.parse_args(argv)
    try:
        cfg = parse_match_config(args.config)
    except ValueError as exc:
        return report(f"{prog}: error: {exc}")
    if cfg.remainingOverageTime != 60.0:
        return report(f"{prog}: error: remainingOverageTime is kaggle's own (60 s) in validate")
    configuration = {"rows": cfg.rows, "columns": cfg.columns, "inarow": cfg.inarow,
                     "actTimeout": cfg.actTimeout}
    if not os.path.isfile(args.path):
        return report(f"{prog}: error: no such file {args.path}")
    try:
        require("kaggle_environments", "validate")
        results = validate(args.path, _names(args.games), args.min_overage,
                           _names(args.must_beat), args.seed, args.no_numba, args.cpu_overage,
                           must_win_first=_names(args.must_win_first),
                           configuration=configuration)
    except (BuildError, ValueError, RuntimeError) as exc:
        return report(f"{prog}: error: {exc}")
    failed = sum(1 for _, problems in results if problems)
    least = min(rep["overage"][seat] for rep, _ in results for seat in rep["seats"])
    least_cpu = min(x for rep, _ in results for x in rep["cpu_overage"])
    print(f"{len(results) - failed}/{len(results)} games passed; least overage left "
          f"{least:.1f} s ({least_cpu:.1f} s counting CPU time)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
