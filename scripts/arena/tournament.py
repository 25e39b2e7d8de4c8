"""A round robin: every pair of agents plays the same number of games, colours
alternating (the command line: :mod:`scripts.commands.tournament`, ``connectx
tournament A B C ... [--games N] [--workers K] [--out DIR]``).

:func:`tournament` plays it; :func:`write_outputs` writes the cross table (``crosstable.csv``: row agent's points against the
column agent), the ratings (``ratings.csv``), every game (``games.json``) and a
chart of the ratings with their 95% intervals (``ratings.png``).

Ratings are a Bradley-Terry model on the Elo scale, P(i beats j) =
1 / (1 + 10^((R_j - R_i) / 400)), fitted on all games at once (a draw counts as
half a win for each side) with a weak normal prior (sd :data:`PRIOR_SD` Elo) that
keeps ratings finite when an agent wins or loses every game; they are shifted to
mean 0. Intervals are +-1.96 standard errors from the curvature of the fit
(Laplace approximation): with perfect scores they mostly reflect the prior.

``--openings`` and ``--replays DIR`` work as in :mod:`scripts.commands.match`: every pair of
agents meets the same openings, each twice with colours swapped.
"""
import csv
import itertools
import json
import math
import os

import numpy as np

from scripts.arena.games import Fixture, game_seeds, score_of
from scripts.arena.suites import pair_openings
from scripts.arena.pools import run_games
from scripts.arena.bars import progress_bar
from scripts.arena.report import json_safe
from agents.players.base import Struct
from scripts.arena.specs import in_process_only, parse_match_config, parse_spec
from scripts.arena.stats import Z95

PRIOR_SD = 1000.0  # Elo; weak next to the few hundred Elo between agents that score 25-75%
ELO = 400.0 / math.log(10.0)  # Elo points per unit of natural log-odds


