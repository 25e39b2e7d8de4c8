"""Array kernels on Kaggle's flat grid (every board shape), and the window tables.

Layout: see :mod:`agents.board` (drawn once there). Kernels take plain ints and
arrays and do not validate; :mod:`agents.board.rules` validates first.
"""
from functools import lru_cache

import numpy as np

from agents.board.jit import njit

EMPTY = 0


def planes_of(board, mark, rows, columns):
    """The ``(rows, columns, 2)`` uint8 planes of Kaggle's flat ``board`` with ``mark`` to
    move: plane 0 the mover's stones, plane 1 the opponent's, row 0 the top row. The one
    builder of the network's and the labelled sets' input (plain numpy, no kernel; the
    batched environments and the numba forward pass fill the same layout in place)."""
    grid = np.asarray(board, dtype=np.int64).reshape(rows, columns)
    return np.stack([grid == mark, grid == 3 - mark], axis=-1).astype(np.uint8)


# ---------------------------------------------------------------------------
# Array kernels (every shape)
# ---------------------------------------------------------------------------


@njit
def column_heights(grid, rows, columns):
    """Stones in each column of a Kaggle flat grid."""
    h = np.zeros(columns, dtype=np.int64)
    for c in range(columns):
        n = 0
        for r in range(rows - 1, -1, -1):
            if grid[c + r * columns] == EMPTY:
                break
            n += 1
        h[c] = n
    return h


@njit
def scan_cells(cells, rows, columns, grid, heights):
    """One pass over a flat board ``cells`` (any integer array): copies it into the int8
    ``grid``, fills ``heights`` and returns 0 when every cell is 0, 1 or 2 and no stone
    floats above an empty cell; 1 for a value out of range, 2 for a floating stone (the
    validated API then names the cell: :func:`agents.board.rules.parse_board`)."""
    for c in range(columns):
        h = 0
        gap = False
        for r in range(rows - 1, -1, -1):
            i = c + r * columns
            v = cells[i]
            if v < 0 or v > 2:
                return 1
            grid[i] = v
            if v == EMPTY:
                gap = True
            elif gap:
                return 2
            else:
                h += 1
        heights[c] = h
    return 0


@njit
def drop(grid, heights, rows, columns, col, mark):
    """Drop ``mark`` into ``col`` in place; return the flat index it landed on.

    Does not check that the column has room."""
    idx = col + (rows - 1 - heights[col]) * columns
    grid[idx] = mark
    heights[col] += 1
    return idx


@njit
def undo(grid, heights, rows, columns, col):
    """Take the top stone out of ``col`` (inverse of ``drop``)."""
    heights[col] -= 1
    grid[col + (rows - 1 - heights[col]) * columns] = EMPTY


@njit
def run_length(grid, rows, columns, row, col, dr, dc, mark, limit):
    """Stones of ``mark`` next to (row, col) walking (dr, dc), at most ``limit``."""
    n = 0
    r = row + dr
    c = col + dc
    while n < limit and 0 <= r < rows and 0 <= c < columns and grid[c + r * columns] == mark:
        n += 1
        r += dr
        c += dc
    return n


@njit
def is_win_at(grid, rows, columns, inarow, idx):
    """True if the stone at flat ``idx`` is part of ``inarow`` in a line."""
    mark = grid[idx]
    if mark == EMPTY:
        return False
    row = idx // columns
    col = idx - row * columns
    need = inarow - 1
    # Directions are passed as int64 values, not literals: numba compiles one copy of a
    # kernel per distinct literal argument (7 copies here cost ~1 s of first-move compile).
    one, zero, minus = np.int64(1), np.int64(0), np.int64(-1)
    if run_length(grid, rows, columns, row, col, one, zero, mark, need) >= need:
        return True
    if (run_length(grid, rows, columns, row, col, zero, one, mark, need)
            + run_length(grid, rows, columns, row, col, zero, minus, mark, need)) >= need:
        return True
    if (run_length(grid, rows, columns, row, col, one, one, mark, need)
            + run_length(grid, rows, columns, row, col, minus, minus, mark, need)) >= need:
        return True
    if (run_length(grid, rows, columns, row, col, one, minus, mark, need)
            + run_length(grid, rows, columns, row, col, minus, one, mark, need)) >= need:
        return True
    return False


