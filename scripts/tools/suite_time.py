"""The test suite's time against another commit's, back to back on this machine.

    python -m scripts.tools.suite_time BASE [--checkout DIR] [--rounds N] [--workers W]

What "the suite is not longer" means on a shared, noisy machine (the same tree's runs
differ by 20-40 s here): one figure taken days ago cannot answer it, two suites run
back to back can. In each of ``--rounds`` rounds, in this order:

1. ``base``: BASE's whole suite, in a git worktree of BASE (removed at the end);
2. ``head``: the checkout's whole suite (``--checkout``, default the current folder);
3. ``head, base's tests``: this checkout's suite restricted to the tests whose function
   BASE also has (its test files' functions, any parametrisation): the same checks run
   by today's code, so the time the code's changes cost or saved, apart from the tests
   added since.

Each run is ``python -m pytest -q -n W`` (the README's command when W is ``auto``) with
the environment of this process; the numba cache of each tree is warmed by a run of its
own first unless ``--cold``. Prints one row a run and, at the end, each kind's mean and
its ratio to ``base``'s; ``--json FILE`` writes the runs. A run that fails is reported
and stops the measure (exit 1): a failing suite has no time to compare.

As a pytest plugin (``-p scripts.tools.suite_time``, what step 3 uses) it keeps only the
test ids listed in the file ``$SUITE_TIME_IDS``.
"""
import json
import os
import re
import subprocess
import sys
import tempfile
import time

from scripts.args import ArgumentParser, positive_int_arg

IDS_ENV = "SUITE_TIME_IDS"
KINDS = ("base", "head", "head, base's tests")
_SUMMARY = re.compile(r"(\d+) passed.* in ([0-9.]+)s")


def function_of(test_id):
    """The test function of a pytest id: ``file::name`` without its parametrisation."""
    return test_id.split("[", 1)[0]


def base_tests(base_ids, head_ids):
    """The ids of ``head_ids`` whose test function is one of ``base_ids``'s, in order."""
    functions = {function_of(i) for i in base_ids}
    return [i for i in head_ids if function_of(i) in functions]


def summary(output):
    """``(tests passed, seconds)`` from pytest's last summary line in ``output``, or None
    when the run did not pass (a failure, an error, no summary)."""
    lines = [line for line in output.strip().splitlines() if line.strip()]
    if not lines:
        return None
    last = lines[-1]
    m = _SUMMARY.search(last)
    if m is None or re.search(r"\d+ (failed|error)", last):
        return None
    return int(m.group(1)), float(m.group(2))


def report(runs):
    """Lines: each kind's runs, mean and ratio to ``base``'s mean (``runs``: dicts with
    ``kind``, ``tests`` and ``seconds``)."""
    means, lines = {}, []
    for kind in KINDS:
        times = [r["seconds"] for r in runs if r["kind"] == kind]
        if not times:
            continue
        means[kind] = sum(times) / len(times)
        tests = {r["tests"] for r in runs if r["kind"] == kind}
        ratio = f", {means[kind] / means['base']:.2f}x base" if "base" in means else ""
        lines.append(f"{kind}: {len(times)} run(s), {'/'.join(map(str, sorted(tests)))} tests, "
                     f"{' '.join(f'{t:.1f}' for t in times)} s, mean {means[kind]:.1f} s{ratio}")
    return lines


def _collect(tree):
    out = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p",
                          "no:xdist", "-o", "addopts="], cwd=tree, capture_output=True,
                         text=True)
    ids = [line for line in out.stdout.splitlines() if "::" in line]
    if out.returncode != 0 or not ids:
        raise RuntimeError(f"collecting the tests of {tree} failed: {out.stderr[-500:]}")
    return ids


