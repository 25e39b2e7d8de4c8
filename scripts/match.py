"""Head-to-head match: ``python -m scripts.match A B [--games N] [options]``.

Colours alternate (A has mark 1 in even-numbered games). Prints W-D-L for A, A's
score with a 95% interval, the Elo difference A - B with its interval, move times
and failures (INVALID, TIMEOUT, ERROR) per agent. Agent specs are described in
:mod:`scripts.runner`. Results are identical for the same ``--seed`` whatever
``--workers`` (for agents with a fixed depth / iteration count, not ``time_limit``).

    python -m scripts.match minimax:depth=3 rules --games 100 --workers 2
    python -m scripts.match alphabeta:depth=6 negamax --config rows=6,columns=7,inarow=4
    python -m scripts.match submission.py random --json games.json --replay game0.html
"""
import json
import sys

import numpy as np

from .runner import (FAILURES, Game, ArgumentParser, elo_difference, fail, format_elo, game_seeds,
                     parse_match_config, parse_spec, positive_int_arg, run_games, score_interval,
                     score_of)


def schedule(spec_a, spec_b, n, seed, cfg):
    """``n`` games, colours alternating, A first in game 0."""
    seeds = game_seeds(seed, n)
    return [Game(i, (spec_a, spec_b) if i % 2 == 0 else (spec_b, spec_a), seeds[i], cfg)
            for i in range(n)]


def a_mark(game_result):
    """The mark A played in a game of :func:`schedule` (1 in even-numbered games;
    this also holds when A and B are the same spec)."""
    return 1 if game_result["index"] % 2 == 0 else 2


def summarize(results, a, b):
    """Statistics of A (spec text ``a``) against B (``b``) over ``results``."""
    wins = draws = losses = 0
    times = {"A": [], "B": []}
    failures = {"A": dict.fromkeys(FAILURES, 0), "B": dict.fromkeys(FAILURES, 0)}
    for r in results:
        ma = a_mark(r)
        s = score_of(r, ma)
        wins += s == 1.0
        draws += s == 0.5
        losses += s == 0.0
        for who, mark in (("A", ma), ("B", 3 - ma)):
            status = r["statuses"][mark - 1]
            if status in failures[who]:
                failures[who][status] += 1
        times["A"].extend(r["times"][ma - 1])
        times["B"].extend(r["times"][2 - ma])
    n = len(results)
    score = (wins + 0.5 * draws) / n if n else 0.5
    low, high = score_interval(score, n)

    def time_stats(values):
        return {"mean": float(np.mean(values)) if values else 0.0,
                "max": float(np.max(values)) if values else 0.0, "moves": len(values)}

    return {"agents": [a, b], "games": n, "wins": wins, "draws": draws, "losses": losses,
            "score": score, "score_ci": [low, high],
            "elo": elo_difference(score), "elo_ci": [elo_difference(low), elo_difference(high)],
            "times": {"A": time_stats(times["A"]), "B": time_stats(times["B"])},
            "failures": failures}


def format_summary(s):
    a, b = s["agents"]
    lines = [
        f"{a} vs {b}: {s['games']} games, colours alternating",
        f"W-D-L for {a}: {s['wins']}-{s['draws']}-{s['losses']}",
        f"score {s['score']:.3f} (95% interval {s['score_ci'][0]:.3f} to {s['score_ci'][1]:.3f})",
        f"Elo difference {format_elo(s['elo'])} (95% interval {format_elo(s['elo_ci'][0])} "
        f"to {format_elo(s['elo_ci'][1])})",
    ]
    for who, spec in (("A", a), ("B", b)):
        t = s["times"][who]
        fails = ", ".join(f"{k} {v}" for k, v in s["failures"][who].items() if v) or "none"
        lines.append(f"{who} {spec}: move time mean {1000 * t['mean']:.1f} ms, "
                     f"max {1000 * t['max']:.1f} ms over {t['moves']} moves; failures: {fails}")
    return "\n".join(lines)


