"""Check a submission file the way Kaggle runs it.

    connectx validate main.py [--games self,random,negamax,alphabeta,mcts]
                              [--must-beat negamax] [--must-win-first alphabeta,mcts]

Runs, each in a fresh process (``python -I``: the project is not importable, so
the file can only use what it embeds) on a copy of the file in an empty
directory, loaded by path with kaggle-environments' own loader:

* ``self``: the episode Kaggle plays on upload, the file against itself; both
  must end DONE;
* ``random``, ``negamax``: full games against kaggle's builtin agents (in the
  file's process, as kaggle-environments runs them locally), with the file first
  and then second;
* ``alphabeta``, ``mcts``: the package's own agents at their defaults, each in a
  process of its own (:mod:`submission.opponent`, compiled before the game), so
  the file's embedded modules never meet the package's and the file's process is
  idle while the opponent thinks, as on Kaggle.

For every game it prints the statuses, the result, the file's remaining overage
and what the file measured (first move, numba compilation in moves, the
background compile of agents that have one, slowest later move).
Each game also shows the overage that would be left had every move taken only
its CPU time: on a machine busy with other work, wall time overstates what the
file costs on Kaggle (``--cpu-overage`` judges by that figure instead).

A game fails when a status is not DONE, the file fell back to its emergency
move (an error inside the agent) or its background compile failed, the last
callable is not ``agent``, less than ``--min-overage`` seconds of overage are
left, the file did not win against an opponent named in ``--must-beat``, or did
not win as first player against one named in ``--must-win-first``. Exit status 1
if any game failed.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

from submission.build import check_last_callable

WORKER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "worker.py")
MARKER = "EPISODE-REPORT "
GAMES = ("self", "random", "negamax", "alphabeta", "mcts")
# opponents that are the package's own agents (at their defaults), each played by
# submission.opponent in a process of its own
PACKAGE_OPPONENTS = ("alphabeta", "mcts")
MIN_OVERAGE = 55.0
TIMEOUT = 1800  # seconds for one episode process: far above any legal game


def episodes(games):
    """(opponent, seat of the file) for each episode: self-play once, others both seats."""
    out = []
    for game in games:
        if game not in GAMES:
            raise ValueError(f"unknown game {game!r}; valid: {', '.join(GAMES)}")
        out.extend([("self", 0)] if game == "self" else [(game, 0), (game, 1)])
    return out


def run_episode(path, opponent, seat, seed=0, no_numba=False, configuration=None):
    """Play one episode in a fresh process; the worker's report (a dict). ``opponent``:
    one of ``GAMES``, or a package opponent with options (``alphabeta:depth=9``, the
    form of :mod:`submission.opponent`)."""
    with tempfile.TemporaryDirectory(prefix="connectx-validate-") as tmp:
        copy = os.path.join(tmp, "main.py")
        shutil.copyfile(path, copy)
        spec = {"path": copy, "opponent": opponent, "seat": seat, "seed": seed,
                "no_numba": no_numba, "configuration": configuration or {}}
        if opponent.partition(":")[0] in PACKAGE_OPPONENTS:  # e.g. "alphabeta:depth=9"
            spec["opponent_cmd"] = [sys.executable, "-m", "submission.opponent", opponent]
            # the opponent imports the package as this process does (the worker runs
            # with -I, which keeps the package off its own path)
            spec["opponent_path"] = os.pathsep.join(p for p in sys.path if p)
        proc = subprocess.run([sys.executable, "-I", WORKER, json.dumps(spec)], cwd=tmp,
                              capture_output=True, text=True, timeout=TIMEOUT)
    lines = [l for l in proc.stdout.splitlines() if l.startswith(MARKER)]
    if proc.returncode != 0 or not lines:
        raise RuntimeError(f"episode process failed (exit {proc.returncode}):\n"
                           f"{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}")
    return json.loads(lines[-1][len(MARKER):])


def judge(report, min_overage=MIN_OVERAGE, must_beat=(), expect_numba=None, by_cpu=False,
          must_win_first=()):
    """The reasons this episode fails (empty: it passed). ``by_cpu``: judge the
    overage counting each move's CPU time instead of its wall time."""
    problems = []
    if any(s != "DONE" for s in report["statuses"]):
        problems.append(f"statuses {report['statuses']}, expected DONE for both")
    for i, (seat, copy) in enumerate(zip(report["seats"], report["copies"])):
        state = copy["state"]
        if copy["callable"] != "agent" or state is None:
            problems.append(f"last callable is {copy['callable']!r}, not the file's agent")
            continue
        if state["broken"] or state["fallbacks"]:
            problems.append(f"agent failed {state['fallbacks']} time(s): "
                            f"{state['broken'] or state['last_error']}")
        if (state.get("warmup") or {}).get("errors"):
            problems.append(f"background compile failed: {state['warmup']['errors']}")
        if state.get("numba_error"):
            problems.append(f"numba failed, the file fell back to plain Python: "
                            f"{state['numba_error']}")
        if expect_numba is not None and state["numba"] is not expect_numba:
            problems.append(f"numba in use: {state['numba']}, expected {expect_numba}")
        left = report["cpu_overage"][i] if by_cpu else report["overage"][seat]
        if left < min_overage:
            problems.append(f"only {left:.1f} s overage left{' by CPU time' if by_cpu else ''} "
                            f"(need {min_overage:g})")
    if report["opponent"] in must_beat and report["rewards"][report["seats"][0]] != 1:
        problems.append(f"did not beat {report['opponent']}")
    elif report["opponent"] in must_win_first and report["seats"] == [0] \
            and report["rewards"][0] != 1:
        problems.append(f"did not beat {report['opponent']} as first player")
    return problems