@njit
def wins_by_playing(grid, heights, rows, columns, inarow, col, mark):
    """True if ``mark`` connects ``inarow`` by dropping into ``col`` (which must have room)."""
    idx = col + (rows - 1 - heights[col]) * columns
    grid[idx] = mark
    win = is_win_at(grid, rows, columns, inarow, idx)
    grid[idx] = EMPTY
    return win


@njit
def grid_winner(grid, rows, columns, inarow):
    """The mark (1 or 2) that has ``inarow`` in a line anywhere, 0 if none (1 if both)."""
    for idx in range(rows * columns):
        if grid[idx] != EMPTY and is_win_at(grid, rows, columns, inarow, idx):
            return grid[idx]
    return 0


@njit
def is_full(heights, rows):
    for h in heights:
        if h < rows:
            return False
    return True


def center_order(columns):
    """Columns sorted centre first, left before right at equal distance (int64 array)."""
    mid = (columns - 1) / 2.0
    return np.array(sorted(range(columns), key=lambda c: (abs(c - mid), c)), dtype=np.int64)


# ---------------------------------------------------------------------------
# Window tables
# ---------------------------------------------------------------------------


@lru_cache(maxsize=64)
def window_table(rows, columns, inarow):
    """All lines of ``inarow`` cells as flat indices, shape (n, inarow), int64.

    Order as in the Kaggle tutorial's ``count_windows``: horizontal, vertical,
    positive diagonal (down-right from the top-left cell), negative diagonal
    (up-right). Empty (0, inarow) when ``inarow`` exceeds both sides."""
    out = []
    for r in range(rows):
        for c in range(columns - inarow + 1):
            out.append([c + i + r * columns for i in range(inarow)])
    for r in range(rows - inarow + 1):
        for c in range(columns):
            out.append([c + (r + i) * columns for i in range(inarow)])
    for r in range(rows - inarow + 1):
        for c in range(columns - inarow + 1):
            out.append([c + i + (r + i) * columns for i in range(inarow)])
    for r in range(inarow - 1, rows):
        for c in range(columns - inarow + 1):
            out.append([c + i + (r - i) * columns for i in range(inarow)])
    table = np.array(out, dtype=np.int64).reshape(len(out), inarow)
    table.setflags(write=False)
    return table


@njit(inline="always")
def window_stones(grid, windows, w, mark):
    """``(mine, theirs, empty)`` of line ``w`` of ``windows`` (:func:`window_table`):
    the stones of ``mark``, of the other mark, and the flat index of its last empty
    cell (-1 if it has none)."""
    mine = 0
    theirs = 0
    empty = -1
    for i in range(windows.shape[1]):
        v = grid[windows[w, i]]
        if v == mark:
            mine += 1
        elif v != 0:
            theirs += 1
        else:
            empty = windows[w, i]
    return mine, theirs, empty


@lru_cache(maxsize=64)
def cell_window_table(rows, columns, inarow):
    """For each cell, the rows of ``window_table`` that contain it, padded with -1."""
    table = window_table(rows, columns, inarow)
    per_cell = [[] for _ in range(rows * columns)]
    for w, cells in enumerate(table.tolist()):
        for i in cells:
            per_cell[i].append(w)
    width = max([len(p) for p in per_cell] + [1])
    out = np.full((rows * columns, width), -1, dtype=np.int64)
    for i, p in enumerate(per_cell):
        out[i, :len(p)] = p
    out.setflags(write=False)
    return out
