"""Time the perfect solver on the full labelled files; optionally C++ references too.

    python -m scripts.bench.solver [--files end mid begin] [--reference PATH/c4solver]
                                   [--c4 PATH/c4_positions] [--process]
                                   [--lines MOVES ... [--rounds N]]

For each file: positions, wrong scores (must be 0), nodes, wall and CPU seconds,
nodes per second. With ``--reference`` (Pascal Pons' connect4 solver, built by
``build_reference_solver.sh``; no opening book in its directory) and ``--c4``
(Christophe Steininger's c4 with the position driver of ``scripts/tools``, built by
``scripts/tools/build_c4.sh``: one thread, a 128 MiB table) each reference solves the
same lines in the same run, right after ours, and the ratios ours/reference are printed
(CPU time is the fairer figure on a shared machine). All keep their transposition table
from one line to the next, as the references' mains do. Numba compilation is done
before the clock starts.

``--lines`` times single positions instead (move strings; ``""`` is the empty board),
each from an empty table: for each of ``--rounds`` rounds, each line by ours and right
after by each reference (a process of its own, its CPU time), then the median of the
rounds' ratios ours/reference for each line: side by side, so that a machine shared with
other jobs slows both alike.

``--process`` times whole processes instead, start-up included: ``python -m
scripts.commands.solve`` on all the chosen files' lines at once (after one untimed run that
fills numba's kernel cache, as any earlier use of the installed package would), against
each reference binary on the same input.
"""
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time


from agents.resources import data_path  # noqa: E402
from agents.solver.solver import DEFAULT_TT_BITS, Solver, warm_up
from scripts.args import ArgumentParser  # noqa: E402

POSITIONS = data_path("scripts", "data", "positions")


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
    """:func:`run_process` for a reference binary, in an empty directory (no opening
    book there: it solves from scratch)."""
    with tempfile.TemporaryDirectory() as tmp:
        return run_process([os.path.abspath(binary)], lines, cwd=tmp)


def run_process(cmd, lines, cwd=None):
    """Wall and CPU seconds of one process solving ``lines`` (moves on stdin), and the
    number of wrong scores in its "moves score ..." output."""
    data = "".join(m + "\n" for m, _ in lines)
    w0, c0 = time.perf_counter(), cpu_children()
    out = subprocess.run(cmd, input=data, capture_output=True, text=True, cwd=cwd,
                         check=True).stdout
    wall, cpu = time.perf_counter() - w0, cpu_children() - c0
    got = [line.split() for line in out.splitlines() if line.strip()]
    # the empty board's line is its score alone
    wrong = sum(1 for (m, s), g in zip(lines, got) if g[:2] != ([m, s] if m else [s]))
    wrong += abs(len(got) - len(lines))
    return wrong, wall, cpu


def references(args, parser):
    """[(label, binary)] of the reference solvers given on the command line."""
    out = [(label, path) for label, path in (("pons", args.reference), ("c4", args.c4)) if path]
    for label, path in out:
        if not (os.path.isfile(path) and os.access(path, os.X_OK)):
            parser.error(f"the {label} binary {path!r} is not an executable file")
    return out


def process_mode(args, refs):
    lines = [line for name in args.files for line in read(name)]
    ours = [sys.executable, "-m", "scripts.commands.solve", "--tt-bits", str(args.tt_bits)]
    run_process(ours, lines[:1])  # fills the kernel cache if it is empty
    print(f"whole processes, start-up included, on {len(lines)} lines of "
          f"{'+'.join(args.files)} (one process each)")
    print(f"{'program':8} {'wrong':>5} {'wall s':>8} {'cpu s':>8} {'ours/it wall':>12} "
          f"{'ours/it cpu':>11}")
    wrong, wall, cpu = run_process(ours, lines)
    print(f"{'ours':8} {wrong:5d} {wall:8.2f} {cpu:8.2f}", flush=True)
    for label, binary in refs:
        rw, rwall, rcpu = run_reference(binary, lines)
        print(f"{label:8} {rw:5d} {rwall:8.2f} {rcpu:8.2f} {wall / rwall:12.2f} "
              f"{cpu / max(rcpu, 1e-9):11.2f}", flush=True)


