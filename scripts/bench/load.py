"""Move times of an agent while another process saturates a CPU core.

    connectx bench load [--agent alphabeta] [--moves 200] [--act-timeout 1] [--hogs 1]

The agent is a spec as in :mod:`scripts.arena.specs` (``alphabeta:tt_bits=18``, ``main.py``).

Starts ``--hogs`` CPU-bound processes, then plays ``--moves`` moves of self-play
(restarting from the empty board when a game ends) with ``config.actTimeout`` set,
timing each call; prints the worst and mean time as a fraction of the budget and
exits 1 if any move went over it.
"""
import contextlib
import subprocess
import sys

from scripts.arena.games import play_out, start_position
from scripts.arena.loading import build_agent
from scripts.arena.specs import (OVERAGE, MatchConfig, config_struct, observation,
                                 parse_match_config, parse_spec)
from scripts.args import (ArgumentParser, SPEC_HELP, add_config_argument,
                          add_quiet_argument, positive_int_arg, progress_bar)


@contextlib.contextmanager
def cpu_hogs(count):
    """``count`` CPU-bound processes (fresh interpreters spinning) for the ``with``
    block."""
    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(count)]
    try:
        yield
    finally:
        for h in hogs:
            h.kill()
            h.wait()


def measure(agent, moves, act_timeout, rows=6, columns=7, inarow=4, progress=False):
    """Per-move times (seconds) of ``moves`` self-play moves, games after games from the
    empty board in the one game loop (untimed: the clock is what is measured;
    ``progress``: a bar on stderr)."""
    cfg = MatchConfig(rows, columns, inarow, act_timeout, OVERAGE)
    # compile outside the count
    agent(observation([0] * (rows * columns)), config_struct(cfg))
    times = []
    bar = progress_bar(moves, "moves", "move", progress)
    on_move = (lambda *_: bar.update(1)) if bar is not None else None
    while len(times) < moves:
        grid, heights = start_position([], cfg)
        out = play_out((agent, agent), cfg, grid, heights, timed=False,
                       max_moves=moves - len(times), on_move=on_move)
        times += out.times[0] + out.times[1]
    if bar is not None:
        bar.close()
    return times


def main(argv=None, prog="python -m scripts.bench.load"):
    p = ArgumentParser(prog=prog, description="Move times of an agent while other processes "
                       "saturate CPU cores; exit 1 if a move went over actTimeout.")
    p.add_argument("--agent", default="alphabeta", metavar="SPEC",
                   help="the agent (default alphabeta); " + SPEC_HELP)
    p.add_argument("--moves", type=positive_int_arg, default=200,
                   help="self-play moves to time (default 200)")
    p.add_argument("--act-timeout", type=float, default=1.0,
                   help="config.actTimeout, the budget of a move in seconds (default 1)")
    p.add_argument("--hogs", type=int, default=1, help="CPU-bound processes to start (default 1)")
    add_config_argument(p, board_only=True)
    add_quiet_argument(p)
    args = p.parse_args(argv)
    try:
        cfg = parse_match_config(args.config)
        agent = build_agent(parse_spec(args.agent), 0)
    except ValueError as e:
        p.error(str(e))
    with cpu_hogs(args.hogs):
        times = measure(agent, args.moves, args.act_timeout, cfg.rows, cfg.columns, cfg.inarow,
                        progress=not args.quiet)
    worst = max(times) / args.act_timeout
    mean = sum(times) / len(times) / args.act_timeout
    over = sum(t > args.act_timeout for t in times)
    print(f"{args.agent}: {len(times)} moves, actTimeout {args.act_timeout} s, {args.hogs} CPU hog(s): "
          f"worst {worst:.3f} of the budget, mean {mean:.3f}, {over} over")
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
