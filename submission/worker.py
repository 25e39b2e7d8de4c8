"""One ConnectX episode with a submission file, run as Kaggle runs it.

Started by :mod:`submission.validate` as ``python -I worker.py SPEC_JSON`` in a
fresh process: ``-I`` keeps the project off ``sys.path``, so the file can only
use what it embeds. It imports nothing from the package on purpose.

The submission is loaded with kaggle-environments' own ``build_agent(path)``
(read the file, exec it on the first move, take the last callable; the exec
and numba compilation count in the first move's time, as on Kaggle), and the
episode runs with ``debug=False`` so an exception in the agent ends its game
with status ERROR exactly as on Kaggle. The last line of stdout is a JSON report; it also gives the overage that would be
left had every move taken only its CPU time, for machines busy with other work.
"""
import os
import json
import random
import subprocess
import sys
import time

MARKER = "EPISODE-REPORT "


def _loaded_callable(kaggle_agent):
    """The callable kaggle-environments took from the file (None if never loaded)."""
    cells = dict(zip(kaggle_agent.__code__.co_freevars, kaggle_agent.__closure__ or ()))
    cell = cells.get("agent")
    return None if cell is None else cell.cell_contents


def _cpu_timed(kaggle_agent, log, walls):
    """``kaggle_agent`` unchanged, with the process CPU time of each call appended to
    ``log`` (the episode is synchronous: that is this agent's own CPU time) and its wall
    time to ``walls`` (what kaggle-environments times: the first call also reads and
    runs the file)."""
    def timed(observation, configuration):
        start, wall = time.process_time(), time.perf_counter()
        try:
            return kaggle_agent(observation, configuration)
        finally:
            log.append(time.process_time() - start)
            walls.append(time.perf_counter() - wall)
    return timed


def _process_agent(cmd, path):
    """An agent callable that forwards each move to ``cmd`` (``submission.opponent``),
    a process of its own that imports from ``path`` (a PYTHONPATH): one JSON line out,
    one back. Started (and warmed up) now."""
    env = dict(os.environ, PYTHONPATH=path) if path else None
    proc = subprocess.Popen(cmd, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            text=True, bufsize=1)
    ready = proc.stdout.readline()
    if ready.strip() != "READY":
        raise RuntimeError(f"opponent process {cmd} did not start (exit {proc.poll()})")

    def opponent(observation, configuration):
        proc.stdin.write(json.dumps({"obs": dict(observation),
                                     "config": dict(configuration)}) + "\n")
        reply = json.loads(proc.stdout.readline())
        if "error" in reply:
            raise RuntimeError(reply["error"])
        return reply["action"]
    opponent.process = proc
    return opponent


def run(spec):
    if spec.get("no_numba"):
        sys.modules["numba"] = None  # ``import numba`` now raises ImportError
    random.seed(spec.get("seed", 0))  # the builtin random and negamax agents use ``random``
    # jsonschema's optional iri check builds a grammar at import: 3 s of CPU a process
    # (scripts.arena.extras.skip_iri_grammar says why it is safe; no import of it here)
    sys.modules.setdefault("rfc3987_syntax", None)

    from kaggle_environments import make
    from kaggle_environments.agent import build_agent

    env = make("connectx", configuration=spec.get("configuration") or {}, debug=False)
    path = spec["path"]
    opponent = spec["opponent"]
    ours = [build_agent(path, env.agents, env.name)[0]]
    if opponent == "self":
        ours.append(build_agent(path, env.agents, env.name)[0])
        our_seats = [0, 1]
    else:
        our_seats = [spec["seat"]]
    if spec.get("opponent_cmd"):
        opponent = _process_agent(spec["opponent_cmd"], spec.get("opponent_path"))
    cpu = [[] for _ in ours]
    walls = [[] for _ in ours]
    timed = [_cpu_timed(a, log, wall) for a, log, wall in zip(ours, cpu, walls)]
    players = timed if opponent == "self" else \
        [timed[0], opponent] if spec["seat"] == 0 else [opponent, timed[0]]

    start = time.perf_counter()
    steps = env.run(players)
    seconds = time.perf_counter() - start
    final = steps[-1]
    act = float(env.configuration.actTimeout)
    initial = [float(s.observation.remainingOverageTime) for s in steps[0]]
    if callable(opponent):
        opponent.process.stdin.close()
        opponent.process.wait(timeout=60)
        opponent = spec["opponent"]
    report = {
        "opponent": opponent,
        "seats": our_seats,
        "statuses": [s.status for s in final],
        "rewards": [s.reward for s in final],
        "overage": [float(s.observation.remainingOverageTime) for s in final],
        "steps": len(steps) - 1,
        "seconds": seconds,
        "act_timeout": act,
        "configuration": {k: int(env.configuration[k]) for k in ("rows", "columns", "inarow")},
        # the overage left had each move taken its CPU time (an estimate for busy machines)
        "cpu_overage": [initial[seat] - sum(max(0.0, c - act) for c in log)
                        for seat, log in zip(our_seats, cpu)],
        # each copy's first call, wall seconds around it (loading the file included): by
        # kaggle's rule a first move over actTimeout would be a TIMEOUT without overage
        "first_call_seconds": [w[0] if w else None for w in walls],
        "first_call_cpu_seconds": [c[0] if c else None for c in cpu],
        "copies": [],
    }
    for kaggle_agent in ours:
        loaded = _loaded_callable(kaggle_agent)
        state = None
        if loaded is not None and isinstance(getattr(loaded, "__globals__", None), dict):
            state = loaded.__globals__.get("_STATE")
        report["copies"].append({
            "callable": getattr(loaded, "__name__", repr(loaded)),
            "state": None if state is None else
            {k: v for k, v in state.items() if k != "player"},
        })
    return report


def print_report(result):
    """Print the episode's report line on the process's own stdout. kaggle_environments
    points ``sys.stdout`` and ``sys.stderr`` at buffers of its own while an agent runs; a
    call whose redirect overlaps a background thread of the file (its kernels compiling)
    can leave a closed buffer in their place after the game, and the report was lost with
    it (exit 1, "I/O operation on closed file", once in a CI run): the streams are put back
    first."""
    sys.stdout, sys.stderr = sys.__stdout__, sys.__stderr__
    print(MARKER + json.dumps(result), flush=True)


if __name__ == "__main__":
    if len(sys.argv) != 2 or not sys.argv[1].startswith("{"):
        print("submission.worker plays one episode for connectx validate: run "
              "`connectx validate main.py` (python -m scripts.commands.validate)", file=sys.stderr)
        sys.exit(2)
    print_report(run(json.loads(sys.argv[1])))
