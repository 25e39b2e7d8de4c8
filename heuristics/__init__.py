"""Position evaluations for the depth-limited searches.

Every evaluation is a numba kernel with one signature::

    evaluate(grid, heights, rows, columns, inarow, windows, mark) -> int64

scoring the position for ``mark`` (higher is better for ``mark``), where
``windows = agents.board.grid.window_table(rows, columns, inarow)``. Searches take the
kernel as an argument, so a new evaluation needs no change in any search.
"""
from heuristics.payoff import payoff_eval
from heuristics.threats import threats_eval
from heuristics.tutorial import windows_eval

HEURISTICS = {
    "windows": windows_eval,   # the Kaggle tutorial's window count
    "threats": threats_eval,   # playable threats, parity, centre (stronger)
    "none": payoff_eval,       # win/loss payoffs only (the book chapter's minimax)
}


def get(name):
    """The evaluation kernel called ``name``; ``ValueError`` lists the valid names."""
    try:
        return HEURISTICS[name]
    except (KeyError, TypeError):
        raise ValueError(
            f"unknown heuristic {name!r}; valid: {', '.join(sorted(HEURISTICS))}") from None
