"""Match statistics on game pairs: the pentanomial model and its GSPRT.

A match plays each opening twice with colours swapped. The two games of a pair are
not independent (the opening favours one colour, a deterministic agent replays its
choices), so results are counted per pair: A's points in the pair, 0, 0.5, 1, 1.5
or 2, give the pentanomial counts ``[n0, n1, n2, n3, n4]`` (index = 2 x points).
Everything below treats pairs, not games, as the independent trials.

Scores are per game, in [0, 1]: a pair's score is its points / 2 (0, 1/4, ... 1).
Elo is logistic, ``400 log10(s / (1 - s))``. Formulas follow Michel Van den Bergh's
notes on the pentanomial model and the generalised SPRT (GSPRT), as fastchess and
fishtest use them:

* mean score ``s`` and per-pair variance ``v`` of the empirical distribution;
  95% interval ``s +- z sqrt(v / N)`` (N pairs), mapped to Elo;
* LOS = Phi((s - 1/2) / sqrt(v / N));
* GSPRT: LLR = N sum_i p_i log(p1_i / p0_i), where ``p`` are the observed
  frequencies and ``pk`` the distribution closest to ``p`` (maximum likelihood)
  whose mean is the score of Elo ``elo_k``: ``pk_i = p_i / (1 + lam (a_i - s_k))``
  with ``lam`` the root of ``sum p_i (a_i - s_k) / (1 + lam (a_i - s_k)) = 0``.
  Bounds ``log(beta / (1 - alpha))`` (accept H0) and ``log((1 - beta) / alpha)``
  (accept H1).

Pure Python and numpy; the GSPRT functions also take arrays of counts
(``shape (..., 5)``) so simulations evaluate many matches at once.
"""
import math
from collections import namedtuple

import numpy as np

Z95 = 1.959963984540054
PAIR_SCORES = np.array([0.0, 0.25, 0.5, 0.75, 1.0])  # per-game score of each pentanomial cell
REGULARIZE = 1e-3  # added to empty cells in the GSPRT so a 0 count does not pin the MLE

Sprt = namedtuple("Sprt", "elo0 elo1 alpha beta lower upper")


def pair_index(points):
    """Pentanomial cell of A's points in a pair (0, 0.5, 1, 1.5 or 2); ValueError otherwise."""
    k = points * 2
    if k != int(k) or not 0 <= k <= 4:
        raise ValueError(f"a pair scores 0, 0.5, 1, 1.5 or 2 points, not {points!r}")
    return int(k)


def pentanomial(pair_points):
    """Counts ``[n0, n1, n2, n3, n4]`` of the pair points in ``pair_points``."""
    counts = [0] * 5
    for p in pair_points:
        counts[pair_index(p)] += 1
    return counts


def elo(score):
    """Logistic Elo of a mean score: 400 log10(s / (1 - s)); +-inf at 1 and 0."""
    if score >= 1:
        return math.inf
    if score <= 0:
        return -math.inf
    return 400.0 * math.log10(score / (1.0 - score))


def score_of_elo(e):
    """The mean score of Elo difference ``e``: 1 / (1 + 10^(-e / 400))."""
    return 1.0 / (1.0 + 10.0 ** (-e / 400.0))


def _phi(x):
    return 0.5 * math.erfc(-x / math.sqrt(2.0))


