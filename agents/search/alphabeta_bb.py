"""The alpha-beta search of :mod:`agents.search.alphabeta` on bitboards, for boards that
fit 64 bits (:func:`agents.board.bitboard.fits_bitboard`): the same tree, several times faster.

Same negamax, same move order (table move, killers, centre first), same transposition
table and Zobrist keys (by the Kaggle cell index of each stone), same values: the
evaluation is :mod:`heuristics.bitboard_eval`, equal to the array heuristics. So at a fixed
depth both kernels visit the same nodes in the same order and return the same scores
and move (``tests/test_search.py`` checks it; ``python -m scripts.bench.search`` times both).
What changes is the cost of a node: a move is two word operations and a win check a
dozen, instead of array updates and a walk along four lines, and the evaluation is a
few hundred word operations instead of a scan of every window with an allocation.

The position is ``stones`` (int64[3]: ``stones[1]``, ``stones[2]`` the bitboards of
each mark, layout in :mod:`agents.board`) and ``heights`` (stones a column, as in the
array kernels). ``heuristic``: the evaluation's id in :mod:`heuristics.dispatch` (its
:data:`heuristics.REGISTRY` record's ``id``); the search never names one.

Given ``windows`` (:func:`agents.board.grid.window_table`; None: bitboards), the same
explicit-stack search runs on the Kaggle grid instead (moves by
:func:`agents.board.grid.drop`, wins by ``is_win_at``, the array heuristics): the array
path of boards that do not fit 64 bits, with the tree of the recursive
:func:`agents.search.alphabeta.root_search`, and unlike it kept in numba's
disk cache (a recursive kernel, or one that takes the evaluation as an argument, is
compiled again in every process: 1.3-2.2 s on a 10x10 board). ``windows`` None or an
array are two numba specialisations, and the ``windows is None`` branches are pruned
before typing: the bitboard kernel (a submission file's, compiled in every game) holds
no grid code.
"""
import numpy as np

from agents.board.bitboard import bb_from_grid, bb_has_line
from agents.board.grid import drop, is_win_at, undo
from agents.board.jit import njit, now
from agents.search.alphabeta import ended, root_score, take_line
from agents.search.horizon import forced_line, horizon_value, take_back
from agents.search.scores import (CHECK_EVERY, EXACT, INF, LOWER, PROVEN, S_ABORTED, S_NODES,
                                  UPPER, WIN)
from agents.search.tactics import tactical_column

# ``opts`` bits of the kernels (the alphabeta agent's options of the same names)
OPT_KILLERS, OPT_HISTORY, OPT_PVS = 1, 2, 4
FRAME_ROWS = 11  # bb_negamax's per-frame values (window, best, move, key, moves, ...)
__all__ = ["bb_negamax", "bb_order_moves", "bb_root_search", "packed_table", "stones_of"]


@njit
def stones_of(grid, rows, columns):
    """The int64[3] bitboards by mark (``[0]`` unused) of a Kaggle flat grid
    (:func:`agents.board.bitboard.bb_from_grid`'s layout)."""
    ones, mask = bb_from_grid(grid, rows, columns, 1)
    out = np.zeros(3, dtype=np.int64)
    out[1] = np.int64(ones)
    out[2] = np.int64(ones ^ mask)
    return out


@njit
def bb_order_moves(heights, rows, columns, order, tt_move, killers, ply, out, opts, history, me):
    """:func:`agents.search.alphabeta.order_moves` (the same order: table move, killers,
    centre first) with the columns already taken kept as bits rather than looked up.
    ``opts``: without :data:`OPT_KILLERS` no killers; with :data:`OPT_HISTORY` the
    moves after the table move and the killers sorted by ``history[me, cell]`` (the
    cut-offs each move caused, weighted by depth; centre first among equals)."""
    n = 0
    used = 0
    if tt_move >= 0 and heights[tt_move] < rows:
        out[n] = tt_move
        n += 1
        used |= np.int64(1) << tt_move
    if opts & OPT_KILLERS:
        for k in range(2):
            m = killers[ply, k]
            if m >= 0 and heights[m] < rows and (used >> m) & 1 == 0:
                out[n] = m
                n += 1
                used |= np.int64(1) << m
    start = n
    for i in range(columns):
        c = order[i]
        if heights[c] < rows and (used >> c) & 1 == 0:
            out[n] = c
            n += 1
    if opts & OPT_HISTORY:  # insertion sort, stable: centre first among equal scores
        for i in range(start + 1, n):
            c = out[i]
            s = history[me, c + (rows - 1 - heights[c]) * columns]
            j = i
            while j > start:
                d = out[j - 1]
                if history[me, d + (rows - 1 - heights[d]) * columns] >= s:
                    break
                out[j] = d
                j -= 1
            out[j] = c
    return n


