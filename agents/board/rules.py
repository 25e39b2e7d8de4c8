"""ConnectX rules: the one source of truth (numpy + numba only).

Two representations of the same position, one API.

Array (any shape): Kaggle's flat board, row-major with row 0 at the *top*,
``index = column + row * columns``; 0 empty, 1 and 2 the players' stones.
Kernels also keep ``heights[c]``, the number of stones in column ``c``::

    rows=6, columns=7             column:  0  1  2  3  4  5  6
                                   row 0 [ 0  1  2  3  4  5  6]   <- top
                                   row 1 [ 7  8  9 10 11 12 13]
                                   ...
                                   row 5 [35 36 37 38 39 40 41]   <- stones land here first

Bitboard (when ``columns * (rows + 1) <= 64``): one bit a cell, column-major
from the bottom, ``H = rows + 1`` bits a column, the top bit of each column a
sentinel that is always 0 so lines never wrap from one column into the next::

    7x6:  .  .  .  .  .  .  .     <- sentinels 6 13 20 27 34 41 48
          5 12 19 26 33 40 47
          4 11 18 25 32 39 46
          3 10 17 24 31 38 45
          2  9 16 23 30 37 44
          1  8 15 22 29 36 43
          0  7 14 21 28 35 42     <- bottom row

A bitboard position is ``(current, mask)``: the stones of the side to move and
all stones. Playing column ``c`` is ``current ^= mask; mask |= mask + bottom(c)``
(the new ``current`` is the opponent's stones: negamax). Shifting by 1, H-1, H
and H+1 walks vertical, diagonal \\, horizontal and diagonal / lines.

Kernels are ``_``-prefixed, take plain ints and arrays and do not validate;
the public functions at the bottom validate their input in plain Python
first and raise ``ValueError`` naming the bad field.
"""
from collections import namedtuple
from functools import lru_cache

import numpy as np

from .jit import is_compiled, njit

EMPTY = 0
MAX_BITBOARD_BITS = 64

Config = namedtuple("Config", "rows columns inarow")

# ---------------------------------------------------------------------------
# Array kernels (every shape)
# ---------------------------------------------------------------------------


@njit
def _heights(grid, rows, columns):
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
def _drop(grid, heights, rows, columns, col, mark):
    """Drop ``mark`` into ``col`` in place; return the flat index it landed on.

    Does not check that the column has room."""
    idx = col + (rows - 1 - heights[col]) * columns
    grid[idx] = mark
    heights[col] += 1
    return idx


@njit
def _undo(grid, heights, rows, columns, col):
    """Take the top stone out of ``col`` (inverse of ``_drop``)."""
    heights[col] -= 1
    grid[col + (rows - 1 - heights[col]) * columns] = EMPTY


@njit
def _run_length(grid, rows, columns, row, col, dr, dc, mark, limit):
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
def _is_win_at(grid, rows, columns, inarow, idx):
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
    if _run_length(grid, rows, columns, row, col, one, zero, mark, need) >= need:
        return True
    if (_run_length(grid, rows, columns, row, col, zero, one, mark, need)
            + _run_length(grid, rows, columns, row, col, zero, minus, mark, need)) >= need:
        return True
    if (_run_length(grid, rows, columns, row, col, one, one, mark, need)
            + _run_length(grid, rows, columns, row, col, minus, minus, mark, need)) >= need:
        return True
    if (_run_length(grid, rows, columns, row, col, one, minus, mark, need)
            + _run_length(grid, rows, columns, row, col, minus, one, mark, need)) >= need:
        return True
    return False


@njit
def _wins_by_playing(grid, heights, rows, columns, inarow, col, mark):
    """True if ``mark`` connects ``inarow`` by dropping into ``col`` (which must have room)."""
    idx = col + (rows - 1 - heights[col]) * columns
    grid[idx] = mark
    win = _is_win_at(grid, rows, columns, inarow, idx)
    grid[idx] = EMPTY
    return win


@njit
def _winner(grid, rows, columns, inarow):
    """The mark (1 or 2) that has ``inarow`` in a line anywhere, 0 if none (1 if both)."""
    for idx in range(rows * columns):
        if grid[idx] != EMPTY and _is_win_at(grid, rows, columns, inarow, idx):
            return grid[idx]
    return 0


@njit
def _is_full(heights, rows):
    for h in heights:
        if h < rows:
            return False
    return True


@njit
def _count_winning_moves(grid, heights, rows, columns, inarow, mark):
    """Number of columns where ``mark`` would win at once."""
    n = 0
    for c in range(columns):
        if heights[c] < rows and _wins_by_playing(grid, heights, rows, columns, inarow, c, mark):
            n += 1
    return n


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


# ---------------------------------------------------------------------------
# Bitboard kernels (columns * (rows + 1) <= 64)
# ---------------------------------------------------------------------------


def fits_bitboard(rows, columns):
    """True when the board fits the 64-bit layout drawn above."""
    return columns * (rows + 1) <= MAX_BITBOARD_BITS


