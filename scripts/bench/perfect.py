"""Does the ``perfect`` agent keep the game's value? Play it on labelled positions.

    connectx bench perfect [--file scripts/data/positions/early.txt]
                                    [--overage 60] [--act 2] [--limit N] [--json PATH]

Each line of the file is ``moves s1 ... sW`` (1-based move string, then the exact
score of playing each column, :data:`agents.solver.labels.FULL` for a full one; see
``scripts/data/positions/README.md``; read by :func:`agents.solver.labels.read_lines`).
For each position the agent is called once, as on Kaggle, with ``actTimeout`` =
``--act`` and a fresh ``remainingOverageTime`` = ``--overage`` (0: the plain budget
only), its transposition table emptied first (no help from the previous line). The
move *keeps the value* when the chosen column's score has the sign of the best
column's (win stays win, draw stays draw, loss stays loss): a *good* move of
:func:`agents.solver.labels.verdict`.

Printed: positions, value kept, worst and mean move time, overage spent (Kaggle
charges a move's excess over ``actTimeout``: total and worst), and where the moves
came from (book, solver, settled by the weak search, trap, alphabeta fallback).
Kernels compile before the clock starts. Exit status 1 if any move lost the value.
"""
import json
import os
import sys
import time


from agents.resources import data_path  # noqa: E402
from agents.solver.labels import FULL, best_score, outcome, read_lines, verdict  # noqa: E402
from scripts.arena.specs import observation  # noqa: E402
from scripts.args import ArgumentParser, ProgressCallback, add_quiet_argument  # noqa: E402

DEFAULT_FILE = str(data_path("scripts", "data", "positions", "early.txt"))


def board_of(moves, rows=6, columns=7):
    """(flat Kaggle board, solver Position) after a 1-based move string (checked)."""
    from agents.board.rules_reference import board_from_moves
    from agents.solver.position import Position
    p = Position.from_moves(moves, rows, columns)  # validates the line
    return board_from_moves(moves, rows, columns), p


def run(lines, overage=60.0, act=2.0, progress=None):
    """Play each line once; a list of per-position records (dicts)."""
    import agents
    player = agents.make("perfect")  # warmup="now": compiled before the clock
    config = {"rows": 6, "columns": 7, "inarow": 4, "actTimeout": act}
    records = []
    for moves, scores in lines:
        board, p = board_of(moves)
        for s in player._solvers.values():
            s.reset()
        player.reset_opponent_model()
        obs = observation(board, remaining_overage=overage)
        t0 = time.perf_counter()
        col = player(obs, config)
        seconds = time.perf_counter() - t0
        last = dict(player.last)
        _, good, _ = verdict(scores, col)
        best, mine = best_score(scores), scores[col]
        records.append({
            "moves": moves, "stones": len(moves), "column": col + 1,
            "value": outcome(best), "played": outcome(mine) if mine != FULL else None, "kept": good,
            "seconds": round(seconds, 3), "overage": round(max(0.0, seconds - act), 3),
            "source": "settled" if last.get("weak") else last.get("source")})
        if progress is not None:
            progress(records[-1])
    return records


def summary(records):
    n = len(records)
    kept = sum(r["kept"] for r in records)
    times = [r["seconds"] for r in records]
    sources = {}
    for r in records:
        sources[r["source"]] = sources.get(r["source"], 0) + 1
    worst = max(records, key=lambda r: r["seconds"])
    return {"positions": n, "kept": kept, "lost": [r["moves"] for r in records if not r["kept"]],
            "worst_seconds": worst["seconds"], "worst_position": worst["moves"],
            "mean_seconds": round(sum(times) / n, 3),
            "overage_total": round(sum(r["overage"] for r in records), 2),
            "overage_worst": max(r["overage"] for r in records), "sources": sources}


def main(argv=None, prog="python -m scripts.bench.perfect"):
    ap = ArgumentParser(prog=prog,
                                 description="Play the perfect agent once on each labelled "
                                             "position and check it keeps the value.")
    ap.add_argument("--file", default=DEFAULT_FILE,
                    help="positions in 'moves s1 ... s7' form (default: scripts/data/positions/"
                         "early.txt, 6-12 stones)")
    ap.add_argument("--overage", type=float, default=60.0,
                    help="remainingOverageTime given at each position (default 60; 0: the "
                         "plain budget only)")
    ap.add_argument("--act", type=float, default=2.0, help="actTimeout in seconds (default 2)")
    ap.add_argument("--limit", type=int, default=None, help="only the first N positions")
    ap.add_argument("--json", metavar="PATH", default=None, help="write every record as JSON")
    add_quiet_argument(ap)
    args = ap.parse_args(argv)
    try:
        lines = read_lines(args.file)[:args.limit]
    except (OSError, ValueError) as e:
        ap.error(str(e))
    if not lines:
        ap.error(f"no positions in {args.file}")
    bar = ProgressCallback("", "pos", not args.quiet, total=len(lines))

    def progress(r):
        bar.update(1)
        if not r["kept"]:
            bar.write(f"value lost: {r['moves']} column {r['column']} ({r['seconds']} s)")
    t0 = time.perf_counter()
    records = run(lines, args.overage, args.act, progress)
    bar.close()
    s = summary(records)
    print(f"{os.path.basename(args.file)}: {s['kept']}/{s['positions']} moves kept the value; "
          f"move time worst {s['worst_seconds']:.2f} s ({s['worst_position']}), mean "
          f"{s['mean_seconds']:.3f} s; overage spent {s['overage_total']:.1f} s in all, worst "
          f"{s['overage_worst']:.2f} s (actTimeout {args.act:g}, fresh overage {args.overage:g} s "
          f"each); sources {s['sources']}; {time.perf_counter() - t0:.0f} s")
    if s["lost"]:
        print("value lost at: " + " ".join(s["lost"]))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"summary": s, "records": records}, f, indent=1)
    return 1 if s["lost"] else 0


if __name__ == "__main__":
    sys.exit(main())
