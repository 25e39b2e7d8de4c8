"""Generate a ``balanced:K`` opening suite for :mod:`scripts.arena.suites` with the
exact solver (how and why: that module's docstring).

    python -m scripts.tools.balanced_suites --generate K [--bound T] [--deadline S]
                                            [--budget SECONDS]
"""
import os
import sys
import time

from scripts.arena.suites import BOUND, DATA_DIR, STANDARD, distinct_openings, suite_path
from scripts.args import ArgumentParser


def generate(k, bound=BOUND, deadline_each=20.0, budget=600.0, log=sys.stderr):
    """Classify the ``k``-ply openings; returns (rows of (moves, lo, hi), counts dict).

    Phase 1 proves ``-bound <= score <= bound`` (or refutes it) for each opening with
    a deadline of ``deadline_each`` seconds per search; phase 2 narrows the kept ones
    towards their exact score by bisection until ``budget`` seconds have passed."""
    from agents.solver.solver import Solver, warm_up
    solver = Solver(*STANDARD)
    warm_up(solver)
    start, cpu0 = time.perf_counter(), time.process_time()
    openings = distinct_openings(k, *STANDARD)
    kept, counts = [], {"openings": len(openings), "balanced": 0, "unbalanced": 0,
                        "unresolved": 0}
    for i, m in enumerate(openings):
        p = solver.position(m)
        verdict = None
        for t, ok_if in ((bound + 1, False), (-bound, True)):
            r = solver.score_at_least(p, t, deadline=time.perf_counter() + deadline_each)
            if r is None:
                verdict = "unresolved"
                break
            if r != ok_if:
                verdict = "unbalanced"
                break
        verdict = verdict or "balanced"
        counts[verdict] += 1
        if verdict == "balanced":
            kept.append([m, -bound, bound])
        if (i + 1) % 50 == 0:
            print(f"{i + 1}/{len(openings)} {counts} {time.perf_counter() - start:.0f} s",
                  file=log, flush=True)
    counts["phase1_seconds"] = round(time.perf_counter() - start, 1)
    # phase 2: bisection on [lo, hi], one probe per opening per round, while time lasts
    progress = True
    while progress and time.perf_counter() - start < budget:
        progress = False
        for row in kept:
            m, lo, hi = row
            if lo == hi or time.perf_counter() - start >= budget:
                continue
            mid = (lo + hi + 1) // 2  # is score >= mid ?
            left = budget - (time.perf_counter() - start)
            r = solver.score_at_least(solver.position(m), mid,
                                      deadline=time.perf_counter() + min(deadline_each, left))
            if r is None:
                continue
            progress = True
            if r:
                row[1] = mid
            else:
                row[2] = mid - 1
    counts["exact"] = sum(lo == hi for _, lo, hi in kept)
    counts["seconds"] = round(time.perf_counter() - start, 1)
    counts["cpu"] = round(time.process_time() - cpu0, 1)
    return kept, counts


def write_suite(path, k, rows, counts, bound, command):
    """Write the kept ``rows`` with a header saying how they were made."""
    with open(path, "w", encoding="utf-8") as f:
        f.write(f"# balanced:{k} -- {k}-ply openings of 7x6 Connect Four (1-based columns) that\n"
                f"# the exact solver (connectx solve) proves close to balanced: |score| <= {bound}\n"
                f"# (side to move; with perfect play no four before the {22 - bound}th stone).\n"
                f"# Transpositions and mirror images folded (smallest move string kept).\n"
                f"# Line: moves lo hi -- the exact score lies in [lo, hi] (exact if lo == hi).\n"
                f"# Made by: {command}\n"
                f"# {counts['openings']} distinct openings: {counts['balanced']} balanced, "
                f"{counts['unbalanced']} not, {counts['unresolved']} unresolved in the "
                f"per-search deadline (left out); {counts['exact']} scores exact; "
                f"{counts['seconds']:.0f} s wall, {counts['cpu']:.0f} s CPU "
                f"(phase 1 {counts['phase1_seconds']:.0f} s)\n")
        for m, lo, hi in rows:
            f.write(f"{m} {lo} {hi}\n")


def main(argv=None):
    p = ArgumentParser(prog="python -m scripts.tools.balanced_suites",
                       description="Generate a balanced:K opening suite.")
    p.add_argument("--generate", type=int, required=True, metavar="K", help="plies")
    p.add_argument("--bound", type=int, default=BOUND, help=f"|score| bound (default {BOUND})")
    p.add_argument("--deadline", type=float, default=20.0, help="seconds per search (default 20)")
    p.add_argument("--budget", type=float, default=600.0, help="total seconds (default 600)")
    p.add_argument("--out", default=None, help="output file (default the shipped suite)")
    args = p.parse_args(argv)
    if not 0 <= args.generate <= 8 or args.bound < 0:
        p.error("K must be in 0..8 and --bound >= 0")
    rows, counts = generate(args.generate, args.bound, args.deadline, args.budget)
    command = ("python -m scripts.tools.balanced_suites --generate "
               f"{args.generate} --bound {args.bound} --deadline {args.deadline:g} "
               f"--budget {args.budget:g}")
    os.makedirs(DATA_DIR, exist_ok=True)
    path = args.out or suite_path(args.generate)
    write_suite(path, args.generate, rows, counts, args.bound, command)
    print(f"{path}: {counts}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
