"""The Kaggle tutorial's window-counting heuristic, in numba.

Score for ``mark`` (the tutorial's ``get_heuristic``, generalised to any ``inarow``)::

    threes - 1e2 * opponent threes - 1e4 * opponent fours + 1e6 * fours

where a "three" is a window of ``inarow`` cells holding ``inarow - 1`` stones of
one mark and one empty cell, and a "four" is a window full of one mark. Values
are exact integers (int64), identical to the tutorial's floats.
"""

from agents.jit import njit

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
        mine = 0
        theirs = 0
        for i in range(inarow):
            v = grid[windows[w, i]]
            if v == mark:
                mine += 1
            elif v != 0:
                theirs += 1
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
