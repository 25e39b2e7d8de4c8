"""Head-to-head match: ``python -m scripts.arena.match A B [--games N] [options]``.

Colours alternate (A has mark 1 in even-numbered games). Prints W-D-L for A, A's
score with a 95% interval, the Elo difference A - B with its interval, move times
and failures (INVALID, TIMEOUT, ERROR) per agent. Agent specs are described in
:mod:`scripts.arena.runner`. Results are identical for the same ``--seed`` whatever
``--workers`` (for agents with a fixed depth / iteration count, not ``time_limit``).

    python -m scripts.arena.match minimax:depth=3 rules --games 100 --workers 2
    python -m scripts.arena.match alphabeta:depth=6 negamax --config rows=6,columns=7,inarow=4
    python -m scripts.arena.match submission.py random --out games.json --replay game0.html

(also ``connectx match ...``). In a notebook, :func:`match` takes agent callables
as well as spec strings and returns a :class:`MatchResult`.

Opening suites, pairs, SPRT and replays (``docs/matches.md``): ``--openings`` (default
``balanced:4`` on 7x6) plays each opening twice with colours swapped (games ``2i`` and
``2i + 1``) and the summary adds pentanomial counts, pair-based Elo with its interval,
LOS and the draw ratio; ``--sprt elo0,elo1[,alpha,beta]`` stops early (exit 0 H1, 1 H0,
3 inconclusive); ``--replays DIR`` writes every game's HTML replay and an index.

    python -m scripts.arena.match alphabeta:depth=5 alphabeta:depth=4 --games 200 --sprt 0,20

Size: ~450 lines, the match command and its report (schedule with openings, pair
summaries, SPRT, replays); the games run in :mod:`scripts.arena.runner`, the statistics
are :mod:`scripts.arena.stats`.
"""
import contextlib
import json
import sys
from collections import namedtuple

import numpy as np

from scripts.arena import stats
from scripts.args import (ArgumentParser, SPEC_HELP, add_games_arguments, positive_int_arg, progress_bar)
from scripts.arena.replays import check_replays, write_replays
from scripts.arena.runner import (FAILURES, Game, elo_difference, format_elo, game_seeds, in_process_only, parse_match_config, parse_spec, process_pool, require, run_games, score_interval, score_of)