def packed_table(tt_bits):
    """The transposition table of these kernels: ``2**tt_bits`` rows of three int64
    (key, value, ``info << 16 | move + 1``; ``info`` as in the array kernels), so a
    probe reads one cache line. Same slots and replacement (always) as the array
    kernels' four arrays, hence the same tree."""
    return np.zeros((1 << tt_bits, 3), dtype=np.int64)


@njit
def bb_negamax(stones, heights, rows, columns, inarow, geo, heuristic, order,
               depth, alpha, beta, mark, root_mark, nstones, key, zobrist, tt, killers, moves,
               ply, deadline, counters, grid, windows, opts, history, pv, pvlen, quiescence,
               frames):
    """:func:`agents.search.alphabeta.negamax` on bitboards (same contract, same tree;
    ``key`` and ``zobrist`` as int64, the table from :func:`packed_table`); with
    given ``windows`` on ``grid`` (``stones`` and ``geo`` unused). ``frames``: int64
    work space of :data:`FRAME_ROWS` rows and at least ``depth + 1`` columns, its
    content unused.

    ``opts`` (bits ``OPT_*``): killers, history ordering (``history``: int64[3, cells],
    cut-offs by mark and Kaggle cell) and principal variation search (each move after
    the first searched with a null window, again with the full one if it fails high):
    none changes the value. ``quiescence``: None, or the most forced blocks the
    quiescence search plays at the horizon (:func:`agents.search.horizon.forced_line`;
    a numba specialisation of its own, like ``windows``, so that the default search,
    a submission file's, compiles none of it). The principal variation of the node at ply
    ``p`` is left in ``pv[p, :pvlen[p]]`` when its value lies inside its window.

    The recursion is unrolled onto an explicit stack (frame ``f`` = the node ``f``
    plies below this call's node; its window, best value and move, key, next move)
    so that a node costs no call with two dozen array arguments, and so that numba's
    disk cache can keep the kernel. The control flow follows the recursive statement
    step for step: ENTER a node (count it, clock, horizon, table probe, order the
    moves), NEXT move (play it; a win or a full board is valued at once, otherwise
    ENTER the child), RETURN a value to the parent (take the move back, fold the
    value in, cut off or go on with NEXT)."""
    H = rows + 1
    # the frames' rows (one allocation, by the caller, for all its calls: eleven arrays
    # a call cost more than a depth-1 search's nodes)
    f_alpha, f_beta, f_orig, f_best = frames[0], frames[1], frames[2], frames[3]
    f_move, f_key, f_n, f_i = frames[4], frames[5], frames[6], frames[7]
    f_col, f_slot = frames[8], frames[9]
    f_scout = frames[10]  # the child was searched with a null window
    f_scout[:depth + 1] = 0
    f = 0
    f_alpha[0] = alpha
    f_beta[0] = beta
    f_key[0] = key
    me = mark
    v = 0
    enter = True
    while True:
        if enter:  # ENTER frame f: mark ``me`` to move, ``depth - f`` plies left
            enter = False
            returning = True
            pvlen[ply + f] = 0
            counters[S_NODES] += 1
            if (counters[S_NODES] & CHECK_EVERY) == 0 and deadline > 0.0 and now() > deadline:
                counters[S_ABORTED] = 1
            if counters[S_ABORTED]:
                v = 0
            elif f == depth:
                k = 0
                settled = False
                if quiescence is not None:  # play the forced blocks first
                    k, v, settled = forced_line(stones, heights, rows, columns, inarow, me,
                                                nstones + f, quiescence, counters, grid,
                                                windows, pv, pvlen, ply + f)
                if not settled:
                    v = horizon_value(stones, heights, rows, columns, inarow, geo, heuristic,
                                      me, root_mark, grid, windows)
                if quiescence is not None and k > 0:
                    take_back(stones, heights, rows, columns, me, k, grid, windows, pv, ply + f)
            else:
                a = f_alpha[f]
                b = f_beta[f]
                k = f_key[f]
                slot = k & (tt.shape[0] - 1)
                best_move = -1
                returning = False
                if tt[slot, 0] == k:
                    word = tt[slot, 2]
                    best_move = (word & 0xFFFF) - 1
                    info = word >> 16
                    if (info >> 8) == depth - f:
                        # a cut-off only where the entry proves a fail: a value inside the
                        # window is searched again, so that the node has its line
                        flag = (info >> 4) & 0xF
                        tv = tt[slot, 1]
                        if (tv >= b and flag != UPPER) or (tv <= a and flag != LOWER):
                            v = tv
                            returning = True
                if not returning:
                    f_orig[f] = a
                    f_slot[f] = slot
                    f_best[f] = -INF
                    f_move[f] = best_move
                    f_n[f] = bb_order_moves(heights, rows, columns, order, best_move, killers,
                                            ply + f, moves[ply + f], opts, history, me)
                    f_i[f] = 0
        else:  # NEXT move of frame f
            returning = False
            if f_i[f] == f_n[f]:  # all moves searched: store, return the best
                _store(f, depth, f_best, f_orig, f_beta, f_slot, f_key, f_move, tt)
                v = f_best[f]
                returning = True
            else:
                c = moves[ply + f, f_i[f]]
                first = f_i[f] == 0
                f_i[f] += 1
                f_col[f] = c
                f_scout[f] = 0
                h = heights[c]
                if windows is not None:
                    won = is_win_at(grid, rows, columns, inarow,
                                    drop(grid, heights, rows, columns, c, me))
                else:
                    stones[me] |= np.int64(1) << (c * H + h)
                    heights[c] = h + 1
                    won = bb_has_line(stones[me], H, inarow)
                if won:
                    counters[S_NODES] += 1
                    v = -(WIN - (nstones + f + 1))  # the child's view: it has lost
                    f += 1
                    pvlen[ply + f] = 0
                    returning = True
                elif nstones + f + 1 == rows * columns:
                    counters[S_NODES] += 1
                    v = 0
                    f += 1
                    pvlen[ply + f] = 0
                    returning = True
                else:  # ENTER the child
                    f += 1
                    if (opts & OPT_PVS) != 0 and not first and f_beta[f - 1] - f_alpha[f - 1] > 1:
                        f_scout[f - 1] = 1
                        f_alpha[f] = -f_alpha[f - 1] - 1
                    else:
                        f_alpha[f] = -f_beta[f - 1]
                    f_beta[f] = -f_alpha[f - 1]
                    f_key[f] = f_key[f - 1] ^ zobrist[me, c + (rows - 1 - h) * columns]
                    me = 3 - me
                    enter = True
                    continue
                me = 3 - me
        if returning:  # RETURN ``v`` (frame f's view) to frame f - 1
            while True:
                if f == 0:
                    return v
                f -= 1
                me = 3 - me
                v = -v
                if f_scout[f] and f_alpha[f] < v < f_beta[f] and not counters[S_ABORTED]:
                    # the null window failed high: the same child, with the full window
                    f_scout[f] = 0
                    f += 1
                    f_alpha[f] = -f_beta[f - 1]
                    f_beta[f] = -f_alpha[f - 1]
                    me = 3 - me
                    enter = True
                    break
                c = f_col[f]
                if windows is not None:
                    undo(grid, heights, rows, columns, c)
                else:
                    heights[c] -= 1
                    stones[me] ^= np.int64(1) << (c * H + heights[c])
                if counters[S_ABORTED]:
                    v = 0
                    continue
                if v > f_best[f]:
                    f_best[f] = v
                    f_move[f] = c
                    if f_alpha[f] < v < f_beta[f]:  # exact: the child's line is the node's
                        take_line(pv, pvlen, ply + f, c)
                if v > f_alpha[f]:
                    f_alpha[f] = v
                if f_alpha[f] >= f_beta[f]:
                    p = ply + f
                    if (opts & OPT_KILLERS) != 0 and killers[p, 0] != c:
                        killers[p, 1] = killers[p, 0]
                        killers[p, 0] = c
                    if opts & OPT_HISTORY:
                        history[me, c + (rows - 1 - heights[c]) * columns] += (depth - f) ** 2
                    _store(f, depth, f_best, f_orig, f_beta, f_slot, f_key, f_move, tt)
                    v = f_best[f]
                    continue
                break  # go on with NEXT move of frame f


