"""The searches' compiled hookup of the evaluations: one kernel on the bitboards and one
on the array grid, each choosing the evaluation by its id (:data:`heuristics.HEURISTICS`
gives each heuristic its ``id``). numba cannot look a kernel up by name inside a
compiled search, so a search passes the id and these two kernels branch on it; a new
heuristic is a line in each, here, and none in any search.

``NONE`` (win/loss payoffs only, :mod:`heuristics.payoff`) is 0 at every horizon: a
position there is never over.
"""
from agents.board.jit import njit
from heuristics.bitboard_eval import bb_threats_eval, bb_windows_eval
from heuristics.threats import threats_eval
from heuristics.tutorial import windows_eval

THREATS, WINDOWS, NONE = 0, 1, 2


@njit
def bitboard_evaluate(stones, mark, heuristic, geo):
    """The evaluation ``heuristic`` (an id) for ``mark`` on the bitboards ``stones``
    (int64[3] by mark; ``geo``: :func:`heuristics.bitboard_eval.eval_geometry`)."""
    if heuristic == THREATS:
        return bb_threats_eval(stones[mark], stones[3 - mark], mark, geo)
    if heuristic == WINDOWS:
        return bb_windows_eval(stones[mark], stones[3 - mark], mark, geo)
    return 0


@njit
def grid_evaluate(grid, heights, rows, columns, inarow, windows, mark, heuristic):
    """The evaluation ``heuristic`` (an id) for ``mark`` on the array grid."""
    if heuristic == THREATS:
        return threats_eval(grid, heights, rows, columns, inarow, windows, mark)
    if heuristic == WINDOWS:
        return windows_eval(grid, heights, rows, columns, inarow, windows, mark)
    return 0
