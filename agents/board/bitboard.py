"""Bitboard kernels (boards with ``columns * (rows + 1) <= 64``).

Layout, ``(current, mask)`` and the play/shift rules: see :mod:`agents.board`.
Kernels take plain ints and do not validate.
"""
import numpy as np

from agents.board.grid import EMPTY
from agents.board.jit import HAVE_NUMBA, njit

MAX_BITBOARD_BITS = 64

# ---------------------------------------------------------------------------
# Bitboard kernels (columns * (rows + 1) <= 64)
# ---------------------------------------------------------------------------


def fits_bitboard(rows, columns):
    """True when the board fits the 64-bit layout drawn above."""
    return columns * (rows + 1) <= MAX_BITBOARD_BITS


@njit
def bb_bottom(col, H):
    return np.uint64(1) << np.uint64(col * H)


@njit
def bb_top(col, H, rows):
    """Bit of the top playable cell of ``col``."""
    return np.uint64(1) << np.uint64(col * H + rows - 1)


@njit
def bb_column(col, H, rows):
    """All playable cells of ``col``."""
    return ((np.uint64(1) << np.uint64(rows)) - np.uint64(1)) << np.uint64(col * H)


@njit
def bb_can_play(mask, col, H, rows):
    return (np.uint64(mask) & bb_top(col, H, rows)) == np.uint64(0)


@njit
def bb_play(current, mask, col, H):
    """Play ``col``; returns the new (current, mask), current = the opponent's stones."""
    current = np.uint64(current)
    mask = np.uint64(mask)
    new_current = current ^ mask
    new_mask = mask | (mask + bb_bottom(col, H))
    return new_current, new_mask


@njit
def bb_shift(x, s):
    """x >> s with shifts of 64 and more giving 0 (LLVM leaves them undefined)."""
    if s >= 64:
        return np.uint64(0)
    return np.uint64(x) >> np.uint64(s)


@njit
def bb_has_line(stones, H, inarow):
    """True if ``stones`` contain ``inarow`` in a line (any direction)."""
    stones = np.uint64(stones)
    for s in (1, H - 1, H, H + 1):
        m = stones
        for i in range(1, inarow):
            m &= bb_shift(stones, s * i)
            if m == np.uint64(0):
                break
        if m != np.uint64(0):
            return True
    return False


@njit
def bb_from_grid(grid, rows, columns, mark):
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


@njit
def bb_winning_cells(stones, H, inarow):
    """Cells (any, filled or not) that would complete ``inarow`` in a line with ``stones``.

    Vertical lines can only be completed on top: a cell with ``inarow - 1`` stones
    under it. For the other three directions (shift ``s`` = H - 1, H, H + 1) and each
    split of the ``inarow - 1`` other cells into ``a`` on one side and the rest on the
    other, AND the stones shifted onto the missing cell. Written with the shifts
    inline (twice as fast as looping over a tuple of directions through a helper)."""
    stones = np.uint64(stones)
    full = ~np.uint64(0)
    zero = np.uint64(0)
    cells = full
    for i in range(1, inarow):
        cells &= (stones << np.uint64(i)) if i < 64 else zero
    for d in range(3):
        s = H - 1 + d
        for a in range(inarow):
            m = full
            for i in range(1, a + 1):
                sh = s * i
                m &= (stones << np.uint64(sh)) if sh < 64 else zero
            for i in range(1, inarow - a):
                sh = s * i
                m &= (stones >> np.uint64(sh)) if sh < 64 else zero
            cells |= m
    return cells


# ---------------------------------------------------------------------------
# int64 flavour (the solver's and the bitboard searches'): popcount and shift
# ---------------------------------------------------------------------------

def _jit_enabled():
    if not HAVE_NUMBA:
        return False
    from numba.core import config
    return not config.DISABLE_JIT


if _jit_enabled():  # an LLVM intrinsic cannot run as plain Python (NUMBA_DISABLE_JIT=1)
    from numba import types as _types
    from numba.extending import intrinsic as _intrinsic

    @_intrinsic
    def _ctpop64(typingctx, x):
        if not isinstance(x, _types.Integer):
            return None
        sig = _types.int64(_types.int64)

        def codegen(context, builder, signature, args):
            v = context.cast(builder, args[0], x, _types.int64)
            return builder.ctpop(v)
        return sig, codegen

    @njit
    def popcount(x):
        """Number of set bits of a 64-bit integer (one instruction under numba)."""
        return _ctpop64(x)
else:  # pragma: no cover
    def popcount(x):
        return bin(int(x) & 0xFFFFFFFFFFFFFFFF).count("1")


@njit
def shift(x, d):
    """x >> d for d > 0, x << -d for d < 0, 0 once the shift leaves 64 bits (int64)."""
    if d >= 64 or d <= -64:
        return 0
    if d >= 0:
        return x >> d
    return x << (-d)
