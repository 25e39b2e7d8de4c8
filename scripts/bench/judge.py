"""``connectx bench judge``: how fast the judge of game records is, and the accuracy it
gives the package's levels.

    connectx bench judge [--games 20] [--threads 2] [--seed 0]
    connectx bench judge --accuracy 50 [--workers 2] [--time 0.5]

Speed: ``--games`` seeded 42-move 7x6 games (random legal moves that never complete a
line, so every game fills the board) judged one after the other by
:func:`scripts.arena.judging.judge_games` (every column of every move scored exactly, with
the 12-ply database of the ``databases`` extra), the solver's kernels compiled before the
clock. Printed: judged games per second, one 42-move game's time (mean, median and worst)
and the machine's load average.

``--accuracy N``: ``perfect:skill=S`` for S = 0, 5, 10, 15, 20 (``time_limit=--time``) and
kaggle's ``negamax``, each in N games against the same opponent (``perfect:skill=10``,
colours alternating, the shipped balanced openings, which are not judged); each game
judged, and per player: its moves, perfect- and good-move rates, value-losing moves a
game and the accuracy (:mod:`agents.solver.labels`). Accuracy should rise with the level.
"""
import json
import os
import random
import statistics
import sys
import time

from scripts.args import ArgumentParser, add_quiet_argument, positive_int_arg

LEVELS = (0, 5, 10, 15, 20)
OPPONENT = "perfect:skill=10,time_limit=0.2"


def full_games(n, seed, rows=6, columns=7, inarow=4):
    """``n`` seeded games that fill the board: random legal moves that never complete a
    line (a game that gets stuck is drawn again)."""
    from agents.solver.position import Position
    rng = random.Random(seed)
    games = []
    while len(games) < n:
        p, moves = Position(rows, columns, inarow), []
        while len(moves) < rows * columns:
            legal = [c for c in range(columns) if p.can_play(c) and not p.is_winning_move(c)]
            if not legal:
                break
            moves.append(rng.choice(legal))
            p.play(moves[-1])
        if len(moves) == rows * columns:
            games.append({"agents": ["first", "second"], "moves": moves, "opening": 0})
    return games


def speed(games, threads):
    """``(seconds of each game, total seconds)`` of judging ``games`` one by one."""
    from scripts.arena.judging import game_solver, judge_games
    solver = game_solver(6, 7, 4, threads)
    judge_games(games[:1], (6, 7, 4), 60.0, solver)  # the database's pages and tables warm
    times = []
    for g in games:
        t = time.perf_counter()
        r = judge_games([g], (6, 7, 4), 60.0, solver)
        times.append(time.perf_counter() - t)
        if r["unjudged"]:
            raise RuntimeError("a position was not scored within 60 s")
    return times, sum(times)


def accuracy(n, workers, seconds, threads, progress):
    """Rows ``{agent, games, moves, perfect, good, lost_a_game, accuracy}``: each agent's
    judged moves in ``n`` games against :data:`OPPONENT`."""
    from scripts.arena.judging import game_solver, judge_games
    from scripts.arena.match import match
    from scripts.arena.suites import default_openings, resolve
    openings = resolve(default_openings(6, 7, 4), 6, 7, 4)
    solver = game_solver(6, 7, 4, threads)
    rows = []
    for agent in [f"perfect:skill={s},time_limit={seconds:g}" for s in LEVELS] + ["negamax"]:
        result = match(agent, OPPONENT, games=n, seed=0, workers=workers, progress=progress,
                       openings=openings)
        games = [{"agents": ["A" if g["agents"][0] == agent else "B",
                             "B" if g["agents"][0] == agent else "A"],
                  "moves": g["moves"], "opening": len(g.get("opening") or "")}
                 for g in result.games]
        judged = judge_games(games, (6, 7, 4), 60.0, solver)
        p = judged["players"]["A"]
        every = p["rows"][-1]
        rows.append({"agent": agent, "games": n, "moves": p["moves"],
                     "perfect": every["perfect"], "good": every["good"],
                     "lost_a_game": p["value_lost"] / n, "accuracy": p["accuracy"],
                     "unjudged": judged["unjudged"]})
        if progress:
            print(f"  {agent}: accuracy {p['accuracy']:.1f}%", file=sys.stderr)
    return rows


def main(argv=None, prog="python -m scripts.bench.judge"):
    ap = ArgumentParser(prog=prog, description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=positive_int_arg, default=20,
                    help="42-move games to time (default 20)")
    ap.add_argument("--seed", type=int, default=0, help="seed of the timed games (default 0)")
    ap.add_argument("--threads", type=positive_int_arg, default=2,
                    help="solver threads (default 2)")
    ap.add_argument("--accuracy", type=positive_int_arg, metavar="N", default=None,
                    help="also play N games of each level and negamax and judge them")
    ap.add_argument("--workers", type=positive_int_arg, default=1,
                    help="--accuracy: processes playing games (default 1)")
    ap.add_argument("--time", type=float, default=0.5,
                    help="--accuracy: the levels' time_limit in seconds (default 0.5)")
    ap.add_argument("--json", metavar="PATH", help="write the figures here")
    add_quiet_argument(ap)
    args = ap.parse_args(argv)
    from agents.solver.database import default_database
    if default_database() is None:
        ap.error("the 12-ply database is not installed (pip install 'connectx-search[databases]')")
    load = os.getloadavg()[0]
    games = full_games(args.games, args.seed)
    times, total = speed(games, args.threads)
    out = {"games": len(games), "games_per_second": len(games) / total,
           "mean": statistics.mean(times), "median": statistics.median(times),
           "worst": max(times), "threads": args.threads, "load": [load, os.getloadavg()[0]]}
    print(f"judged {len(games)} 42-move 7x6 games ({args.threads} solver threads): "
          f"{out['games_per_second']:.2f} games/s; one game {out['mean']:.2f} s mean, "
          f"{out['median']:.2f} s median, {out['worst']:.2f} s worst "
          f"(load {load:.1f} -> {os.getloadavg()[0]:.1f})")
    if args.accuracy:
        rows = accuracy(args.accuracy, args.workers, args.time, args.threads, not args.quiet)
        out["accuracy"] = rows
        print(f"accuracy over {args.accuracy} games each against {OPPONENT} (balanced "
              "openings, not judged):")
        print(f"  {'agent':36} {'moves':>5} {'perfect':>7} {'good':>6} {'lost/game':>9} "
              f"{'accuracy':>8}")
        for r in rows:
            print(f"  {r['agent']:36} {r['moves']:5d} {100 * r['perfect']:6.1f}% "
                  f"{100 * r['good']:5.1f}% {r['lost_a_game']:9.2f} {r['accuracy']:7.1f}%")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(out, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
