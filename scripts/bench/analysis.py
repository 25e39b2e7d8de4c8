"""``connectx bench analysis``: every column of 7x6 opening positions, exactly, with
and without the opening database, in one run.

    connectx bench analysis [--positions 1000] [--baseline 12] [--seed 0] [--threads 1]
                            [--page 0]

1. the database: its load time (a first load converts BitBully's file and caches the
   result; later loads read the cache) and the memory it holds;
2. ``Solver.analyze`` (the score of every column) of ``--positions`` random positions of
   0-12 stones (random legal moves that never complete a four; the number of stones
   uniform), the transposition table emptied before each: total, mean, median and
   slowest time, with the database, and the same for the positions of 12 stones (the
   hardest: each column is a search of 13 stones, which the database does not hold)
   with how many took over 0.2 s; the positions of 0-5 stones through the package's
   opening scores (:mod:`agents.solver.openings`, no search); with ``--threads T`` (T > 1) the same positions with
   T threads splitting the columns, and the wall-time ratio to one thread;
3. the solver alone on ``--baseline`` of those positions (the ones with the most
   stones, which the plain solver finishes soonest), the same analysis with the
   database on the same positions: both times and their ratio; the scores must be
   equal;
4. with ``--page N``: the page's requests on the first N of those positions (the server's
   own ``/api/analyze``, :func:`scripts.server.analysis.analyze`, two threads, the table
   emptied before each), twice in the run: the best line whole in the answer (the
   baseline: the line time as long as the analysis's) and cut at the default line time
   (``connectx serve --line-time``): total, slowest and over 0.2 s, of 0-11 stones and of
   12, the ratios, and how many lines were cut;
5. the labelled positions of ``scripts/data/positions`` with at most 12 stones
   (``begin.txt``: the score, ``early.txt``: every column's) through the database:
   every score must equal its label.

Needs the ``databases`` extra (``pip install "connectx-search[databases]"``) for 1, 2, 4 and 5.
"""
import os
import random
import sys
import time

from agents.resources import data_path
from scripts.args import ArgumentParser, add_positions_arguments, count_arg, positive_int_arg, progress

POSITIONS = data_path("scripts", "data", "positions")


def random_positions(n, seed, most=12):
    """``n`` move strings (1-based) of 0..``most`` stones, none completing a four."""
    from agents.board.rules_reference import random_position
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        moves = random_position(6, 7, 4, rng.randrange(0, most + 1), rng, as_moves=True)
        if moves is not None:
            out.append("".join(str(c + 1) for c in moves))
    return out


def timed_analysis(solver, lines, quiet, label):
    """``(seconds of each line, scores of each line)``: ``analyze`` from an empty table."""
    times, scores = [], []
    for line in progress(lines, label, "pos", not quiet):
        solver.reset()
        t0 = time.perf_counter()
        scores.append(solver.analyze(line))
        times.append(time.perf_counter() - t0)
    return times, scores


def rss_mib():
    """The process's resident memory (Linux), or None."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
    except (OSError, ValueError, IndexError):
        return None


def summary(lines, times, title):
    """Print total, mean, median and slowest of ``times``, then the 12-stone positions'."""
    ordered = sorted(times)
    slowest = max(range(len(times)), key=times.__getitem__)
    print(f"\n{len(lines)} {title}:")
    print(f"  total {sum(times):.2f} s, mean {1000 * sum(times) / len(times):.2f} ms, median "
          f"{1000 * ordered[len(ordered) // 2]:.2f} ms, slowest {1000 * ordered[-1]:.1f} ms "
          f"({lines[slowest] or 'the empty board'})")
    twelve = sorted(t for t, line in zip(times, lines) if len(line) == 12)
    if twelve:
        k = len(twelve)
        print(f"  the {k} of 12 stones: median {1000 * twelve[k // 2]:.1f} ms, p90 "
              f"{1000 * twelve[min(k - 1, int(0.9 * k))]:.1f} ms, slowest {1000 * twelve[-1]:.1f} ms, "
              f"over 0.2 s: {sum(t > 0.2 for t in twelve)}")


def opening_scores(lines, with_db, db_times):
    """The positions the package's opening scores analyse (0-5 stones), through them
    (plain Python, no search) against the database's times: prints both; False if a
    score differs."""
    from agents.solver.position import Position
    from agents.solver.openings import Openings
    openings = Openings()
    picked = [i for i, line in enumerate(lines) if len(line) < openings.ply]
    if not picked:
        return True
    openings.analyze(Position())  # the files read before the clock
    t0 = time.perf_counter()
    got = [openings.analyze(Position.from_moves(lines[i])) for i in picked]
    took = time.perf_counter() - t0
    same = all(g == with_db[i] for g, i in zip(got, picked))
    print(f"  the {len(picked)} of 0-{openings.ply - 1} stones through the package's opening scores: "
          f"{1000 * took:.2f} ms in all (with the database {1000 * sum(db_times[i] for i in picked):.1f} ms); "
          f"scores equal: {'yes' if same else 'NO'}")
    return same


def page_requests(lines, quiet, line_time, label):
    """``(seconds of each request, lines cut)``: ``/api/analyze`` of each of ``lines`` by
    the server's code (an ``App`` with the database and two threads, its pooled solver's
    table emptied before each; ``line_time``: the App's)."""
    from agents.board.rules import parse_config
    from agents.solver.solver import warm_up
    from scripts.server.analysis import analyze
    from scripts.server.app import App
    app = App(searches=1, solver_threads=2, line_time=line_time)
    cfg = parse_config({})
    with app.solver(cfg) as solver:
        warm_up(solver)
    analyze(app, {"moves": "4"})
    times, cut = [], 0
    for line in progress(lines, label, "pos", not quiet):
        with app.solver(cfg) as solver:
            solver.reset()
        t0 = time.perf_counter()
        reply = analyze(app, {"moves": line})
        times.append(time.perf_counter() - t0)
        cut += reply["line"] is not None and not reply["line"]["complete"]
    return times, cut