def lines_mode(args, refs, parser):
    """``--lines``: each line from an empty table, ours then each reference, round after
    round; the median ratio of each line."""
    solver = Solver(tt_bits=args.tt_bits, symmetric=bool(args.symmetric))
    for moves in args.lines:
        try:
            solver.position(moves)
        except ValueError as e:
            parser.error(f"--lines {moves!r}: {e}")
    warm_up(solver)
    print(f"{'round':5} {'line':10} {'program':8} {'score':>5} {'nodes':>12} {'cpu s':>8} "
          f"{'ours/it cpu':>11}", flush=True)
    ratios = {(moves, label): [] for moves in args.lines for label, _ in refs}
    for rnd in range(1, args.rounds + 1):
        for moves in args.lines:
            name = moves or "(empty)"
            solver.reset()
            c0 = cpu_self()
            score = solver.solve(moves)
            cpu = cpu_self() - c0
            print(f"{rnd:5d} {name:10} {'ours':8} {score:5d} {solver.nodes:12d} {cpu:8.2f}",
                  flush=True)
            for label, binary in refs:
                rw, _, rcpu = run_reference(binary, [(moves, str(score))])
                ratio = cpu / max(rcpu, 1e-9)
                ratios[(moves, label)].append(ratio)
                agree = "" if rw == 0 else "  DISAGREES with ours"
                print(f"{rnd:5d} {name:10} {label:8} {'':5} {'':12} {rcpu:8.2f} {ratio:11.3f}{agree}",
                      flush=True)
    for (moves, label), rs in ratios.items():
        print(f"{moves or '(empty)':10} ours/{label} cpu: median {statistics.median(rs):.3f} of "
              f"{len(rs)} ({', '.join(f'{r:.3f}' for r in rs)})")
    return 0


def main(argv=None, prog="python -m scripts.bench.solver"):
    ap = ArgumentParser(prog=prog, description=__doc__.split("\n\n")[0])
    ap.add_argument("--files", nargs="+", default=["end", "mid", "begin"],
                    choices=("end", "mid", "begin"),
                    help="labelled files of scripts/data/positions to solve (default: all three)")
    ap.add_argument("--reference", metavar="PATH",
                    help="Pascal Pons' c4solver binary, timed on the same lines")
    ap.add_argument("--c4", metavar="PATH",
                    help="Steininger's c4 with the position driver (scripts/tools/build_c4.sh), "
                         "timed on the same lines")
    ap.add_argument("--process", action="store_true",
                    help="time whole processes, start-up included, on all the files at once")
    ap.add_argument("--tt-bits", type=int, default=DEFAULT_TT_BITS,
                    help=f"transposition table of about 2**TT_BITS slots (default {DEFAULT_TT_BITS})")
    ap.add_argument("--symmetric", type=int, default=1, help="1: mirror images share TT slots")
    ap.add_argument("--threads", type=int, default=1,
                    help="also time ours with this many threads sharing the table (each on its "
                         "own probe) on the same lines, right after one thread, and print the "
                         "wall ratio")
    ap.add_argument("--lines", nargs="+", metavar="MOVES",
                    help='positions to time one by one, each from an empty table ("": the '
                         'empty board), instead of the files')
    ap.add_argument("--rounds", type=int, default=1,
                    help="with --lines: times each line is solved by each program, "
                         "interleaved (default 1); the median ratio is printed")
    args = ap.parse_args(argv)
    refs = references(args, ap)
    if args.lines is not None:
        if not 1 <= args.rounds <= 100:
            ap.error("--rounds must be in 1..100")
        return lines_mode(args, refs, ap)
    if args.process:
        process_mode(args, refs)
        return 0
    if not 1 <= args.threads <= 64:
        ap.error("--threads must be in 1..64")
    solver = Solver(tt_bits=args.tt_bits, symmetric=bool(args.symmetric))
    warm_up(solver)
    threaded = None
    if args.threads > 1:
        threaded = Solver(tt_bits=args.tt_bits, symmetric=bool(args.symmetric), threads=args.threads)
        warm_up(threaded)
    print(f"{'file':6} {'program':8} {'lines':>5} {'wrong':>5} {'nodes':>12} {'wall s':>8} "
          f"{'cpu s':>8} {'Mnodes/s':>8} {'ours/it wall':>12} {'ours/it cpu':>11}", flush=True)
    for name in args.files:
        lines = read(name)
        solver.reset()
        wrong, nodes, wall, cpu = run_ours(solver, lines)
        print(f"{name:6} {'ours':8} {len(lines):5d} {wrong:5d} {nodes:12d} {wall:8.2f} "
              f"{cpu:8.2f} {nodes / max(cpu, 1e-9) / 1e6:8.2f}", flush=True)
        if threaded is not None:
            threaded.reset()
            tw, tn, twall, tcpu = run_ours(threaded, lines)
            label = f"ours x{args.threads}"
            print(f"{name:6} {label:8} {len(lines):5d} {tw:5d} {tn:12d} {twall:8.2f} {tcpu:8.2f} "
                  f"{tn / max(tcpu, 1e-9) / 1e6:8.2f}   threads/one wall {twall / max(wall, 1e-9):.3f}",
                  flush=True)
        for label, binary in refs:
            rw, rwall, rcpu = run_reference(binary, lines)
            print(f"{name:6} {label:8} {len(lines):5d} {rw:5d} {'':12} {rwall:8.2f} {rcpu:8.2f} "
                  f"{'':8} {wall / rwall:12.2f} {cpu / max(rcpu, 1e-9):11.2f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