def schedule(spec_a, spec_b, n, seed, cfg, openings=None):
    """``n`` games, colours alternating, A first in game 0. Games ``2i`` and ``2i + 1``
    are a pair: the same opening with colours swapped (see :func:`pair_openings`)."""
    seeds = game_seeds(seed, n)
    starts = pair_openings(openings, (n + 1) // 2, seed)
    return [Game(i, (spec_a, spec_b) if i % 2 == 0 else (spec_b, spec_a), seeds[i], cfg,
                 starts[i // 2]) for i in range(n)]


# ---------------------------------------------------------------------------
# Opening pairs (issue 16): each opening twice, colours swapped; pair statistics
# ---------------------------------------------------------------------------


def pair_openings(openings, pairs, seed):
    """The opening of each of ``pairs`` pairs: the suite ``openings`` (None or ``[]``:
    the empty board) in an order shuffled by the match ``seed``, again in a new
    shuffled order once every opening has been used."""
    if not openings:
        return [""] * pairs
    rng = np.random.default_rng(np.random.SeedSequence([seed, 16]))
    out = []
    while len(out) < pairs:
        out.extend(openings[k] for k in rng.permutation(len(openings)))
    return out[:pairs]


def pairs_of(results):
    """The complete pairs (games ``2i`` and ``2i + 1``) of ``results``, in pair order; a
    game whose partner is missing (odd ``--games``, or a match stopped early) is left out."""
    by_index = {r["index"]: r for r in results}
    return [(by_index[i], by_index[i + 1]) for i in sorted(by_index)
            if i % 2 == 0 and i + 1 in by_index]


def pair_points(results):
    """A's points (0 .. 2) in each complete pair of ``results`` (:func:`pairs_of`)."""
    return [sum(score_of(r, a_mark(r)) for r in pair) for pair in pairs_of(results)]


def distinct_pairs(results):
    """How many complete pairs differ in at least one move (opening included): the
    independent trials when agents are deterministic (see :func:`scripts.arena.stats.summary`)."""
    return len({tuple(tuple(r.get("moves", (r["index"],))) for r in pair)
                for pair in pairs_of(results)})


def pair_llr(results, sprt):
    """The GSPRT LLR of ``results``, scaled by distinct pairs / pairs: repeated pairs of
    identical games (deterministic agents) are no evidence."""
    points = pair_points(results)
    if not points:
        return 0.0
    value = stats.llr(stats.pentanomial(points), sprt.elo0, sprt.elo1)
    return value * distinct_pairs(results) / len(points)


def worker_shares(results):
    """``{worker id: {"games", "cpu", "wall", "share"}}``: each worker process's CPU
    seconds over its wall seconds while playing; well under 1 means the machine was
    busy with other work (timed agents then think less than their budget says)."""
    out = {}
    for r in results:
        if "worker" not in r:
            continue
        w = out.setdefault(r["worker"], {"games": 0, "cpu": 0.0, "wall": 0.0})
        w["games"] += 1
        w["cpu"] += r["cpu"]
        w["wall"] += r["wall"]
    for w in out.values():
        w["share"] = w["cpu"] / w["wall"] if w["wall"] > 0 else 1.0
    return out


def distinct_games(results):
    """How many different games (agents by colour, opening and moves) ``results`` hold."""
    return len({(tuple(r["agents"]), tuple(r["moves"])) for r in results if "moves" in r})


def pair_summary(results):
    """The pentanomial statistics of :func:`scripts.arena.stats.summary` plus the draw ratio,
    the number of unpaired games and of distinct games."""
    points = pair_points(results)
    out = stats.summary(stats.pentanomial(points), effective=distinct_pairs(results))
    out["draw_ratio"] = stats.draw_ratio(score_of(r, a_mark(r)) for r in results)
    out["unpaired"] = len(results) - 2 * len(points)
    out["distinct_games"] = distinct_games(results)
    return out


def format_pairs(s, games):
    """Lines for :func:`pair_summary` ``s`` (``games``: games played)."""
    p = s["pentanomial"]
    lines = [f"pairs {s['pairs']} (A's points per pair 0, 0.5, 1, 1.5, 2: "
             f"{p[0]}, {p[1]}, {p[2]}, {p[3]}, {p[4]}); draw ratio {s['draw_ratio']:.3f}",
             f"pair-based Elo {format_elo(s['elo'])} (95% interval {format_elo(s['elo_ci'][0])} "
             f"to {format_elo(s['elo_ci'][1])}), LOS {100 * s['los']:.1f}%"]
    if s["unpaired"]:
        lines.append(f"{s['unpaired']} game(s) without a partner game (odd --games or an "
                     "early stop): in W-D-L, not in the pair statistics")
    if s["effective_pairs"] < s["pairs"]:
        lines.append(f"only {s['effective_pairs']} distinct pairs among {s['pairs']} "
                     f"({s['distinct_games']} distinct games among {games}): repeated games are "
                     "no new evidence; the pair statistics count distinct pairs, the per-game "
                     "interval above does not")
    return lines


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
            "failures": failures, "pairs": pair_summary(results),
            "workers": worker_shares(results)}


def format_summary(s):
    a, b = s["agents"]
    lines = [
        f"{a} vs {b}: {s['games']} games, colours alternating",
        f"W-D-L for {a}: {s['wins']}-{s['draws']}-{s['losses']}",
        f"score {s['score']:.3f} (per-game Wilson 95% interval {s['score_ci'][0]:.3f} to "
        f"{s['score_ci'][1]:.3f}: assumes independent games)",
        f"Elo difference {format_elo(s['elo'])} (per-game 95% interval "
        f"{format_elo(s['elo_ci'][0])} to {format_elo(s['elo_ci'][1])})",
    ]
    if "pairs" in s:
        lines += format_pairs(s["pairs"], s["games"])
    for who, spec in (("A", a), ("B", b)):
        t = s["times"][who]
        fails = ", ".join(f"{k} {v}" for k, v in s["failures"][who].items() if v) or "none"
        lines.append(f"{who} {spec}: move time mean {1000 * t['mean']:.1f} ms, "
                     f"max {1000 * t['max']:.1f} ms over {t['moves']} moves; failures: {fails}")
    if len(s.get("workers", {})) > 1:
        lines.append("CPU share per worker (CPU s / wall s while playing): " + ", ".join(
            f"{w['share']:.2f} ({w['games']} games)" for w in s["workers"].values()))
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

    ``games``: one dict per game (see ``scripts.arena.runner.play_game``); ``summary``: the
    statistics of :func:`summarize`; ``config``: the :class:`~scripts.arena.runner.MatchConfig`
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


def match(a, b, games=10, cfg=None, seed=0, workers=1, dask=None, progress=True, openings=None,
          sprt=None):
    """Play ``games`` games of A against B, colours alternating; a :class:`MatchResult`.

    ``a``, ``b``: spec texts (see :mod:`scripts.arena.runner`) or agent callables (played in
    this process: ``workers=1``, no ``dask``). ``cfg``: a ``MatchConfig``, its text
    ``"rows=6,columns=7,inarow=4"`` or None (kaggle's defaults). ``openings``: a list of
    move strings (None: the empty board), ``sprt``: a :class:`scripts.arena.stats.Sprt`.
    ``ValueError`` on bad input.

    With ``sprt`` the games are played in rounds of pairs and the match stops after
    the first round whose LLR crosses a bound; ``summary["sprt"]`` then holds the
    LLR, the bounds and the verdict ("H0", "H1" or None when ``games`` ran out)."""
    cfg = cfg if isinstance(cfg, tuple) else parse_match_config(cfg)
    spec_a, spec_b = parse_spec(a), parse_spec(b)
    in_process_only((spec_a, spec_b), workers, dask)
    tally = {"W": 0, "D": 0, "L": 0}
    plan = schedule(spec_a, spec_b, games, seed, cfg, openings)
    done = []
    bar = progress_bar(games, "games", "game", progress)
    state = {"llr": 0.0}

    def postfix():
        text = f"A {tally['W']}-{tally['D']}-{tally['L']}"
        if sprt is not None:
            text += f" LLR {state['llr']:+.2f} [{sprt.lower:.2f}, {sprt.upper:.2f}]"
        return text

    def on_result(r):
        s = score_of(r, a_mark(r))
        tally["W" if s == 1 else "D" if s == 0.5 else "L"] += 1
        done.append(r)
        if bar is not None:
            bar.set_postfix_str(postfix(), refresh=False)
            bar.update(1)

    verdict = None
    stack = contextlib.ExitStack()
    try:
        if sprt is None:
            run_games(plan, workers, dask, on_result)
        else:
            # rounds of whole pairs, enough to keep every worker busy, in one pool
            size = 2 * max(4, 2 * workers)
            pool = None
            if dask is None and workers > 1 and games > 1:
                pool = stack.enter_context(process_pool(plan, workers))
            for first in range(0, games, size):
                run_games(plan[first:first + size], workers, dask, on_result, pool)
                state["llr"] = pair_llr(done, sprt)
                if bar is not None:
                    bar.set_postfix_str(postfix())
                verdict = stats.verdict(state["llr"], sprt)
                if verdict is not None:
                    break
    finally:
        stack.close()
        if bar is not None:
            bar.close()
    results = sorted(done, key=lambda r: r["index"])
    summary = summarize(results, spec_a.text, spec_b.text)
    if sprt is not None:
        summary["sprt"] = {**sprt._asdict(), "llr": state["llr"], "verdict": verdict}
    return MatchResult(results, summary, cfg)


def format_sprt(s):
    """One line for ``summary["sprt"]``."""
    t = s["sprt"]
    what = {"H1": f"H1 accepted (Elo >= {t['elo1']:g} more likely than <= {t['elo0']:g})",
            "H0": f"H0 accepted (Elo <= {t['elo0']:g} more likely than >= {t['elo1']:g})",
            None: "inconclusive (no bound reached within --games)"}[t["verdict"]]
    return (f"SPRT elo0={t['elo0']:g} elo1={t['elo1']:g} alpha={t['alpha']:g} "
            f"beta={t['beta']:g}: LLR {t['llr']:+.2f}, bounds [{t['lower']:.2f}, "
            f"{t['upper']:.2f}] after {s['games']} games: {what}")


SPRT_EXIT = {"H1": 0, "H0": 1, None: 3}  # exit status of a match with --sprt (2: bad input)


def json_safe(value):
    """``value`` with infinite floats written as the strings "+inf" / "-inf"."""
    if isinstance(value, dict):
        return {k: json_safe(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_safe(v) for v in value]
    if isinstance(value, float) and np.isinf(value):
        return format_elo(value)
    return value


def main(argv=None, prog="python -m scripts.arena.match"):
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
    add_trust_arguments(p)
    args = p.parse_args(argv)
    if args.seed < 0:
        p.error(f"--seed must be >= 0, got {args.seed}")
    if args.replay and not 0 <= args.replay_game < args.games:
        p.error(f"--replay-game must be in 0..{args.games - 1}, got {args.replay_game}")
    try:
        if args.replay:
            require("kaggle_environments", "--replay")
        cfg = parse_match_config(args.config)
        openings, sprt = trust_options(args, cfg)
        results, summary = match(args.a, args.b, args.games, cfg, args.seed, args.workers,
                                 args.dask, progress=not args.quiet, openings=openings,
                                 sprt=sprt)
    except ValueError as e:
        p.error(str(e))
    print(f"openings: {args.openings} ({len(openings or [])} in the suite), each played twice "
          "with colours swapped" if openings else "openings: none (every game from the empty "
          "board)")
    print(format_summary(summary))
    if sprt is not None:
        print(format_sprt(summary))
    if args.out:
        out = {"agents": [args.a, args.b], "seed": args.seed, "config": cfg._asdict(),
               "openings": args.openings,
               "summary": json_safe(summary), "games": results}
        with open(args.out, "w", encoding="utf-8") as f:
            json.dump(out, f, indent=1)
        print(f"games written to {args.out}")
    if args.replay and args.replay_game >= len(results):  # the SPRT stopped before it
        print(f"no replay: game {args.replay_game} was not played ({len(results)} games)")
    elif args.replay:
        write_replay(results[args.replay_game], cfg, args.replay)
        print(f"replay of game {args.replay_game} written to {args.replay}")
    if args.replays:
        print(f"replays written: {write_replays(results, cfg, args.replays, [args.a, args.b])}")
    return SPRT_EXIT[summary["sprt"]["verdict"]] if sprt is not None else 0


def add_trust_arguments(p, sprt=True):
    """The flags of issue 16: ``--openings``, ``--sprt`` (matches only), ``--replays``."""
    g = p.add_argument_group("opening suites, SPRT and replays")
    g.add_argument("--openings", default=None, metavar="FILE|balanced:K|none",
                   help="openings, each played twice with colours swapped: a file of move "
                        "strings (1-based columns), a shipped balanced suite or none "
                        "(default: the largest balanced suite on 7x6, none on other boards)")
    if sprt:
        g.add_argument("--sprt", default=None, metavar="ELO0,ELO1[,ALPHA,BETA]",
                       help="stop when the pentanomial GSPRT decides; exit 0 for H1, 1 for H0, "
                            "3 if --games ran out first")
    g.add_argument("--replays", metavar="DIR", default=None,
                   help="write kaggle's HTML replay of every game and an index.html")


def trust_options(args, cfg):
    """(openings list or None, Sprt or None) of the parsed flags; ValueError if bad.
    Also checks early that ``--replays`` can be written."""
    from scripts.arena import openings as suites
    if args.openings is None:
        args.openings = suites.default_openings(cfg.rows, cfg.columns, cfg.inarow)
    openings = suites.resolve(args.openings, cfg.rows, cfg.columns, cfg.inarow)
    openings = None if openings == [""] else openings
    sprt = stats.parse_sprt(args.sprt) if getattr(args, "sprt", None) else None
    if args.replays:
        check_replays(args.replays)
    return openings, sprt


if __name__ == "__main__":
    sys.exit(main())
