"""The solver's position, as in Pascal Pons' ``Position``: two bitboards (the stones
of the side to move, ``pos``, and all stones, ``mask``) and the number of stones, in
the bitboard layout of :mod:`agents.board` (``H = rows + 1`` bits a column, bottom
cell lowest).

* :class:`agents.solver.position.Position` is the same position in plain Python, short
  verbs (``play``, ``can_play``, ``is_winning_move``), built from a 1-based move string
  (``from_moves("4453")``) or a Kaggle grid (``from_grid``): no numpy, no numba, so that
  a book answer compiles and imports nothing;
* here, the int64 kernels the solver's search runs on the same three integers
  (``winning_cells``, ``possible_moves``, ``non_losing_moves``, ``mirror``, ...),
  each taking ``g``, the geometry vector of the board shape (the ``G_*`` indices
  below; built by :func:`agents.solver.solver.geometry`); ``popcount`` and ``shift``
  are in :mod:`agents.board.bitboard`.
"""

from agents.board.bitboard import bb_has_line, shift
from agents.board.jit import njit

# g[] -- the geometry vector every kernel receives (int64).
G_W, G_ROWS, G_H, G_INAROW, G_FAST, G_BOTTOM, G_BOARD, G_DB, G_SYM, G_N, G_EVEN = range(11)
G_ORDER = 11  # G_ORDER .. G_ORDER+W-1: columns centre first; then W column masks
# G_FAST: 1 for four in a row with 3 * (H + 1) < 64 (Pons' shifts); 2 for any other
# inarow >= 2 with (inarow - 1) * (H + 1) < 64 (plain shifts: no shift leaves 64 bits);
# 0 otherwise (shifts checked one by one)
# G_DB: the number of stones of the positions in the solver's database (-1: none; see
# agents.solver.table.db_probe)
# G_EVEN: the cells of the even rows (2nd, 4th, ... from the bottom) when the number of
# rows is even, else 0 (see claimeven_bound)

# ---------------------------------------------------------------------------
# Bitboard helpers (int64 flavour of the layout drawn in agents.board)
# ---------------------------------------------------------------------------


@njit(inline="always")
def _completing_four(pos, s):
    """The cells that complete four of ``pos`` along the shift ``s`` (Pons'
    compute_winning_position, one direction): three stones on one side, or two on
    one side and one on the other."""
    p = (pos << s) & (pos << (2 * s))
    r = p & ((pos << (3 * s)) | (pos >> s))
    p = (pos >> s) & (pos >> (2 * s))
    return r | (p & ((pos << s) | (pos >> (3 * s))))


@njit
def winning_cells(pos, mask, g):
    """Empty playable cells that would complete ``inarow`` for the stones ``pos``.

    Lines that wrap from one column into the next always cross a sentinel cell
    (never a stone, never playable), so they can only "complete" on a sentinel,
    which the final mask removes."""
    return winning_cells_of(pos, mask, g[G_H], g[G_INAROW], g[G_FAST], g[G_BOARD])


@njit(inline="always")
def winning_cells_of(pos, mask, H, inarow, fast, board):
    """:func:`winning_cells` with the geometry read out of ``g`` (``g[G_H]``,
    ``g[G_INAROW]``, ``g[G_FAST]``, ``g[G_BOARD]``): small enough for the compiler to
    inline, and with no array argument, no reference counting in a hot loop (the
    solver's kernel reads ``g`` once and calls this)."""
    if fast == 1:  # inarow == 4 and 3 * (H + 1) < 64: Pons' shifts
        r = ((pos << 1) & (pos << 2) & (pos << 3) | _completing_four(pos, H)
             | _completing_four(pos, H - 1) | _completing_four(pos, H + 1))
    elif fast == 2:  # (inarow - 1) * (H + 1) < 64: plain shifts, any inarow
        r = _completing_runs(pos, H, inarow)
    else:
        r = _completing_any(pos, H, inarow)
    return r & (board ^ mask)


