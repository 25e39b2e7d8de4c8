"""The slots of the ``counters`` arrays the search kernels fill: one table, so that a slot
means one thing in every search (an int64 array of :data:`COUNTERS_SIZE`, :func:`new_counters`;
a search fills the slots it knows and leaves the others 0).

numba reads these module constants as compile-time constants, so a kernel indexing
``counters[S_NODES]`` costs what ``counters[0]`` costs.
"""
import numpy as np

S_NODES = 0           # positions visited (mcts: nodes in the tree)
S_ABORTED = 1         # 1 when the deadline stopped the search
S_STOP = 2            # the solver's stop flag, set by another thread (lazy SMP)
S_ITERATIONS = 3      # mcts: iterations run
S_ROLLOUT_PLIES = 4   # mcts: moves played by the rollouts
S_MAX_DEPTH = 5       # mcts: the deepest node selected
COUNTERS_SIZE = 6


def new_counters():
    """A zeroed ``counters`` array."""
    return np.zeros(COUNTERS_SIZE, dtype=np.int64)
