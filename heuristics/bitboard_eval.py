"""The heuristics of :mod:`heuristics.threats` and :mod:`heuristics.tutorial` on the two
bitboards (boards with ``columns * (rows + 1) <= 64`` and ``inarow >= 2``): the same
values, in a few hundred word operations instead of a scan of every window.

Stones are int64 bitboards in the layout drawn in :mod:`agents.board` (``H = rows + 1``
bits a column, bottom cell lowest, one spare bit on top). For each of the four
directions (bit steps ``1``, ``H``, ``H + 1``, ``H - 1``) a window is named by the bit
of its first cell, and :func:`eval_geometry` precomputes the windows' first cells
(``E_START``). Shifting a bitboard right by ``i`` steps brings the window's ``i``-th
cell onto its first cell, so over ``i = 0 .. inarow - 1``:

* ``noX = AND ~(X >> i*step)``: windows without a stone of X;
* ``e1, e2, e3`` (at least 1, 2, 3 empty cells) by a bit-sliced counter of the
  shifted empty cells, ``allempty = AND (empty >> i*step)``;

so a window with no opponent stone and exactly one empty cell is a threat window,
with two a "fuller" window, and so on. The threat *cells* are the empty cells of the
threat windows, shifted back: ``OR (threatwins << i*step) & empty``.

    geo = eval_geometry(rows, columns, inarow)
    bb_threats_eval(stones[mark], stones[3 - mark], mark, geo) == threats_eval(grid, ...)

``tests/test_search.py`` checks both against the array kernels on seeded random
positions of several shapes.
"""
import numpy as np

from agents.board.bitboard import fits_bitboard, popcount, shift
from agents.board.jit import njit
from heuristics.threats import (CENTRE, OPEN_FULLER, OPEN_OTHER, PARITY, PLAYABLE, THREAT,
                                ZUGZWANG)
from heuristics.tutorial import W_FOUR, W_OPP_FOUR, W_OPP_THREE, W_THREE

# eval_geometry() slots (E_: the evaluation's vector; the solver's position vector is G_)
E_BOARD, E_BOTTOM, E_CENTRE, E_PARITY1, E_PARITY2, E_INAROW = range(6)
E_START = 6   # E_START + d: first cells of the windows in direction d
E_STEP = 10   # E_STEP + d: bit step of direction d


def eval_geometry(rows, columns, inarow):
    """The int64 vector of masks every kernel here takes (slots ``G_*``)."""
    if not fits_bitboard(rows, columns) or inarow < 2:
        raise ValueError(f"{columns}x{rows}/{inarow} does not fit the bitboard heuristics")
    H = rows + 1

    def bit(c, r):
        return 1 << (c * H + r)

    def signed(x):
        return x - (1 << 64) if x >= 1 << 63 else x

    board = bottom = centre = par1 = par2 = 0
    for c in range(columns):
        bottom |= bit(c, 0)
        for r in range(rows):
            board |= bit(c, r)
            if (columns - 1) // 2 <= c <= columns // 2:
                centre |= bit(c, r)
            if r % 2 == 0:
                par1 |= bit(c, r)   # odd rows counted from 1 at the bottom: the first player's
            else:
                par2 |= bit(c, r)
    g = [board, bottom, centre, par1, par2, inarow] + [0] * (E_STEP + 4 - E_START)
    for d, (dc, dr) in enumerate(((0, 1), (1, 0), (1, 1), (1, -1))):
        start = 0
        for c in range(columns):
            for r in range(rows):
                end_c, end_r = c + dc * (inarow - 1), r + dr * (inarow - 1)
                if 0 <= end_c < columns and 0 <= end_r < rows:
                    start |= bit(c, r)
        g[E_START + d] = start
        g[E_STEP + d] = dc * H + dr
    return np.array([signed(x) for x in g], dtype=np.int64)


@njit
def _windows(own, other, empty, d, geo):
    """For direction ``d``: (windows without an ``other`` stone, without an ``own``
    stone, with exactly 1 empty cell, exactly 2, with at least one stone, all own,
    all other), each a bitboard of first cells."""
    start = geo[E_START + d]
    step = geo[E_STEP + d]
    no_other = start
    no_own = start
    all_own = start
    all_other = start
    all_empty = start
    e1 = 0
    e2 = 0
    e3 = 0
    for i in range(geo[E_INAROW]):
        e = shift(empty, i * step)
        e3 |= e2 & e
        e2 |= e1 & e
        e1 |= e
        all_empty &= e
        o = shift(own, i * step)
        t = shift(other, i * step)
        no_other &= ~t
        no_own &= ~o
        all_own &= o
        all_other &= t
    some = start & ~all_empty
    return (no_other, no_own, e1 & ~e2 & some, e2 & ~e3 & some, some, all_own, all_other)


