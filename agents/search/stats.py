"""The slots of the ``stats`` arrays the search kernels fill: one table, so that a slot
means one thing in every search (an int64 array of :data:`STATS_SIZE`, :func:`new_stats`;
a search fills the slots it knows and leaves the others 0).

numba reads these module constants as compile-time constants, so a kernel indexing
``stats[S_NODES]`` costs what ``stats[0]`` costs.
"""
import numpy as np

S_NODES = 0           # positions visited (mcts: nodes in the tree)
S_ABORTED = 1         # 1 when the deadline stopped the search
S_STOP = 2            # the solver's stop flag, set by another thread (lazy SMP)
S_ITERATIONS = 3      # mcts: iterations run
S_ROLLOUT_PLIES = 4   # mcts: moves played by the rollouts
S_MAX_DEPTH = 5       # mcts: the deepest node selected
STATS_SIZE = 6


def new_stats():
    """A zeroed ``stats`` array."""
    return np.zeros(STATS_SIZE, dtype=np.int64)
