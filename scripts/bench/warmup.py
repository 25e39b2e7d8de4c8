"""A Kaggle file's cold compile, beside the previous release's; and does its background
compile slow an opponent in the same process?

    connectx bench warmup [--section cold|strength|opponent|all]
                          [--agents alphabeta,minimax,mcts,perfect] [--baseline 4e9cf9d]
                          [--runs 1] [--games 1] [--opponent alphabeta:depth=11] [--moves 8]

**cold** (the first section): for each agent, the file built from the working tree and
the file built at ``--baseline`` (a git revision: default ``4e9cf9d``, the build of
2026-11-25 that issue 43 measured against; the project has no release tag), each in
fresh ``python -I`` processes loaded as kaggle-environments loads a file
(``utils.read_file``, ``agent.get_last_callable``), interleaved ``--runs`` times:

* ``first move`` (and ``first move CPU``, the process's CPU seconds): wall seconds of the first call on the empty board (installing the
  modules, importing numba, the move; what Kaggle's first ``actTimeout`` must cover);
* ``off-book``: (``perfect`` only) the first call in a fresh process on a 10-stone
  position outside the opening book (``scripts/data/positions/early.txt``'s first line);
* ``ready`` (and ``ready CPU``, less sensitive to a loaded machine): seconds from the
  first call until every kernel the agent plays with is
  compiled, the process idle after the move (the background compile's units all run;
  a file that compiles in its moves: its first move), and ``solver ready`` for
  ``perfect`` (until the units up to the revision's ``SOLVER_READY`` have run: what a
  move outside the book waits for).

Printed: each figure, new and baseline, and the ratio new/baseline.

**strength** (what the fallback costs): the fallback alone
(:func:`agents.players.warmup.fallback_move`, every move) against kaggle's ``negamax`` and
against ``alphabeta:time_limit=0.1``, ``--games`` games a seat in this process; then each agent's file (``--agents``, built
now) against ``negamax`` through :func:`submission.validate.run_episode` (kaggle's
loader, a fresh process, negamax in the file's process as kaggle-environments runs it
locally: the file compiles only in its own moves' lent time and the tails of big
units), ``--games`` a seat: results and the moves the fallback played.

**opponent**: plays kaggle-environments games in ONE process, as a local ``env.run`` does: the
``perfect`` Kaggle file (built now, ``warmup=background``: its kernels compile in a
thread while its book answers, see ``agents/players/warmup.py``) against ``--opponent``,
then the same opponent against ``agents.make("perfect")`` compiled beforehand
(``warmup=now``). The file's kernels compile once per process, so each command
measures one game of each kind: run it again for another sample. The opponent
should be CPU-bound and deterministic (a fixed ``depth``), so its move time
measures the CPU share it got. Printed: the opponent's time over its first
``--moves`` moves in each game, and the ratio background/now (1.0: no cost to it).
"""
import io
import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time


from scripts.args import ArgumentParser, positive_int_arg, require  # noqa: E402


def opponent_times(ours, opponent, moves):
    """The opponent's first ``moves`` move times (seconds) in one game, ours first."""
    from kaggle_environments import make
    times = []

    def timed(obs, config):
        t = time.perf_counter()
        col = opponent(obs, config)
        times.append(time.perf_counter() - t)
        return col
    env = make("connectx", debug=False)
    env.run([ours, timed])
    statuses = [s.status for s in env.steps[-1]]
    if statuses != ["DONE", "DONE"]:
        raise RuntimeError(f"game ended {statuses}")
    return times[:moves]


def load_file(path):
    """The namespace of a submission file exec'd as Kaggle does (``agent``, ``_STATE``)."""
    ns = {}
    with open(path) as f:
        exec(compile(f.read(), path, "exec"), ns)
    return ns


BASELINE = "4e9cf9d"
AGENTS = ("alphabeta", "minimax", "mcts", "perfect")
OFF_BOOK = "4551552445"  # scripts/data/positions/early.txt, line 1: 10 stones, not in the book

