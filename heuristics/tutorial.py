"""The Kaggle tutorial's window-counting heuristic, in numba.

Score for ``mark`` (the tutorial's ``get_heuristic``, generalised to any ``inarow``)::

    threes - 1e2 * opponent threes - 1e4 * opponent fours + 1e6 * fours

where a "three" is a window of ``inarow`` cells holding ``inarow - 1`` stones of
one mark and one empty cell, and a "four" is a window full of one mark. Values
are exact integers (int64), identical to the tutorial's floats.
"""

import numpy as np

from agents.board.grid import window_stones
from agents.board.jit import njit

W_THREE = 1
W_OPP_THREE = -100
W_OPP_FOUR = -10_000
W_FOUR = 1_000_000


@njit
def _window_counts(grid, windows, inarow, mark):
    """(threes, fours, opponent threes, opponent fours) over all windows."""
    threes = 0
    fours = 0
    opp_threes = 0
    opp_fours = 0
    for w in range(windows.shape[0]):
        mine, theirs, _ = window_stones(grid, windows, w, mark)
        empty = inarow - mine - theirs
        if mine == inarow:
            fours += 1
        if theirs == inarow:
            opp_fours += 1
        if empty == 1 and mine == inarow - 1:
            threes += 1
        if empty == 1 and theirs == inarow - 1:
            opp_threes += 1
    return threes, fours, opp_threes, opp_fours


@njit
def windows_eval(grid, heights, rows, columns, inarow, windows, mark):
    """The tutorial's heuristic for ``mark`` (int64). ``heights`` is unused (common signature)."""
    threes, fours, opp_threes, opp_fours = _window_counts(grid, windows, inarow, mark)
    return (W_THREE * threes + W_OPP_THREE * opp_threes
            + W_OPP_FOUR * opp_fours + W_FOUR * fours)


# ---------------------------------------------------------------------------
# Incremental form: the same score, kept up to date as stones are dropped and
# taken back, so a search pays O(windows through one cell) per move instead of
# O(all windows) per leaf. ``counts[w, m]`` is the number of stones of mark m in
# window w; ``totals`` = [threes of 1, fours of 1, threes of 2, fours of 2].
# ---------------------------------------------------------------------------


@njit
def _classify(c1, c2, inarow, totals, delta):
    empty = inarow - c1 - c2
    if c1 == inarow:
        totals[1] += delta
    if c2 == inarow:
        totals[3] += delta
    if empty == 1 and c1 == inarow - 1:
        totals[0] += delta
    if empty == 1 and c2 == inarow - 1:
        totals[2] += delta


@njit
def window_counts(grid, windows, inarow):
    """(counts, totals) of ``grid`` for the incremental form."""
    n = windows.shape[0]
    counts = np.zeros((n, 3), dtype=np.int64)
    totals = np.zeros(4, dtype=np.int64)
    for w in range(n):
        for i in range(inarow):
            v = grid[windows[w, i]]
            if v != 0:
                counts[w, v] += 1
        _classify(counts[w, 1], counts[w, 2], inarow, totals, 1)
    return counts, totals


@njit
def update_counts(counts, totals, cell_windows, idx, mark, inarow, delta):
    """Add (``delta`` = 1) or remove (-1) a stone of ``mark`` at flat ``idx``."""
    for k in range(cell_windows.shape[1]):
        w = cell_windows[idx, k]
        if w < 0:
            break
        _classify(counts[w, 1], counts[w, 2], inarow, totals, -1)
        counts[w, mark] += delta
        _classify(counts[w, 1], counts[w, 2], inarow, totals, 1)


@njit
def counts_eval(totals, mark):
    """``windows_eval`` for ``mark`` from the running totals."""
    me = 0 if mark == 1 else 2
    op = 2 - me
    return (W_THREE * totals[me] + W_OPP_THREE * totals[op]
            + W_OPP_FOUR * totals[op + 1] + W_FOUR * totals[me + 1])
