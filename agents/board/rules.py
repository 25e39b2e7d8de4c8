"""ConnectX rules, validated: the one API every agent, script and test uses.

Plain Python in, plain Python out: each function checks its input first and raises
``ValueError`` naming the bad field, then runs the kernels of :mod:`agents.board.grid`.
Layouts: see :mod:`agents.board`.
"""
from collections import namedtuple

import numpy as np

from agents.board.bitboard import bb_from_grid, bb_has_line, fits_bitboard
from agents.board.grid import (EMPTY, column_heights, drop, grid_winner, is_win_at, scan_cells,
                               window_table)
from agents.board.jit import is_compiled, njit

Config = namedtuple("Config", "rows columns inarow")

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
    """Stones in each column of a validated grid (int64 array): the ``column_heights``
    kernel, or :func:`_heights_np` while the kernel is not compiled yet
    (:mod:`agents.players.warmup`: a first move must not wait for numba)."""
    if is_compiled(column_heights):
        return column_heights(grid, cfg.rows, cfg.columns)
    return _heights_np(grid, cfg)


def winner_of(grid, cfg):
    """``grid_winner`` of a grid: the kernel, or :func:`_winner_np` while the kernel is not
    compiled yet (:mod:`agents.players.warmup`)."""
    if is_compiled(grid_winner):
        return int(grid_winner(grid, cfg.rows, cfg.columns, cfg.inarow))
    return _winner_np(grid, cfg)


def _heights_np(grid, cfg):
    """numpy twin of ``column_heights`` for a grid without floating stones."""
    return (grid.reshape(cfg.rows, cfg.columns) != EMPTY).sum(axis=0).astype(np.int64)


def _winner_np(grid, cfg):
    """numpy twin of ``grid_winner``, the same answer: the mark of the lowest-index cell
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


def _board_and_mark(obs):
    try:
        board = _get(obs, "board")
    except (KeyError, AttributeError):
        raise ValueError("observation has no 'board'") from None
    try:
        mark = _get(obs, "mark")
    except (KeyError, AttributeError):
        raise ValueError("observation has no 'mark'") from None
    return board, mark


def parse_observation(obs, config):
    """Validated ``(grid, mark, cfg)`` from Kaggle's ``obs`` and ``config``."""
    cfg = parse_config(config)
    board, mark = _board_and_mark(obs)
    grid = parse_board(board, cfg)
    return grid, parse_mark(mark), cfg


def parse_position(obs, config, compile=True):
    """Validated ``(grid, heights, mark, cfg)`` from Kaggle's ``obs`` and ``config``: the
    checks of :func:`parse_observation` in one pass of the ``scan_cells`` and
    ``grid_winner`` kernels (a few microseconds on 7x6).

    ``compile=False`` uses the kernels only once they are compiled (by
    :mod:`agents.players.warmup`), numpy before: a first move must not wait for numba.
    Whatever the path, a bad board raises the same ``ValueError`` naming what is wrong
    (anything the one pass does not accept goes through :func:`parse_board`)."""
    cfg = parse_config(config)
    board, mark = _board_and_mark(obs)
    mark = parse_mark(mark)
    if compile or (is_compiled(scan_cells) and is_compiled(grid_winner)):
        arr = board if isinstance(board, np.ndarray) else np.asarray(board)
        size = cfg.rows * cfg.columns
        if arr.dtype.kind in "iu" and arr.shape == (size,):
            grid = np.empty(size, dtype=np.int8)
            heights = np.empty(cfg.columns, dtype=np.int64)
            if scan_cells(arr, cfg.rows, cfg.columns, grid, heights) == 0 \
                    and heights.sum() < size \
                    and grid_winner(grid, cfg.rows, cfg.columns, cfg.inarow) == 0:
                return grid, heights, mark, cfg
    grid = parse_board(board, cfg)  # the checks one by one: raises naming the problem
    return grid, heights_of(grid, cfg), mark, cfg


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
    heights = column_heights(grid, cfg.rows, cfg.columns)
    drop(grid, heights, cfg.rows, cfg.columns, int(column), mark)
    return [int(v) for v in grid]


def winner(board, config):
    """1 or 2 if that player has ``inarow`` in a line, else 0.

    Uses the bitboard path when the board fits 64 bits, the array path otherwise."""
    cfg = parse_config(config)
    grid = parse_board(board, cfg, allow_terminal=True)
    if fits_bitboard(cfg.rows, cfg.columns):
        H = cfg.rows + 1
        for mark in (1, 2):
            stones, _ = bb_from_grid(grid, cfg.rows, cfg.columns, mark)
            if bb_has_line(stones, H, cfg.inarow):
                return mark
        return 0
    return int(grid_winner(grid, cfg.rows, cfg.columns, cfg.inarow))


def is_win(board, mark, config):
    """True if ``mark`` has ``inarow`` in a line on ``board``."""
    cfg = parse_config(config)
    grid = parse_board(board, cfg, allow_terminal=True)
    mark = parse_mark(mark)
    if fits_bitboard(cfg.rows, cfg.columns):
        stones, _ = bb_from_grid(grid, cfg.rows, cfg.columns, mark)
        return bool(bb_has_line(stones, cfg.rows + 1, cfg.inarow))
    return bool(_has_line_array(grid, cfg.rows, cfg.columns, cfg.inarow, mark))


@njit
def _has_line_array(grid, rows, columns, inarow, mark):
    for idx in range(rows * columns):
        if grid[idx] == mark and is_win_at(grid, rows, columns, inarow, idx):
            return True
    return False


def is_terminal(board, config):
    """True if somebody has won or the board is full."""
    cfg = parse_config(config)
    grid = parse_board(board, cfg, allow_terminal=True)
    return bool(not np.any(grid == EMPTY) or winner(grid, cfg))
