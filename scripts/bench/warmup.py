"""Does the Kaggle file's background compile slow an opponent in the same process?

    connectx bench warmup [--opponent alphabeta:depth=11] [--moves 8]

Plays kaggle-environments games in ONE process, as a local ``env.run`` does: the
``perfect`` Kaggle file (built now, ``warmup=background``: its kernels compile in a
thread while its book answers, see ``agents/players/warmup.py``) against ``--opponent``,
then the same opponent against ``agents.make("perfect")`` compiled beforehand
(``warmup=now``). The file's kernels compile once per process, so each command
measures one game of each kind: run it again for another sample. The opponent
should be CPU-bound and deterministic (a fixed ``depth``), so its move time
measures the CPU share it got. Printed: the opponent's time over its first
``--moves`` moves in each game, and the ratio background/now (1.0: no cost to it).
"""
import os
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

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


def main(argv=None, prog="python -m scripts.bench.warmup"):
    ap = ArgumentParser(prog=prog, description="An opponent's move times beside the perfect "
                                               "file's background compile, in one process.")
    ap.add_argument("--opponent", default="alphabeta:depth=11",
                    help="a CPU-bound registry agent with a fixed depth (default "
                         "alphabeta:depth=11)")
    ap.add_argument("--moves", type=positive_int_arg, default=8,
                    help="opponent moves counted from the start of each game (default 8)")
    args = ap.parse_args(argv)
    require("kaggle_environments", "this benchmark")
    import agents
    from scripts.arena.specs import parse_spec
    from submission.build import build
    try:
        spec = parse_spec(args.opponent)
    except ValueError as e:
        ap.error(str(e))
    if spec.kind != "registry":
        ap.error("--opponent must be a registry agent, e.g. alphabeta:depth=11")
    opponent = agents.make(spec.name, **spec.options)
    opponent({"board": [0] * 42, "mark": 2}, {"rows": 6, "columns": 7, "inarow": 4})
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
    return 0


if __name__ == "__main__":
    sys.exit(main())
