"""Time the perfect solver on the full labelled files; optionally the C++ reference too.

    python -m scripts.bench_solver [--files end mid begin] [--reference PATH/c4solver]

For each file: positions, wrong scores (must be 0), nodes, wall and CPU seconds,
nodes per second. With ``--reference`` the reference binary (Pascal Pons'
connect4 solver, built separately; no opening book in its directory) solves
the same lines in the same run, right after ours, and the ratios ours/reference
are printed (CPU time is the fairer figure on a shared machine). Both keep their
transposition table from one line to the next, as the reference's main does.
Numba compilation is done before the clock starts.
"""
import os
import resource
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from agents.search.solver import DEFAULT_TT_BITS, Solver, warm_up
from scripts.args import ArgumentParser  # noqa: E402

POSITIONS = os.path.join(ROOT, "tests", "data", "positions")


def read(name):
    with open(os.path.join(POSITIONS, name + ".txt")) as f:
        return [line.split() for line in f if line.strip()]


def cpu_self():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def cpu_children():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run_ours(solver, lines):
    wrong = nodes = 0
    w0, c0 = time.perf_counter(), cpu_self()
    for moves, score in lines:
        r = solver.solve(moves)
        nodes += solver.nodes
        wrong += r != int(score)
    return wrong, nodes, time.perf_counter() - w0, cpu_self() - c0


def run_reference(binary, lines):
    with tempfile.TemporaryDirectory() as tmp:  # no 7x6.book there: solve from scratch
        data = "".join(m + "\n" for m, _ in lines)
        w0, c0 = time.perf_counter(), cpu_children()
        out = subprocess.run([os.path.abspath(binary)], input=data, capture_output=True,
                             text=True, cwd=tmp, check=True).stdout
        wall, cpu = time.perf_counter() - w0, cpu_children() - c0
    got = [line.split() for line in out.splitlines() if line.strip()]
    wrong = sum(1 for (m, s), g in zip(lines, got) if g[:2] != [m, s]) + abs(len(got) - len(lines))
    return wrong, wall, cpu


def main(argv=None, prog="python -m scripts.bench_solver"):
    ap = ArgumentParser(prog=prog, description=__doc__.split("\n\n")[0])
    ap.add_argument("--files", nargs="+", default=["end", "mid", "begin"],
                    choices=("end", "mid", "begin"),
                    help="labelled files of tests/data/positions to solve (default: all three)")
    ap.add_argument("--reference", metavar="PATH",
                    help="path of the reference c4solver binary, timed on the same lines")
    ap.add_argument("--tt-bits", type=int, default=DEFAULT_TT_BITS,
                    help=f"transposition table of about 2**TT_BITS slots (default {DEFAULT_TT_BITS})")
    ap.add_argument("--symmetric", type=int, default=1, help="1: mirror images share TT slots")
    args = ap.parse_args(argv)
    solver = Solver(tt_bits=args.tt_bits, symmetric=bool(args.symmetric))
    warm_up(solver)
    head = f"{'file':6} {'lines':>5} {'wrong':>5} {'nodes':>12} {'wall s':>8} {'cpu s':>8} " \
           f"{'Mnodes/s':>8}"
    if args.reference:
        head += f" {'ref wrong':>9} {'ref wall':>8} {'ref cpu':>8} {'ratio wall':>10} " \
                f"{'ratio cpu':>9}"
    print(head, flush=True)
    for name in args.files:
        lines = read(name)
        solver.reset()
        wrong, nodes, wall, cpu = run_ours(solver, lines)
        row = f"{name:6} {len(lines):5d} {wrong:5d} {nodes:12d} {wall:8.2f} {cpu:8.2f} " \
              f"{nodes / max(cpu, 1e-9) / 1e6:8.2f}"
        if args.reference:
            rw, rwall, rcpu = run_reference(args.reference, lines)
            row += f" {rw:9d} {rwall:8.2f} {rcpu:8.2f} {wall / rwall:10.2f} " \
                   f"{cpu / max(rcpu, 1e-9):9.2f}"
        print(row, flush=True)


if __name__ == "__main__":
    main()