@njit
def _cells(wins, empty, d, geo):
    """The empty cells of the windows ``wins`` (first cells) in direction ``d``."""
    step = geo[E_STEP + d]
    out = 0
    for i in range(geo[E_INAROW]):
        out |= wins << (i * step)
    return out & empty


@njit
def bb_threats_eval(own, other, mark, geo):
    """:func:`heuristics.threats.threats_eval` for ``mark`` (stones ``own``) against the
    stones ``other``, on bitboards (int64). Plain shifts: in a direction that has
    windows, ``(inarow - 1) * step`` stays below 64."""
    empty = geo[E_BOARD] & ~(own | other)
    inarow = geo[E_INAROW]
    value = 0
    own_threats = 0
    other_threats = 0
    for d in range(4):
        start = geo[E_START + d]
        if start == 0:
            continue
        step = geo[E_STEP + d]
        no_other = start
        no_own = start
        all_empty = start
        e1 = 0
        e2 = 0
        e3 = 0
        for i in range(inarow):
            e = empty >> (i * step)
            e3 |= e2 & e
            e2 |= e1 & e
            e1 |= e
            all_empty &= e
            no_other &= ~(other >> (i * step))
            no_own &= ~(own >> (i * step))
        some = start & ~all_empty
        one = e1 & ~e2 & some
        two = e2 & ~e3 & some
        t = no_other & one
        f = popcount(no_other & two)
        value += OPEN_FULLER * f + OPEN_OTHER * (popcount(no_other & some) - f - popcount(t))
        if t != 0:
            own_threats |= _cells(t, empty, d, geo)
        t = no_own & one
        f = popcount(no_own & two)
        value -= OPEN_FULLER * f + OPEN_OTHER * (popcount(no_own & some) - f - popcount(t))
        if t != 0:
            other_threats |= _cells(t, empty, d, geo)
    playable = (own | other) + geo[E_BOTTOM]
    own_parity = geo[E_PARITY1] if mark == 1 else geo[E_PARITY2]
    other_parity = geo[E_PARITY2] if mark == 1 else geo[E_PARITY1]
    board = geo[E_BOARD]
    # cells above a threat of the other side, in its column (the lower threat decides)
    above_other = (other_threats << 1) & board
    above_own = (own_threats << 1) & board
    while True:
        a = above_other | ((above_other << 1) & board)
        b = above_own | ((above_own << 1) & board)
        if a == above_other and b == above_own:
            break
        above_other = a
        above_own = b
    own_live = own_threats & ~above_other
    other_live = other_threats & ~above_own
    first_odd = (own_live & own_parity) if mark == 1 else (other_live & other_parity)
    if first_odd != 0:
        value += ZUGZWANG if mark == 1 else -ZUGZWANG
    value += (THREAT * popcount(own_threats) + PLAYABLE * popcount(own_threats & playable)
              + PARITY * popcount(own_live & own_parity)
              + CENTRE * popcount(own & geo[E_CENTRE]))
    value -= (THREAT * popcount(other_threats) + PLAYABLE * popcount(other_threats & playable)
              + PARITY * popcount(other_live & other_parity)
              + CENTRE * popcount(other & geo[E_CENTRE]))
    return value


@njit
def bb_windows_eval(own, other, mark, geo):
    """:func:`heuristics.tutorial.windows_eval` (the tutorial's window count) for the
    stones ``own`` against ``other``, on bitboards (int64). ``mark`` is unused."""
    empty = geo[E_BOARD] & ~(own | other)
    threes = fours = opp_threes = opp_fours = 0
    for d in range(4):
        if geo[E_START + d] == 0:
            continue
        no_other, no_own, one, _, _, all_own, all_other = _windows(own, other, empty, d, geo)
        threes += popcount(no_other & one)
        opp_threes += popcount(no_own & one)
        fours += popcount(all_own)
        opp_fours += popcount(all_other)
    return W_THREE * threes + W_OPP_THREE * opp_threes + W_OPP_FOUR * opp_fours + W_FOUR * fours
