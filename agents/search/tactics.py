"""Short tactics every agent shares: the immediate win or forced block, the moves that
do not hand the opponent a win on top of them, a forced result within a few plies,
and the safety net that keeps a search's choice from missing either (array kernels,
every board shape); :func:`rules_move`, the ``rules`` agent's whole move, is made of them.
"""
import numpy as np

from agents.board.grid import drop, is_full, is_win_at, undo, wins_by_playing
from agents.board.jit import njit


@njit
def tactical_column(grid, heights, rows, columns, inarow, mark):
    """A column that wins now, else the column that blocks the opponent's only
    immediate win, else -1 (no tactic, or several opponent wins: lost anyway)."""
    for c in range(columns):
        if heights[c] < rows and wins_by_playing(grid, heights, rows, columns, inarow, c, mark):
            return c
    block = -1
    for c in range(columns):
        if heights[c] < rows and wins_by_playing(grid, heights, rows, columns, inarow, c,
                                                   3 - mark):
            if block >= 0:
                return block  # two threats: block one, the game is lost anyway
            block = c
    return block


@njit
def safe_moves(grid, heights, rows, columns, inarow, mark):
    """Boolean per column: legal and does not let the opponent win at once on top of it."""
    safe = np.zeros(columns, dtype=np.bool_)
    for c in range(columns):
        if heights[c] >= rows:
            continue
        idx = drop(grid, heights, rows, columns, c, mark)
        ok = True
        if heights[c] < rows:
            ok = not wins_by_playing(grid, heights, rows, columns, inarow, c, 3 - mark)
        undo(grid, heights, rows, columns, c)
        safe[c] = ok
        _ = idx
    return safe


@njit
def forced_result(grid, heights, rows, columns, inarow, mark, depth, last_idx):
    """+1 if ``mark`` (to move) forces a win within ``depth`` plies, -1 if it is forced
    to lose within ``depth`` plies, else 0. ``last_idx`` is the previous stone (-1: none).

    A depth-first negamax over all columns, left to right, stopping at the first
    forced win; written with an explicit stack (frame ``k`` = the node ``k`` plies
    down: its last column tried and its best value so far) rather than recursion, so
    numba's disk cache can keep it (see :mod:`agents.board.jit`). The recursive
    statement is :func:`agents.search.reference.forced_result_reference`."""
    if last_idx >= 0 and is_win_at(grid, rows, columns, inarow, last_idx):
        return -1
    if depth <= 0 or is_full(heights, rows):
        return 0
    col = np.empty(depth, dtype=np.int64)
    best = np.empty(depth, dtype=np.int64)
    k = 0
    col[0] = -1
    best[0] = -1
    while True:
        c = col[k] + 1
        while c < columns and heights[c] >= rows:
            c += 1
        if c == columns or best[k] == 1:  # frame k is done: hand its value up
            v = best[k]
            if k == 0:
                return v
            k -= 1
            undo(grid, heights, rows, columns, col[k])
            if -v > best[k]:
                best[k] = -v
            continue
        col[k] = c
        idx = drop(grid, heights, rows, columns, c, mark if k % 2 == 0 else 3 - mark)
        if is_win_at(grid, rows, columns, inarow, idx):
            child = -1
        elif k + 1 == depth or is_full(heights, rows):
            child = 0
        else:  # descend: the child node becomes frame k + 1
            k += 1
            col[k] = -1
            best[k] = -1
            continue
        undo(grid, heights, rows, columns, c)
        if -child > best[k]:
            best[k] = -child


@njit
def safety_case(grid, heights, rows, columns, inarow, mark, in_best, keep):
    """The kernel of :func:`safety_net`: 0 = keep ``best``; 1 = the columns of ``best``
    marked in ``keep``; 2 = the columns marked in ``keep``, left to right."""
    wins = np.zeros(columns, dtype=np.bool_)
    any_win = False
    for c in range(columns):
        if heights[c] < rows and wins_by_playing(grid, heights, rows, columns, inarow, c, mark):
            wins[c] = True
            any_win = True
    if any_win:
        best_wins = False
        for c in range(columns):
            keep[c] = wins[c]
            if in_best[c] and wins[c]:
                best_wins = True
        if best_wins:
            return 1
        for c in range(columns):
            if in_best[c]:
                idx = drop(grid, heights, rows, columns, c, mark)
                forced = -forced_result(grid, heights, rows, columns, inarow, 3 - mark, 2, idx)
                undo(grid, heights, rows, columns, c)
                if forced == 1:
                    return 0
        return 2
    threat = -1
    count = 0
    for c in range(columns):
        if heights[c] < rows and wins_by_playing(grid, heights, rows, columns, inarow, c,
                                                 3 - mark):
            threat = c
            count += 1
    if count == 1 and not in_best[threat]:
        for c in range(columns):
            keep[c] = c == threat
        return 2
    return 0


def safety_net(grid, heights, cfg, mark, best):
    """Filter a search's best columns so an immediate win or a forced block is never missed.

    * If ``mark`` can win now and no column of ``best`` wins now or forces a win within
      the next two plies of its own (the tutorial's minimax sometimes prefers such a
      delayed, still forced, win), return the winning columns; if some columns of
      ``best`` win now, return those.
    * Else if the opponent has exactly one immediate win and ``best`` does not block it,
      return that column. Otherwise ``best`` unchanged.

    One kernel call (:func:`safety_case`); the plain-Python statement of the same rules
    is :func:`agents.search.reference.safety_net_reference`, which the tests compare."""
    in_best = np.zeros(cfg.columns, dtype=np.bool_)
    for c in best:
        in_best[c] = True
    keep = np.zeros(cfg.columns, dtype=np.bool_)
    case = safety_case(grid, heights, cfg.rows, cfg.columns, cfg.inarow, mark, in_best, keep)
    if case == 0:
        return best
    if case == 1:
        return [c for c in best if keep[c]]
    return [c for c in range(cfg.columns) if keep[c]]


def tactical_move(grid, heights, cfg, mark):
    """Python entry to ``tactical_column``: int column or -1."""
    return int(tactical_column(grid, heights, cfg.rows, cfg.columns, cfg.inarow, mark))



@njit
def rules_move(grid, heights, rows, columns, inarow, mark, best, lookahead):
    """The ``rules`` agent's move (:class:`agents.players.baselines.RulesAgent`, which
    calls it, as the environments' ``rules`` opponent does): the immediate win or forced
    block (returned); else -1 with ``best`` (bool, ``columns``, cleared here) marking,
    among the moves that hand the opponent no win on top (all legal moves if none), those
    with the best forced result within ``lookahead`` plies: the caller draws one."""
    t = tactical_column(grid, heights, rows, columns, inarow, mark)
    if t >= 0:
        return t
    safe = safe_moves(grid, heights, rows, columns, inarow, mark)
    n = 0
    for c in range(columns):
        best[c] = heights[c] < rows and safe[c]
        n += best[c]
    if n == 0:
        for c in range(columns):
            best[c] = heights[c] < rows
    values = np.full(columns, -2, dtype=np.int64)
    top = -2
    for c in range(columns):
        if best[c]:
            idx = drop(grid, heights, rows, columns, c, mark)
            values[c] = -forced_result(grid, heights, rows, columns, inarow, 3 - mark,
                                       lookahead - 1, idx)
            undo(grid, heights, rows, columns, c)
            top = max(top, values[c])
    for c in range(columns):
        best[c] = best[c] and values[c] == top
    return -1