# One cold process: load the file as kaggle-environments does, play one first move on
# the board given, then wait (idle) until the background compile is done.
# The package is not imported there (its import would be timed), so the observation is
# the plain dict Kaggle passes, not scripts.arena.specs.observation.
COLD = r"""
import json, sys, time
from kaggle_environments.agent import get_last_callable
from kaggle_environments.utils import read_file
path, board, mark = sys.argv[1], json.loads(sys.argv[2]), int(sys.argv[3])
agent = get_last_callable(read_file(path), path=path)
cfg = {"rows": 6, "columns": 7, "inarow": 4, "actTimeout": 2, "timeout": 2}
t0, c0 = time.perf_counter(), time.process_time()
col = agent({"board": board, "mark": mark, "remainingOverageTime": 60}, cfg)
first, first_cpu = time.perf_counter() - t0, time.process_time() - c0
state = agent.__globals__["_STATE"]
player = state["player"]
warm = getattr(player, "warm", None)
# the unit an off-book move of perfect waits for, as the file's own revision names it
label = getattr(sys.modules.get("agents.players.perfect"), "SOLVER_READY", None)
solver = solver_cpu = None
while warm is not None and not warm.done() and time.perf_counter() - t0 < 600:
    if solver is None and label is not None and warm.ready(label):
        solver, solver_cpu = time.perf_counter() - t0, time.process_time() - c0
    time.sleep(0.01)
ready = time.perf_counter() - t0 if warm is not None else first
ready_cpu = time.process_time() - c0 if warm is not None else first_cpu
if solver is None and label is not None and warm is not None and warm.ready(label):
    solver, solver_cpu = ready, ready_cpu
print(json.dumps({"column": col, "first": first, "ready": ready, "solver": solver,
                  "solver_cpu": solver_cpu, "label": label,
                  "first_cpu": first_cpu, "ready_cpu": ready_cpu,
                  "source": (getattr(player, "last", None) or {}).get("source"),
                  "compile_in_moves": state["compile_seconds"],
                  "units": len(warm.log) if warm is not None else 0}))
"""


def checkout():
    """The top folder of the git checkout the command runs in, else None."""
    try:
        found = subprocess.run(["git", "rev-parse", "--show-toplevel"], capture_output=True,
                               text=True, check=False)
    except OSError:  # no git
        return None
    return found.stdout.strip() if found.returncode == 0 else None


def build_at(revision, agent, path, top=None):
    """Write the Kaggle file of ``agent`` built by the package at git ``revision`` of the
    checkout ``top`` (None: the package imported here) to ``path``."""
    if revision is None:
        from submission.build import build
        with open(path, "w") as f:
            f.write(build(agent).text)
        return
    with tempfile.TemporaryDirectory(prefix="connectx-rev-") as tmp:
        archive = subprocess.run(["git", "-C", top, "archive", revision, "agents", "heuristics",
                                  "submission"], capture_output=True, check=False)
        if archive.returncode != 0:
            raise ValueError(f"cannot read revision {revision!r}: "
                             f"{archive.stderr.decode().strip()}")
        with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
            tar.extractall(tmp, filter="data")
        code = ("import sys; from submission.build import build; "
                f"open(sys.argv[1], 'w').write(build({agent!r}).text)")
        proc = subprocess.run([sys.executable, "-c", code, path], cwd=tmp,
                              capture_output=True, text=True)
        if proc.returncode != 0:
            raise ValueError(f"the build of {agent} at {revision} failed: "
                             f"{proc.stderr.strip().splitlines()[-1:]}")


def cold_run(path, moves=""):
    """One fresh process's figures (see COLD) for the file at ``path``."""
    from agents.board.rules_reference import board_from_moves
    board, mark = board_from_moves(moves), 1 + len(moves) % 2
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, CONNECTX_NUMBA_CACHE=cache)
        proc = subprocess.run([sys.executable, "-I", "-c", COLD, path, json.dumps(board),
                               str(mark)], capture_output=True, text=True, cwd="/", env=env,
                              timeout=900)
    if proc.returncode != 0:
        raise RuntimeError(f"cold run of {path} failed: {proc.stderr[-2000:]}")
    return json.loads(proc.stdout.splitlines()[-1])


