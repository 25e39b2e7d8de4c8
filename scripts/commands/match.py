"""``connectx match A B [--games N] [options]``: a head-to-head match, colours alternating
(the library: :mod:`scripts.arena.match`).

Prints W-D-L for A, A's score with a 95% interval, the Elo difference A - B with its
interval, move times and failures (INVALID, TIMEOUT, ERROR) per agent, and for a text
player (``text:ask=...``) its invalid answers by category, its fallback moves and the
games that had one (the arena's forfeits). Agent specs are described in
:mod:`scripts.arena.specs`.

    connectx match minimax:depth=3 rules --games 100 --workers 2
    connectx match alphabeta:depth=6 negamax --config rows=6,columns=7,inarow=4
    connectx match submission.py random --out games.json --replay game0.html

Opening suites, pairs, SPRT and replays (``docs/matches.md``): ``--openings`` (default
``balanced:4`` on 7x6) plays each opening twice with colours swapped (games ``2i`` and
``2i + 1``) and the summary adds pentanomial counts, pair-based Elo with its interval,
LOS and the draw ratio; ``--sprt elo0,elo1[,alpha,beta]`` stops early (exit 0 H1, 1 H0,
3 inconclusive); ``--replays DIR`` writes every game's HTML replay and an index.

    connectx match alphabeta:depth=5 alphabeta:depth=4 --games 200 --sprt 0,20
"""
import json
import sys

from scripts.arena.match import match
from scripts.arena.replays import write_replay, write_replays
from scripts.arena.report import format_sprt, format_summary, json_safe
from scripts.arena.specs import parse_match_config
from scripts.args import (ArgumentParser, SPEC_HELP, add_games_arguments, add_trust_arguments,
                          add_quiet_argument, positive_int_arg, require, trust_options)

SPRT_EXIT = {"H1": 0, "H0": 1, None: 3}  # exit status of a match with --sprt (2: bad input)


def main(argv=None, prog="python -m scripts.commands.match"):
    p = ArgumentParser(prog=prog, description="Head-to-head match, colours alternating: "
                       "W-D-L, score and Elo difference with 95% intervals, move times.")
    p.add_argument("a", metavar="A", help="first agent (mark 1 in even games); " + SPEC_HELP)
    p.add_argument("b", metavar="B", help="second agent, same forms as A")
    p.add_argument("--games", type=positive_int_arg, default=10, help="games (default 10)")
    add_games_arguments(p)
    p.add_argument("--seed", type=int, default=0, help="match seed, >= 0 (default 0)")
    p.add_argument("--out", "--json", metavar="PATH.json", default=None,
                   help="write the summary and every game (moves, statuses, times) as JSON")
    p.add_argument("--replay", metavar="PATH.html", default=None,
                   help="write kaggle's HTML replay of one game (the games extra)")
    p.add_argument("--replay-game", type=int, default=0, metavar="I",
                   help="which game --replay shows, 0-based (default 0)")
    add_quiet_argument(p)
    add_trust_arguments(p)
    args = p.parse_args(argv)
    if args.seed < 0:
        p.error(f"--seed must be >= 0, got {args.seed}")
    if args.replay and not 0 <= args.replay_game < args.games:
        p.error(f"--replay-game must be in 0..{args.games - 1}, got {args.replay_game}")
    try:
        if args.replay:
            require("kaggle_environments", "--replay")
        cfg = parse_match_config(args.config)
        openings, sprt = trust_options(args, cfg)
        results, summary = match(args.a, args.b, args.games, cfg, args.seed, args.workers,
                                 args.dask, progress=not args.quiet, openings=openings,
                                 sprt=sprt)
    except ValueError as e:
        p.error(str(e))
    print(f"openings: {args.openings} ({len(openings or [])} in the suite), each played twice "
          "with colours swapped" if openings else "openings: none (every game from the empty "
          "board)")
    print(format_summary(summary))
    if sprt is not None:
        print(format_sprt(summary))
    if args.out:
        out = {"agents": [args.a, args.b], "seed": args.seed, "config": cfg._asdict(),
               "openings": args.openings,
               "summary": json_safe(summary), "games": results}
        with open(args.out, "w", encoding="utf-8") as f:
            json.dump(out, f, indent=1)
        print(f"games written to {args.out}")
    if args.replay and args.replay_game >= len(results):  # the SPRT stopped before it
        print(f"no replay: game {args.replay_game} was not played ({len(results)} games)")
    elif args.replay:
        write_replay(results[args.replay_game], cfg, args.replay)
        print(f"replay of game {args.replay_game} written to {args.replay}")
    if args.replays:
        print(f"replays written: {write_replays(results, cfg, args.replays, [args.a, args.b])}")
    return SPRT_EXIT[summary["sprt"]["verdict"]] if sprt is not None else 0


if __name__ == "__main__":
    sys.exit(main())
