"""The levels of ``perfect:skill=S`` are graded: a higher level loses fewer stones a move.

tests/test_levels.py checks that level 0 loses more than level 10 and that level 20 loses
nothing; a change that made every level from 5 up play at one temperature would pass it.
Here levels 5 < 10 < 15 < 20 in mean loss (agents.solver.labels.verdicts) on the shipped
labelled set's end-stage positions whose legal columns do not all score alike (127 of
163), over five seeds. The seeds are shared between the levels: above level 4 every move
draws the same random numbers (one for the random share, one for the softmax), so two
levels at one temperature play the very same moves and tie, and the strict order fails
whatever the seeds. End-stage positions are solved in milliseconds without the opening
database: about 0.5 s of CPU here once the solver's kernels are compiled.
"""
import os

import numpy as np

import agents
from agents.solver.labels import FULL, load_labels, verdicts

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHIPPED = os.path.join(ROOT, "scripts", "data", "labelled", "7x6.npz")
SEEDS = range(5)


def mean_loss(level, labelled, index, seeds):
    """The mean loss (stones a move) of ``perfect:skill=level`` over ``index`` and ``seeds``."""
    cfg = {"rows": labelled.rows, "columns": labelled.columns, "inarow": labelled.inarow,
           "actTimeout": 60.0}
    losses = []
    for seed in seeds:
        # warmup="now": every move by the exact analysis, never the stand-in of a compile
        agent = agents.make("perfect", skill=level, seed=seed, database=False, warmup="now")
        columns = []
        for i in index:
            board, mark = labelled.observation(i)
            columns.append(agent({"board": list(board), "mark": mark,
                                  "remainingOverageTime": 0.0}, cfg))
            if level < 20:
                assert agent.last["why"] in ("softmax", "win in one"), agent.last
        _, _, loss = verdicts(labelled.scores[index], columns)
        assert not np.isnan(loss).any()  # every move legal
        losses.append(loss.mean())
    return float(np.mean(losses))


def test_higher_levels_lose_less():
    labelled = load_labels(SHIPPED)
    s = labelled.scores.astype(np.int64)
    legal = s != FULL
    index = [i for i in range(len(labelled)) if labelled.stage[i] == 2
             and s[i][legal[i]].max() > s[i][legal[i]].min()]
    assert len(index) > 100
    loss = {level: mean_loss(level, labelled, index, SEEDS) for level in (5, 10, 15)}
    loss[20] = mean_loss(20, labelled, index, SEEDS[:1])  # full strength: no randomness to average
    # measured: 0.99, 0.76, 0.54, 0.0
    assert loss[5] > loss[10] > loss[15] > loss[20] == 0.0, loss
