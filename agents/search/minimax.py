"""The Kaggle tutorial's depth-N minimax in numba (heuristic everywhere, terminal nodes
included), on the array representation of :mod:`agents.board` (every board shape).

Two twins of the same search: ``minimax_scores`` calls the evaluation kernel at
every leaf (any heuristic of :mod:`heuristics`); ``minimax_scores_counts`` keeps the
tutorial's window counts up to date move by move (:mod:`heuristics.tutorial`),
which is what makes the ``minimax`` agent fast. They share their shape on purpose:
the first is the plain version the second is tested against (``tests/test_search.py``).
Scores and stats slots: :mod:`agents.search.scores`.
"""
import numpy as np

from agents.board.grid import drop, is_full, is_win_at, undo
from agents.board.jit import njit
from agents.search.scores import INF, S_NODES
from heuristics.tutorial import counts_eval, update_counts, window_counts

# ---------------------------------------------------------------------------
# The tutorial's minimax (heuristic everywhere, including at terminal nodes)
# ---------------------------------------------------------------------------


@njit(cache=False)  # takes the evaluation kernel as an argument
def _tutorial_minimax(grid, heights, rows, columns, inarow, windows, evaluate,
                      depth, maximizing, mark, last_idx, stats):
    """The Kaggle tutorial's ``minimax(node, depth, maximizingPlayer, mark)``.

    ``last_idx`` is where the last stone landed: a node is terminal when that
    stone completed a line or the board is full (the root is never terminal),
    and terminal and horizon nodes alike score ``evaluate(..., mark)``."""
    stats[S_NODES] += 1
    if depth == 0 or is_win_at(grid, rows, columns, inarow, last_idx) or is_full(heights, rows):
        return evaluate(grid, heights, rows, columns, inarow, windows, mark)
    mover = mark if maximizing else 3 - mark
    best = -INF if maximizing else INF
    for c in range(columns):
        if heights[c] < rows:
            idx = drop(grid, heights, rows, columns, c, mover)
            v = _tutorial_minimax(grid, heights, rows, columns, inarow, windows, evaluate,
                                  depth - 1, not maximizing, mark, idx, stats)
            undo(grid, heights, rows, columns, c)
            if maximizing:
                if v > best:
                    best = v
            elif v < best:
                best = v
    return best


@njit(cache=False)  # takes the evaluation kernel as an argument
def minimax_scores(grid, heights, rows, columns, inarow, windows, evaluate, nsteps, mark,
                     stats):
    """The tutorial's ``score_move`` for every column (``-INF`` marks a full column)."""
    scores = np.full(columns, -INF, dtype=np.int64)
    for c in range(columns):
        if heights[c] < rows:
            idx = drop(grid, heights, rows, columns, c, mark)
            scores[c] = _tutorial_minimax(grid, heights, rows, columns, inarow, windows,
                                          evaluate, nsteps - 1, False, mark, idx, stats)
            undo(grid, heights, rows, columns, c)
    return scores


# duplicates: the same shape as _tutorial_minimax on purpose (module docstring): the plain
# version is the one this incremental twin is tested against.
@njit(cache=False)  # recursive (or calls a recursive kernel): numba's cache crashes on those
def _tutorial_minimax_counts(grid, heights, rows, columns, inarow, counts, totals, cell_windows,
                             depth, maximizing, mark, last_idx, stats):
    """``_tutorial_minimax`` with the window heuristic kept incrementally
    (``heuristics.tutorial.window_counts``): same values, far fewer operations."""
    stats[S_NODES] += 1
    if depth == 0 or is_win_at(grid, rows, columns, inarow, last_idx) or is_full(heights, rows):
        return counts_eval(totals, mark)
    mover = mark if maximizing else 3 - mark
    best = -INF if maximizing else INF
    for c in range(columns):
        if heights[c] < rows:
            idx = drop(grid, heights, rows, columns, c, mover)
            update_counts(counts, totals, cell_windows, idx, mover, inarow, 1)
            v = _tutorial_minimax_counts(grid, heights, rows, columns, inarow, counts, totals,
                                         cell_windows, depth - 1, not maximizing, mark, idx, stats)
            update_counts(counts, totals, cell_windows, idx, mover, inarow, -1)
            undo(grid, heights, rows, columns, c)
            if maximizing:
                if v > best:
                    best = v
            elif v < best:
                best = v
    return best


@njit(cache=False)  # recursive (or calls a recursive kernel): numba's cache crashes on those
def minimax_scores_counts(grid, heights, rows, columns, inarow, windows, cell_windows, nsteps,
                            mark, stats):
    """``minimax_scores`` for the window heuristic, computed incrementally."""
    counts, totals = window_counts(grid, windows, inarow)
    scores = np.full(columns, -INF, dtype=np.int64)
    for c in range(columns):
        if heights[c] < rows:
            idx = drop(grid, heights, rows, columns, c, mark)
            update_counts(counts, totals, cell_windows, idx, mark, inarow, 1)
            scores[c] = _tutorial_minimax_counts(grid, heights, rows, columns, inarow, counts,
                                                 totals, cell_windows, nsteps - 1, False, mark,
                                                 idx, stats)
            update_counts(counts, totals, cell_windows, idx, mark, inarow, -1)
            undo(grid, heights, rows, columns, c)
    return scores
