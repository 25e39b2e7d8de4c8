"""Head-to-head match: ``python -m scripts.match A B [--games N] [options]``.

Colours alternate (A has mark 1 in even-numbered games). Prints W-D-L for A, A's
score with a 95% interval, the Elo difference A - B with its interval, move times
and failures (INVALID, TIMEOUT, ERROR) per agent. Agent specs are described in
:mod:`scripts.runner`. Results are identical for the same ``--seed`` whatever
``--workers`` (for agents with a fixed depth / iteration count, not ``time_limit``).

    python -m scripts.match minimax:depth=3 rules --games 100 --workers 2
    python -m scripts.match alphabeta:depth=6 negamax --config rows=6,columns=7,inarow=4
    python -m scripts.match submission.py random --out games.json --replay game0.html

(also ``connectx match ...``). In a notebook, :func:`match` takes agent callables
as well as spec strings and returns a :class:`MatchResult`.
"""
import json
import sys
from collections import namedtuple

import numpy as np

from .args import SPEC_HELP, ArgumentParser, add_games_arguments, positive_int_arg, progress_bar
from .runner import (FAILURES, Game, elo_difference, format_elo, game_seeds, in_process_only,
                     parse_match_config, parse_spec, require, run_games, score_interval, score_of)


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


class MatchResult(namedtuple("MatchResult", "games summary")):
    """What :func:`match` returns; unpacks as ``games, summary``.

    ``games``: one dict per game (see ``scripts.runner.play_game``); ``summary``: the
    statistics of :func:`summarize`; ``config``: the :class:`~scripts.runner.MatchConfig`
    played. ``str()`` is the printed summary; ``replay(i)`` is a kaggle-environments
    env that has replayed game ``i`` (``.render(mode="ipython")`` in a notebook)."""

    def __new__(cls, games, summary, config):
        self = super().__new__(cls, games, summary)
        self.config = config
        return self

    def __str__(self):
        return format_summary(self.summary)

    def __repr__(self):
        s = self.summary
        return (f"MatchResult({' vs '.join(s['agents'])}: W-D-L {s['wins']}-{s['draws']}-"
                f"{s['losses']} over {s['games']} games)")

    def replay(self, i=0):
        require("kaggle_environments", "a replay")
        return replay_env(self.games[i], self.config)


def match(a, b, games=10, cfg=None, seed=0, workers=1, dask=None, progress=True):
    """Play ``games`` games of A against B, colours alternating; a :class:`MatchResult`.

    ``a``, ``b``: spec texts (see :mod:`scripts.runner`) or agent callables (played in
    this process: ``workers=1``, no ``dask``). ``cfg``: a ``MatchConfig``, its text
    ``"rows=6,columns=7,inarow=4"`` or None (kaggle's defaults). ``ValueError`` on bad
    input."""
    cfg = cfg if isinstance(cfg, tuple) else parse_match_config(cfg)
    spec_a, spec_b = parse_spec(a), parse_spec(b)
    in_process_only((spec_a, spec_b), workers, dask)
    tally = {"W": 0, "D": 0, "L": 0}
    bar = progress_bar(games, "games", "game", progress)

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
    return MatchResult(results, summarize(results, spec_a.text, spec_b.text), cfg)


def json_safe(value):
    """``value`` with infinite floats written as the strings "+inf" / "-inf"."""
    if isinstance(value, dict):
        return {k: json_safe(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_safe(v) for v in value]
    if isinstance(value, float) and np.isinf(value):
        return format_elo(value)
    return value


def main(argv=None, prog="python -m scripts.match"):
    p = ArgumentParser(prog=prog, description="Head-to-head match, colours alternating: "
                       "W-D-L, score and Elo difference with 95% intervals, move times.")
    p.add_argument("a", metavar="A", help="first agent (mark 1 in even games); " + SPEC_HELP)
    p.add_argument("b", metavar="B", help="second agent, same forms as A")
    p.add_argument("--games", type=positive_int_arg, default=10, help="games (default 10)")
    add_games_arguments(p)
    p.add_argument("--seed", type=int, default=0, help="match seed, >= 0 (default 0)")
    p.add_argument("--out", "--json", metavar="PATH.json", default=None,
                   help="write the summary and every game (moves, statuses, times) as JSON")
    p.add_argument("--replay", metavar="PATH.html", default=None,
                   help="write kaggle's HTML replay of one game (the games extra)")
    p.add_argument("--replay-game", type=int, default=0, metavar="I",
                   help="which game --replay shows, 0-based (default 0)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    args = p.parse_args(argv)
    if args.seed < 0:
        p.error(f"--seed must be >= 0, got {args.seed}")
    if args.replay and not 0 <= args.replay_game < args.games:
        p.error(f"--replay-game must be in 0..{args.games - 1}, got {args.replay_game}")
    try:
        if args.replay:
            require("kaggle_environments", "--replay")
        cfg = parse_match_config(args.config)
        results, summary = match(args.a, args.b, args.games, cfg, args.seed, args.workers,
                                 args.dask, progress=not args.quiet)
    except ValueError as e:
        p.error(str(e))
    print(format_summary(summary))
    if args.out:
        out = {"agents": [args.a, args.b], "seed": args.seed, "config": cfg._asdict(),
               "summary": json_safe(summary), "games": results}
        with open(args.out, "w", encoding="utf-8") as f:
            json.dump(out, f, indent=1)
        print(f"games written to {args.out}")
    if args.replay:
        write_replay(results[args.replay_game], cfg, args.replay)
        print(f"replay of game {args.replay_game} written to {args.replay}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