def describe(report):
    """One line per episode: who played, statuses, result, overage, timings."""
    names = ["file", "file"] if report["opponent"] == "self" else \
        ["file", report["opponent"]] if report["seats"] == [0] else [report["opponent"], "file"]
    rewards = report["rewards"]
    if None in rewards:
        result = "no result"
    elif rewards[0] == rewards[1]:
        result = "draw"
    else:
        winner = 0 if rewards[0] > rewards[1] else 1
        result = f"{names[winner]} ({('first', 'second')[winner]}) wins"
    parts = [f"{names[0]} vs {names[1]}: {'/'.join(report['statuses'])}, {result} "
             f"in {report['steps']} steps, {report['seconds']:.1f} s"]
    for i, (seat, copy) in enumerate(zip(report["seats"], report["copies"])):
        s = copy["state"] or {}
        first = s.get("first_move_seconds")
        parts.append(
            f"  file as player {seat + 1}: overage left {report['overage'][seat]:.1f} s "
            f"({report['cpu_overage'][i]:.1f} s counting CPU time); "
            f"first move {_r(first)} s, {_r(s.get('first_move_cpu_seconds'))} s CPU "
            f"(load {_r(s.get('load_seconds'))} s), numba compiling during moves "
            f"{_r(s.get('compile_seconds'))} s, "
            f"slowest later move {_r(s.get('max_move_seconds'))} s, "
            f"{_warmup_text(s.get('warmup'))}"
            f"{s.get('calls')} moves, numba {s.get('numba')}, fallbacks {s.get('fallbacks')}")
    return "\n".join(parts)


def _warmup_text(w):
    """The background compile's state after the last move, for describe()."""
    if not w:
        return ""
    errors = f", errors {w['errors']}" if w.get("errors") else ""
    return (f"background compile {'done' if w['done'] else 'NOT done'} ({w['units']} units, "
            f"{w['seconds']} s{errors}; {w.get('fallback_moves', 0)} moves played without "
            f"the kernels), ")


def _r(x):
    return None if x is None else round(x, 2)


def validate(path, games=GAMES, min_overage=MIN_OVERAGE, must_beat=(), seed=0, no_numba=False,
             by_cpu=False, out=sys.stdout, must_win_first=(), configuration=None):
    """Run the episodes and print each; returns the list of (report, problems).
    ``configuration``: kaggle's connectx configuration (rows, columns, inarow,
    actTimeout); default kaggle's 6x7, four in a row, 2 s."""
    with open(path, encoding="utf-8") as f:
        check_last_callable(f.read(), path)
    results = []
    for i, (opponent, seat) in enumerate(episodes(games)):
        report = run_episode(path, opponent, seat, seed=seed + i, no_numba=no_numba,
                             configuration=configuration)
        problems = judge(report, min_overage, must_beat,
                         expect_numba=False if no_numba else None, by_cpu=by_cpu,
                         must_win_first=must_win_first)
        print(describe(report), file=out)
        print("  " + ("FAIL: " + "; ".join(problems) if problems else "ok"), file=out,
              flush=True)
        results.append((report, problems))
    return results


if __name__ == "__main__":
    print("submission.validate is the checker's library: check a file with `connectx validate "
          "main.py` (python -m scripts.commands.validate main.py)", file=sys.stderr)
    sys.exit(2)
