"""A head-to-head match: A against B, colours alternating, in pairs of games.

:func:`match` plays it (A has mark 1 in even-numbered games; games ``2i`` and ``2i + 1``
are a pair, the same opening with colours swapped) and returns a :class:`MatchResult`:
every game and :func:`summarize`'s statistics -- W-D-L for A, A's score with a 95%
interval, the Elo difference with its interval, move times, failures (INVALID,
TIMEOUT, ERROR) per agent, a text player's invalid answers, and on pairs the
pentanomial counts, pair-based Elo, LOS and the draw ratio; with an SPRT it stops
early. Results are identical for the same seed whatever the number of workers (for
agents with a fixed depth / iteration count, not ``time_limit``). In a notebook
:func:`match` takes agent callables as well as spec strings. The command line is
:mod:`scripts.commands.match` (``connectx match``), the printed forms
:mod:`scripts.arena.report`, the statistics :mod:`scripts.arena.stats`.
"""
import contextlib
from collections import namedtuple

import numpy as np

from scripts.arena import stats
from scripts.arena.extras import require
from scripts.arena.games import FAILURES, Fixture, game_seeds, score_of
from scripts.arena.suites import pair_openings
from scripts.arena.pools import game_executor, run_games
from scripts.arena.bars import progress_bar
from scripts.arena.replays import replay_env
from scripts.arena.report import format_summary
from scripts.arena.specs import in_process_only, parse_match_config, parse_spec


def schedule(spec_a, spec_b, n, seed, cfg, openings=None):
    """``n`` games, colours alternating, A first in game 0. Games ``2i`` and ``2i + 1``
    are a pair: the same opening with colours swapped (see :func:`pair_openings`)."""
    seeds = game_seeds(seed, n)
    starts = pair_openings(openings, (n + 1) // 2, seed)
    return [Fixture(i, (spec_a, spec_b) if i % 2 == 0 else (spec_b, spec_a), seeds[i], cfg,
                 starts[i // 2]) for i in range(n)]


# ---------------------------------------------------------------------------
# Pair statistics (issue 16): each opening twice, colours swapped
# ---------------------------------------------------------------------------


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
    low, high = stats.score_interval(score, n)

    def time_stats(values):
        return {"mean": float(np.mean(values)) if values else 0.0,
                "max": float(np.max(values)) if values else 0.0, "moves": len(values)}

    return {"agents": [a, b], "games": n, "wins": wins, "draws": draws, "losses": losses,
            "score": score, "score_ci": [low, high],
            "elo": stats.elo(score), "elo_ci": [stats.elo(low), stats.elo(high)],
            "times": {"A": time_stats(times["A"]), "B": time_stats(times["B"])},
            "failures": failures, "text": text_answers(results),
            "pairs": pair_summary(results), "workers": worker_shares(results)}


def text_answers(results):
    """``{"A": ..., "B": ...}``: for a side that is a text player, its answers that were
    no legal move over the games (the games' ``text`` records): ``invalid`` (``{category:
    count}``, in order of first appearance), ``fallbacks`` (moves it played after its
    re-prompts were spent), ``forfeits`` (games with a fallback: the arena would have
    ended them) and ``games``; None for a side that is no text player."""
    out = {"A": None, "B": None}
    for r in results:
        ma = a_mark(r)
        for who, mark in (("A", ma), ("B", 3 - ma)):
            record = (r.get("text") or [None, None])[mark - 1]
            if record is None:
                continue
            side = out[who] or {"invalid": {}, "fallbacks": 0, "forfeits": 0, "games": 0}
            for _, _, category, _ in record["invalid"]:
                side["invalid"][category] = side["invalid"].get(category, 0) + 1
            side["fallbacks"] += len(record["fallbacks"])
            side["forfeits"] += bool(record["fallbacks"])
            side["games"] += 1
            out[who] = side
    return out


class MatchResult(namedtuple("MatchResult", "games summary")):
    """What :func:`match` returns; unpacks as ``games, summary``.

    ``games``: one dict per game (see :func:`scripts.arena.games.play_game`); ``summary``: the
    statistics of :func:`summarize`; ``config``: the :class:`~scripts.arena.specs.MatchConfig`
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

    ``a``, ``b``: spec texts (see :mod:`scripts.arena.specs`) or agent callables (played in
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
            if dask is not None or (workers > 1 and games > 1):
                pool = stack.enter_context(game_executor(plan, workers, dask))
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