@njit
def _bb_bottom(col, H):
    return np.uint64(1) << np.uint64(col * H)


@njit
def _bb_top(col, H, rows):
    """Bit of the top playable cell of ``col``."""
    return np.uint64(1) << np.uint64(col * H + rows - 1)


@njit
def _bb_column(col, H, rows):
    """All playable cells of ``col``."""
    return ((np.uint64(1) << np.uint64(rows)) - np.uint64(1)) << np.uint64(col * H)


@njit
def _bb_can_play(mask, col, H, rows):
    return (np.uint64(mask) & _bb_top(col, H, rows)) == np.uint64(0)


@njit
def _bb_play(current, mask, col, H):
    """Play ``col``; returns the new (current, mask), current = the opponent's stones."""
    current = np.uint64(current)
    mask = np.uint64(mask)
    new_current = current ^ mask
    new_mask = mask | (mask + _bb_bottom(col, H))
    return new_current, new_mask


@njit
def _bb_shift(x, s):
    """x >> s with shifts of 64 and more giving 0 (LLVM leaves them undefined)."""
    if s >= 64:
        return np.uint64(0)
    return np.uint64(x) >> np.uint64(s)


@njit
def _bb_has_line(stones, H, inarow):
    """True if ``stones`` contain ``inarow`` in a line (any direction)."""
    stones = np.uint64(stones)
    for s in (1, H - 1, H, H + 1):
        m = stones
        for i in range(1, inarow):
            m &= _bb_shift(stones, s * i)
            if m == np.uint64(0):
                break
        if m != np.uint64(0):
            return True
    return False


@njit
def _bb_from_grid(grid, rows, columns, mark):
    """(stones of ``mark``, all stones) of a Kaggle flat grid."""
    H = rows + 1
    mine = np.uint64(0)
    mask = np.uint64(0)
    for r in range(rows):
        for c in range(columns):
            v = grid[c + r * columns]
            if v != EMPTY:
                bit = np.uint64(1) << np.uint64(c * H + (rows - 1 - r))
                mask |= bit
                if v == mark:
                    mine |= bit
    return mine, mask


# ---------------------------------------------------------------------------
# Validated public API (plain Python in, plain Python out)
# ---------------------------------------------------------------------------


def _get(obj, name):
    if isinstance(obj, dict):
        if name not in obj:
            raise KeyError(name)
        return obj[name]
    return getattr(obj, name)


def _positive_int(value, field, minimum=1):
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        else:
            raise ValueError(f"config.{field} must be an integer >= {minimum}, got {value!r}")
    if value < minimum:
        raise ValueError(f"config.{field} must be an integer >= {minimum}, got {value!r}")
    return int(value)


def parse_config(config):
    """``Config(rows, columns, inarow)`` from a Kaggle config (dict or attribute object).

    Missing fields take the connectx defaults (6, 7, 4), as kaggle-environments does."""
    defaults = {"rows": 6, "columns": 7, "inarow": 4}
    values = {}
    for field, default in defaults.items():
        try:
            value = _get(config, field) if config is not None else default
        except (KeyError, AttributeError):
            value = default
        values[field] = _positive_int(value, field)
    return Config(values["rows"], values["columns"], values["inarow"])


def parse_board(board, cfg, allow_terminal=False):
    """The board as a validated int8 numpy array in Kaggle's flat layout.

    Raises ``ValueError`` for a wrong length, values other than 0/1/2, stones
    floating above an empty cell, and (unless ``allow_terminal``) a full board
    or a position where somebody has already connected ``inarow``."""
    size = cfg.rows * cfg.columns
    try:
        n = len(board)
    except TypeError:
        raise ValueError(f"board must be a list of {size} cells, got {type(board).__name__}") from None
    if n != size:
        raise ValueError(
            f"board has {n} cells but rows*columns = {cfg.rows}*{cfg.columns} = {size}")
    arr = np.asarray(board)
    if arr.dtype.kind not in "iub":
        if arr.dtype.kind == "f" and np.all(np.mod(arr, 1) == 0):
            arr = arr.astype(np.int64)
        else:
            raise ValueError(f"board cells must be integers 0, 1 or 2, got dtype {arr.dtype}")
    bad = np.flatnonzero((arr < 0) | (arr > 2))
    if bad.size:
        i = int(bad[0])
        raise ValueError(f"board cell {i} has value {arr[i].item()!r}; cells must be 0, 1 or 2")
    grid = arr.astype(np.int8).reshape(size)
    two_d = grid.reshape(cfg.rows, cfg.columns)
    for c in range(cfg.columns):
        col = two_d[:, c]
        filled = np.flatnonzero(col != EMPTY)
        if filled.size and np.any(col[filled[0]:] == EMPTY):
            r = int(filled[0])
            raise ValueError(
                f"board column {c} has a stone at row {r} above an empty cell (stones must rest "
                f"on the bottom row {cfg.rows - 1} or on another stone)")
    if not allow_terminal:
        if not np.any(grid == EMPTY):
            raise ValueError("board is full: the game is over and there is no legal move")
        w = winner_of(grid, cfg)
        if w:
            raise ValueError(f"board is already won by player {w} ({cfg.inarow} in a row): "
                             "the game is over")
    return grid


