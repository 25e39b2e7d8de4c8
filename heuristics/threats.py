"""A stronger evaluation: playable threats, odd/even threat parity, centre control.

Symmetric and from ``mark``'s point of view: ``value(mark) - value(opponent)``.
For each player:

* every window that holds k >= 1 of its stones and none of the opponent's adds
  ``OPEN_WINDOW[k]`` (more for fuller windows): lines that can still be completed;
* every *threat cell* (an empty cell that would complete a line; counted once even
  when several lines meet there) adds ``THREAT``; a threat on the cell that can be
  played right now adds ``PLAYABLE`` more (the opponent must answer it), and a
  threat on a row of the right parity adds ``PARITY`` more: odd rows counted from
  the bottom (1-based) favour the first player (mark 1), even rows the second --
  the zugzwang rule of Connect Four endgames;
* every stone in a centre column adds ``CENTRE``.

Scale: a threat is worth about 10 open two-stone windows; all values stay far
below the search's win score (``agents.search.scores.WIN``).
"""
import numpy as np

from agents.board.jit import njit

THREAT = 40
PLAYABLE = 30
PARITY = 25
CENTRE = 3
OPEN_FULLER = 8   # window with inarow-2 stones
OPEN_OTHER = 1    # window with fewer stones (but at least one)


# duplicates: the window scan of heuristics.tutorial.windows_eval, written out here because
# this one also records the empty cell of each window (the threat cell) and stops early.
@njit
def _side_value(grid, heights, rows, columns, inarow, windows, mark, threat_seen):
    value = 0
    for w in range(windows.shape[0]):
        mine = 0
        theirs = 0
        empty_idx = -1
        for i in range(inarow):
            v = grid[windows[w, i]]
            if v == mark:
                mine += 1
            elif v != 0:
                theirs += 1
            else:
                empty_idx = windows[w, i]
        if theirs != 0 or mine == 0:
            continue
        if mine == inarow - 1:
            if threat_seen[empty_idx] != mark:
                threat_seen[empty_idx] = mark
                value += THREAT
                row_top = empty_idx // columns
                col = empty_idx - row_top * columns
                row_bottom = rows - 1 - row_top  # 0-based from the bottom
                if heights[col] == row_bottom:
                    value += PLAYABLE
                # 1-based odd rows are 0-based even rows
                if (row_bottom % 2 == 0) == (mark == 1):
                    value += PARITY
        elif mine == inarow - 2:
            value += OPEN_FULLER
        else:
            value += OPEN_OTHER
    lo = (columns - 1) // 2
    hi = columns // 2
    for c in range(lo, hi + 1):
        for r in range(rows):
            if grid[c + r * columns] == mark:
                value += CENTRE
    return value


@njit
def threats_eval(grid, heights, rows, columns, inarow, windows, mark):
    """value(mark) - value(opponent) as described in the module docstring (int64)."""
    seen = np.zeros(rows * columns, dtype=np.int8)
    mine = _side_value(grid, heights, rows, columns, inarow, windows, mark, seen)
    theirs = _side_value(grid, heights, rows, columns, inarow, windows, 3 - mark, seen)
    return mine - theirs