@njit
def _completing_line(pos, s, k):
    """The cells that complete ``k`` of ``pos`` along the shift ``s`` (``(k - 1) * s < 64``):
    ``a`` stones on one side and ``k - 1 - a`` on the other, for each ``a``; explicit for
    three and five in a row."""
    if k == 5:
        l1 = pos << s
        l2 = l1 & (pos << (2 * s))
        l3 = l2 & (pos << (3 * s))
        r1 = pos >> s
        r2 = r1 & (pos >> (2 * s))
        r3 = r2 & (pos >> (3 * s))
        return ((l3 & (pos << (4 * s))) | (l3 & r1) | (l2 & r2) | (l1 & r3)
                | (r3 & (pos >> (4 * s))))
    if k == 3:
        l1 = pos << s
        r1 = pos >> s
        return (l1 & (pos << (2 * s))) | (l1 & r1) | (r1 & (pos >> (2 * s)))
    out = 0
    left = -1  # the cells with a stone at each of the a cells before them
    for a in range(k):
        if a > 0:
            left &= pos << (a * s)
        m = left
        for b in range(1, k - a):
            m &= pos >> (b * s)
        out |= m
    return out


@njit
def _completing_runs(pos, H, k):
    """The cells that complete ``k`` (>= 2) for ``pos`` in any direction, when ``(k - 1) *
    (H + 1) < 64`` (every shift inside 64 bits): vertically only from below (the cells
    above a stone are empty), the other three directions by :func:`_completing_line`."""
    v = pos << 1
    for i in range(2, k):
        v &= pos << i
    return (v | _completing_line(pos, H, k) | _completing_line(pos, H - 1, k)
            | _completing_line(pos, H + 1, k))


@njit
def _completing_any(pos, H, inarow):
    """The cells (sentinels and stones included) that complete ``inarow`` for ``pos``
    in any direction: the empty cell at index k of the line, stones at the others."""
    r = 0
    for di in range(4):
        s = 1
        if di == 1:
            s = H - 1
        elif di == 2:
            s = H
        elif di == 3:
            s = H + 1
        for k in range(inarow):
            m = -1
            for j in range(inarow):
                if j != k:
                    m &= shift(pos, (j - k) * s)
                    if m == 0:
                        break
            r |= m
    return r


@njit
def has_line(b, g):
    """True if the cells ``b`` (inside the board: no sentinel bit) hold ``inarow`` in a line."""
    return has_line_of(b, g[G_H], g[G_INAROW], g[G_FAST])


@njit(inline="always")
def has_line_of(b, H, inarow, fast):
    """:func:`has_line` with the geometry as scalars (``g[G_H]``, ``g[G_INAROW]``,
    ``g[G_FAST]``): no array argument, no reference counting in the solver's loop."""
    if fast == 2:  # (inarow - 1) * (H + 1) < 64: plain shifts
        return _has_line_runs(b, H, inarow)
    if fast != 1:
        return bb_has_line(b, H, inarow)
    # inarow 4: two shifts a direction, as in Pons' alignment test
    m = b & (b >> 1)
    if m & (m >> 2):
        return True
    m = b & (b >> H)
    if m & (m >> (2 * H)):
        return True
    m = b & (b >> (H - 1))
    if m & (m >> (2 * H - 2)):
        return True
    m = b & (b >> (H + 1))
    return (m & (m >> (2 * H + 2))) != 0


@njit
def _has_line_runs(b, H, inarow):
    """:func:`has_line_of` when ``(inarow - 1) * (H + 1) < 64``: no shift leaves 64 bits
    (a kernel of its own, not inlined: the solver's kernel compiles in half the time)."""
    for s in (1, H - 1, H, H + 1):
        m = b
        for i in range(1, inarow):
            m &= b >> (i * s)
            if m == 0:
                break
        if m != 0:
            return True
    return False