@njit
def _store(f, depth, f_best, f_orig, f_beta, f_slot, f_key, f_move, tt):
    best = f_best[f]
    if best <= f_orig[f]:
        flag = UPPER
    elif best >= f_beta[f]:
        flag = LOWER
    else:
        flag = EXACT
    slot = f_slot[f]
    tt[slot, 0] = f_key[f]
    tt[slot, 1] = best
    tt[slot, 2] = ((((depth - f) << 8) | (flag << 4)) << 16) | (f_move[f] + 1)


# duplicates: the root of agents.search.alphabeta.root_search on bitboards: the same
# steps in the same order are what keeps the two trees identical.
# Not inline="always" (tried: alphabeta_move's search 30% slower in connectx bench env's
# loop, 13-14k against 19k steps per CPU second at depth 4, for no gain in compile time).
@njit
def bb_root_search(grid, heights, rows, columns, inarow, geo, heuristic, order, depth, mark,
                   zobrist, tt, killers, moves, deadline, first_move, counters, scores,
                   windows, opts, history, pv, pvlen, alpha, beta, quiescence):
    """:func:`agents.search.alphabeta.root_search` on bitboards: the same arguments but
    the evaluation (``geo`` from :func:`heuristics.bitboard_eval.eval_geometry` and
    ``heuristic``) and the table (:func:`packed_table`; ``zobrist`` as int64). With
    ``windows`` (:func:`agents.board.grid.window_table`; None: bitboards) the search
    runs on a copy of ``grid`` (any board; ``geo`` unused).

    ``opts``, ``history``, ``pv``, ``pvlen``, ``quiescence``: as in :func:`bb_negamax`
    (the root's order is never sorted by history: ties keep the same move). The root's
    window is (``alpha``, ``beta``) (-INF, INF: the exact value; an aspiration window otherwise:
    a best score ``<= alpha`` or ``>= beta`` is only a bound, and the search stops at
    the first move that reaches ``beta``). The best move's line is left in
    ``pv[0, :pvlen[0]]`` when its score lies inside the window."""
    nstones = 0
    for c in range(columns):
        nstones += heights[c]
    key = np.int64(0)
    for i in range(grid.shape[0]):
        if grid[i] != 0:
            key ^= zobrist[grid[i], i]
    grid = grid.copy()
    if windows is not None:
        stones = np.zeros(3, dtype=np.int64)
    else:
        stones = stones_of(grid, rows, columns)
    heights = heights.copy()
    H = rows + 1
    n = bb_order_moves(heights, rows, columns, order, first_move, killers, np.int64(0), moves[0],
                       opts & ~OPT_HISTORY, history, mark)
    root_moves = moves[0].copy()
    frames = np.empty((FRAME_ROWS, max(depth, 1)), dtype=np.int64)
    best = -INF
    best_move = -1
    pvlen[0] = 0
    for c in range(columns):
        scores[c] = -INF
    for i in range(n):
        c = root_moves[i]
        h = heights[c]
        bit = np.int64(0)
        if windows is not None:
            won = is_win_at(grid, rows, columns, inarow, drop(grid, heights, rows, columns, c,
                                                             mark))
        else:
            bit = np.int64(1) << (c * H + h)
            stones[mark] |= bit
            heights[c] = h + 1
            won = bb_has_line(stones[mark], H, inarow)
        if won or nstones + 1 == rows * columns:
            v = ended(won, nstones, counters, pvlen, 1)
        else:
            lo = max(best, alpha)
            child_key = key ^ zobrist[mark, c + (rows - 1 - h) * columns]
            # pvs: a null window first, the full one again on a fail high (one call site:
            # numba's LLVM would otherwise optimise the kernel inlined twice)
            hi = lo + 1 if (opts & OPT_PVS) != 0 and i > 0 and beta - lo > 1 else beta
            while True:
                v = -bb_negamax(stones, heights, rows, columns, inarow, geo, heuristic, order,
                                depth - 1, -hi, -lo, 3 - mark, mark, nstones + 1, child_key,
                                zobrist, tt, killers, moves, np.int64(1), deadline, counters, grid,
                                windows, opts, history, pv, pvlen, quiescence, frames)
                if hi == beta or not lo < v < beta or counters[S_ABORTED]:
                    break
                hi = beta
        if windows is not None:
            undo(grid, heights, rows, columns, c)
        else:
            stones[mark] ^= bit
            heights[c] = h
        if counters[S_ABORTED]:
            return -1
        best, best_move = root_score(scores, pv, pvlen, c, v, best, best_move, alpha < v < beta)
        if v >= beta:
            break
    return best_move