def cold_section(agents, baseline, runs, top, out=sys.stdout):
    """Build each agent's file now and at ``baseline`` of the checkout ``top``; print the cold figures and the
    ratios; returns {agent: {figure: (new median, baseline median)}}."""
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        for agent in agents:
            paths = {}
            for kind, rev in (("new", None), ("baseline", baseline)):
                paths[kind] = os.path.join(tmp, f"{agent}-{kind}.py")
                build_at(rev, agent, paths[kind], top)
            figures = {}
            for _ in range(runs):
                for kind in ("new", "baseline"):  # interleaved: the same load for both
                    r = cold_run(paths[kind])
                    sample = {"first move": r["first"], "first move CPU": r["first_cpu"],
                              "ready": r["ready"], "ready CPU": r["ready_cpu"]}
                    if r["solver"] is not None:
                        sample["solver ready"] = r["solver"]
                        sample["solver ready CPU"] = r["solver_cpu"]
                    if agent == "perfect":
                        sample["off-book"] = cold_run(paths[kind], OFF_BOOK)["first"]
                    for name, value in sample.items():
                        figures.setdefault(name, {"new": [], "baseline": []})[kind].append(value)
            results[agent] = {}
            for name, pair in figures.items():
                new, old = (statistics.median(pair[k]) if pair[k] else float("nan")
                            for k in ("new", "baseline"))
                results[agent][name] = (new, old)
                spread = ", ".join(f"{k} {min(v):.2f}-{max(v):.2f}" for k, v in pair.items()
                                   if len(v) > 1)
                print(f"{agent:9s} {name:14s} new {new:6.2f} s   {baseline} {old:6.2f} s   "
                      f"ratio {new / old:5.2f}" + (f"   ({spread})" if spread else ""),
                      file=out, flush=True)
    return results


def fallback_agent(obs, config):
    """Every move :func:`agents.players.warmup.fallback_move`'s (what a file plays while
    its kernels compile)."""
    from agents.board.rules import parse_position
    from agents.players.warmup import fallback_move
    grid, heights, mark, cfg = parse_position(obs, config, False)
    return fallback_move(grid, heights, mark, cfg.rows, cfg.columns, cfg.inarow)


def score_line(label, results):
    """``label: W-D-L`` from rewards seen by our side (1, 0, -1; None: we failed)."""
    w = sum(r == 1 for r in results)
    d = sum(r == 0 for r in results)
    return f"{label}: {w} won, {d} drawn, {len(results) - w - d} lost of {len(results)}"


