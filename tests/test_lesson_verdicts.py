"""The lessons' verdict functions on chosen numbers: each must say "same", "differs" and
"not shown" where the numbers call for it.

The lessons' own runs (tests/test_lessons.py) pin verdicts that are all "same" today, so a
verdict function that always answered "same" would pass them; these rows would not. Every
expected verdict is worked out by hand from the rule in the function's docstring.
"""
import pytest

from scripts.lessons.adversarial import pruning_verdict
from scripts.lessons.branching import ORDERINGS, _verdict as branching_verdict
from scripts.lessons.chapters import _ratio_verdict, rate_verdict
from scripts.lessons.rows import better_than_even


def word(verdict):
    """The verdict's first word(s): "same", "differs", "not shown" or "package's reading"."""
    for w in ("same", "differs", "not shown", "package's reading holds",
              "package's reading fails"):
        if verdict.startswith(w):
            return w
    raise AssertionError(f"not a verdict: {verdict!r}")


@pytest.mark.parametrize("wins, games, expected", [
    # 95% Wilson interval of 40/50: [0.67, 0.89], above 1/2
    (40, 50, "same"),
    # 10/50: [0.11, 0.33], below 1/2
    (10, 50, "differs"),
    # 25/50: [0.37, 0.63] straddles 1/2; 1/1: [0.21, 1.00] too (one game shows nothing)
    (25, 50, "not shown"), (1, 1, "not shown"),
    # the edges: 31/50 low 0.4815, 32/50 low 0.5014; 18/50 high 0.4986, 19/50 high 0.5185
    (31, 50, "not shown"), (32, 50, "same"), (18, 50, "differs"), (19, 50, "not shown"),
])
def test_better_than_even(wins, games, expected):
    assert word(better_than_even(wins, games)) == expected


@pytest.mark.parametrize("wins, games, rate, expected", [
    (50, 100, 0.5, "same"),       # interval [0.40, 0.60]
    (50, 100, 0.62, "differs"),   # above it
    (50, 100, 0.38, "differs"),   # below it
    (0, 20, 0.0, "same"),         # [0.00, 0.16] holds 0
    (0, 20, 0.2, "differs"),
])
def test_rate_verdict(wins, games, rate, expected):
    assert word(rate_verdict(wins, games, rate)) == expected


@pytest.mark.parametrize("plain, shallow, paranoid, exact, expected", [
    (100, 80, 40, True, "same"),        # alpha-beta on the paranoid tree prunes more
    (100, 40, 80, True, "differs"),     # shallow pruning saves more
    (100, 60, 60, True, "differs"),     # as much
    (100, 100, 100, True, "not shown"),  # nothing pruned by either
    (100, 80, 40, False, "differs"),    # a changed value outranks the counts
    (100, 100, 100, False, "differs"),
])
def test_pruning_verdict(plain, shallow, paranoid, exact, expected):
    assert word(pruning_verdict(plain, shallow, paranoid, exact)) == expected


@pytest.mark.parametrize("times, nodes, ratio, quick, expected", [
    ([10.0, 1.0], [1000, 10], 10.0, False, "same"),
    ([10.0, 1.0], [1000, 10], 30.0, False, "same"),      # 10 = 30 / 3: the edge is in
    ([10.0, 1.0], [1000, 10], 3.4, False, "same"),       # 10 <= 3 * 3.4
    ([10.0, 1.0], [1000, 10], 31.0, False, "differs"),   # 10 < 31 / 3
    ([10.0, 1.0], [1000, 10], 3.0, False, "differs"),    # 10 > 3 * 3
    ([10.0, 1.0], [1000, 10], 10.0, True, "not shown"),  # --quick judges no times
    ([10.0], [1000], 10.0, False, "not shown"),          # one search: no ratio
])
def test_ratio_verdict(times, nodes, ratio, quick, expected):
    assert word(_ratio_verdict(times, nodes, ratio, quick)) == expected


PLAIN, KILLERS, OTHER = ORDERINGS[0][0], ORDERINGS[1][0], ORDERINGS[2][0]


@pytest.mark.parametrize("label, c, mean_moves, expected", [
    # minimax: the last factor (343 / 49 = 7) within 15% of the mean number of moves
    ("minimax", [1, 7, 49, 343], 7.0, "same"),
    ("minimax", [1, 7, 49, 343], 8.2, "same"),       # |7 - 8.2| = 1.2 <= 1.23
    ("minimax", [1, 7, 49, 343], 8.3, "differs"),    # 1.3 > 1.245
    ("minimax", [1, 7, 49, 343], 5.0, "differs"),
    # killers against the plain ordering's last count (200)
    (KILLERS, [1, 7, 30, 150], None, "same"),
    (KILLERS, [1, 7, 30, 200], None, "not shown"),
    (KILLERS, [1, 7, 30, 250], None, "not shown"),
    # any other ordering: the package's own reading against minimax's count at that depth
    (OTHER, [1, 7, 30, 150], None, "package's reading holds"),
    (OTHER, [1, 7, 30, 343], None, "package's reading fails"),
])
def test_branching_verdict(label, c, mean_moves, expected):
    counts = {"minimax": [1, 7, 49, 343], PLAIN: [1, 7, 40, 200]}
    assert word(branching_verdict(label, c, counts, mean_moves)) == expected
