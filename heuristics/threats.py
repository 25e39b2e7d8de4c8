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
  the zugzwang rule of Connect Four endgames -- unless the opponent has a threat
  lower in the same column (the lower threat comes first and decides the column);
* every stone in a centre column adds ``CENTRE``;
* the first player (mark 1) gets ``ZUGZWANG`` once if it has at least one such live
  threat on an odd row: with it, the first player usually controls the zugzwang and
  wins the endgame (Allis' odd-threat rule), whatever the number of threats.

The weights were tuned with ``connectx bench value`` on labelled positions where some
move loses the game's value, then checked in games; the figures and the variants tried
are in docs/results-search.md ("How the weights were tuned").

Scale: a threat is worth a few open two-stone windows; all values stay far below the
search's win score (``agents.search.scores.WIN``).
"""
import numpy as np

from agents.board.grid import window_stones
from agents.board.jit import njit

THREAT = 20
PLAYABLE = 30
PARITY = 50
CENTRE = 3
OPEN_FULLER = 8   # window with inarow-2 stones
OPEN_OTHER = 1    # window with fewer stones (but at least one)
ZUGZWANG = 100    # once, to the first player, for at least one live threat on an odd row


@njit
def _side_value(grid, heights, rows, columns, inarow, windows, mark, threat_seen, side_bit):
    value = 0
    for w in range(windows.shape[0]):
        mine, theirs, empty_idx = window_stones(grid, windows, w, mark)
        if theirs != 0 or mine == 0:
            continue
        if mine == inarow - 1:
            threat_seen[empty_idx] |= side_bit  # valued once a cell, in threats_eval
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
    seen = np.zeros(rows * columns, dtype=np.int8)  # bit 1: mark's threat, bit 2: the other's
    value = _side_value(grid, heights, rows, columns, inarow, windows, mark, seen, 1)
    value -= _side_value(grid, heights, rows, columns, inarow, windows, 3 - mark, seen, 2)
    first_odd = False  # the first player has a live threat on an odd row
    for c in range(columns):
        low = (rows, rows)  # lowest threat row (0-based from the bottom) of each side so far
        for rb in range(rows):
            f = seen[c + (rows - 1 - rb) * columns]
            if f == 0:
                continue
            for side in range(2):
                if (f & (1 << side)) == 0:
                    continue
                side_mark = mark if side == 0 else 3 - mark
                live = low[1 - side] >= rb  # no threat of the other side below, in this column
                v = THREAT
                if heights[c] == rb:
                    v += PLAYABLE
                # 1-based odd rows are 0-based even rows
                if live and (rb % 2 == 0) == (side_mark == 1):
                    v += PARITY
                    if side_mark == 1:
                        first_odd = True
                value += v if side == 0 else -v
            low = (low[0] if low[0] < rb or (f & 1) == 0 else rb,
                   low[1] if low[1] < rb or (f & 2) == 0 else rb)
    if first_odd:
        value += ZUGZWANG if mark == 1 else -ZUGZWANG
    return value
