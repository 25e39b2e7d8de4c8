"""Move times of an agent while another process saturates a CPU core.

    python -m scripts.budget_under_load [--agent alphabeta] [--moves 200] [--act-timeout 1]
                                        [--hogs 1]

Starts ``--hogs`` CPU-bound processes, then plays ``--moves`` moves of self-play
(restarting from the empty board when a game ends) with ``config.actTimeout`` set,
timing each call; prints the worst and mean time as a fraction of the budget and
exits 1 if any move went over it.
"""
import argparse
import multiprocessing as mp
import sys
import time

import agents
from agents.reference import ref_drop, ref_winner


def _hog():
    while True:
        pass


def measure(agent, moves, act_timeout, rows=6, columns=7, inarow=4):
    """Per-move times (seconds) of ``moves`` self-play moves."""
    cfg = {"rows": rows, "columns": columns, "inarow": inarow, "actTimeout": act_timeout}
    agent({"board": [0] * (rows * columns), "mark": 1}, cfg)  # compile outside the count
    times, board, mark = [], [0] * (rows * columns), 1
    while len(times) < moves:
        t = time.perf_counter()
        col = agent({"board": board, "mark": mark, "remainingOverageTime": 60}, cfg)
        times.append(time.perf_counter() - t)
        board = ref_drop(board, col, mark, rows, columns)
        mark = 3 - mark
        if ref_winner(board, rows, columns, inarow) or all(board):
            board, mark = [0] * (rows * columns), 1
    return times


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--agent", default="alphabeta")
    p.add_argument("--moves", type=int, default=200)
    p.add_argument("--act-timeout", type=float, default=1.0)
    p.add_argument("--hogs", type=int, default=1)
    args = p.parse_args(argv)
    try:
        agent = agents.make(args.agent)
    except ValueError as e:
        print(f"scripts.budget_under_load: {e}", file=sys.stderr)
        return 2
    hogs = [mp.Process(target=_hog, daemon=True) for _ in range(args.hogs)]
    for h in hogs:
        h.start()
    try:
        times = measure(agent, args.moves, args.act_timeout)
    finally:
        for h in hogs:
            h.terminate()
    worst = max(times) / args.act_timeout
    mean = sum(times) / len(times) / args.act_timeout
    over = sum(t > args.act_timeout for t in times)
    print(f"{args.agent}: {len(times)} moves, actTimeout {args.act_timeout} s, {args.hogs} CPU hog(s): "
          f"worst {worst:.3f} of the budget, mean {mean:.3f}, {over} over")
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
