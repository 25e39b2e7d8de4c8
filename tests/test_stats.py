"""scripts.arena.stats: pentanomial summary and GSPRT against hand-computed values, an
independent maximum-likelihood reference and seeded simulations of whole SPRTs."""
import math

import numpy as np
import pytest

from scripts.arena import stats


def test_pentanomial_counts_pair_points():
    assert stats.pentanomial([0, 0.5, 1, 1, 1.5, 2, 2, 2]) == [1, 1, 2, 1, 3]
    with pytest.raises(ValueError, match="0.75"):
        stats.pentanomial([0.75])
    with pytest.raises(ValueError):
        stats.pentanomial([2.5])


def test_summary_hand_computed():
    """[0, 1, 2, 1, 0]: mean 1/2, variance 2 * (1/4) * (1/4)^2 = 1/32 per pair, so the
    standard error over 4 pairs is sqrt(1/128) and the interval 0.5 +- 1.96 * 0.0884."""
    s = stats.summary([0, 1, 2, 1, 0])
    assert s["pairs"] == 4 and s["score"] == 0.5 and s["los"] == 0.5
    assert s["stderr"] == pytest.approx(math.sqrt(1 / 128))
    assert s["score_ci"] == pytest.approx([0.5 - stats.Z95 * math.sqrt(1 / 128),
                                           0.5 + stats.Z95 * math.sqrt(1 / 128)])
    assert s["elo"] == 0.0
    assert s["elo_ci"][1] == pytest.approx(-s["elo_ci"][0]) and s["elo_ci"][1] == \
        pytest.approx(125.6, abs=0.1)
    # [0, 0, 1, 2, 1]: mean 3/4 (Elo 400 log10 3), same variance, LOS = Phi(0.25 / 0.0884)
    s = stats.summary([0, 0, 1, 2, 1])
    assert s["score"] == 0.75 and s["elo"] == pytest.approx(400 * math.log10(3))
    assert s["los"] == pytest.approx(0.5 * math.erfc(-0.25 / math.sqrt(1 / 128) / math.sqrt(2)))
    assert s["los"] == pytest.approx(0.99766, abs=1e-5)


def test_summary_edges():
    same = stats.summary([0, 0, 5, 0, 0])  # nothing varies: Wilson over 5 pairs, not a point
    assert same["score_ci"] == pytest.approx(list(stats.wilson(0.5, 5))) and same["los"] == 0.5
    low, high = same["score_ci"]
    assert low == pytest.approx(1 - high) and low < 0.3
    swept = stats.summary([0, 0, 0, 0, 3])
    assert swept["elo"] == math.inf and swept["los"] == 1.0
    assert swept["score_ci"][1] == 1.0 and 0.3 < swept["score_ci"][0] < 0.6
    empty = stats.summary([0, 0, 0, 0, 0])
    assert empty["pairs"] == 0 and empty["score_ci"] == [0.0, 1.0]
    assert stats.summary([1, 0, 0, 0, 1])["score_ci"] == [0.0, 1.0]  # clipped
    assert stats.draw_ratio([1, 0.5, 0.5, 0]) == 0.5 and stats.draw_ratio([]) == 0.0


def test_sprt_bounds_and_parsing():
    t = stats.parse_sprt("0,20")
    assert (t.elo0, t.elo1, t.alpha, t.beta) == (0, 20, 0.05, 0.05)
    assert t.lower == pytest.approx(math.log(0.05 / 0.95)) and t.upper == pytest.approx(
        math.log(0.95 / 0.05))
    assert stats.parse_sprt("-5, 5, 0.1, 0.2").upper == pytest.approx(math.log(0.8 / 0.1))
    for bad, words in (("0", "elo0,elo1"), ("0,x", "numbers"), ("20,0", "elo0 < elo1"),
                       ("0,20,0.5,0.05", "alpha"), ("0,20,0.05", "elo0,elo1"),
                       ("0,inf", "finite")):
        with pytest.raises(ValueError, match=words):
            stats.parse_sprt(bad)
    assert stats.verdict(3.0, t) == "H1" and stats.verdict(-3.0, t) == "H0"
    assert stats.verdict(0.0, t) is None


