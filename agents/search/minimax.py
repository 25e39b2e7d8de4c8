"""The Kaggle tutorial's depth-N minimax in numba (heuristic everywhere, terminal nodes
included), on the array representation of :mod:`agents.board` (every board shape).

Two twins of the same search: ``minimax_scores`` calls the evaluation kernel at
every leaf (any heuristic of :mod:`heuristics`); ``minimax_scores_counts`` keeps the
tutorial's window counts up to date move by move (:mod:`heuristics.tutorial`),
which is what makes the ``minimax`` agent fast. The first is the tutorial's recursion
as written, the plain version the second is tested against (``tests/test_search.py``:
same scores, same node counts); the second walks the same tree with an explicit stack,
so that it is kept in numba's disk cache (a recursive kernel cannot be).
:func:`onestep_move` is the ``onestep`` agent's whole move on the second.
Scores and counters slots: :mod:`agents.search.scores`.
"""
import numpy as np

from agents.board.grid import drop, is_full, is_win_at, undo
from agents.board.jit import njit
from agents.search.scores import INF, S_NODES
from agents.search.tactics import safety_case
from heuristics.tutorial import counts_eval, update_counts, window_counts

# ---------------------------------------------------------------------------
# The tutorial's minimax (heuristic everywhere, including at terminal nodes)
# ---------------------------------------------------------------------------


@njit(cache=False)  # takes the evaluation kernel as an argument
def _tutorial_minimax(grid, heights, rows, columns, inarow, windows, evaluate,
                      depth, maximizing, mark, last_idx, counters):
    """The Kaggle tutorial's ``minimax(node, depth, maximizingPlayer, mark)``.

    ``last_idx`` is where the last stone landed: a node is terminal when that
    stone completed a line or the board is full (the root is never terminal),
    and terminal and horizon nodes alike score ``evaluate(..., mark)``."""
    counters[S_NODES] += 1
    if depth == 0 or is_win_at(grid, rows, columns, inarow, last_idx) or is_full(heights, rows):
        return evaluate(grid, heights, rows, columns, inarow, windows, mark)
    mover = mark if maximizing else 3 - mark
    best = -INF if maximizing else INF
    for c in range(columns):
        if heights[c] < rows:
            idx = drop(grid, heights, rows, columns, c, mover)
            v = _tutorial_minimax(grid, heights, rows, columns, inarow, windows, evaluate,
                                  depth - 1, not maximizing, mark, idx, counters)
            undo(grid, heights, rows, columns, c)
            if maximizing:
                if v > best:
                    best = v
            elif v < best:
                best = v
    return best


@njit(cache=False)  # takes the evaluation kernel as an argument
def minimax_scores(grid, heights, rows, columns, inarow, windows, evaluate, nsteps, mark,
                     counters):
    """The tutorial's ``score_move`` for every column (``-INF`` marks a full column)."""
    scores = np.full(columns, -INF, dtype=np.int64)
    for c in range(columns):
        if heights[c] < rows:
            idx = drop(grid, heights, rows, columns, c, mark)
            scores[c] = _tutorial_minimax(grid, heights, rows, columns, inarow, windows,
                                          evaluate, nsteps - 1, False, mark, idx, counters)
            undo(grid, heights, rows, columns, c)
    return scores


