"""The verdict of a move from labelled scores, on hand-computed rows: a won, a drawn and a
lost position, and a full column. Every judge of the package must agree with these rows
(perfect: the best score; good: the sign of the best; loss: best less the move's score)."""
import math

import numpy as np
import pytest

from agents.solver.labels import FULL

# (scores of the columns, column played, perfect, good, loss); loss None: no verdict
ROWS = [
    # a won position: best +3 (column 0)
    ([3, 1, FULL, -2, 0], 0, True, True, 0),
    ([3, 1, FULL, -2, 0], 1, False, True, 2),    # a slower win keeps the value
    ([3, 1, FULL, -2, 0], 4, False, False, 3),   # a draw where a win was there
    ([3, 1, FULL, -2, 0], 3, False, False, 5),   # a loss where a win was there
    ([3, 1, FULL, -2, 0], 2, False, False, None),  # a full column: no move
    # a drawn position: best 0 (columns 0 and 2)
    ([0, -1, 0, -4, FULL], 2, True, True, 0),
    ([0, -1, 0, -4, FULL], 1, False, False, 1),  # a loss where a draw was there
    ([0, -1, 0, -4, FULL], 3, False, False, 4),
    # a lost position: best -1 (columns 1 and 4): every move keeps the value
    ([-2, -1, -3, FULL, -1], 4, True, True, 0),
    ([-2, -1, -3, FULL, -1], 0, False, True, 1),
    ([-2, -1, -3, FULL, -1], 2, False, True, 2),
    ([-2, -1, -3, FULL, -1], 3, False, False, None),  # full, in a lost position: not good
]


def check(perfect, good, loss, row):
    _, _, want_perfect, want_good, want_loss = row
    assert (bool(perfect), bool(good)) == (want_perfect, want_good), row
    if want_loss is None:
        assert loss is None or math.isnan(loss), row
    else:
        assert loss == want_loss, row


@pytest.mark.parametrize("row", ROWS)
def test_judging_verdicts_follow_the_hand_computed_rows(row):
    from scripts.arena.judging import verdicts

    class Scores:  # what verdicts reads of a labelled set
        scores = np.array([row[0]], dtype=np.int16)

        def __len__(self):
            return 1
    column = row[1] if row[0][row[1]] != FULL else -1  # a full column is a failed move there
    perfect, good, loss = verdicts(Scores(), [column])
    check(perfect[0], good[0], loss[0], row)


@pytest.mark.parametrize("row", ROWS)
def test_bench_value_keeps_the_value_by_the_same_rule(row):
    from scripts.bench.value import kept
    assert kept(row[1], row[0]) == row[3]