def _reference_llr(counts, elo0, elo1):
    """Maximum likelihood under each hypothesis by a general constrained optimiser."""
    optimize = pytest.importorskip("scipy.optimize")
    c = np.where(np.asarray(counts, float) == 0, stats.REGULARIZE, np.asarray(counts, float))
    p = c / c.sum()
    a = stats.PAIR_SCORES

    def best(s):
        res = optimize.minimize(lambda q: -(p * np.log(q)).sum(), p, method="SLSQP",
                                bounds=[(1e-12, 1)] * 5,
                                constraints=[{"type": "eq", "fun": lambda q: q.sum() - 1},
                                             {"type": "eq", "fun": lambda q: q @ a - s}],
                                options={"ftol": 1e-14, "maxiter": 500})
        return (p * np.log(res.x)).sum()

    n = sum(counts)
    return n * (best(stats.score_of_elo(elo1)) - best(stats.score_of_elo(elo0)))


@pytest.mark.parametrize("counts", [[3, 20, 50, 22, 5], [0, 10, 30, 40, 20], [7, 7, 7, 7, 7],
                                    [1, 0, 40, 0, 2]])
def test_llr_matches_an_independent_mle(counts):
    assert stats.llr(counts, 0, 20) == pytest.approx(_reference_llr(counts, 0, 20), abs=1e-4)


def test_llr_matches_the_normal_approximation_for_small_elo():
    """For close hypotheses LLR ~ N (s1 - s0) (2 s - s0 - s1) / (2 var)."""
    counts = [30, 200, 500, 230, 40]
    n = sum(counts)
    p = np.array(counts) / n
    s = p @ stats.PAIR_SCORES
    var = p @ (stats.PAIR_SCORES - s) ** 2
    s0, s1 = stats.score_of_elo(0), stats.score_of_elo(5)
    approx = n * (s1 - s0) * (2 * s - s0 - s1) / (2 * var)
    assert stats.llr(counts, 0, 5) == pytest.approx(approx, rel=0.02)
    assert stats.llr([0] * 5, 0, 5) == 0.0
    both = stats.llr(np.array([counts, counts[::-1]]), 0, 5)
    assert both.shape == (2,) and both[0] > 0 > both[1]


def _pentanomial_of(e, draws=0.3):
    """Pair distribution of two independent games with draw rate ``draws`` and mean
    score that of Elo ``e``."""
    s = stats.score_of_elo(e)
    w = (1 - draws + 2 * s - 1) / 2
    g = np.array([1 - draws - w, draws, w])
    return np.convolve(g, g)


@pytest.mark.parametrize("true_elo, wrong", [(0, "H1"), (40, "H0")])
def test_sprt_error_rates_stay_within_alpha_and_beta(true_elo, wrong):
    """1000 seeded simulated SPRT(0, 40) runs: at the H0 Elo the test accepts H1 at
    most alpha of the time, at the H1 Elo it accepts H0 at most beta of the time
    (plus three standard errors of the simulation, 0.021)."""
    test = stats.sprt(0, 40, 0.05, 0.05)
    verdicts, pairs = stats.simulate_sprt(test, _pentanomial_of(true_elo), 1000, 3000, seed=7)
    assert (verdicts == "").mean() < 0.01  # nearly every run reaches a bound
    assert (verdicts == wrong).mean() <= 0.05 + 3 * math.sqrt(0.05 * 0.95 / 1000)
    assert pairs.max() <= 3000


def test_sprt_stops_sooner_on_a_clear_difference():
    test = stats.sprt(0, 40)
    verdicts, pairs = stats.simulate_sprt(test, _pentanomial_of(200), 200, 3000, seed=1)
    assert (verdicts == "H1").all() and pairs.mean() < 40


def test_effective_pairs_widen_the_interval():
    """Repeats of the same pair (a deterministic agent) count once in the error."""
    full = stats.summary([0, 2, 4, 2, 0])
    once = stats.summary([0, 2, 4, 2, 0], effective=2)
    assert once["score"] == full["score"] and once["stderr"] == pytest.approx(2 * full["stderr"])
    assert stats.summary([0, 0, 0, 7, 0], effective=1)["score_ci"] == [0.0, 1.0]
    assert stats.summary([0, 0, 0, 7, 0], effective=1)["score"] == 0.75
