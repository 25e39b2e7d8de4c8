"""The score scale of the depth-limited searches (:mod:`agents.search.minimax`,
:mod:`agents.search.alphabeta`) and the slots of their ``counters`` arrays.

Scores (int64, alpha-beta): from the side to move. A won position is worth
``WIN - stones`` to the winner, where ``stones`` is the number of stones on the
board when the line is completed (so sooner wins score higher and later losses
score higher); a full board is 0; at the horizon the evaluation of the root
player, negated when the opponent is to move -- which makes the negamax value
equal to the classic minimax value for the root player at every node.
``|score| >= WIN - MAX_STONES`` means a proven result.
"""
WIN = 1 << 40
MAX_STONES = 1 << 20          # more stones than any board can hold
INF = 1 << 50
PROVEN = WIN - MAX_STONES     # |score| >= PROVEN: a forced win or loss

EXACT, LOWER, UPPER = 0, 1, 2
CHECK_EVERY = 127             # nodes between two looks at the clock (mask): ~0.1 ms on 7x6,
                              # a few ms where one evaluation scans hundreds of long windows

# the counters slots live in agents.search.counters (one table for every search); these two
# names stay importable from here
from agents.search.counters import S_ABORTED, S_NODES  # noqa: E402,F401
