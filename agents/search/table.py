"""The solver's transposition table, as in Pascal Pons' ``TranspositionTable``: one
int64 a slot, keyed by the position (mirror images folded early in the game).
"""
from agents.board.jit import njit
from agents.search.position import G_SYM, mirror

# 2**20 (next prime) entries of 8 bytes: 8 MiB. Larger tables save nodes and cost time: on
# the team's 2-core machine (2026-11-24) begin.txt took 94 s of CPU with 2**24 slots
# (592M nodes), 82 s with 2**22 (663M), 68 s with 2**20 (912M); 60 early.txt positions
# weak-solved from an empty table 22.3 / 18.9 / 14.7 s (2**19: 16.0 s, 2**18: 22.5 s).
# Each probe of a table that outgrows the caches is a trip to memory.
DEFAULT_TT_BITS = 20
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
    k = pos + mask
    if moves < g[G_SYM]:
        m = mirror(k, g)
        if m < k:
            return m
    return k


# ---------------------------------------------------------------------------
# Transposition table: one int64 a slot, (key // size) << 8 | value.
# key % size is the slot, so (slot, key // size) gives the key back: no collisions.
# value 0 = empty; 1..MAX-MIN+1 an upper bound; above that a lower bound.
# ---------------------------------------------------------------------------


@njit
def tt_get(tt, key):
    size = tt.shape[0]
    q = key // size  # one division: the slot is key - q * size
    e = tt[key - q * size]
    if (e >> 8) == q:
        return e & 255
    return 0


@njit
def tt_put(tt, key, value):
    size = tt.shape[0]
    q = key // size
    tt[key - q * size] = (q << 8) | value