def strength_section(agents, games, out=sys.stdout):
    """The fallback alone vs negamax, then each file vs negamax (module docstring)."""
    import random

    from kaggle_environments import make

    from submission.build import build
    from submission.validate import run_episode
    import agents as registry
    for label, opponent in (("negamax", "negamax"),
                            ("alphabeta:time_limit=0.1", registry.make("alphabeta",
                                                                      time_limit=0.1))):
        results = []
        for g in range(games):
            for seat in (0, 1):
                random.seed(1000 * g + seat)  # negamax breaks ties with ``random``
                env = make("connectx", debug=False)
                players = [fallback_agent, opponent][::1 if seat == 0 else -1]
                env.run(players)
                results.append(env.steps[-1][seat].reward)
        print(score_line(f"fallback alone vs {label} ({games} a seat)", results), file=out,
              flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        for agent in agents:
            path = os.path.join(tmp, f"{agent}.py")
            with open(path, "w") as f:
                f.write(build(agent).text)
            rewards, fallback, moves, firsts = [], 0, 0, []
            for g in range(games):
                for seat in (0, 1):
                    rep = run_episode(path, "negamax", seat, seed=1000 * g + seat)
                    rewards.append(rep["rewards"][seat] if rep["statuses"][seat] == "DONE"
                                   else None)
                    state = rep["copies"][0]["state"]
                    fallback += (state.get("warmup") or {}).get("fallback_moves", 0)
                    moves += state["calls"]
                    firsts.append(rep["first_call_seconds"][0])
            print(score_line(f"{agent} file vs negamax ({games} a seat)", rewards)
                  + f"; {fallback} of its {moves} moves by the fallback; first call "
                  f"{min(firsts):.2f}-{max(firsts):.2f} s", file=out, flush=True)


def opponent_section(args):
    """The opponent's move times beside the perfect file's background compile (the
    module docstring's second section)."""
    import agents
    from scripts.arena.specs import observation, parse_spec
    from submission.build import build
    spec = parse_spec(args.opponent)
    if spec.kind != "registry":
        raise ValueError("--opponent must be a registry agent, e.g. alphabeta:depth=11")
    opponent = agents.make(spec.name, **spec.options)
    opponent(observation([0] * 42, mark=2), {"rows": 6, "columns": 7, "inarow": 4})
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "main.py")
        with open(path, "w") as f:
            f.write(build("perfect").text)
        ns = load_file(path)  # compiles in the background during the first game
        compiled = agents.make("perfect")
        total = {}
        for kind, player in (("background", ns["agent"]), ("now", compiled)):
            t = opponent_times(player, opponent, args.moves)
            total[kind] = sum(t)
            print(f"{kind:10s} opponent's first {len(t)} moves: {sum(t):.3f} s "
                  f"({', '.join(f'{x:.3f}' for x in t)})", flush=True)
            if kind == "background":
                w = ns["_STATE"]["warmup"]
                print(f"           the file's background compile during that game: "
                      f"{w['units']} units, {w['seconds']} s, done {w['done']}")
    print(f"ratio background/now of the opponent's time: {total['background'] / total['now']:.3f}")


def main(argv=None, prog="python -m scripts.bench.warmup"):
    ap = ArgumentParser(prog=prog, description="Each Kaggle file's cold compile beside the "
                                               "baseline revision's; an opponent's move times "
                                               "beside the perfect file's background compile.")
    ap.add_argument("--section", choices=("cold", "strength", "opponent", "all"),
                    default="all", help="what to measure (default all)")
    ap.add_argument("--games", type=positive_int_arg, default=1,
                    help="strength: games a seat against negamax (default 1)")
    ap.add_argument("--agents", default=",".join(AGENTS),
                    help=f"cold: the agents whose files are built (default {','.join(AGENTS)})")
    ap.add_argument("--baseline", default=BASELINE,
                    help=f"cold: the git revision the files are compared with (default "
                         f"{BASELINE}, the build of 2026-11-25)")
    ap.add_argument("--runs", type=positive_int_arg, default=1,
                    help="cold: fresh processes a file, interleaved (default 1)")
    ap.add_argument("--opponent", default="alphabeta:depth=11",
                    help="a CPU-bound registry agent with a fixed depth (default "
                         "alphabeta:depth=11)")
    ap.add_argument("--moves", type=positive_int_arg, default=8,
                    help="opponent moves counted from the start of each game (default 8)")
    args = ap.parse_args(argv)
    require("kaggle_environments", "this benchmark")
    import agents
    chosen = [a.strip() for a in args.agents.split(",") if a.strip()]
    unknown = [a for a in chosen if a not in agents.AGENTS]
    if unknown or not chosen:
        ap.error(f"--agents: unknown agent(s) {', '.join(unknown) or '(none given)'}; "
                 f"valid: {', '.join(agents.names())}")
    top = checkout() if args.section in ("cold", "all") else None
    if args.section in ("cold", "all") and top is None:
        ap.error("--section cold builds the baseline from a git checkout of the package: run "
                 "it inside one (strength and opponent run anywhere)")
    try:
        if args.section in ("cold", "all"):
            print(f"cold compile: each file in fresh processes, new vs {args.baseline} "
                  f"(median of {args.runs})", flush=True)
            cold_section(chosen, args.baseline, args.runs, top)
        if args.section in ("strength", "all"):
            strength_section(chosen, args.games)
        if args.section in ("opponent", "all"):
            opponent_section(args)
    except ValueError as e:
        ap.error(str(e))
    return 0


if __name__ == "__main__":
    sys.exit(main())
