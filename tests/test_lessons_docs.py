"""The figures docs/lessons.md quotes must be the ones the code prints: for the
experiments that are cheap at full size and take no time measurement, the quoted
figures are held here, each beside the text the experiment prints for it (seed 0, the
full sizes, as in the docs), and the test fails when either the docs or the code
drifts. (The slow experiments' figures, minutes at full size, are re-measured by
``connectx lessons all`` only; their quick runs are checked in tests/test_lessons.py.)"""
import os
import re

import pytest

from scripts.lessons import by_name, format_rows

DOCS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "docs",
                    "lessons.md")

# experiment -> [(as the docs quote it, as the experiment prints it)]
QUOTED = {
    "mini-isolation": [
        ("| values of the openings (0,0) (1,0) (2,0) (0,1) (1,1) | +inf -inf +inf +inf -inf "
         "| +inf -inf +inf +inf -inf (same) |", "package: +inf -inf +inf +inf -inf  |  same"),
        ("| 219 / 122 (package's reading: fewer) |", "package: 219 / 122"),
        ("| 1000/1000 (same) |", "package: 1000/1000"),
    ],
    "textbook-trees": [("the root's value is 3 (the article's 3: same)",
                        "material: 3  |  package: 3 (minimax 3)  |  same"),
                       ("minimax gives the left move -1 and the right +10 and picks the right "
                        "one (the\ntutorial's words: same)",
                        "package: left -1, right +10: the right move  |  same")],
    "rollout-book": [
        ("| 10 | 2/6 | 157/400 won (39%): worse than random (random against random: 207/400) |",
         "10: 2/6, 100: 0/6, 1000: 0/6, 10000: 0/6"),
        ("157/400 won (39%)", "package: 157/400 won (39%)"),
        ("random against random: 207/400", "random against random won 207"),
        ("| 10,000 | 0/6 | 278/400 won (70%, 95% interval [65%, 74%]) |",
         "package: 278/400 won (70%)  |  package's reading (the book plays better than "
         "random): same: 95% interval [65%, 74%]"),
        ("| 10 | 39/65 | 70/96 | 37/65 | 69/96 |",
         "10: sums 39/65, sums folded 70/96, bound 37/65, bound folded 69/96"),
        ("| 1,000 | 50/100 | 16/100 | 51/100 | 44/100 |",
         "1000: sums 50/100, sums folded 16/100, bound 51/100, bound folded 44/100"),
        ("44.3% of the answers lose the value (95% interval [38.7%, 50.0%]) against 53.2%",
         "same: 44.3% [38.7%, 50.0%] against 53.2%"),
        ("The lower bound: 53.2% against 53.2% (differs",
         "differs: the bound loses no fewer values, 53.2% [47.2%, 59.1%] against 53.2%"),
    ],
    "coin-game": [
        ("moving first it wins 97/100 against random (the chapter's 96/100,\ninside the 95% "
         "interval [92%, 99%])", "material: 96/100 won  |  package: 97/100 won  |  same: 96% "
         "against the package's 95% interval [92%, 99%]"),
        ("and 0/100 against the rule-based player", "material: 0/100 won  |  package: 0/100 won"),
    ],
}


def squeeze(text):
    return re.sub(r"\s+", " ", text)


@pytest.mark.parametrize("name", sorted(QUOTED))
def test_the_docs_quote_what_the_experiment_prints(name):
    docs = squeeze(open(DOCS, encoding="utf-8").read())
    printed = squeeze(format_rows(by_name()[name].run(quick=False, seed=0)))
    for quoted, shown in QUOTED[name]:
        assert squeeze(quoted) in docs, f"docs/lessons.md no longer quotes: {quoted}"
        assert squeeze(shown) in printed, f"{name} now prints:\n{printed}"


def test_the_docs_give_the_time_of_lessons_all():
    docs = open(DOCS, encoding="utf-8").read()
    assert re.search(r"connectx lessons all +# every one \(\d+ min \d+ s", docs), \
        "docs/lessons.md: the measured time of connectx lessons all"
