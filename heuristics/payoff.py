"""No evaluation: win/loss payoffs only (``heuristic="none"``), as in the book chapter's
Connect Four experiment (a depth-3 minimax that knows only who has won).

1 when ``mark`` has ``inarow`` in a line, -1 when the opponent has, 0 otherwise: every
position that is not over is worth 0. The tutorial's minimax scores terminal nodes by
the heuristic too, so there a win is 1 and a loss -1; the alpha-beta search values won
positions itself (:mod:`agents.search.scores`) and meets this kernel only at the
horizon, where it is 0 (the bitboard kernels do not call it: ``NONE`` in
:mod:`agents.search.horizon`).
"""
from agents.board.jit import njit


@njit
def payoff_eval(grid, heights, rows, columns, inarow, windows, mark):
    """1, -1 or 0 for ``mark`` (``heights`` unused: the common signature)."""
    for w in range(windows.shape[0]):
        first = grid[windows[w, 0]]
        if first == 0:
            continue
        full = True
        for i in range(1, inarow):
            if grid[windows[w, i]] != first:
                full = False
                break
        if full:
            return 1 if first == mark else -1
    return 0
