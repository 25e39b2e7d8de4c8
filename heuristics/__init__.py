"""Position evaluations for the depth-limited searches.

Every evaluation is a numba kernel with one signature::

    evaluate(grid, heights, rows, columns, inarow, windows, mark) -> int64

scoring the position for ``mark`` (higher is better for ``mark``), where
``windows = agents.board.grid.window_table(rows, columns, inarow)``.

Each evaluation registers here, in :data:`REGISTRY`, once: its array kernel (which the
recursive searches take as an argument), its ``id`` in :mod:`heuristics.dispatch` (the
compiled searches, on bitboards or on the grid, pass the id; None: no compiled
hookup, the recursive kernel runs it), whether :mod:`agents.search.minimax`'s
incremental kernel keeps its window counts, and the half-width of alpha-beta's
aspiration window on its scale (a few threats' worth). Searches and players read the record,
never the name, so a new evaluation needs no change in any search or player.
"""
from typing import NamedTuple, Optional

from heuristics.dispatch import NONE, THREATS, WINDOWS
from heuristics.payoff import payoff_eval
from heuristics.threats import threats_eval
from heuristics.tutorial import windows_eval


class Heuristic(NamedTuple):
    """One evaluation's registration (see the module docstring)."""
    evaluate: object     # the array kernel
    id: Optional[int]    # heuristics.dispatch's id, None if it has no compiled hookup
    incremental: bool    # agents.search.minimax.minimax_scores_counts keeps its counts
    aspiration: int      # alphabeta's aspiration half-width (agents.players.lookahead)


REGISTRY = {
    "windows": Heuristic(windows_eval, WINDOWS, True, 200),   # the Kaggle tutorial's window count
    "threats": Heuristic(threats_eval, THREATS, False, 50),   # playable threats, parity, centre
    "none": Heuristic(payoff_eval, NONE, False, 1),           # win/loss only (the book's minimax)
}
HEURISTICS = {name: h.evaluate for name, h in REGISTRY.items()}  # name -> array kernel
HEURISTIC_IDS = {name: h.id for name, h in REGISTRY.items() if h.id is not None}


def entry(name):
    """The :class:`Heuristic` registered as ``name``; ``ValueError`` lists the valid names."""
    try:
        return REGISTRY[name]
    except (KeyError, TypeError):
        raise ValueError(
            f"unknown heuristic {name!r}; valid: {', '.join(sorted(REGISTRY))}") from None


def get(name):
    """The evaluation kernel called ``name``; ``ValueError`` lists the valid names."""
    return entry(name).evaluate