def heights_of(grid, cfg):
    """Stones in each column of a validated grid (int64 array): the ``_heights``
    kernel, or :func:`_heights_np` while the kernel is not compiled yet
    (:mod:`agents.warmup`: a first move must not wait for numba)."""
    if is_compiled(_heights):
        return _heights(grid, cfg.rows, cfg.columns)
    return _heights_np(grid, cfg)


def winner_of(grid, cfg):
    """``_winner`` of a grid: the kernel, or :func:`_winner_np` while the kernel is not
    compiled yet (:mod:`agents.warmup`)."""
    if is_compiled(_winner):
        return int(_winner(grid, cfg.rows, cfg.columns, cfg.inarow))
    return _winner_np(grid, cfg)


def _heights_np(grid, cfg):
    """numpy twin of ``_heights`` for a grid without floating stones."""
    return (grid.reshape(cfg.rows, cfg.columns) != EMPTY).sum(axis=0).astype(np.int64)


def _winner_np(grid, cfg):
    """numpy twin of ``_winner``, the same answer: the mark of the lowest-index cell
    that lies on a line of ``inarow`` (from ``window_table``), 0 if none."""
    table = window_table(cfg.rows, cfg.columns, cfg.inarow)
    if not len(table):
        return 0
    cells = grid[table]
    won = (cells[:, 0] != EMPTY) & np.all(cells == cells[:, :1], axis=1)
    if not won.any():
        return 0
    return int(grid[table[won].min()])


def parse_mark(mark):
    if isinstance(mark, bool) or mark not in (1, 2):
        raise ValueError(f"mark must be 1 or 2, got {mark!r}")
    return int(mark)


def parse_observation(obs, config):
    """Validated ``(grid, mark, cfg)`` from Kaggle's ``obs`` and ``config``."""
    cfg = parse_config(config)
    try:
        board = _get(obs, "board")
    except (KeyError, AttributeError):
        raise ValueError("observation has no 'board'") from None
    try:
        mark = _get(obs, "mark")
    except (KeyError, AttributeError):
        raise ValueError("observation has no 'mark'") from None
    grid = parse_board(board, cfg)
    return grid, parse_mark(mark), cfg


def legal_moves(board, config):
    """Columns with room, left to right."""
    cfg = parse_config(config)
    grid = parse_board(board, cfg, allow_terminal=True)
    return [c for c in range(cfg.columns) if grid[c] == EMPTY]


def drop_piece(board, column, mark, config):
    """A new board (list) with ``mark`` dropped into ``column``; the input is not changed."""
    cfg = parse_config(config)
    grid = parse_board(board, cfg, allow_terminal=True)
    mark = parse_mark(mark)
    if isinstance(column, bool) or not isinstance(column, (int, np.integer)) \
            or not 0 <= column < cfg.columns:
        raise ValueError(f"column must be an integer in 0..{cfg.columns - 1}, got {column!r}")
    if grid[column] != EMPTY:
        raise ValueError(f"column {column} is full")
    heights = _heights(grid, cfg.rows, cfg.columns)
    _drop(grid, heights, cfg.rows, cfg.columns, int(column), mark)
    return [int(v) for v in grid]


def winner(board, config):
    """1 or 2 if that player has ``inarow`` in a line, else 0.

    Uses the bitboard path when the board fits 64 bits, the array path otherwise."""
    cfg = parse_config(config)
    grid = parse_board(board, cfg, allow_terminal=True)
    if fits_bitboard(cfg.rows, cfg.columns):
        H = cfg.rows + 1
        for mark in (1, 2):
            stones, _ = _bb_from_grid(grid, cfg.rows, cfg.columns, mark)
            if _bb_has_line(stones, H, cfg.inarow):
                return mark
        return 0
    return int(_winner(grid, cfg.rows, cfg.columns, cfg.inarow))


def is_win(board, mark, config):
    """True if ``mark`` has ``inarow`` in a line on ``board``."""
    cfg = parse_config(config)
    grid = parse_board(board, cfg, allow_terminal=True)
    mark = parse_mark(mark)
    if fits_bitboard(cfg.rows, cfg.columns):
        stones, _ = _bb_from_grid(grid, cfg.rows, cfg.columns, mark)
        return bool(_bb_has_line(stones, cfg.rows + 1, cfg.inarow))
    return bool(_has_line_array(grid, cfg.rows, cfg.columns, cfg.inarow, mark))


@njit
def _has_line_array(grid, rows, columns, inarow, mark):
    for idx in range(rows * columns):
        if grid[idx] == mark and _is_win_at(grid, rows, columns, inarow, idx):
            return True
    return False


def is_terminal(board, config):
    """True if somebody has won or the board is full."""
    cfg = parse_config(config)
    grid = parse_board(board, cfg, allow_terminal=True)
    return bool(not np.any(grid == EMPTY) or winner(grid, cfg))
