"""Benchmark: wall time of one match with ``--workers 1`` and with ``--workers K``.

    python -m scripts.bench.match [--games 200] [--workers 2] [A B]

Each run is a fresh ``python -m scripts.commands.match`` process, timed from start to exit,
as a user would see it: interpreter start, numba compilation (once per worker
process) and the games. The two runs must give the same games (same seed); the
script prints both times, the ratio and the target (at most 0.6 for 2 workers),
plus the CPU time and the machine's load average: on a busy machine the wall
times say more about the other work than about the workers.
Exit status 1 if the games differ.
"""
import json
import os
import resource
import subprocess
import sys
import tempfile
import time

from scripts.args import ArgumentParser, SPEC_HELP, add_config_argument, positive_int_arg
from scripts.arena.specs import parse_match_config, parse_spec

# fast agents (about 40 ms and 1 ms a move), but enough play per game that 200
# games outweigh the few seconds of numba compilation each process pays
DEFAULT_A, DEFAULT_B = "alphabeta:depth=9", "minimax:depth=4"
TARGET = 0.6


def timed_match(a, b, games, workers, seed, path, config=None):
    cmd = [sys.executable, "-m", "scripts.commands.match", a, b, "--games", str(games), "--seed", str(seed),
           "--workers", str(workers), "--out", path, "--quiet",
           "--openings", "none"]  # empty-board games, comparable with earlier figures
    if config:
        cmd += ["--config", config]
    start = time.perf_counter()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run(cmd, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    if proc.returncode != 0:
        raise SystemExit(f"bench_match: {' '.join(cmd[2:])} failed: {proc.stderr.strip()}")
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    wdl = next(line for line in proc.stdout.splitlines() if line.startswith("W-D-L"))
    return elapsed, cpu, data["games"], wdl


def outcome(games):
    """The games without their timings (which always differ)."""
    return [(g["agents"], g["moves"], g["winner"], g["statuses"]) for g in games]


def main(argv=None, prog="python -m scripts.bench.match"):
    p = ArgumentParser(prog=prog, description=__doc__.split("\n")[0])
    p.add_argument("a", nargs="?", default=DEFAULT_A, metavar="A",
                   help=f"first agent (default {DEFAULT_A}); " + SPEC_HELP)
    p.add_argument("b", nargs="?", default=DEFAULT_B, metavar="B",
                   help=f"second agent (default {DEFAULT_B})")
    p.add_argument("--games", type=positive_int_arg, default=200, help="games (default 200)")
    p.add_argument("--workers", type=positive_int_arg, default=2,
                   help="processes of the parallel run (default 2)")
    p.add_argument("--seed", type=int, default=0, help="match seed (default 0)")
    add_config_argument(p)
    args = p.parse_args(argv)
    try:  # bad input fails here, in one line, not in the timed processes
        parse_spec(args.a), parse_spec(args.b), parse_match_config(args.config)
    except ValueError as e:
        p.error(str(e))
    print(f"{args.a} vs {args.b}, {args.games} games, seed {args.seed}; "
          f"{os.cpu_count()} cores, load average before: "
          f"{' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    with tempfile.TemporaryDirectory() as tmp:
        t1, c1, g1, wdl1 = timed_match(args.a, args.b, args.games, 1, args.seed,
                                       os.path.join(tmp, "w1.json"), args.config)
        print(f"--workers 1: {t1:6.1f} s wall, {c1:6.1f} s CPU   {wdl1}")
        tk, ck, gk, wdlk = timed_match(args.a, args.b, args.games, args.workers, args.seed,
                                       os.path.join(tmp, "wk.json"), args.config)
        print(f"--workers {args.workers}: {tk:6.1f} s wall, {ck:6.1f} s CPU   {wdlk}")
    same = outcome(g1) == outcome(gk)
    ratio = tk / t1
    target = f" (target <= {TARGET})" if args.workers == 2 else ""
    print(f"ratio workers {args.workers} / workers 1: {ratio:.2f}{target}")
    # CPU model of an idle machine: what is not game CPU (start, imports, compiling)
    # runs once, the games' CPU is shared by the workers
    games1, gamesk = sum(g["cpu"] for g in g1), sum(g["cpu"] for g in gk)
    idle1 = c1  # one process: everything is on the critical path
    idlek = (ck - gamesk) + gamesk / args.workers
    print(f"CPU model of an idle machine: workers 1 {idle1:.1f} s (games {games1:.1f} s), "
          f"workers {args.workers} {idlek:.1f} s (games {gamesk:.1f} s / {args.workers}): "
          f"ratio {idlek / idle1:.2f} (an estimate from CPU times, not a measurement)")
    print(f"identical games: {'yes' if same else 'NO'}; load average after: "
          f"{' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    if os.getloadavg()[1] > 0.5 * (os.cpu_count() or 1):
        print("note: the machine was busy. Linux shares the CPU fairly between sessions "
              "(autogroup), not processes, so extra workers cannot raise this session's "
              "share of a saturated machine; the CPU column shows the work done. "
              "Re-run on an idle machine for the speed-up.")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
