"""Never lose on a technicality: a short seeded fuzz run and the budget under CPU load."""
import io

import pytest

import agents
from scripts.arena.games import move_failure
from scripts.arena.specs import MatchConfig
from scripts.bench import load as budget_under_load
from scripts.commands import fuzz


@pytest.mark.slow
def test_short_seeded_fuzz_run_has_no_failures():
    out = io.StringIO()
    # perfect without the overage here: with it a move may take seconds (that path is
    # covered by the overage accounting, in the long runs of scripts.commands.fuzz)
    report = fuzz.run(fuzz.default_agents(), None, games=4, seconds=None, seed=7, max_side=12,
                      out=out, act_timeouts=(0.1, 0.2),
                      options={"perfect": {"use_overage": False}})
    text = out.getvalue()
    for name, r in report.items():
        assert r["games"] == 4, text
        assert sum(r[s] for s in fuzz.STATUSES) == 0, text
        assert r["worst"] < 1.0, text
        assert r["worst_act"] < 1.0, text  # no agent here spends overage


def test_move_failure_rejects_what_kaggle_rejects():
    """The one game loop's check of a move, Kaggle's rule (fuzz, matches and play share
    it)."""
    import numpy as np
    cfg = MatchConfig(6, 3, 4, 2.0, 60.0)
    heights = np.array([0, 6, 0])

    def status(action, elapsed=0.0, overage=60.0):
        failure = move_failure(action, elapsed, overage, heights, cfg)
        return None if failure is None else failure[0]

    assert status(np.int64(0)) == "INVALID"
    assert status(True) == "INVALID"
    assert status(0.0) == "INVALID"
    assert status(1) == "INVALID"  # full column
    assert status(3) == "INVALID"
    assert status(2) is None
    # the overage pays for a move's excess over actTimeout; beyond it, TIMEOUT (first)
    assert status(2, elapsed=2.5, overage=0.6) is None
    assert status(2, elapsed=2.5, overage=0.4) == "TIMEOUT"
    assert status(3, elapsed=2.5, overage=0.4) == "TIMEOUT"


def test_alphabeta_stays_in_budget_under_cpu_load():
    with budget_under_load.cpu_hogs(1):
        times = budget_under_load.measure(agents.make("alphabeta"), 16, 0.5)
    assert max(times) < 0.5, times