def summary(counts, z=Z95, effective=None):
    """Statistics of pentanomial ``counts`` (A's point of view), a JSON-ready dict.

    ``effective``: how many of the pairs are independent trials (default all). A
    deterministic agent replays the same pair of games whenever an opening comes
    again (or always, from the empty board): such repeats add no information, so the
    caller passes the number of distinct pair records and the standard error uses
    it; with fewer than 2 nothing is known about the spread and the interval is
    [0, 1] (LOS 0.5). Keys:

    ``pairs``, ``pentanomial`` (the counts), ``score`` (mean per game), ``score_ci``
    (``score +- z * stderr``, clipped to [0, 1]; when every pair scored the same,
    the Wilson interval over the pairs instead of a single point), ``elo`` and ``elo_ci`` (the score
    and its interval mapped to Elo; +-inf at the ends), ``stderr`` (of the mean
    score), ``los`` (likelihood of superiority, P(A stronger); 0.5 when nothing
    varies). Draws need the games themselves (a 1-point pair is two draws or a
    win and a loss): see :func:`draw_ratio`. With no pairs the score is 0.5 and the
    interval [0, 1]."""
    counts = [int(c) for c in counts]
    n = sum(counts)
    m = n if effective is None else min(int(effective), n)
    if n == 0 or m < 2:
        s = float(np.array(counts) @ PAIR_SCORES / n) if n else 0.5
        return {"pairs": n, "effective_pairs": m, "pentanomial": counts, "score": s,
                "score_ci": [0.0, 1.0], "elo": elo(s), "elo_ci": [-math.inf, math.inf],
                "stderr": math.inf, "los": 0.5}
    p = np.array(counts, dtype=float) / n
    s = float(p @ PAIR_SCORES)
    var = float(p @ (PAIR_SCORES - s) ** 2)
    se = math.sqrt(var / m)
    low, high = max(0.0, s - z * se), min(1.0, s + z * se)
    if var == 0:  # every pair scored the same: the normal interval would be a point
        low, high = wilson(s, m, z)
    los = 0.5 if se == 0 and s == 0.5 else (1.0 if se == 0 and s > 0.5 else
                                            0.0 if se == 0 else _phi((s - 0.5) / se))
    return {"pairs": n, "effective_pairs": m, "pentanomial": counts, "score": s,
            "score_ci": [low, high],
            "elo": elo(s), "elo_ci": [elo(low), elo(high)], "stderr": se, "los": los}


def wilson(s, n, z=Z95):
    """Wilson interval of a mean ``s`` of ``n`` trials in [0, 1] (conservative: a
    variable in [0, 1] with mean ``s`` has variance at most ``s (1 - s)``)."""
    denom = 1 + z * z / n
    centre = (s + z * z / (2 * n)) / denom
    half = z * math.sqrt(s * (1 - s) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def score_interval(score, n, z=Z95):
    """Wilson interval for a mean score over ``n`` games (draws count 1/2: conservative)."""
    if n == 0:
        return 0.0, 1.0
    low, high = wilson(score, n, z)
    # exact ends for all wins / all losses (rounding would leave 0.9999999999999999)
    return (0.0 if score <= 0 else low), (1.0 if score >= 1 else high)


def draw_ratio(game_scores):
    """Fraction of drawn games (score 0.5) among ``game_scores``; 0 for none."""
    game_scores = list(game_scores)
    return sum(1 for g in game_scores if g == 0.5) / len(game_scores) if game_scores else 0.0


# ---------------------------------------------------------------------------
# GSPRT
# ---------------------------------------------------------------------------


def sprt(elo0, elo1, alpha=0.05, beta=0.05):
    """A validated :class:`Sprt`: H0 Elo = ``elo0`` against H1 Elo = ``elo1`` (logistic),
    false-positive rate ``alpha``, false-negative rate ``beta``, and the LLR bounds."""
    for name, v in (("alpha", alpha), ("beta", beta)):
        if not 0 < v < 0.5:
            raise ValueError(f"SPRT {name} must be in (0, 0.5), got {v!r}")
    if not elo0 < elo1:
        raise ValueError(f"SPRT needs elo0 < elo1, got {elo0!r}, {elo1!r}")
    if not (-1000 < elo0 and elo1 < 1000):
        raise ValueError("SPRT Elo bounds must be within (-1000, 1000)")
    return Sprt(float(elo0), float(elo1), float(alpha), float(beta),
                math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha))


