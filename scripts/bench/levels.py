"""``connectx bench levels``: calibrate ``perfect:skill=S`` and ``perfect:elo=E``.

    connectx bench levels [--levels 0,5,10,15,20] [--games 8] [--workers 2]
                          [--score-positions 300] [--time 0.5] [--json PATH]

A round robin (:func:`scripts.arena.tournament.tournament`: every pair meets the same
balanced openings, each twice with colours swapped) of the levels (``perfect:skill=S``,
``time_limit=--time``), the anchors (:data:`ANCHORS`: random, onestep, kaggle's negamax,
minimax depth 3, alphabeta and mcts at 0.1 s a move; ``perfect`` is level 20) and the
probes ``perfect:elo=E`` at the midpoints of the current scale
(:data:`agents.players.levels.ELO_OF_LEVEL`). The Bradley-Terry ratings (the package's,
95% intervals) are shifted so that kaggle's negamax is at
:data:`agents.players.levels.ANCHOR_ELO`. Printed: the ratings, each anchor's and
level's ``connectx score`` on the first ``--score-positions`` positions of the shipped
set (perfect-move and good-move rates), the fitted scale ``ELO_OF_LEVEL`` to paste into
``agents/players/levels.py``, and for each probe whether E lies in its fitted interval.
The machine's load average is printed first and last (timed agents play worse on a
busy machine).
"""
import json
import os
import sys
import time

from scripts.args import ArgumentParser, add_quiet_argument, positive_int_arg

ANCHORS = ("random", "onestep", "negamax", "minimax:depth=3", "alphabeta:time_limit=0.1",
           "mcts:time_limit=0.1")
NEGAMAX = "negamax"


def level_spec(level, seconds):
    return f"perfect:skill={level},time_limit={seconds:g}"


def probes(levels, seconds):
    """``{spec: level}``: ``perfect:elo=E`` with E the current scale's rating
    (:data:`agents.players.levels.ELO_OF_LEVEL`) of each of ``levels``."""
    from agents.players.levels import elo_of_level
    return {f"perfect:elo={elo_of_level(lv):.1f},time_limit={seconds:g}": lv for lv in levels}


def calibrate(levels, games, workers, seconds, seed=0, progress=True, probe_levels=(),
              anchors=ANCHORS):
    """The tournament and its ratings anchored on negamax (which ``anchors`` must hold):
    ``(result, rows)``, rows of ``{agent, rating, low, high, points, games}`` best first."""
    from agents.players.levels import ANCHOR_ELO
    from scripts.arena.suites import default_openings, resolve
    from scripts.arena.tournament import tournament
    texts = [level_spec(lv, seconds) for lv in levels] + list(anchors)
    texts += list(probes(probe_levels, seconds))
    openings = resolve(default_openings(6, 7, 4), 6, 7, 4)
    result = tournament(texts, games=games, seed=seed, workers=workers, progress=progress,
                        openings=openings)
    shift = ANCHOR_ELO - next(r["rating"] for r in result.ratings if r["agent"] == NEGAMAX)
    rows = [{"agent": r["agent"], "rating": r["rating"] + shift, "low": r["low"] + shift,
             "high": r["high"] + shift, "points": r["points"], "games": r["games"]}
            for r in result.ratings]
    return result, rows


def judged(texts, positions):
    """``{spec: (perfect rate, good rate)}`` on the first ``positions`` of the shipped set."""
    from agents.solver.labels import load_labels
    from scripts.arena.judging import DEFAULT_SET, score
    labelled = load_labels(DEFAULT_SET)
    labelled = labelled.subset(slice(0, min(positions, len(labelled))))
    out = {}
    for t in texts:
        row = score(t, labelled).rows[-1]
        out[t] = (row["perfect"], row["good"], row["n"])
    return out


def main(argv=None, prog="python -m scripts.bench.levels"):
    ap = ArgumentParser(prog=prog, description=__doc__.split("\n\n")[0])
    ap.add_argument("--levels", default="0,5,10,15,20", help="skill levels (default 0,5,10,15,20)")
    ap.add_argument("--games", type=positive_int_arg, default=8, help="games a pair (default 8)")
    ap.add_argument("--workers", type=positive_int_arg, default=1, help="processes (default 1)")
    ap.add_argument("--time", type=float, default=0.5,
                    help="the levels' time_limit, seconds a move (default 0.5)")
    ap.add_argument("--score-positions", type=int, default=300,
                    help="positions of the shipped set each agent is scored on (0: none)")
    ap.add_argument("--probes", default="7.5,12.5",
                    help="levels played as perfect:elo=E, E their rating on the current scale "
                         "(default 7.5,12.5; 'none': no probes)")
    ap.add_argument("--seed", type=int, default=0, help="the tournament's seed (default 0)")
    ap.add_argument("--json", metavar="PATH", default=None, help="write the figures as JSON")
    add_quiet_argument(ap)
    args = ap.parse_args(argv)
    try:
        levels = [int(x) for x in args.levels.split(",")]
        probe_levels = [] if args.probes == "none" else [float(x) for x in args.probes.split(",")]
    except ValueError:
        ap.error(f"--levels (integers) and --probes (numbers) are lists separated by commas, got "
                 f"{args.levels!r}, {args.probes!r}")
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}", flush=True)
    start = time.perf_counter()
    try:
        result, rows = calibrate(levels, args.games, args.workers, args.time, args.seed,
                                 not args.quiet, probe_levels)
    except ValueError as e:
        ap.error(str(e))
    played = time.perf_counter() - start
    scores = judged([r["agent"] for r in rows], args.score_positions) \
        if args.score_positions > 0 else {}
    print(f"{len(result.results)} games ({args.games} a pair) in {played:.0f} s; "
          f"ratings anchored: {NEGAMAX} = 1000")
    print(f"{'agent':42} {'rating':>7} {'95% interval':>15} {'points':>9}  "
          f"{'perfect':>7} {'good':>6}")
    for r in rows:
        s = scores.get(r["agent"])
        judged_text = f"{100 * s[0]:6.1f}% {100 * s[1]:5.1f}%" if s else ""
        print(f"{r['agent']:42} {r['rating']:7.0f} {r['low']:7.0f}-{r['high']:<7.0f} "
              f"{r['points']:4g}/{r['games']:<4d}  {judged_text}")
    from agents.players.levels import elo_of_level
    by_agent = {r["agent"]: r for r in rows}
    fitted = [(lv, round(by_agent[level_spec(lv, args.time)]["rating"])) for lv in levels]
    print(f"fitted scale: ELO_OF_LEVEL = {tuple(fitted)}")
    if any(b[1] <= a[1] for a, b in zip(fitted, fitted[1:])):
        print("note: the fitted ratings are not increasing with the level")
    # a probe plays at its level whatever the scale; on the fitted scale that level is
    # elo=E' (the same player): is E' inside the probe's fitted interval?
    checks = []
    for text, lv in probes(probe_levels, args.time).items():
        e = elo_of_level(lv, fitted)
        r = by_agent[text]
        inside = r["low"] <= e <= r["high"]
        checks.append({"probe": text, "level": lv, "elo": e, "rating": r["rating"],
                       "low": r["low"], "high": r["high"], "inside": inside})
        print(f"level {lv:g} ({text}): on the fitted scale elo={e:.0f}; rated {r['rating']:.0f} "
              f"({r['low']:.0f}-{r['high']:.0f}): {'inside' if inside else 'OUTSIDE'} its interval")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"rows": rows, "scores": scores, "fitted": fitted, "probes": checks,
                       "games": args.games, "time": args.time, "seconds": played}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