@njit
def alphabeta_move(grid, heights, rows, columns, inarow, mark, best, depth, deepening,
                   heuristic, opts, quiescence, geo, order, zobrist, tt, killers, moves,
                   history, pv, pvlen, stats, scores, windows, deadline, next_cost, info, line):
    """The ``alphabeta`` agent's move (:meth:`agents.players.lookahead.AlphaBetaAgent.choose`
    calls it with its clock, the environments' ``alphabeta`` opponent with none): the
    immediate win or forced block, else iterative deepening from a cleared table to
    ``depth`` plies (or a proven score), each depth searching the previous depth's move
    first; without ``deepening``, one search at ``depth``. ``best`` is unused (the
    common signature of the move kernels: ``agents.players.base.KernelForm``).

    ``deadline`` (``now()`` seconds, 0.0: none) stops a search (depth 1 always
    completes; a cut-off one search of ``deepening=false`` gives depth 1's move); depth
    ``d + 1`` starts only if ``next_cost`` times depth ``d``'s time is left. The memory
    is the agent's (:class:`agents.search.alphabeta.Tables`, :func:`packed_table` as
    ``tt``), ``windows`` None on bitboards (else the window table, ``geo`` unused).
    Writes ``info`` = (depth reached, its value, its line's length; depth 0 for the
    tactical move) and the line in ``line``."""
    t = tactical_column(grid, heights, rows, columns, inarow, mark)
    if t >= 0:
        info[0], info[1], info[2] = 0, 0, 1
        line[0] = t
        return t
    tt[:] = 0
    killers[:] = -1
    history[:] = 0
    stats[:] = 0
    empties = rows * columns
    for c in range(columns):
        empties -= heights[c]
    col = -1
    info[0], info[1], info[2] = 0, 0, 0
    last = min(depth, empties)
    # Every integer argument of bb_root_search as int64, never a literal, and one call
    # site: numba compiled a copy of the search for each literal (-1, 1 and INF made
    # three, 25 s of compiling instead of 14), and as int64 the copy is the one a call
    # from Python (AlphaBetaAgent.root) compiles.
    lo, hi = np.int64(-INF), np.int64(INF)
    d = 1 if deepening else last
    retry = False  # deepening=false's one search ran out of time: depth 1's move instead
    while d <= last:
        t0 = now() if deadline > 0.0 else 0.0
        c = bb_root_search(grid, heights, rows, columns, inarow, geo, heuristic, order,
                           np.int64(d), mark, zobrist, tt, killers, moves,
                           deadline if d > 1 else 0.0, np.int64(col), stats, scores, windows,
                           opts, history, pv, pvlen, lo, hi, quiescence)
        if (stats[S_ABORTED] or c < 0) and col < 0 and not retry:
            stats[S_ABORTED] = 0
            tt[:] = 0
            killers[:] = -1
            history[:] = 0
            d, retry = 1, True
            continue
        if stats[S_ABORTED] or c < 0:
            break
        col = c
        info[0], info[1], info[2] = d, scores[c], pvlen[0]
        # a loop, not the slice copy line[:n] = pv[0, :n]: numba compiles an array
        # assignment between slices in about 3 s of CPU, a third of this kernel's own
        for j in range(pvlen[0]):
            line[j] = pv[0, j]
        if retry or abs(scores[c]) >= PROVEN:
            break
        if deadline > 0.0:
            spent = now() - t0
            if now() + next_cost * spent > deadline:
                break
        d += 1
    return col