def replay_env(result, cfg):
    """A kaggle-environments ``connectx`` env that has replayed one recorded game:
    its moves, then the failure if there was one (as kaggle's own status)."""
    from kaggle_environments import make
    from kaggle_environments.errors import DeadlineExceeded

    moves = list(result["moves"])

    def replayer(mark):
        def agent(obs, config):
            step = sum(1 for v in obs.board if v)
            if step < len(moves):
                return moves[step]
            status = result["statuses"][mark - 1]
            if status == "TIMEOUT":
                return DeadlineExceeded(result["error"])
            if status == "INVALID":
                return -1
            raise RuntimeError(result["error"] or "no recorded move")
        return agent

    env = make("connectx", configuration={"rows": cfg.rows, "columns": cfg.columns,
                                          "inarow": cfg.inarow, "actTimeout": cfg.actTimeout},
               debug=False)
    env.run([replayer(1), replayer(2)])
    return env


def write_replay(result, cfg, path):
    """kaggle-environments' HTML replay of one recorded game."""
    html = replay_env(result, cfg).render(mode="html")
    with open(path, "w", encoding="utf-8") as f:
        f.write(html)


def match(a, b, games=10, cfg=None, seed=0, workers=1, dask=None, progress=True):
    """Play the match; (results, summary). ``a``/``b`` are spec texts."""
    cfg = cfg or parse_match_config()
    spec_a, spec_b = parse_spec(a), parse_spec(b)
    tally = {"W": 0, "D": 0, "L": 0}
    bar = None
    if progress:
        from tqdm import tqdm
        tqdm.monitor_interval = 0  # no monitor thread: worker processes may be forked
        bar = tqdm(total=games, desc="games", unit="game", file=sys.stderr, leave=False)

    def on_result(r):
        s = score_of(r, a_mark(r))
        tally["W" if s == 1 else "D" if s == 0.5 else "L"] += 1
        if bar is not None:
            bar.set_postfix_str(f"A {tally['W']}-{tally['D']}-{tally['L']}", refresh=False)
            bar.update(1)

    try:
        results = run_games(schedule(spec_a, spec_b, games, seed, cfg), workers, dask, on_result)
    finally:
        if bar is not None:
            bar.close()
    return results, summarize(results, spec_a.text, spec_b.text)


def json_safe(value):
    """``value`` with infinite floats written as the strings "+inf" / "-inf"."""
    if isinstance(value, dict):
        return {k: json_safe(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_safe(v) for v in value]
    if isinstance(value, float) and np.isinf(value):
        return format_elo(value)
    return value


def main(argv=None):
    p = ArgumentParser(prog="python -m scripts.match",
                       description="Head-to-head match, colours alternating.")
    p.add_argument("a", metavar="A", help="first agent: name[:k=v,...], kaggle.random, negamax "
                                          "or a submission .py file")
    p.add_argument("b", metavar="B", help="second agent")
    p.add_argument("--games", type=positive_int_arg, default=10, help="games (default 10)")
    p.add_argument("--config", default=None,
                   help="rows=R,columns=C,inarow=K[,actTimeout=S,remainingOverageTime=S]")
    p.add_argument("--workers", type=positive_int_arg, default=1, help="processes (default 1)")
    p.add_argument("--dask", metavar="ADDRESS", default=None,
                   help="play on a Dask scheduler, e.g. tcp://host:8786")
    p.add_argument("--seed", type=int, default=0, help="match seed (default 0)")
    p.add_argument("--json", metavar="PATH", default=None, help="write every game as JSON")
    p.add_argument("--replay", metavar="PATH.html", default=None,
                   help="write kaggle's HTML replay of one game")
    p.add_argument("--replay-game", type=int, default=0, metavar="I",
                   help="which game --replay shows (default 0)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    args = p.parse_args(argv)
    if args.seed < 0:
        fail(f"--seed must be >= 0, got {args.seed}")
    if args.replay and not 0 <= args.replay_game < args.games:
        fail(f"--replay-game must be in 0..{args.games - 1}, got {args.replay_game}")
    try:
        cfg = parse_match_config(args.config)
        results, summary = match(args.a, args.b, args.games, cfg, args.seed, args.workers,
                                 args.dask, progress=not args.quiet)
    except ValueError as e:
        fail(f"match: {e}")
    print(format_summary(summary))
    if args.json:
        out = {"agents": [args.a, args.b], "seed": args.seed, "config": cfg._asdict(),
               "summary": json_safe(summary), "games": results}
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(out, f, indent=1)
        print(f"games written to {args.json}")
    if args.replay:
        write_replay(results[args.replay_game], cfg, args.replay)
        print(f"replay of game {args.replay_game} written to {args.replay}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