def schedule(specs, games_per_pair, seed, cfg, openings=None):
    """All pairs (i < j), ``games_per_pair`` games each, i first in even games; games
    ``2g`` and ``2g + 1`` of a pair play the same opening (every pair of agents meets
    the same openings, see :func:`scripts.arena.suites.pair_openings`)."""
    pairs = list(itertools.combinations(range(len(specs)), 2))
    seeds = game_seeds(seed, len(pairs) * games_per_pair)
    starts = pair_openings(openings, (games_per_pair + 1) // 2, seed)
    out = []
    for p, (i, j) in enumerate(pairs):
        for g in range(games_per_pair):
            k = p * games_per_pair + g
            order = (specs[i], specs[j]) if g % 2 == 0 else (specs[j], specs[i])
            out.append(Fixture(k, order, seeds[k], cfg, starts[g // 2]))
    return out


def tally(results, names):
    """``points[i][j]`` (i's points against j) and ``played[i][j]`` over ``results``."""
    where = {n: i for i, n in enumerate(names)}
    n = len(names)
    points, played = np.zeros((n, n)), np.zeros((n, n))
    for r in results:
        first, second = (where[a] for a in r["agents"])
        s = score_of(r, 1)
        points[first, second] += s
        points[second, first] += 1 - s
        played[first, second] += 1
        played[second, first] += 1
    return points, played


def fit_ratings(points, played, prior_sd=PRIOR_SD, iterations=100):
    """Bradley-Terry ratings (Elo scale, mean 0) and their standard errors.

    Maximises sum_ij points_ij log p_ij + prior, p_ij = sigmoid(t_i - t_j), by
    Newton's method (the objective is concave); standard errors from the inverse of
    the negative Hessian, for the ratings shifted to mean 0."""
    n = len(points)
    t = np.zeros(n)
    precision = (ELO / prior_sd) ** 2  # prior on the natural-log-odds scale
    for _ in range(iterations):
        p = 1.0 / (1.0 + np.exp(-(t[:, None] - t[None, :])))
        grad = (points - played * p).sum(axis=1) - precision * t
        w = played * p * (1 - p)
        hess = w - np.diag(w.sum(axis=1)) - precision * np.eye(n)
        step = np.linalg.solve(hess, grad)
        t -= step
        if np.max(np.abs(step)) < 1e-10:
            break
    # inverse through eigh: the near-null direction (all ratings up together, held
    # only by the prior) stays in one eigenvector, which the centring removes cleanly
    values, vectors = np.linalg.eigh(-hess)
    centre = np.eye(n) - 1.0 / n
    v = centre @ vectors
    cov = (v / values) @ v.T
    ratings = ELO * (t - t.mean())
    return ratings, ELO * np.sqrt(np.clip(np.diag(cov), 0, None))


def cross_table(names, points, played):
    """Rows of the cross table (strings): points of the row agent / games."""
    rows = [["agent"] + [f"{k + 1}" for k in range(len(names))] + ["points", "games"]]
    for i, name in enumerate(names):
        cells = ["-" if i == j else f"{points[i, j]:g}/{played[i, j]:g}"
                 for j in range(len(names))]
        rows.append([f"{i + 1} {name}"] + cells + [f"{points[i].sum():g}",
                                                    f"{played[i].sum():g}"])
    return rows


def format_table(rows, left=(0,)):
    """Aligned text table; columns in ``left`` are left-aligned, the others right."""
    widths = [max(len(r[k]) for r in rows) for k in range(len(rows[0]))]
    return "\n".join("  ".join(c.ljust(w) if k in left else c.rjust(w)
                               for k, (c, w) in enumerate(zip(r, widths))) for r in rows)


def rating_rows(names, ratings, errors, points, played):
    order = np.argsort(-ratings, kind="stable")
    out = []
    for rank, i in enumerate(order, 1):
        out.append({"rank": rank, "agent": names[i], "rating": round(float(ratings[i]), 1),
                    "low": round(float(ratings[i] - Z95 * errors[i]), 1),
                    "high": round(float(ratings[i] + Z95 * errors[i]), 1),
                    "stderr": round(float(errors[i]), 1), "points": float(points[i].sum()),
                    "games": int(played[i].sum())})
    return out


def plot_ratings(rows, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = rows[::-1]  # best at the top
    y = np.arange(len(rows))
    values = np.array([r["rating"] for r in rows])
    fig, ax = plt.subplots(figsize=(7, 0.5 * len(rows) + 1.5))
    ax.errorbar(values, y, xerr=[values - [r["low"] for r in rows],
                                 [r["high"] for r in rows] - values],
                fmt="o", capsize=4)
    ax.set_yticks(y, [r["agent"] for r in rows])
    ax.axvline(0, color="grey", lw=0.5)
    ax.set_xlabel("rating (Elo scale, mean 0), 95% interval")
    ax.set_title("Round robin: Bradley-Terry ratings")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def tournament(texts, games=10, cfg=None, seed=0, workers=1, dask=None, progress=True,
               openings=None):
    """Play the round robin. ``texts``: spec texts or agent callables (callables are
    played in this process: ``workers=1``, no ``dask``); ``cfg`` as in
    ``scripts.arena.match.match``; ``openings``: move strings (None: every game from the empty
    board). Returns a :class:`~scripts.arena.specs.Struct` (a dict whose keys
    also read as attributes): ``names``, ``results`` (every game), ``points`` and
    ``played`` (matrices, row agent against column agent), ``ratings`` (rows of
    :func:`rating_rows`, best first). ``ValueError`` on bad input."""
    cfg = cfg if isinstance(cfg, tuple) else parse_match_config(cfg)
    specs = [parse_spec(t) for t in texts]
    in_process_only(specs, workers, dask)
    names = [s.text for s in specs]
    seen = set()
    for n in names:
        if n in seen:
            raise ValueError(f"agent {n!r} is given twice; a round robin needs distinct agents")
        seen.add(n)
    if len(specs) < 2:
        raise ValueError("a tournament needs at least 2 agents")
    plan = schedule(specs, games, seed, cfg, openings)
    bar = progress_bar(len(plan), "games", "game", progress)
    try:
        results = run_games(plan, workers, dask, (lambda r: bar.update(1)) if bar else None)
    finally:
        if bar is not None:
            bar.close()
    points, played = tally(results, names)
    ratings, errors = fit_ratings(points, played)
    return Struct(names=names, results=results, points=points, played=played,
                  ratings=rating_rows(names, ratings, errors, points, played))


def write_outputs(t, out, cfg, seed, plot=True):
    """crosstable.csv, ratings.csv, games.json and (if ``plot``) ratings.png in
    directory ``out``; their paths by kind."""
    os.makedirs(out, exist_ok=True)
    paths = {k: os.path.join(out, f) for k, f in (("cross", "crosstable.csv"),
                                                     ("ratings", "ratings.csv"),
                                                     ("games", "games.json"),
                                                     ("png", "ratings.png"))}
    with open(paths["cross"], "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["agent"] + t["names"])
        for i, name in enumerate(t["names"]):
            w.writerow([name] + ["" if i == j else f"{t['points'][i, j]:g}"
                                 for j in range(len(t["names"]))])
    with open(paths["ratings"], "w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=list(t["ratings"][0]))
        w.writeheader()
        w.writerows(t["ratings"])
    with open(paths["games"], "w", encoding="utf-8") as f:
        json.dump(json_safe({"agents": t["names"], "seed": seed, "config": cfg._asdict(),
                             "ratings": t["ratings"], "games": t["results"]}), f, indent=1)
    if plot:
        plot_ratings(t["ratings"], paths["png"])
    else:
        del paths["png"]
    return paths
