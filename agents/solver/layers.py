"""Every position of ``ply`` stones of a board shape, one entry a mirror pair: the
positions an opening database holds (:mod:`agents.solver.database`; built by
``connectx database build``, :mod:`scripts.arena.database_build`).

A position is held when legal moves that never complete a line of ``inarow`` reach it
(a position with a four on the board is over) and its side to move cannot win at once
(as in BitBully's files: the solver never asks for those). A position and its mirror
image are one entry, under the smaller key (:func:`agents.solver.table.db_key`); the
position kept is the one of that key. The layers are built ply by ply from the empty
board by a numba kernel (children of every position, mirrored where the mirror image
has the smaller key) and ``np.unique`` on the keys.
"""
import numpy as np

from agents.board.jit import njit
from agents.solver.bits import can_win_next, mirror, possible_moves, winning_cells
from agents.solver.solver import geometry


@njit
def _children(pos, mask, g, out_pos, out_mask):
    """Every child of the positions ``(pos[i], mask[i])`` by a move that does not complete
    a line, mirrored when its mirror image has the smaller key; the number written."""
    n = 0
    for i in range(pos.shape[0]):
        p = pos[i]
        m = mask[i]
        possible = possible_moves(m, g)
        moves = possible & ~winning_cells(p, m, g)
        while moves != 0:
            move = moves & -moves
            moves ^= move
            q = p ^ m  # the opponent's stones: the side to move of the child
            qm = m | move
            k = q + qm
            if mirror(k, g) < k:
                q = mirror(q, g)
                qm = mirror(qm, g)
            out_pos[n] = q
            out_mask[n] = qm
            n += 1
    return n


@njit
def _no_win_now(pos, mask, g):
    """True where the side to move cannot win at once."""
    out = np.empty(pos.shape[0], dtype=np.bool_)
    for i in range(pos.shape[0]):
        out[i] = not can_win_next(pos[i], mask[i], g)
    return out


def check_shape(rows, columns, inarow, ply):
    """``ValueError`` saying why there is no layer of ``ply`` stones on that board."""
    for name, v in (("rows", rows), ("columns", columns), ("inarow", inarow), ("ply", ply)):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
            raise ValueError(f"{name} must be an integer, got {v!r}")
    if min(rows, columns, inarow) < 1 or max(rows, columns, inarow) > 255:
        raise ValueError(f"rows, columns and inarow must be in 1..255, got {rows}, {columns}, {inarow}")
    geometry(rows, columns, inarow)  # the bitboard must fit: ValueError says why
    if not 0 <= ply <= rows * columns:
        raise ValueError(f"the number of stones must be in 0..{rows * columns} on a {columns}x{rows} board, got {ply}")


def positions(rows, columns, inarow, ply):
    """``(keys, pos, mask)`` of every position the database of ``ply`` stones holds (see
    the module docstring), int64 arrays sorted by key: ``keys`` are the database's
    canonical keys, ``pos``/``mask`` the position of that key (the stones of the side to
    move, all stones)."""
    check_shape(rows, columns, inarow, ply)
    g = geometry(rows, columns, inarow)
    pos = np.zeros(1, dtype=np.int64)
    mask = np.zeros(1, dtype=np.int64)
    for _ in range(ply):
        out_pos = np.empty(len(pos) * columns, dtype=np.int64)
        out_mask = np.empty(len(pos) * columns, dtype=np.int64)
        n = _children(pos, mask, g, out_pos, out_mask)
        keys, first = np.unique(out_pos[:n] + out_mask[:n], return_index=True)
        pos, mask = out_pos[first], out_mask[first]
    keep = _no_win_now(pos, mask, g)
    pos, mask = pos[keep], mask[keep]
    return pos + mask, pos, mask


