"""Iterative deepening on the :class:`agents.games.protocol.Game` protocol: search
depth 1, 2, 3, ... with a reference search until a budget runs out, and answer with
the deepest search that finished.

The budget is counted in nodes (``max_nodes``, reproducible on any machine) and/or
seconds (``time_limit``, as a player under a clock would); a depth whose search
went over the budget is discarded. Ending as soon as the value is a proven win or
loss (``math.inf`` or the game's ``WIN``/``LOSS``) or the tree has no deeper node
(a search of depth ``d`` that saw the same nodes as depth ``d - 1``) saves the rest.
"""
import time
from dataclasses import dataclass

from agents.games.protocol import Counter, alphabeta_value, best_actions


@dataclass
class Iteration:
    depth: int
    value: float
    actions: list   # the actions that reach the value, in the game's order
    nodes: int      # nodes of this depth's search
    seconds: float


def iterative_deepening(game, state, search=alphabeta_value, max_depth=64, max_nodes=None,
                        time_limit=None):
    """The finished iterations, shallow to deep (the last one is the answer); at
    least depth 1 is always searched whatever the budget."""
    if max_nodes is None and time_limit is None and max_depth == 64:
        raise ValueError("give iterative_deepening a budget: max_nodes, time_limit or max_depth")
    done, spent, previous = [], 0, -1
    start = time.perf_counter()
    for depth in range(1, max_depth + 1):
        counter = Counter()
        t0 = time.perf_counter()
        value, actions = best_actions(game, state, depth, _counting(search, counter))
        counter.nodes += len(game.actions(state))
        it = Iteration(depth, value, actions, counter.nodes, time.perf_counter() - t0)
        spent += counter.nodes
        over = (max_nodes is not None and spent > max_nodes) or \
            (time_limit is not None and time.perf_counter() - start > time_limit)
        if over and done:
            break
        done.append(it)
        proven = value in (getattr(game, "WIN", float("inf")), getattr(game, "LOSS", -float("inf")))
        if over or proven or counter.nodes == previous:
            break
        previous = counter.nodes
    return done


def _counting(search, counter):
    def run(game, state, depth, player):
        return search(game, state, depth, player, counter)
    return run