def _run(tree, workers, ids_file=None, plugin=None):
    env = dict(os.environ)
    command = [sys.executable, "-m", "pytest", "-q", "-n", workers]
    if ids_file:
        env[IDS_ENV] = ids_file
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [plugin, env.get("PYTHONPATH")]))
        command += ["-p", "scripts.tools.suite_time"]
    t0 = time.perf_counter()
    out = subprocess.run(command, cwd=tree, capture_output=True, text=True, env=env)
    return summary(out.stdout), time.perf_counter() - t0, out.stdout[-2000:]


def measure(base, rounds=2, workers="auto", cold=False, log=print, head="."):
    """The runs (module docstring) of BASE against the checkout ``head``: a list of dicts
    (``kind``, ``round``, ``tests``, ``seconds``, ``wall``)."""
    head = os.path.abspath(head)
    runs = []
    with tempfile.TemporaryDirectory() as tmp:
        tree = os.path.join(tmp, "base")
        subprocess.run(["git", "worktree", "add", "--detach", tree, base], cwd=head,
                       check=True, capture_output=True)
        try:
            ids_file = os.path.join(tmp, "ids.txt")
            with open(ids_file, "w") as f:
                f.write("\n".join(base_tests(_collect(tree), _collect(head))) + "\n")
            plan = [("base", tree, None), ("head", head, None),
                    ("head, base's tests", head, ids_file)]
            if not cold:
                for kind, where, _ in plan[:2]:
                    log(f"warming {kind}'s numba cache ...")
                    _run(where, workers)
            for r in range(rounds):
                for kind, where, ids in plan:
                    result, wall, tail = _run(where, workers, ids, head)
                    if result is None:
                        raise RuntimeError(f"{kind}'s suite did not pass:\n{tail}")
                    runs.append({"kind": kind, "round": r + 1, "tests": result[0],
                                 "seconds": result[1], "wall": round(wall, 1),
                                 "load": os.getloadavg()[0]})
                    log(f"round {r + 1}, {kind}: {result[0]} tests in {result[1]:.1f} s "
                        f"(load {runs[-1]['load']:.1f})")
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", tree], cwd=head,
                           capture_output=True)
    return runs


def main(argv=None):
    p = ArgumentParser(prog="python -m scripts.tools.suite_time",
                       description="Time the test suite against another commit's, back to "
                                   "back.")
    p.add_argument("base", help="the commit to compare with (any git revision)")
    p.add_argument("--checkout", default=".",
                   help="the git checkout whose suite is measured (default: the current folder)")
    p.add_argument("--rounds", type=positive_int_arg, default=2,
                   help="rounds of the three runs (default 2)")
    p.add_argument("--workers", default="auto", help="pytest-xdist's -n (default auto)")
    p.add_argument("--cold", action="store_true",
                   help="no warm-up run (each tree's first run compiles its kernels)")
    p.add_argument("--json", default=None, metavar="FILE", help="write the runs as JSON")
    args = p.parse_args(argv)
    rev = subprocess.run(["git", "rev-parse", "--verify", "--quiet", args.base + "^{commit}"],
                         cwd=args.checkout, capture_output=True, text=True)
    if rev.returncode != 0:
        p.error(f"unknown commit {args.base!r}")
    try:
        runs = measure(args.base, args.rounds, args.workers, args.cold, head=args.checkout)
    except RuntimeError as e:
        print(e, file=sys.stderr)
        return 1
    for line in report(runs):
        print(line)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"base": args.base, "runs": runs}, f, indent=1)
    return 0


def pytest_collection_modifyitems(session, config, items):
    """The plugin: keep only the ids listed in ``$SUITE_TIME_IDS`` (one a line)."""
    path = os.environ.get(IDS_ENV)
    if not path:
        return
    with open(path) as f:
        keep = set(f.read().splitlines())
    dropped = [i for i in items if i.nodeid not in keep]
    items[:] = [i for i in items if i.nodeid in keep]
    config.hook.pytest_deselected(items=dropped)


if __name__ == "__main__":
    sys.exit(main())
