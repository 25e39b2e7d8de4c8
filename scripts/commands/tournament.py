"""``connectx tournament A B C ... [--games N] [--workers K] [--out DIR]``: a round robin
(the library, and what the ratings mean: :mod:`scripts.arena.tournament`).

Prints the cross table and the Bradley-Terry ratings; writes them, every game and a
chart in ``--out``. ``--openings`` and ``--replays DIR`` work as in ``connectx match``.
"""
import os
import sys

from scripts.arena.match import worker_shares
from scripts.arena.replays import write_replays
from scripts.arena.specs import parse_match_config
from scripts.arena.tournament import cross_table, format_table, tournament, write_outputs
from scripts.args import (ArgumentParser, SPEC_HELP, add_games_arguments, add_trust_arguments,
                          add_quiet_argument, positive_int_arg, require, trust_options)


def main(argv=None, prog="python -m scripts.commands.tournament"):
    p = ArgumentParser(prog=prog, description="Round robin, colours alternating: cross table "
                       "and Bradley-Terry ratings with 95% intervals, written to --out.")
    p.add_argument("agents", nargs="+", metavar="AGENT", help="two or more distinct agents; "
                   + SPEC_HELP)
    p.add_argument("--games", type=positive_int_arg, default=10, help="games per pair (default 10)")
    add_games_arguments(p)
    p.add_argument("--seed", type=int, default=0, help="tournament seed, >= 0 (default 0)")
    p.add_argument("--out", metavar="DIR", default="tournament",
                   help="output directory: crosstable.csv, ratings.csv, games.json, ratings.png "
                        "(default ./tournament)")
    p.add_argument("--no-plot", action="store_true",
                   help="do not draw ratings.png (which needs matplotlib, the games extra)")
    add_quiet_argument(p)
    add_trust_arguments(p, sprt=False)
    args = p.parse_args(argv)
    if args.seed < 0:
        p.error(f"--seed must be >= 0, got {args.seed}")
    if os.path.exists(args.out) and not os.path.isdir(args.out):
        p.error(f"--out {args.out!r} exists and is not a directory")
    try:
        if not args.no_plot:
            require("matplotlib", "the ratings chart (--no-plot skips it)")
        cfg = parse_match_config(args.config)
        openings, _ = trust_options(args, cfg)
        t = tournament(args.agents, args.games, cfg, args.seed, args.workers, args.dask,
                       progress=not args.quiet, openings=openings)
    except ValueError as e:
        p.error(str(e))
    print(f"openings: {args.openings} ({len(openings)} in the suite), each pair of games "
          "plays one twice with colours swapped" if openings else "openings: none")
    print(f"{len(t['results'])} games, {args.games} per pair, colours alternating; "
          f"cross table: points of the row agent against the column agent")
    print(format_table(cross_table(t["names"], t["points"], t["played"])))
    print()
    print("Bradley-Terry ratings (Elo scale, mean 0, 95% interval):")
    print(format_table([["rank", "agent", "rating", "95% interval", "points"]] + [
        [str(r["rank"]), r["agent"], f"{r['rating']:+.0f}", f"{r['low']:+.0f} to {r['high']:+.0f}",
         f"{r['points']:g}/{r['games']}"] for r in t["ratings"]], left=(0, 1)))
    shares = worker_shares(t["results"])
    if len(shares) > 1:
        print("CPU share per worker (CPU s / wall s while playing): " + ", ".join(
            f"{w['share']:.2f} ({w['games']} games)" for w in shares.values()))
    paths = write_outputs(t, args.out, cfg, args.seed, plot=not args.no_plot)
    print(f"written: {', '.join(paths.values())}")
    if args.replays:
        print(f"replays written: {write_replays(t['results'], cfg, args.replays, t['names'])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
