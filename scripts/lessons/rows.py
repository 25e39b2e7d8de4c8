"""What an experiment returns: its :class:`Row` list, its :class:`Experiment` entry and
the verdict of a win rate (its progress bar: :class:`scripts.arena.bars.ProgressCallback`)."""
from dataclasses import dataclass, field

from scripts.arena.stats import score_interval


@dataclass
class Row:
    figure: str          # what is measured
    material: str        # the seed material's own figure or claim, "-" when it has none
    ours: str            # what the package measures
    # against the material: "same[: ...]", "differs: ...", "not shown ...: ..."; for a
    # row with no material figure, "package's reading ...": the package's own claim
    # (what it expects, labelled as its own) and whether the measure bears it out
    verdict: str


@dataclass
class Experiment:
    name: str
    source: str
    title: str
    run: object                      # run(quick=False, seed=0, progress=False) -> [Row]
    notes: list = field(default_factory=list)


def wilson(wins, games, z=1.96):
    """The 95% Wilson interval ``(low, high)`` of a rate of ``wins`` in ``games``, inside
    [0, 1] (:func:`scripts.arena.stats.score_interval`: no end rounded below 0, so none
    prints as -0%)."""
    return score_interval(wins / games, games, z)


def better_than_even(wins, games):
    """The verdict on "A plays better than B" from A's ``wins`` of ``games``: the 95%
    Wilson interval of A's winning rate above 1/2, below it, or straddling it."""
    low, high = wilson(wins, games)
    text = f"95% interval [{low:.0%}, {high:.0%}]"
    if low > 0.5:
        return f"same: {text}"
    if high < 0.5:
        return f"differs: {text}"
    return f"not shown at this size: {text}"
