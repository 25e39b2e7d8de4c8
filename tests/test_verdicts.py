"""The one verdict of a move from labelled scores (:mod:`agents.solver.labels`), on
hand-computed rows: a won, a drawn and a lost position, and a full column (perfect: the
best score; good: the sign of the best; loss: best less the move's score). The judges
that call it (``bench value``'s ``kept``, ``learn``'s ``good_moves``) are checked on
the same rows."""
import math
from types import SimpleNamespace

import numpy as np
import pytest

from agents.solver import labels
from agents.solver.labels import FULL, read_lines, verdict, verdicts, write_lines

# (scores of the columns, column played, perfect, good, loss); loss None: no verdict
ROWS = [
    # a won position: best +3 (column 0)
    ([3, 1, FULL, -2, 0], 0, True, True, 0),
    ([3, 1, FULL, -2, 0], 1, False, True, 2),    # a slower win keeps the value
    ([3, 1, FULL, -2, 0], 4, False, False, 3),   # a draw where a win was there
    ([3, 1, FULL, -2, 0], 3, False, False, 5),   # a loss where a win was there
    ([3, 1, FULL, -2, 0], 2, False, False, None),  # a full column: no move
    ([3, 1, FULL, -2, 0], -1, False, False, None),  # a failed move
    # a drawn position: best 0 (columns 0 and 2)
    ([0, -1, 0, -4, FULL], 2, True, True, 0),
    ([0, -1, 0, -4, FULL], 1, False, False, 1),  # a loss where a draw was there
    ([0, -1, 0, -4, FULL], 3, False, False, 4),
    # a lost position: best -1 (columns 1 and 4): every legal move keeps the value
    ([-2, -1, -3, FULL, -1], 4, True, True, 0),
    ([-2, -1, -3, FULL, -1], 0, False, True, 1),
    ([-2, -1, -3, FULL, -1], 2, False, True, 2),
    ([-2, -1, -3, FULL, -1], 3, False, False, None),  # full, in a lost position: not good
]


@pytest.mark.parametrize("row", ROWS)
def test_verdict_follows_the_hand_computed_rows(row):
    scores, column, perfect, good, loss = row
    assert verdict(scores, column) == (perfect, good, loss)


def test_verdicts_of_many_positions_at_once_are_the_rows():
    perfect, good, loss = verdicts([r[0] for r in ROWS], [r[1] for r in ROWS])
    assert perfect.tolist() == [r[2] for r in ROWS]
    assert good.tolist() == [r[3] for r in ROWS]
    assert [None if math.isnan(v) else v for v in loss] == [r[4] for r in ROWS]
    with pytest.raises(ValueError, match="columns for"):
        verdicts([ROWS[0][0]], [0, 1])


@pytest.mark.parametrize("row", ROWS)
def test_bench_value_keeps_the_value_by_the_one_rule(row):
    from scripts.bench.value import kept
    if row[1] >= 0:
        assert kept(row[1], row[0]) == row[3]


def test_learns_good_moves_are_the_one_verdict(monkeypatch):
    """``connectx learn``'s good- and perfect-move rates count the rows' verdicts."""
    from scripts.learn import evaluate
    rows = [r for r in ROWS if r[1] >= 0]
    fake = SimpleNamespace(planes=None, scores=np.array([r[0] for r in rows]),
                           stage=np.array([0] * 6 + [2] * (len(rows) - 6)))
    monkeypatch.setattr(evaluate, "greedy", lambda *a: np.array([r[1] for r in rows]))
    out = evaluate.good_moves(None, fake)
    assert out["all"] == (np.mean([r[3] for r in rows]), np.mean([r[2] for r in rows]))
    assert out["opening"] == (np.mean([r[3] for r in rows[:6]]),
                              np.mean([r[2] for r in rows[:6]]))


def test_the_full_column_score_is_the_solvers():
    from agents.solver.openings import INVALID_MOVE as TABLES
    from agents.solver.roots import INVALID_MOVE as KERNELS
    assert FULL == KERNELS == TABLES
    assert labels.outcome(3) == 1 and labels.outcome(0) == 0 and labels.outcome(-2) == -1
    assert labels.best_score([FULL, -3, -1]) == -1
    with pytest.raises(ValueError, match="full"):
        labels.best_score([FULL, FULL])


def test_analysis_lines_are_written_and_read_back(tmp_path):
    lines = [("4453", [1, 0, FULL, -2, 3, 0, 0]), ("1,10,2", [0, -1] + [0] * 9)]
    path = tmp_path / "lines.txt"
    write_lines(path, lines)
    assert read_lines(path) == lines
    path.write_text("44 1 x 2\n")
    with pytest.raises(ValueError, match=r"lines.txt:1: expected 'moves s1 \.\.\. sW'"):
        read_lines(path)


def test_accuracy_is_the_moves_place_between_the_worst_and_best_column():
    """0 for a value-losing move, else (score - worst + 1) / (best - worst + 1)."""
    rows = [r for r in ROWS if r[1] >= 0 and r[0][r[1]] != FULL]
    acc = labels.accuracies([r[0] for r in rows], [r[1] for r in rows])
    # won: 3 -> 1, 1 -> (1+2+1)/(3+2+1), a draw or a loss 0; drawn: 0 -> 1, a loss 0;
    # lost (worst -3, best -1): -1 -> 1, -2 -> 2/3, -3 -> 1/3 (the value is kept)
    assert acc.tolist() == pytest.approx([1, 4 / 6, 0, 0, 1, 0, 0, 1, 2 / 3, 1 / 3])
    assert labels.accuracies([[2, 2, FULL]], [1]).tolist() == [1.0]  # every column equal
    assert math.isnan(labels.accuracies([[2, 2, FULL]], [2])[0])
