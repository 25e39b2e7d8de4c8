"""The solver's transposition table: Pascal Pons' ``TranspositionTable`` (int64 entries
holding the rest of the key and a bound, keyed by the position, mirror images folded
early in the game) with two entries a bucket, as in Steininger's c4: the first keeps
the entry whose search took more work (log8 of its nodes, c4's measure), the second takes
the others.

Two tables in one array: the main table, and after it a small one (the near table,
:func:`near_table_size`) for the positions with at most :data:`NEAR_EMPTY` empty cells.
Those are most of the nodes and their subtrees are small: in a table of their own, small
enough to stay in the processor's caches, their probes rarely go to memory, and they no
longer push the entries of large subtrees out of the main table. Where other programs
share the caches it matters most (the figures: docs/results-solver.md).
"""
import numpy as np

from agents.board.bitboard import popcount
from agents.board.jit import njit
from agents.solver.bits import G_H, G_SYM, G_W, mirror, mirror_of

# the default table size (DEFAULT_TT_BITS) and why: agents.solver.sizing
SYM_STONES = 12  # mirror images share TT slots below this many stones (see table_key)
NEAR_EMPTY = 16  # positions with at most this many empty cells use the near table
NEAR_BITS = 17  # the near table's entries: 2**17 (1 MiB), at most 1/8 of the main table


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
# Transposition table: buckets of two int64 entries, side by side (one cache line), a
# power of two of them (B = 2**b). An entry is q << 14 | work << 8 | value, where
# q = key >> b, the key's high bits; the bucket is the key's low b bits xor b bits of a
# hash of q. Given q, the bucket gives the low bits back, so (bucket, q) is the whole
# key: no collisions, and no division (a 64-bit division took 16% of the solver's
# samples once the buckets were prefetched). value 0 = empty;
# 1..MAX-MIN+1 an upper bound; above that a lower bound. ``work``: log8 of the nodes
# the entry's search took (c4's replacement rule; it was the position's stones, which
# searched 5% more nodes): the first entry of a bucket keeps the larger search, the
# second takes whatever the first does not.
# ---------------------------------------------------------------------------

HASH = -7046029254386353131  # 0x9E3779B97F4A7C15 as an int64: Fibonacci hashing's odd multiplier


def table_size(tt_bits, key_bits=49):
    """Entries of a table of ``2**tt_bits`` (two a bucket) for keys of ``key_bits`` bits
    (``columns * (rows + 1)``): at least ``2**(key_bits - 48)`` entries, so that
    ``key >> b`` fits the entry's 50 bits (on 7x6 any size does; a 64-bit board needs
    ``tt_bits >= 16``)."""
    return 1 << max(tt_bits, key_bits - 48)


def near_table_size(tt_bits, key_bits=49):
    """Entries of the near table that follows a main table of ``2**tt_bits`` entries:
    ``2**min(NEAR_BITS, tt_bits - 3)``, or 0 (no near table: every position uses the
    main table) when that is below what keys of ``key_bits`` bits need
    (:func:`table_size`)."""
    bits = min(NEAR_BITS, tt_bits - 3)
    return 0 if bits < key_bits - 48 else 1 << bits


def solver_table(tt_bits, key_bits=49):
    """The solver's zeroed table array: the main table (:func:`table_size`) followed by
    the near table (:func:`near_table_size`)."""
    return np.zeros(table_size(tt_bits, key_bits) + near_table_size(tt_bits, key_bits),
                    dtype=np.int64)


@njit
def tt_layout(size):
    """``(b, near_b, near_base)`` of a table array of ``size`` entries (:func:`solver_table`:
    a main table of ``2**m`` entries, then a near table of ``2**k``, ``k < m``, or none):
    the main table's bucket bits, the near table's and its first index. Without a near
    table (``size`` a power of two) the near table is the main one: ``(b, b, 0)``."""
    near = size & -size  # the smaller power of two of the sum
    if near == size:
        b = popcount((size >> 1) - 1)
        return b, b, 0
    main = size - near
    return popcount((main >> 1) - 1), popcount((near >> 1) - 1), main


@njit(inline="always")
def tt_slot_at(key, b, base):
    """``(q, i)`` of ``key`` in the table of ``2**b`` buckets starting at index ``base``
    (see :func:`tt_slot`)."""
    q = key >> b
    return q, base + 2 * ((key ^ ((q * HASH) >> (64 - b))) & ((1 << b) - 1))


@njit(inline="always")
def tt_slot_split(key, moves, near_from, b, near_b, near_base):
    """``(q, i)`` of ``key``, a position of ``moves`` stones, in the near table (bucket
    bits ``near_b``, first index ``near_base``) when ``moves >= near_from``, else in the
    main table (``b``, from index 0): :func:`tt_layout`'s figures."""
    if moves >= near_from:
        return tt_slot_at(key, near_b, near_base)
    return tt_slot_at(key, b, 0)


@njit
def tt_slot(tt, key):
    """``(q, i)``: the rest of ``key`` kept in its entries (its high bits) and its bucket's
    first index, in a table array of a power of two entries. :func:`tt_read` and
    :func:`tt_write` take them, so that a search that prefetches a bucket
    (:func:`agents.board.jit.prefetch`) computes it once. :func:`tt_key` is the inverse.
    The solver's kernel, whose array also holds the near table, uses :func:`tt_slot_at`
    with :func:`tt_layout`."""
    buckets = tt.shape[0] >> 1
    return tt_slot_at(key, popcount(buckets - 1), 0)


@njit
def tt_key(tt, q, i):
    """The key of slot ``(q, i)``: ``tt_slot(tt, tt_key(tt, q, i)) == (q, i)`` for any
    ``q`` of at most 49 bits and any even ``i`` of the table."""
    buckets = tt.shape[0] >> 1
    b = popcount(buckets - 1)
    return (q << b) | (((i >> 1) ^ ((q * HASH) >> (64 - b))) & (buckets - 1))


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
# arrays (agents.solver.database loads them): ``keys``, the positions' canonical keys
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
