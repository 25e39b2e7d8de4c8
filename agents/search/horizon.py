"""What the alpha-beta kernels of :mod:`agents.search.alphabeta_bb` do at the horizon:
the evaluation (by heuristic id: :mod:`heuristics.dispatch`), and the quiescence search.

Both run on the bitboards (``stones``: int64[3] by mark, layout in :mod:`agents.board`)
or, given ``windows`` (:func:`agents.board.grid.window_table`; None: bitboards), on the
Kaggle grid; the ``windows is None`` branches are pruned before typing, as in the kernels.

**Quiescence** (``quiescence=True`` on ``alphabeta``; the lesson's answer to the horizon
effect): a position at the horizon is not scored at once while a move is forced. If the
side to move can win now, it is a win; if the opponent threatens two immediate wins, a
loss; if it threatens one, the block is played and the same questions are asked of the
position after it, at most :data:`QUIESCENCE_PLIES` blocks deep; otherwise (no threat,
or the bound reached) the evaluation. Each step has at most one forced move, so the
quiescence search is a line, not a tree: no table, no window, a few column scans.
"""
import numpy as np

from agents.board.bitboard import bb_winning_cells
from agents.board.grid import drop, undo, wins_by_playing
from agents.board.jit import njit
from agents.search.scores import WIN
from agents.search.counters import S_NODES
from heuristics.dispatch import bitboard_evaluate, grid_evaluate

QUIESCENCE_PLIES = 8  # forced blocks followed past the horizon, at most


@njit
def horizon_value(stones, heights, rows, columns, inarow, geo, heuristic, me, root_mark, grid,
                  windows):
    """The static value of a horizon position for the side to move ``me``: the
    evaluation of ``root_mark``, negated when the opponent is to move."""
    if windows is not None:
        v = grid_evaluate(grid, heights, rows, columns, inarow, windows, root_mark, heuristic)
    else:
        v = bitboard_evaluate(stones, root_mark, heuristic, geo)
    return v if me == root_mark else -v


@njit
def _two_columns(cells, H, columns):
    """The first two columns (lowest first; -1 for none) holding a bit of ``cells``."""
    first = -1
    if cells != 0:
        column = (np.uint64(1) << np.uint64(H)) - np.uint64(1)
        for c in range(columns):
            if cells & (column << np.uint64(c * H)):
                if first >= 0:
                    return first, c
                first = c
    return first, -1


@njit
def forced_line(stones, heights, rows, columns, inarow, me, nstones, bound, counters, grid, windows,
                pv, pvlen, p):
    """The forced part of the quiescence search (module docstring) from a non-terminal
    position with ``nstones`` stones, ``me`` to move: ``(k, value, settled)``. The ``k``
    forced blocks are played and left on the board (:func:`take_back` undoes them);
    ``settled``: the line ended in a result, ``value`` (for ``me``, on the scale of
    :mod:`agents.search.scores`); otherwise the position reached is to be evaluated
    (:func:`horizon_value` for ``me``: the evaluation is the root player's, so its sign
    does not depend on ``k``). The line (the blocks, then the moves that end the game,
    if any) goes to ``pv[p]``, its length to ``pvlen[p]``; each block counts as a node.
    The evaluation is left to the caller so that its code is compiled once, in the
    search kernel, not again here."""
    H = rows + 1
    size = rows * columns
    k = 0        # forced blocks played
    sign = 1     # value for ``me`` = sign * value for the side to move now
    who = me
    # on bitboards: the playable cells, and each side's winning moves among them at once
    # (bb_winning_cells: a few dozen word operations where a scan of the columns tests
    # a line twice a column), the same columns as the scan, lowest first
    playable = np.uint64(0)
    if windows is None:
        for c in range(columns):
            if heights[c] < rows:
                playable |= np.uint64(1) << np.uint64(c * H + heights[c])
    while True:
        win = -1
        if windows is None:
            win = _two_columns(bb_winning_cells(stones[who], H, inarow) & playable, H,
                               columns)[0]
        else:
            for c in range(columns):
                if heights[c] < rows and wins_by_playing(grid, heights, rows, columns, inarow,
                                                         c, who):
                    win = c
                    break
        if win >= 0:
            pv[p, k] = win
            pvlen[p] = k + 1
            return k, sign * (WIN - (nstones + k + 1)), True
        t1 = -1
        t2 = -1
        if windows is None:
            t1, t2 = _two_columns(bb_winning_cells(stones[3 - who], H, inarow) & playable, H,
                                  columns)
        else:
            for c in range(columns):
                if heights[c] < rows and wins_by_playing(grid, heights, rows, columns, inarow,
                                                         c, 3 - who):
                    if t1 < 0:
                        t1 = c
                    else:
                        t2 = c
                        break
        if t2 >= 0:  # two threats: block one, lose on the other
            pv[p, k] = t1
            pv[p, k + 1] = t2
            pvlen[p] = k + 2
            return k, -sign * (WIN - (nstones + k + 2)), True
        if t1 < 0 or k == bound:
            pvlen[p] = k
            return k, 0, False
        pv[p, k] = t1
        if nstones + k + 1 == size:  # the block fills the board
            pvlen[p] = k + 1
            return k, 0, True
        if windows is not None:
            drop(grid, heights, rows, columns, t1, who)
        else:
            bit = np.int64(1) << (t1 * H + heights[t1])
            stones[who] |= bit
            heights[t1] += 1
            playable ^= np.uint64(bit)
            if heights[t1] < rows:
                playable |= np.uint64(bit) << np.uint64(1)
        counters[S_NODES] += 1
        k += 1
        sign = -sign
        who = 3 - who


@njit
def take_back(stones, heights, rows, columns, me, k, grid, windows, pv, p):
    """Undo the ``k`` blocks :func:`forced_line` played from the position with ``me``
    to move (their columns are ``pv[p, :k]``), last first."""
    H = rows + 1
    who = me if k % 2 == 0 else 3 - me  # the side to move after the blocks
    for j in range(k - 1, -1, -1):
        c = pv[p, j]
        who = 3 - who
        if windows is not None:
            undo(grid, heights, rows, columns, c)
        else:
            heights[c] -= 1
            stones[who] ^= np.int64(1) << (c * H + heights[c])
