"""The exact solver's search kernel: ``_search``, negamax with alpha-beta on an explicit
stack (no recursion, no allocation inside the loop), and its small helpers.

The design, the score convention and the geometry vector ``g`` are described in
:mod:`agents.solver.solver`; the root entry points that call ``_search`` are in
:mod:`agents.solver.roots`.
"""
import numpy as np

from agents.board.bitboard import popcount
from agents.board.jit import njit, now, prefetch
from agents.solver.bits import (G_BOARD, G_BOTTOM, G_DB, G_EVEN, G_FAST, G_H, G_INAROW, G_N,
                                    G_ORDER, G_SYM, G_W,
                                    claimeven_bound_of, has_line_of, winning_cells_of)
from agents.search.counters import S_ABORTED, S_NODES, S_STOP
from agents.solver.table import (DB_MISSING, NEAR_EMPTY, db_probe, table_key_of, tt_layout, tt_read,
                                 tt_slot_split, tt_write)

# ---------------------------------------------------------------------------
# The search
# ---------------------------------------------------------------------------


@njit
def _score_bounds(g):
    """(MIN_SCORE, MAX_SCORE): the extreme scores of a position that is not won next move."""
    n = g[G_N]
    return -(n // 2) + 3, (n + 1) // 2 - 3


@njit
def _frame(st, d, pos, mask, alpha, beta, q, i, n, forced, nodes):
    """Fill the stack frame of depth ``d`` (see :func:`_search`)."""
    st[d, 0] = pos
    st[d, 1] = mask
    st[d, 2] = alpha
    st[d, 3] = beta
    st[d, 4] = q
    st[d, 5] = n
    st[d, 6] = forced
    st[d, 7] = nodes
    st[d, 8] = i


@njit
def _work(nodes):
    """The work of a search of ``nodes`` nodes, as c4 rates a table entry: log8 (at most 63)."""
    w = 0
    while nodes > 1 and w < 63:
        nodes >>= 3
        w += 1
    return w


@njit(nogil=True)
def _search(pos0, mask0, moves0, alpha0, beta0, g, tt, dbk, dbv, st, mv, sc, counters, deadline):
    """Negamax value of a position whose side to move cannot win at once.

    Fail-soft alpha-beta: a result ``<= alpha0`` is an upper bound, ``>= beta0`` a lower
    bound, in between the exact score. Explicit stack (``st`` of 9 columns, ``mv`` of ``5 *
    W``): ``st[d]`` holds (pos, mask, alpha, beta, the table slot's ``q``, moves left to
    try, 1 for a forced move, the node count on entry, the slot's index ``i``) of depth
    ``d``; ``mv[d, :n]`` the moves in the order the ordering loop found them and ``sc[d,
    :n]`` the order to try them in, best last: while ordering, ``guess << 10 | rank << 5 |
    j`` (the column's rank: W - 1 at the centre, which goes first at equal guesses; an
    insertion sort of one array, not of the five of ``mv``: 5-15% of the time), then ``j``
    alone (W <= 32); ``mv[d, W + j]`` move ``j``'s child's one reply (0: none; such a child
    gets its forced frame from the parent, which then enters the position after the reply),
    ``mv[d, 2 * W + j]`` the winning cells of the mover after move ``j`` (the child's
    opponent's, which it need not compute again; -1: not known), ``mv[d, 3 * W + j]`` and
    ``mv[d, 4 * W + j]`` the table slot (:func:`agents.solver.table.tt_slot_split`, in the
    main or the near table) of the node entered after move ``j`` (the child, or the
    position after its one reply; ``q`` negative: not known, computed again, which a negative key of a 64-bit board also is).
    Each slot is computed once, while the moves are ordered, and its bucket prefetched then:
    the enhanced cut-off reads it a few hundred instructions later, and the node entered
    keeps it for its own probe and store. The ordering loop visits the legal moves only,
    lowest bit first (a loop over the columns' masks, with a branch on each column's, took
    4% more), the rank of each cell's column in a local array. The geometry is read out of
    ``g`` once, and the hot helpers take it as scalars (``winning_cells_of``,
    ``table_key_of``): a helper given the array ``g`` costs two atomic reference-count
    updates a call. With ``deadline > 0`` the clock is read every 4096 nodes (and
    ``counters[S_STOP]``, which another thread may set); past it ``counters[S_ABORTED]`` is set
    and 0 returned (never stored)."""
    N = g[G_N]
    W = g[G_W]
    MIN, MAX = _score_bounds(g)
    H, K, FAST, BOARD, SYM = g[G_H], g[G_INAROW], g[G_FAST], g[G_BOARD], g[G_SYM]
    BOTTOM, EVEN, DB = g[G_BOTTOM], g[G_EVEN], g[G_DB]
    TB, NB, NBASE = tt_layout(tt.shape[0])
    NEAR = N - NEAR_EMPTY  # a position of at least this many stones: the near table
    tv = np.empty(W, dtype=np.int64)  # the children's table values, read in one pass
    rank = np.zeros(64, dtype=np.int64)  # a cell's column's rank: W - 1 at the centre
    for i in range(W):
        c = g[G_ORDER + i]
        for b in range(H):
            rank[c * H + b] = W - 1 - i
    d = 0
    pos = pos0
    mask = mask0
    alpha = alpha0
    beta = beta0
    nodes = counters[S_NODES]
    opp = -1  # the opponent's winning cells when the parent knows them, else -1
    kq = -1  # the node's table slot (tt_slot) when the parent knows it, else negative
    ki = 0
    while True:
        # ---- enter the node at depth d: a value r (leaf) or a sorted move list
        moves = moves0 + d
        nodes += 1
        leaf = True
        r = 0
        if (nodes & 4095) == 0 and (counters[S_STOP] != 0 or (deadline > 0.0 and now() > deadline)):
            counters[S_NODES] = nodes
            counters[S_ABORTED] = 1
            return 0
        # non_losing_moves, keeping the opponent's winning cells for the move order
        known = DB_MISSING
        if dbk is not None:  # pruned at compile time without a database (dbk None)
            if moves == DB:  # a position of the database's stones: its exact score
                known = db_probe(pos, mask, g, dbk, dbv)
        possible = (mask + BOTTOM) & BOARD
        if opp < 0:
            opp = winning_cells_of(pos ^ mask, mask, H, K, FAST, BOARD)
        forced = possible & opp
        if forced != 0:
            possible = 0 if (forced & (forced - 1)) != 0 else forced
        possible &= ~(opp >> 1)
        if known != DB_MISSING:
            r = known
        elif possible == 0:
            r = -((N - moves) // 2)
        elif moves >= N - 2:
            r = 0
        else:
            lo = -((N - 2 - moves) // 2)
            hi = (N - 1 - moves) // 2
            done = False
            if alpha < lo:
                alpha = lo
                if alpha >= beta:
                    r = alpha
                    done = True
            if not done and beta > hi:
                beta = hi
                if alpha >= beta:
                    r = beta
                    done = True
            if not done and beta > 0:
                # c4's can_player_win: no line of ours fits in our stones and the empty
                # cells: we cannot win, a draw at best
                if not has_line_of(pos | (BOARD ^ mask), H, K, FAST):
                    beta = 0
                    if alpha >= beta:
                        r = beta
                        done = True
            if not done and alpha < 0:
                # nor can the opponent: a draw at worst
                if not has_line_of((pos ^ mask) | (BOARD ^ mask), H, K, FAST):
                    alpha = 0
                    if alpha >= beta:
                        r = alpha
                        done = True
            if not done and (moves & 1) == 0 and EVEN != 0 and beta > -1:
                hi = claimeven_bound_of(pos, mask, EVEN, BOARD, BOTTOM, H, K, FAST)
                beta = min(beta, hi)  # alpha < beta held before
                if alpha >= beta:
                    r = beta
                    done = True
            if not done and (possible & (possible - 1)) == 0:
                # one move: searched without the table (its child stores the same value)
                done = True
                leaf = False
                sc[d, 0] = 0
                mv[d, 0] = possible
                mv[d, W] = 0  # its child's reply and threats: not known
                mv[d, 2 * W] = -1
                mv[d, 3 * W] = -1
                _frame(st, d, pos, mask, alpha, beta, 0, 0, 1, 1, nodes)
            if not done:
                if kq < 0:
                    kq, ki = tt_slot_split(table_key_of(pos, mask, moves, SYM, W, H), moves, NEAR,
                                           TB, NB, NBASE)
                    prefetch(tt, ki)  # read below, after the move ordering
                n = 0
                win2 = False
                rest = possible
                while rest != 0:  # the moves, lowest bit first
                    move = rest & -rest
                    rest ^= move
                    # c4's guess of a move's worth: the mover's winning cells after
                    # it, except those right above an opponent's winning cell (never
                    # theirs to keep), weighted 12 when the cell right above a
                    # playable one, 5 when two above, 3 anywhere
                    m2 = mask | move
                    w = winning_cells_of(pos | move, m2, H, K, FAST, BOARD)
                    p2 = (m2 + BOTTOM) & BOARD
                    # c4's static look at the child: the opponent loses next move
                    # (two of our cells to block, or the one block right under
                    # another, or every reply right under one): we win at once after
                    nl = p2 & ~(w >> 1)
                    wins = w & p2
                    if nl == 0 or (wins & (wins - 1)) != 0 or (wins != 0 and (wins & nl) == 0):
                        win2 = True
                        break
                    # the child's one reply when it has one (the block of our
                    # cell, or its only move not right under one of ours)
                    f = wins
                    if f == 0 and (nl & (nl - 1)) == 0:
                        f = nl
                    if moves + 1 == DB:
                        f = 0  # the child is entered: the database knows its score
                    # the slot of the node entered after the move (the position
                    # after the child's one reply, or the child), prefetched for the
                    # enhanced cut-off below and kept for that node's own probe
                    if f != 0:
                        cq, ci = tt_slot_split(table_key_of(pos | move, m2 | f, moves + 2, SYM, W, H),
                                               moves + 2, NEAR, TB, NB, NBASE)
                    else:
                        cq, ci = tt_slot_split(table_key_of(pos ^ mask, m2, moves + 1, SYM, W, H),
                                               moves + 1, NEAR, TB, NB, NBASE)
                    prefetch(tt, ci)
                    thr = w & ~(opp << 1)
                    above = p2 << 1
                    s = (12 * popcount(thr & above) + 3 * popcount(thr)
                         + 5 * popcount(thr & ((above & BOARD) << 1)))
                    mv[d, n] = move
                    mv[d, W + n] = f
                    mv[d, 2 * W + n] = w
                    mv[d, 3 * W + n] = cq
                    mv[d, 4 * W + n] = ci
                    # sorted by the guess, then the column's rank (the centre first
                    # out at equal guesses); n, the index, never breaks a tie
                    key = (s << 10) | (rank[popcount(move - 1)] << 5) | n
                    j = n
                    while j > 0 and sc[d, j - 1] > key:
                        sc[d, j] = sc[d, j - 1]
                        j -= 1
                    sc[d, j] = key
                    n += 1
                if win2:
                    r = (N - 1 - moves) // 2  # a win with our next stone: the best score left
                    done = True
                else:
                    # no child loses at once: no win before our stone after next
                    hi = (N - 3 - moves) // 2
                    beta = min(beta, hi)  # alpha < beta held before
                    if alpha >= beta:
                        r = beta
                        done = True
            if not done:
                val = tt_read(tt, kq, ki)
                if val != 0:
                    if val > MAX - MIN + 1:
                        lo = val + 2 * MIN - MAX - 2
                        if alpha < lo:
                            alpha = lo
                            if alpha >= beta:
                                r = alpha
                                done = True
                    else:
                        hi = val + MIN - 1
                        beta = min(beta, hi)  # alpha < beta held before
                        if alpha >= beta:
                            r = beta
                            done = True
            if not done:
                # enhanced transposition cut-off (as in Steininger's c4; every node: on
                # begin.txt it measured better than c4's "only above 15 empty cells"): a
                # child whose table entry bounds its value from above bounds ours from below
                cpos = pos ^ mask
                odd = (moves & 1) == 1 and EVEN != 0 and moves < N - 16
                for j in range(n):  # the entries, in the order their buckets were prefetched
                    tv[j] = tt_read(tt, mv[d, 3 * W + j], mv[d, 4 * W + j])
                k = 0  # the children kept: those whose entry does not keep them <= alpha
                for jj in range(n):
                    j = sc[d, jj] & 31
                    move = mv[d, j]
                    f = mv[d, W + j]
                    clo = alpha
                    chi = MAX  # an upper bound of ours through this child
                    if f != 0:
                        # a child with one reply is never stored (it passes its child's
                        # value up): the position after the reply, ours to move, is; its
                        # bounds are ours through the child (c4's static search plays
                        # forced moves)
                        gval = tv[j]
                        if gval > MAX - MIN + 1:
                            clo = gval + 2 * MIN - MAX - 2
                        elif gval != 0:
                            chi = gval + MIN - 1
                    else:
                        cval = tv[j]
                        if cval > MAX - MIN + 1:
                            chi = -(cval + 2 * MIN - MAX - 2)  # -(the child's lower bound)
                        elif cval != 0:
                            clo = 1 - MIN - cval  # -(the child's upper bound)
                    if clo < beta and odd and alpha < 1 and beta <= 1:
                        # c4 bounds each child by its evens strategy before searching any
                        # (the child's first player is to move): -1 or 0 bounds ours below.
                        # Only where it can cut (beta <= 1) and above 16 empty cells: near
                        # the end the bound costs more than the small subtrees it saves
                        even = -claimeven_bound_of(cpos, mask | move, EVEN, BOARD, BOTTOM, H, K,
                                                   FAST)
                        if even > clo:
                            clo = even
                    if clo > alpha:
                        alpha = clo
                        if alpha >= beta:
                            r = alpha
                            done = True
                            break
                    if chi > alpha:
                        # searched; a child whose entry shows it cannot raise alpha is
                        # dropped, as c4 drops the children its static search settles
                        sc[d, k] = j
                        k += 1
                if not done:
                    n = k
                    if n == 0:  # no child can raise alpha: an upper bound, not stored
                        r = alpha
                        done = True
            if not done:
                leaf = False
                _frame(st, d, pos, mask, alpha, beta, kq, ki, n, 0, nodes)
        # ---- hand values up the stack until a node has another move to try
        while leaf:
            if d == 0:
                counters[S_NODES] = nodes
                return r
            d -= 1
            score = -r
            if st[d, 6] == 1:  # a forced move: its value, nothing stored
                r = score
                continue
            if score >= st[d, 3]:
                tt_write(tt, st[d, 4], st[d, 8], score + MAX - 2 * MIN + 2, _work(nodes - st[d, 7]))
                r = score
                continue
            if score > st[d, 2]:
                st[d, 2] = score
            if st[d, 5] == 0:
                tt_write(tt, st[d, 4], st[d, 8], st[d, 2] - MIN + 1, _work(nodes - st[d, 7]))
                r = st[d, 2]
                continue
            leaf = False
        # ---- descend into the next move of depth d
        st[d, 5] -= 1
        j = sc[d, st[d, 5]]
        move = mv[d, j]
        f = mv[d, W + j]
        opp = mv[d, 2 * W + j]  # our cells after the move: the child's opponent's
        kq = mv[d, 3 * W + j]  # the slot of the node entered next
        ki = mv[d, 4 * W + j]
        pos = st[d, 0] ^ st[d, 1]
        mask = st[d, 1] | move
        alpha = -st[d, 3]
        beta = -st[d, 2]
        d += 1
        if f != 0:
            # a child with one reply, known from the ordering loop: its frame passes the
            # value up, and its reply is played without entering it (c4's static search
            # plays forced moves); the position after the reply is the next node
            nodes += 1
            _frame(st, d, pos, mask, alpha, beta, 0, 0, 0, 1, nodes)
            pos ^= mask
            mask |= f
            alpha, beta = -beta, -alpha
            d += 1
            opp = -1


@njit
def _half(x):
    """x / 2 rounded toward zero (C semantics, as in the reference solver)."""
    if x < 0:
        return -((-x) // 2)
    return x // 2