def page_summary(lines):
    """Times the page's requests on ``lines`` with the whole line and with the line time
    (:func:`page_requests`) and prints both and their ratios."""
    from scripts.server.app import LINE_TIME, SERVE_ANALYSIS_TIME
    whole, _ = page_requests(lines, True, SERVE_ANALYSIS_TIME, "page, whole line")
    fast, cut = page_requests(lines, True, LINE_TIME, f"page, line cut at {LINE_TIME:g} s")

    def show(name, ts):
        parts = []
        for what, keep in (("0-11 stones", lambda n: n < 12), ("12 stones", lambda n: n == 12)):
            sel = [t for t, line in zip(ts, lines) if keep(len(line))]
            if sel:
                parts.append(f"{what}: {len(sel)}, slowest {1000 * max(sel):.1f} ms, "
                             f"over 0.2 s {sum(t > 0.2 for t in sel)}")
        print(f"  {name}: total {sum(ts):.2f} s; " + "; ".join(parts))
    print(f"\nthe page's requests (/api/analyze, two threads, table emptied) on {len(lines)} of them:")
    show("the whole line in the answer", whole)
    show(f"the line cut at {LINE_TIME:g} s", fast)
    print(f"  cut / whole: total {sum(fast) / max(sum(whole), 1e-9):.2f}, slowest "
          f"{max(fast) / max(max(whole), 1e-9):.2f}; lines cut {cut} (the page asks /api/line for the rest)")


def read_labelled(name, most=12):
    with open(os.path.join(POSITIONS, name)) as f:
        rows = [line.split() for line in f if line.strip()]
    return [r for r in rows if len(r[0]) <= most]


def main(argv=None, prog="python -m scripts.bench.analysis"):
    ap = ArgumentParser(prog=prog, description=__doc__.split("\n\n")[0])
    add_positions_arguments(ap, 1000, "random positions of 0-12 stones analysed with the database")
    ap.add_argument("--baseline", type=count_arg, default=12,
                    help="of those, how many the solver alone analyses too (default 12; 0: none)")
    ap.add_argument("--threads", type=positive_int_arg, default=1,
                    help="also analyse with this many threads splitting the columns (default 1: no)")
    ap.add_argument("--page", type=count_arg, default=0,
                    help="also time the page's requests on this many of the positions, the line "
                         "whole and cut at the line time (default 0: no)")
    args = ap.parse_args(argv)
    from agents.solver.database import DatabaseError, default_database, missing_note
    from agents.solver.solver import Solver, warm_up
    before = rss_mib()
    t0 = time.perf_counter()
    try:
        db = default_database()
    except DatabaseError as e:
        ap.error(str(e))
    load = time.perf_counter() - t0
    if db is None:
        ap.error("no opening database is installed; " + missing_note().removeprefix("note: "))
    after = rss_mib()
    grew = "" if before is None or after is None else f", process memory +{after - before:.0f} MiB"
    print(f"database: {db}")
    print(f"  loaded in {load:.3f} s; arrays {db.nbytes / 2**20:.1f} MiB{grew}")

    plain, fast = Solver(), Solver()
    warm_up(plain)
    fast.use_database(db)
    fast.analyze("4")  # the database path compiled before the clock
    lines = random_positions(args.positions, args.seed)
    times, with_db = timed_analysis(fast, lines, args.quiet, "with the database")
    summary(lines, times, "random positions of 0-12 stones, every column, with the database")
    if not opening_scores(lines, with_db, times):
        return 1
    if args.threads > 1:
        many = Solver(threads=args.threads)
        many.use_database(db)
        many.analyze("4")  # the helpers' threads started and the kernels compiled
        many_t, many_s = timed_analysis(many, lines, args.quiet, f"{args.threads} threads")
        summary(lines, many_t, f"the same with {args.threads} threads splitting the columns")
        same = many_s == with_db
        def twelve(ts):
            return max(sum(t for t, line in zip(ts, lines) if len(line) == 12), 1e-9)
        print(f"  wall time {args.threads} threads / 1 thread: {sum(many_t) / sum(times):.2f} "
              f"(12 stones: {twelve(many_t) / twelve(times):.2f}); scores equal: "
              f"{'yes' if same else 'NO'}")
        if not same:
            return 1

    if args.baseline:
        chosen = sorted(range(len(lines)), key=lambda i: -len(lines[i]))[:args.baseline]
        subset = [lines[i] for i in chosen]
        base_t, base_s = timed_analysis(plain, subset, args.quiet, "the solver alone")
        db_t = [times[i] for i in chosen]
        same = all(base_s[k] == with_db[i] for k, i in enumerate(chosen))
        stones = sorted({len(s) for s in subset})
        print(f"\nthe solver alone on {len(subset)} of them ({stones[0]}-{stones[-1]} stones):")
        print(f"  solver alone {sum(base_t):.2f} s, with the database {sum(db_t):.3f} s: "
              f"{sum(base_t) / max(sum(db_t), 1e-9):.0f}x; scores equal: {'yes' if same else 'NO'}")
        if not same:
            return 1

    if args.page:
        page_summary(lines[:args.page])

    bad = checked = 0
    for name in ("begin.txt", "early.txt"):
        for row in read_labelled(name):
            if name == "begin.txt":
                ok = fast.solve(row[0]) == int(row[1])
            else:
                ok = fast.analyze(row[0]) == [int(x) for x in row[1:]]
            checked += 1
            bad += not ok
    print(f"\nlabelled positions of at most 12 stones: {checked - bad}/{checked} equal to their labels")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
