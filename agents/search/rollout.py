"""MCTS rollouts (simulations) on the array and on the bitboard, and the xorshift64
random numbers they draw (identical in :mod:`agents.search.uct_reference`, so the
tests can compare the numba search with the reference node for node).

Policies (``light``): take an immediate win, else block the opponent's immediate win
(the first, scanning columns left to right), else a uniformly random legal column;
the plain random policy picks uniformly among legal columns.
"""
import numpy as np

from agents.board.bitboard import bb_column, bb_has_line, bb_winning_cells
from agents.board.grid import drop, is_win_at, wins_by_playing
from agents.board.jit import njit, now
from agents.search.counters import S_ROLLOUT_PLIES

MASK64 = (1 << 64) - 1

# ---------------------------------------------------------------------------
# Random numbers (xorshift64), identical in agents.search.uct_reference
# ---------------------------------------------------------------------------


def seed_state(seed):
    """The generator state for an integer ``seed`` (splitmix64 of it, never 0)."""
    z = (int(seed) + 0x9E3779B97F4A7C15) & MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    z ^= z >> 31
    return np.array([z or 1], dtype=np.uint64)


@njit
def rand_below(rng, n):
    """A number in ``0 .. n-1`` from the xorshift64 state ``rng`` (advanced in place): its
    top 31 bits modulo ``n``. Shifts and XOR only, so the same numbers come out with
    ``NUMBA_DISABLE_JIT=1`` (numpy scalars) and in plain Python."""
    x = rng[0]
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    rng[0] = x
    return np.int64(x >> np.uint64(33)) % n




@njit
def rollout(grid, heights, rows, columns, inarow, mark, light, rng, legal, counters, deadline):
    """Play the game out from ``grid`` with ``mark`` to move; the winner's mark, 0 for a draw,
    -1 if the clock passed ``deadline`` (0: none) first -- on big boards one rollout can
    take longer than a move's budget, so the clock is checked every 64 plies.

    Changes ``grid`` and ``heights``; ``legal`` is scratch space of ``columns`` ints."""
    ply = 0
    while True:
        ply += 1
        if deadline > 0 and (ply & 63) == 0 and now() >= deadline:
            return -1
        n = 0
        for c in range(columns):
            if heights[c] < rows:
                legal[n] = c
                n += 1
        if n == 0:
            return 0
        counters[S_ROLLOUT_PLIES] += 1
        if light:
            block = -1
            for k in range(n):
                c = legal[k]
                if wins_by_playing(grid, heights, rows, columns, inarow, c, mark):
                    return mark
                if block < 0 and wins_by_playing(grid, heights, rows, columns, inarow, c,
                                                  3 - mark):
                    block = c
            col = block if block >= 0 else legal[rand_below(rng, n)]
            drop(grid, heights, rows, columns, col, mark)  # never a win: checked above
        else:
            col = legal[rand_below(rng, n)]
            idx = drop(grid, heights, rows, columns, col, mark)
            if is_win_at(grid, rows, columns, inarow, idx):
                return mark
        mark = 3 - mark


@njit
def bb_rollout(current, mask, rows, columns, inarow, mark, light, rng, legal, counters):
    """:func:`rollout` on a bitboard (``current``: stones of ``mark``, the side to move;
    ``mask``: all stones): the same moves from the same random numbers, faster."""
    H = rows + 1
    current = np.uint64(current)
    mask = np.uint64(mask)
    bottom = np.uint64(0)
    board = np.uint64(0)
    for c in range(columns):
        bottom |= np.uint64(1) << np.uint64(c * H)
        board |= bb_column(c, H, rows)
    one = np.uint64(1)
    while True:
        possible = (mask + bottom) & board  # the cell each non-full column would take
        if possible == np.uint64(0):
            return 0
        counters[S_ROLLOUT_PLIES] += 1
        n = 0
        for c in range(columns):
            if possible & bb_column(c, H, rows):
                legal[n] = c
                n += 1
        if light:
            if bb_winning_cells(current, H, inarow) & possible:
                return mark
            threats = bb_winning_cells(current ^ mask, H, inarow) & possible
            col = -1
            if threats:
                for c in range(columns):
                    if threats & bb_column(c, H, rows):
                        col = c
                        break
            else:
                col = legal[rand_below(rng, n)]
            new_mask = mask | (mask + (one << np.uint64(col * H)))
        else:
            col = legal[rand_below(rng, n)]
            new_mask = mask | (mask + (one << np.uint64(col * H)))
            if bb_has_line(current | (new_mask ^ mask), H, inarow):
                return mark
        current, mask = current ^ mask, new_mask
        mark = 3 - mark