@njit
def claimeven_bound(pos, mask, g):
    """An upper bound on the score of a position whose side to move is the first player
    (an even number of stones) on a board of even rows; 1 << 20 when there is none.

    The second player can answer every move on an odd row by the cell above it, and a
    move on an even row (a column of odd height) by the even cell of another column of
    odd height (their number is even). That strategy ("claimeven") gives the second
    player every empty even cell not playable now; the first player gets at most the
    other cells. If those hold no line, the first player never wins (bound 0); if the
    second player's cells also hold a line, the second player wins (bound -1). The
    second player also wins when every line of the first player's cells lies above a
    line of the second player's of the same direction starting in the same column (c4's
    refinement): each cell of the upper line is filled after the one below it, so the
    lower line is complete first::

        row 6  even   second player      (cells not playable now)
        row 5  odd    first player
        ...
        row 2  even   second player
        row 1  odd    first player
    """
    return claimeven_bound_of(pos, mask, g[G_EVEN], g[G_BOARD], g[G_BOTTOM], g[G_H],
                              g[G_INAROW], g[G_FAST])


@njit
def claimeven_bound_of(pos, mask, even, board, bottom, H, inarow, fast):
    """:func:`claimeven_bound` with the geometry as scalars (``g[G_EVEN]``, ``g[G_BOARD]``,
    ``g[G_BOTTOM]``, ``g[G_H]``, ``g[G_INAROW]``, ``g[G_FAST]``): given the array ``g``, a
    call cost two atomic reference-count updates, 2% of the solver's time."""
    theirs = (pos ^ mask) | (even & ~(mask | ((mask + bottom) & board)))
    mine = board & ~theirs
    if not has_line_of(mine, H, inarow, fast):
        return -1 if has_line_of(theirs, H, inarow, fast) else 0
    for d in (1, H - 1, H, H + 1):
        ours = line_starts(mine, d, inarow)
        if ours == 0:
            continue
        above = 0  # the cells above the first cell of a line of theirs, in its column
        t = line_starts(theirs, d, inarow)
        while t != 0:
            t = (t << 1) & board
            above |= t
        if ours & ~above:
            return 1 << 20
    return -1


@njit
def line_starts(b, d, inarow):
    """The cells ``x`` of ``b`` with ``x + i * d`` in ``b`` for every ``i < inarow``: the
    first cells of the lines of ``b`` in direction ``d`` (``b`` inside the board)."""
    m = b
    for i in range(1, inarow):
        m &= shift(b, i * d)
        if m == 0:
            break
    return m


@njit
def possible_moves(mask, g):
    return (mask + g[G_BOTTOM]) & g[G_BOARD]


@njit
def can_win_next(pos, mask, g):
    return (winning_cells(pos, mask, g) & possible_moves(mask, g)) != 0


@njit
def non_losing_moves(pos, mask, g):
    """Playable cells that do not let the opponent win at once (0: every move loses).

    A single opponent threat forces the block; two threats lose; a cell right
    under an opponent's winning cell would let the opponent play it."""
    possible = possible_moves(mask, g)
    opp_win = winning_cells(pos ^ mask, mask, g)
    forced = possible & opp_win
    if forced != 0:
        if (forced & (forced - 1)) != 0:
            return 0
        possible = forced
    return possible & ~(opp_win >> 1)


@njit
def mirror(x, g):
    """The bitboard ``x`` mirrored left-right."""
    return mirror_of(x, g[G_W], g[G_H])


@njit
def mirror_of(x, W, H):
    """:func:`mirror` on a board of ``W`` columns of ``H`` bits (no array argument:
    see :func:`winning_cells_of`)."""
    col = (1 << H) - 1
    out = 0
    for c in range(W):
        out |= ((x >> (c * H)) & col) << ((W - 1 - c) * H)
    return out


@njit
def column_of(move, g):
    """Column index of a one-bit move."""
    W = g[G_W]
    for c in range(W):
        if move & g[G_ORDER + W + c]:
            return c
    return -1