@njit
def _tutorial_minimax_counts(grid, heights, rows, columns, inarow, counts, totals, cell_windows,
                             depth, maximizing, mark, last_idx, counters):
    """``_tutorial_minimax`` with the window heuristic kept incrementally
    (``heuristics.tutorial.window_counts``): same values and node count, far fewer
    operations.

    The same depth-first walk (columns left to right) with an explicit stack instead
    of recursion, so numba's disk cache can keep it (:mod:`agents.board.jit`): frame
    ``k`` is the node ``k`` plies below this call's node, with the column it is
    trying (``col``), where that stone landed (``idx``) and its best value so far."""
    counters[S_NODES] += 1
    if depth == 0 or is_win_at(grid, rows, columns, inarow, last_idx) or is_full(heights, rows):
        return counts_eval(totals, mark)
    col = np.empty(depth, dtype=np.int64)
    at = np.empty(depth, dtype=np.int64)
    best = np.empty(depth, dtype=np.int64)
    k = 0
    col[0] = -1
    best[0] = -INF if maximizing else INF
    while True:
        maxing = maximizing if k % 2 == 0 else not maximizing
        c = col[k] + 1
        while c < columns and heights[c] >= rows:
            c += 1
        if c == columns:  # frame k is done: take its stone back in the parent
            v = best[k]
            if k == 0:
                return v
            k -= 1
            maxing = not maxing
            mover = mark if maxing else 3 - mark
            update_counts(counts, totals, cell_windows, at[k], mover, inarow, -1)
            undo(grid, heights, rows, columns, col[k])
        else:
            mover = mark if maxing else 3 - mark
            col[k] = c
            at[k] = drop(grid, heights, rows, columns, c, mover)
            update_counts(counts, totals, cell_windows, at[k], mover, inarow, 1)
            counters[S_NODES] += 1
            if k + 1 < depth and not is_win_at(grid, rows, columns, inarow, at[k]) \
                    and not is_full(heights, rows):
                k += 1  # descend: the child becomes frame k + 1
                col[k] = -1
                best[k] = INF if maxing else -INF
                continue
            v = counts_eval(totals, mark)  # a horizon or terminal child
            update_counts(counts, totals, cell_windows, at[k], mover, inarow, -1)
            undo(grid, heights, rows, columns, c)
        if maxing:
            if v > best[k]:
                best[k] = v
        elif v < best[k]:
            best[k] = v


@njit
def minimax_scores_counts(grid, heights, rows, columns, inarow, windows, cell_windows, nsteps,
                            mark, counters):
    """``minimax_scores`` for the window heuristic, computed incrementally."""
    counts, totals = window_counts(grid, windows, inarow)
    scores = np.full(columns, -INF, dtype=np.int64)
    for c in range(columns):
        if heights[c] < rows:
            idx = drop(grid, heights, rows, columns, c, mark)
            update_counts(counts, totals, cell_windows, idx, mark, inarow, 1)
            scores[c] = _tutorial_minimax_counts(grid, heights, rows, columns, inarow, counts,
                                                 totals, cell_windows, nsteps - 1, False, mark,
                                                 idx, counters)
            update_counts(counts, totals, cell_windows, idx, mark, inarow, -1)
            undo(grid, heights, rows, columns, c)
    return scores


@njit
def onestep_move(grid, heights, rows, columns, inarow, mark, best, tactics, windows,
                 cell_windows, counters):
    """The ``onestep`` agent's move with the window heuristic
    (:class:`agents.players.baselines.OneStepAgent`, which calls it, as the environments'
    ``onestep`` opponent does): always -1, with ``best`` (bool, ``columns``) marking the
    legal columns of the best one-ply score (:func:`minimax_scores_counts`), filtered by
    the safety net (:func:`agents.search.tactics.safety_net`'s rules) when ``tactics``:
    the caller draws one."""
    scores = minimax_scores_counts(grid, heights, rows, columns, inarow, windows, cell_windows,
                                   1, mark, counters)
    top = -INF
    for c in range(columns):
        if heights[c] < rows and scores[c] > top:
            top = scores[c]
    for c in range(columns):
        best[c] = heights[c] < rows and scores[c] == top
    if tactics:
        keep = np.zeros(columns, dtype=np.bool_)
        case = safety_case(grid, heights, rows, columns, inarow, mark, best, keep)
        if case == 1:
            for c in range(columns):
                best[c] = best[c] and keep[c]
        elif case == 2:
            for c in range(columns):
                best[c] = keep[c]
    return -1


