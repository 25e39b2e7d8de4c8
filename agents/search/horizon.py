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

**Swing quiescence** (:func:`swing_search`; the lesson's other reading: "detect wide
fluctuations in values ... over several ply"): a position at the horizon is *not
quiet* when one of its moves wins or changes the evaluation by at least ``swing``
(either way: the evaluation is symmetric, ``e(mark) = -e(opponent)``); a quiet one is
evaluated, a noisy one searched one ply more, every move, at most ``extend`` times on a
line. No stand-pat: in Connect Four the side to move cannot pass. A kernel of its own
(plain negamax alpha-beta, centre first, no table), so that the agents' search is
untouched; ``extend = 0`` is plain alpha-beta to ``depth``.
"""
import numpy as np

from agents.board.bitboard import bb_has_line, bb_winning_cells
from agents.board.grid import drop, undo, wins_by_playing
from agents.board.jit import njit
from agents.search.scores import INF, WIN
from agents.search.counters import S_NODES
from heuristics.dispatch import bitboard_evaluate, grid_evaluate

QUIESCENCE_PLIES = 8  # forced blocks followed past the horizon, at most
SWING_PLIES = 2       # swing quiescence: plies added past the horizon on a line, at most


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


@njit
def _noisy(stones, heights, rows, inarow, geo, heuristic, me, order, swing, counters):
    """Whether the position (``me`` to move, bitboards) is not quiet: a move wins, or
    changes ``me``'s evaluation by at least ``swing``. Each move tried counts a node."""
    H = rows + 1
    base = bitboard_evaluate(stones, me, heuristic, geo)
    for c in order:
        if heights[c] == rows:
            continue
        bit = np.int64(1) << (c * H + heights[c])
        stones[me] |= bit
        counters[S_NODES] += 1
        noisy = bb_has_line(stones[me], H, inarow) or \
            abs(bitboard_evaluate(stones, me, heuristic, geo) - base) >= swing
        stones[me] ^= bit
        if noisy:
            return True
    return False


@njit(cache=False)  # recursive: never cached (agents.board.jit)
def swing_search(stones, heights, rows, columns, inarow, geo, heuristic, order, me, nstones,
                 depth, alpha, beta, extend, swing, counters):
    """The negamax alpha-beta value (fail-soft, for ``me`` to move, on the scale of
    :mod:`agents.search.scores`) of a non-terminal position of ``nstones`` stones on
    bitboards, ``depth`` plies with the swing quiescence (module docstring) at the
    horizon: ``extend`` plies at most past it, ``swing`` the evaluation's change that
    makes a position noisy. Moves in ``order``; a node entered counts one in
    ``counters[S_NODES]``, and so does each move :func:`_noisy` tries. The board is
    left as it was given."""
    H = rows + 1
    counters[S_NODES] += 1
    if depth == 0:
        if extend == 0 or not _noisy(stones, heights, rows, inarow, geo, heuristic, me, order,
                                     swing, counters):
            return bitboard_evaluate(stones, me, heuristic, geo)
        depth = 1
        extend -= 1
    best = -INF
    for c in order:
        if heights[c] == rows:
            continue
        bit = np.int64(1) << (c * H + heights[c])
        stones[me] |= bit
        heights[c] += 1
        if bb_has_line(stones[me], H, inarow):
            v = WIN - (nstones + 1)
        elif nstones + 1 == rows * columns:
            v = 0
        else:
            v = -swing_search(stones, heights, rows, columns, inarow, geo, heuristic, order,
                              3 - me, nstones + 1, depth - 1, -beta, -max(alpha, best), extend,
                              swing, counters)
        heights[c] -= 1
        stones[me] ^= bit
        if v > best:
            best = v
            if best >= beta:
                break
    return best


def swing_root(grid, heights, mark, cfg, depth, heuristic_id, extend=SWING_PLIES, swing=50):
    """:func:`swing_search` from a Kaggle grid (``mark`` to move, not over): ``(column,
    value, nodes)``, the column the first of the best in centre-first order."""
    from agents.board.bitboard import bb_from_grid
    from agents.board.grid import center_order
    from agents.search.counters import new_counters
    from heuristics.bitboard_eval import eval_geometry
    rows, columns, inarow = cfg.rows, cfg.columns, cfg.inarow
    ones, mask = bb_from_grid(grid, rows, columns, 1)  # the int64[3] stones by mark
    stones = np.array([0, ones, ones ^ mask], dtype=np.int64)
    heights = np.array(heights, dtype=np.int64)
    counters = new_counters()
    geo = eval_geometry(rows, columns, inarow)
    order = center_order(columns)
    nstones = int(heights.sum())
    best, best_col = -INF, -1
    for c in order:
        if heights[c] == rows:
            continue
        bit = np.int64(1) << np.int64(c * (rows + 1) + heights[c])
        stones[mark] |= bit
        heights[c] += 1
        counters[S_NODES] += 1
        if bb_has_line(stones[mark], rows + 1, inarow):
            v = WIN - (nstones + 1)
        elif nstones + 1 == rows * columns:
            v = 0
        else:
            v = -swing_search(stones, heights, rows, columns, inarow, geo, heuristic_id, order,
                              3 - mark, nstones + 1, depth - 1, -INF, -best, extend, swing,
                              counters)
        heights[c] -= 1
        stones[mark] ^= bit
        if v > best:
            best, best_col = v, int(c)
    return best_col, int(best), int(counters[S_NODES])
