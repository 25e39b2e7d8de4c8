"""The solver's transposition table: Pascal Pons' ``TranspositionTable`` (int64 entries
holding the rest of the key and a bound, keyed by the position, mirror images folded
early in the game) with two entries a bucket, as in Steininger's c4: the first keeps
the entry whose search took more work (log8 of its nodes, c4's measure), the second takes
the others.
"""
import numpy as np

from agents.board.jit import njit, prefetch
from agents.search.position import G_H, G_SYM, G_W, mirror, mirror_of

# the default table size (DEFAULT_TT_BITS) and why: agents.search.solver_options
SYM_STONES = 12  # mirror images share TT slots below this many stones (see table_key)


def next_prime(n):
    """Smallest prime >= n."""
    def is_prime(k):
        if k < 2:
            return False
        i = 2
        while i * i <= k:
            if k % i == 0:
                return False
            i += 1
        return True
    while not is_prime(n):
        n += 1
    return n


@njit
def table_key(pos, mask, moves, g):
    """Unique key of a position (no carry crosses a column: ``pos`` is inside
    ``mask``); the smaller of it and its mirror image when fewer than ``g[G_SYM]``
    stones are on the board. Mirror transpositions are common near a symmetric
    root and rare deep in the tree, where the mirroring would cost more than it saves;
    the rule depends on the position only, so every visit finds the same slot."""
    return table_key_of(pos, mask, moves, g[G_SYM], g[G_W], g[G_H])


@njit(inline="always")
def table_key_of(pos, mask, moves, sym, W, H):
    """:func:`table_key` with the geometry read out of ``g`` (``g[G_SYM]``, ``g[G_W]``,
    ``g[G_H]``): no array argument, so no reference counting in the solver's loop."""
    k = pos + mask
    if moves < sym:
        m = mirror_of(k, W, H)
        if m < k:
            return m
    return k


# ---------------------------------------------------------------------------
# Transposition table: buckets of two int64 entries, side by side (one cache line),
# (key // buckets) << 14 | work << 8 | value. key % buckets is the bucket, so
# (bucket, key // buckets) gives the key back: no collisions. value 0 = empty;
# 1..MAX-MIN+1 an upper bound; above that a lower bound. ``work``: log8 of the nodes
# the entry's search took (c4's replacement rule; it was the position's stones, which
# searched 5% more nodes): the first entry of a bucket keeps the larger search, the
# second takes whatever the first does not.
# ---------------------------------------------------------------------------


def table_size(tt_bits, key_bits=49):
    """Entries of a table of about ``2**tt_bits`` (two a bucket, a prime number of
    buckets) for keys of ``key_bits`` bits (``columns * (rows + 1)``): at least
    ``2**(key_bits - 48)`` entries, so that ``key // buckets`` fits the entry's 49 bits
    (on 7x6 any size does; a 64-bit board needs ``tt_bits >= 16``)."""
    return 2 * next_prime(1 << max(tt_bits - 1, key_bits - 49))


@njit
def tt_slot(tt, key):
    """``(q, i)``: the rest of ``key`` kept in its entries and its bucket's first index
    (one division). :func:`tt_read` and :func:`tt_write` take them, so that a search
    that prefetches a bucket (:func:`agents.board.jit.prefetch`) divides once."""
    buckets = tt.shape[0] >> 1
    q = key // buckets  # the bucket is key - q * buckets
    return q, 2 * (key - q * buckets)


@njit
def tt_read(tt, q, i):
    """The value stored for the key of slot ``(q, i)``, 0 if none."""
    e = tt[i]
    if (e >> 14) == q and (e & 255) != 0:
        return e & 255
    e = tt[i + 1]
    if (e >> 14) == q and (e & 255) != 0:
        return e & 255
    return 0


@njit
def tt_write(tt, q, i, value, work):
    """Store ``value`` for the key of slot ``(q, i)``; ``work`` (0..63): the log8 of the
    nodes its search took."""
    new = (q << 14) | (work << 8) | value
    first = tt[i]
    if first == 0 or (first >> 14) == q:
        tt[i] = new
    elif work >= ((first >> 8) & 63):
        tt[i + 1] = first  # the first entry moves to the second place, the second goes
        tt[i] = new
    else:
        tt[i + 1] = new


@njit
def tt_get(tt, key):
    """The value stored for ``key``, 0 if none."""
    q, i = tt_slot(tt, key)
    return tt_read(tt, q, i)


@njit
def tt_put(tt, key, value, work):
    """Store ``value`` for ``key``; ``work`` (0..63): the log8 of the nodes its search took."""
    q, i = tt_slot(tt, key)
    tt_write(tt, q, i, value, work)


# ---------------------------------------------------------------------------
# Database probe: the exact scores of every position of ``g[G_DB]`` stones, as two
# arrays (agents.search.database loads them): ``keys``, the positions' canonical keys
# sorted ascending, and ``values``, their scores (int8, side to move, the solver's scale).
# ---------------------------------------------------------------------------

DB_MISSING = 127  # db_probe's answer for a position the database does not hold


@njit
def db_key(pos, mask, g):
    """The database key of a position: the smaller of ``pos + mask`` and its mirror
    image's (a position and its mirror image have one entry)."""
    k = pos + mask
    m = mirror(k, g)
    return m if m < k else k


@njit
def db_probe(pos, mask, g, keys, values):
    """The database's score of the position, or ``DB_MISSING`` (binary search)."""
    k = db_key(pos, mask, g)
    i = np.searchsorted(keys, k)
    if i < keys.shape[0] and keys[i] == k:
        return values[i]
    return DB_MISSING