# ---------------------------------------------------------------------------
# The principal variation: walked down after the search, one child search a ply
# ---------------------------------------------------------------------------
# The tutorial's minimax keeps no line. Its line from a root column is found again by
# following, ply by ply, a child whose value (a search one ply shallower) is the node's:
# the best for the side to move there (the first such column). The extra searches cost
# about a sixth of the root search (the line's first node has 1/7 of the root's tree).


@njit
def _line_move(grid, heights, rows, columns, inarow, nsteps, line, n, c, mover):
    """``mover`` plays ``c`` as move ``n`` of the line: (where the stone landed, the
    line's new length, True when the line ends there: horizon, line or full board)."""
    idx = drop(grid, heights, rows, columns, c, mover)
    line[n] = c
    n += 1
    return idx, n, (n == nsteps or is_win_at(grid, rows, columns, inarow, idx)
                    or is_full(heights, rows))


@njit
def _take_back(grid, heights, rows, columns, line, n):
    """Undo the line's ``n`` moves, last first."""
    for k in range(n - 1, -1, -1):
        undo(grid, heights, rows, columns, line[k])


@njit(cache=False)  # takes the evaluation kernel as an argument
def minimax_line(grid, heights, rows, columns, inarow, windows, evaluate, nsteps, mark, first,
                 line):
    """The principal variation of ``minimax_scores``'s column ``first``: its columns in
    ``line[:n]``, ``n`` returned. Played out, it ends at the horizon (``nsteps`` plies),
    a line or a full board, at a position whose ``evaluate(..., mark)`` is the column's
    score. ``grid`` and ``heights`` come back unchanged."""
    counters = np.zeros(2, dtype=np.int64)
    n, c, maximizing = 0, first, True
    while True:
        _, n, done = _line_move(grid, heights, rows, columns, inarow, nsteps, line, n, c,
                                mark if maximizing else 3 - mark)
        maximizing = not maximizing
        if done:
            break
        best = -INF if maximizing else INF
        for c2 in range(columns):
            if heights[c2] < rows:
                i2 = drop(grid, heights, rows, columns, c2, mark if maximizing else 3 - mark)
                v = _tutorial_minimax(grid, heights, rows, columns, inarow, windows, evaluate,
                                      nsteps - n - 1, not maximizing, mark, i2, counters)
                undo(grid, heights, rows, columns, c2)
                if (v > best) if maximizing else (v < best):
                    best, c = v, c2
    _take_back(grid, heights, rows, columns, line, n)
    return n


@njit
def minimax_line_counts(grid, heights, rows, columns, inarow, windows, cell_windows, nsteps,
                        mark, first, line):
    """``minimax_line`` for the window heuristic, on the incremental kernel of
    ``minimax_scores_counts`` (cached on disk like it)."""
    counters = np.zeros(2, dtype=np.int64)
    counts, totals = window_counts(grid, windows, inarow)
    n, c, maximizing = 0, first, True
    while True:
        mover = mark if maximizing else 3 - mark
        idx, n, done = _line_move(grid, heights, rows, columns, inarow, nsteps, line, n, c, mover)
        update_counts(counts, totals, cell_windows, idx, mover, inarow, 1)
        maximizing = not maximizing
        if done:
            break
        best = -INF if maximizing else INF
        mover = mark if maximizing else 3 - mark
        for c2 in range(columns):
            if heights[c2] < rows:
                i2 = drop(grid, heights, rows, columns, c2, mover)
                update_counts(counts, totals, cell_windows, i2, mover, inarow, 1)
                v = _tutorial_minimax_counts(grid, heights, rows, columns, inarow, counts, totals,
                                             cell_windows, nsteps - n - 1, not maximizing, mark,
                                             i2, counters)
                update_counts(counts, totals, cell_windows, i2, mover, inarow, -1)
                undo(grid, heights, rows, columns, c2)
                if (v > best) if maximizing else (v < best):
                    best, c = v, c2
    _take_back(grid, heights, rows, columns, line, n)
    return n

