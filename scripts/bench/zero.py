"""``connectx bench zero RUN``: the curve of a ``--mode zero`` run measured afterwards.

    connectx bench zero runs/zero [--every 10] [--simulations 800] [--positions 200]
                        [--games 20] [--opponents "negamax;perfect:skill=5;..."]
                        [--workers 2] [--json PATH]

The run keeps every iteration's network (``RUN/networks/iteration-NNN.npz``,
:data:`scripts.learn.checkpoints.CHECKPOINTS`). For every ``--every``-th of them and the last,
this measures what the run itself does not each iteration, because it costs more than an
iteration: the network **with search** (``mcts:prior=NET,iterations=--simulations``, a
fresh tree each position) on the first ``--positions`` of the judge's set (or of
``--eval-set``, which a board other than 7x6 needs), good and
perfect moves (:func:`scripts.learn.evaluate.judge_network`), and the **pure policy**
(``policy:file=NET``) in matches against each of ``--opponents`` (``--games`` games
from the balanced openings, colours alternating: :func:`scripts.arena.match.match`).
The pure policy's own good/perfect rates and its scores against the kernel opponents
are the run's record already (``RUN/record.json``); the table repeats its good-move rate.
Wilson 95% intervals. The machine's load average is printed first and last.
"""
import glob
import json
import os
import re
import time

import numpy as np

from scripts.args import ArgumentParser, add_quiet_argument, count_arg, positive_int_arg

OPPONENTS = ("negamax", "perfect:skill=5", "perfect:skill=10", "perfect:skill=15")


def checkpoints(run, every):
    """``[(iteration, path)]`` of ``run``'s kept networks: every ``every``-th iteration
    and the last; ``ValueError`` when the folder keeps none."""
    from scripts.learn.checkpoints import CHECKPOINTS
    found = []
    for path in glob.glob(os.path.join(run, CHECKPOINTS, "iteration-*.npz")):
        m = re.fullmatch(r"iteration-(\d+)\.npz", os.path.basename(path))
        if m:
            found.append((int(m.group(1)), path))
    if not found:
        raise ValueError(f"{run} keeps no networks ({CHECKPOINTS}/iteration-NNN.npz): "
                         f"is it the --out of a connectx learn --mode zero run?")
    found.sort()
    last = found[-1][0]
    return [(it, p) for it, p in found if it % every == 0 or it == last]


def measure(path, simulations, positions, games, opponents, workers, seed=0,
            progress=False, judge=None):
    """One row: ``{"search": {"good", "perfect", "n", "seconds"} or None, "matches": {opponent: {"wins",
    "draws", "losses", "score"}}}`` of the network in ``path``."""
    from scripts.arena.match import match
    from scripts.arena.suites import default_openings, resolve
    from agents.solver.labels import load_labels
    from scripts.arena.judging import DEFAULT_SET
    from scripts.learn.evaluate import judge_network
    row = {"search": None, "matches": {}}
    if simulations and positions:
        labelled = load_labels(judge or DEFAULT_SET)
        labelled = labelled.subset(np.arange(min(positions, len(labelled))))
        result = judge_network(path, labelled, simulations, workers=workers)
        every = result["rows"][-1]  # all the positions
        row["search"] = {"good": every["good"], "perfect": every["perfect"],
                         "n": every["n"], "seconds": round(result["seconds"], 1)}
    if games:
        from agents.players.network import read_network
        with open(path, "rb") as f:
            rows, columns, inarow = read_network(f.read(), repr(path)).config
        cfg = f"rows={rows},columns={columns},inarow={inarow}"
        openings = resolve(default_openings(rows, columns, inarow), rows, columns, inarow)
        for opp in opponents:
            s = match(f"policy:file={path}", opp, games=games, cfg=cfg, seed=seed,
                      workers=workers, progress=progress, openings=openings).summary
            row["matches"][opp] = {k: s[k] for k in ("wins", "draws", "losses", "score")}
    return row


def main(argv=None, prog="python -m scripts.bench.zero"):
    ap = ArgumentParser(prog=prog, description=__doc__.split("\n\n")[0])
    ap.add_argument("run", metavar="RUN", help="the --out folder of a --mode zero run")
    # (flag, type, default, help): the counts, 0 switching a measure off
    for flag, kind, default, text in (
            ("--every", positive_int_arg, 10, "measure every K-th iteration's network and the last"),
            ("--simulations", count_arg, 800, "simulations a move of the search (0: no search)"),
            ("--positions", count_arg, 200,
             "first positions of the set the search is judged on (0: none)"),
            ("--games", count_arg, 20, "games of the pure policy against each opponent (0: none)"),
            ("--workers", positive_int_arg, 2, "processes")):
        ap.add_argument(flag, type=kind, default=default, help=f"{text} (default {default})")
    ap.add_argument("--eval-set", metavar="FILE", default=None,
                    help="labelled set of the search's rates (default: the shipped 7x6 set)")
    ap.add_argument("--opponents", default=";".join(OPPONENTS),
                    help=f"agent specs separated by ';' (default {';'.join(OPPONENTS)})")
    ap.add_argument("--json", metavar="PATH", default=None, help="write the rows as JSON")
    add_quiet_argument(ap)
    args = ap.parse_args(argv)
    opponents = [o.strip() for o in args.opponents.split(";") if o.strip()]
    try:
        from scripts.arena.specs import parse_spec
        for o in opponents:
            parse_spec(o)
        points = checkpoints(args.run, args.every)
    except ValueError as e:
        ap.error(str(e))
    record_path = os.path.join(args.run, "record.json")
    curve = {}
    if os.path.exists(record_path):
        with open(record_path) as f:
            record = json.load(f)
        curve = {p.get("step"): p for p in record.get("curve", [])}
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}", flush=True)
    from scripts.arena.stats import wilson
    rows = []
    head = (f"{'iteration':>9} {'policy good':>11} "
            f"{'search good (95%)':>22} {'search perfect':>14} "
            + " ".join(f"{o:>18}" for o in opponents))
    print(head, flush=True)
    for it, path in points:
        start = time.perf_counter()
        try:
            row = {"iteration": it, "network": path,
                   **measure(path, args.simulations, args.positions, args.games, opponents,
                             args.workers, progress=not args.quiet, judge=args.eval_set)}
        except ValueError as e:  # e.g. a 7x6 set for another board's network
            ap.error(str(e))
        row["seconds"] = round(time.perf_counter() - start, 1)
        point = curve.get(it, {})
        row["policy_good"] = point.get("good", {}).get("all")
        rows.append(row)
        s = row["search"]
        if s:
            lo, hi = wilson(s["good"], s["n"])
            search = f"{100 * s['good']:5.1f}% ({100 * lo:.1f}-{100 * hi:.1f})"
            perfect = f"{100 * s['perfect']:5.1f}%"
        else:
            search = perfect = "-"
        pg = f"{100 * row['policy_good']:.1f}%" if row["policy_good"] is not None else "-"
        scores = " ".join(
            f"{m['wins']:>3}-{m['draws']}-{m['losses']} {m['score']:.2f}".rjust(18)
            for m in row["matches"].values())
        print(f"{it:>9} {pg:>11} {search:>22} {perfect:>14} {scores}", flush=True)
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"run": args.run, "simulations": args.simulations,
                       "positions": args.positions, "games": args.games,
                       "opponents": opponents, "rows": rows}, f, indent=1)
    return 0


if __name__ == "__main__":  # python -m scripts.bench.zero RUN [options]
    raise SystemExit(main())