def parse_sprt(text):
    """``"elo0,elo1[,alpha,beta]"`` -> :class:`Sprt`; ValueError with a one-line message."""
    parts = [t.strip() for t in str(text).split(",")]
    if len(parts) not in (2, 4):
        raise ValueError(f"--sprt expects elo0,elo1[,alpha,beta], got {text!r}")
    try:
        values = [float(t) for t in parts]
    except ValueError:
        raise ValueError(f"--sprt expects numbers, got {text!r}") from None
    if not all(math.isfinite(v) for v in values):
        raise ValueError(f"--sprt expects finite numbers, got {text!r}")
    return sprt(*values)


def _mle(p, s):
    """The distribution closest to ``p`` (rows of 5 frequencies) with mean score ``s``.

    Solves sum p_i (a_i - s) / (1 + lam (a_i - s)) = 0 by bisection on ``lam`` over
    the interval where every ``1 + lam (a_i - s)`` stays positive (the left side is
    decreasing in ``lam`` there)."""
    d = PAIR_SCORES - s  # (5,)
    lo = np.full(p.shape[:-1], -1.0 / d.max() + 1e-12)
    hi = np.full(p.shape[:-1], -1.0 / d.min() - 1e-12)
    for _ in range(48):  # the bracket is < 8 wide: 2^-48 of it is below 1e-13
        mid = 0.5 * (lo + hi)
        f = (p * d / (1.0 + mid[..., None] * d)).sum(axis=-1)
        up = f > 0
        lo = np.where(up, mid, lo)
        hi = np.where(up, hi, mid)
    lam = 0.5 * (lo + hi)
    return p / (1.0 + lam[..., None] * d)


def llr(counts, elo0, elo1):
    """GSPRT log-likelihood ratio of H1 (Elo ``elo1``) against H0 (``elo0``) for
    pentanomial ``counts`` (5 numbers, or an array of shape ``(..., 5)``); 0 with no
    pairs. Empty cells get :data:`REGULARIZE` so early LLRs stay finite."""
    c = np.asarray(counts, dtype=float)
    n = c.sum(axis=-1)
    reg = np.where(c == 0, REGULARIZE, c)
    p = reg / reg.sum(axis=-1, keepdims=True)
    p0, p1 = _mle(p, score_of_elo(elo0)), _mle(p, score_of_elo(elo1))
    out = n * (p * np.log(p1 / p0)).sum(axis=-1)
    out = np.where(n > 0, out, 0.0)
    return float(out) if out.ndim == 0 else out


def verdict(value, test):
    """"H1" (LLR at or above the upper bound), "H0" (at or below the lower) or None."""
    if value >= test.upper:
        return "H1"
    if value <= test.lower:
        return "H0"
    return None


def simulate_sprt(test, probabilities, matches, max_pairs, seed):
    """Run ``matches`` simulated SPRTs whose pairs are drawn from the pentanomial
    ``probabilities``; each stops at its first bound or after ``max_pairs``.
    Returns ``(verdicts, pairs)``: arrays of "H0"/"H1"/"" and of pairs played."""
    rng = np.random.default_rng(seed)
    probabilities = np.asarray(probabilities, dtype=float)
    counts = np.zeros((matches, 5))
    result = np.full(matches, "", dtype=object)
    played = np.full(matches, max_pairs)
    running = np.ones(matches, dtype=bool)
    for k in range(1, max_pairs + 1):
        draws = rng.choice(5, size=matches, p=probabilities)
        counts[np.arange(matches), draws] += running
        if k % 2 and k < max_pairs:  # check every other pair (cheaper; SPRT stays valid)
            continue
        value = llr(counts, test.elo0, test.elo1)
        h1 = running & (value >= test.upper)
        h0 = running & (value <= test.lower)
        result[h1], result[h0] = "H1", "H0"
        played[h1 | h0] = k
        running &= ~(h1 | h0)
        if not running.any():
            break
    return result, played
