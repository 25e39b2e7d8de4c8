"""The slow reference of PUCT: Monte Carlo tree search guided by a policy/value network
(AlphaZero's rule), in plain Python over the plain-Python bitboard
:class:`agents.solver.position.Position`. The fast search is the numba kernel of
:mod:`agents.search.mcts` with the network as its evaluator (the tests compare the two);
this one plays ``mcts:prior=``'s moves while that kernel compiles.

Each simulation walks down from the root, at every node taking the child ``a`` of
highest::

    Q(a) + c * P(a) * sqrt(N) / (1 + n(a))

``P(a)`` the network's policy (a softmax of its logits over the legal columns), ``n(a)``
the child's visits, ``N`` the node's, ``Q(a)`` the child's mean result for the side that
moved into it (0 while unvisited). At the first node not yet expanded it asks the
network once (``evaluate``: priors and a value for the side to move, -1..1) instead of
playing a rollout, and backs the value up the path, negated at each ply (negamax).

Game ends are exact and never asked of the network: a position where the side to move
has a winning column is worth +1 (and the search plays that column at the root), a full
board 0.
"""
import math
import time

import numpy as np

from agents.board.grid import planes_of
from agents.search.mcts import DEFAULT_PUCT_C


class PUCTNode:
    """A position of the tree: ``moves`` (legal columns), ``priors``, ``children``
    (a :class:`PUCTNode` or None per move, made on the first visit), ``visits``, ``total``
    (sum of the values backed up, for the side to move here), ``exact`` (+1/0 when the
    position is decided at once, else None), ``win`` (the winning column, or -1)."""

    __slots__ = ("position", "moves", "priors", "children", "visits", "total", "exact", "win")

    def __init__(self, position):
        self.position = position
        self.moves = None
        self.priors = None
        self.children = None
        self.visits = 0
        self.total = 0.0
        self.exact = None
        self.win = -1


def planes_of_position(p):
    """The ``(1, rows, columns, 2)`` uint8 planes of ``p`` (the side to move's stones,
    the opponent's; row 0 the top row), the input of :mod:`agents.players.network`:
    :func:`agents.board.grid.planes_of` of ``p``'s grid, read bit by bit here."""
    rows, columns, H = p.rows, p.columns, p.rows + 1
    grid = np.zeros(rows * columns, dtype=np.int8)
    for c in range(columns):
        for h in range(rows):
            bit = 1 << (c * H + h)
            if not p.mask & bit:
                break
            grid[(rows - 1 - h) * columns + c] = 1 if p.pos & bit else 2
    return planes_of(grid, 1, rows, columns)[None]


def _expand(node, evaluate):
    """Expand ``node``; the value of its position for the side to move."""
    p = node.position
    moves = [c for c in range(p.columns) if p.can_play(c)]
    for c in moves:
        if p.is_winning_move(c):
            node.exact, node.win, node.moves = 1.0, c, []
            return 1.0
    if not moves:
        node.exact, node.moves = 0.0, []
        return 0.0
    logits, value = evaluate(p)
    logits = np.asarray(logits, dtype=np.float64)[moves]
    w = np.exp(logits - logits.max())
    node.moves = moves
    node.priors = (w / w.sum()).tolist()
    node.children = [None] * len(moves)
    return float(value)


def _select(node, c):
    """Index of the child of highest PUCT score (the first among equals)."""
    root_n = c * math.sqrt(node.visits)
    best, best_score = 0, -math.inf
    for i, child in enumerate(node.children):
        if child is None or child.visits == 0:
            q, n = 0.0, 0
        else:
            q, n = -child.total / child.visits, child.visits
        score = q + node.priors[i] * root_n / (1 + n)
        if score > best_score:
            best, best_score = i, score
    return best


def simulate(root, evaluate, c):
    """One simulation from ``root`` (module docstring)."""
    path, node = [root], root
    while node.moves is not None and node.exact is None:
        i = _select(node, c)
        child = node.children[i]
        if child is None:
            q = node.position.copy()
            q.play(node.moves[i])
            child = node.children[i] = PUCTNode(q)
        path.append(child)
        node = child
    if node.exact is not None:
        v = node.exact
    else:
        v = _expand(node, evaluate)
    for n in reversed(path):
        n.visits += 1
        n.total += v
        v = -v


def search(position, evaluate, simulations=0, deadline=None, c=DEFAULT_PUCT_C):
    """Run PUCT from ``position`` (not over, a legal move left) until ``simulations``
    simulations (0: no cap) or ``time.perf_counter()`` passes ``deadline`` (None: no
    deadline; at least one of the two must be given); ``(column, root)``. ``evaluate(p)``
    returns ``(logits, value)`` of a :class:`~agents.solver.position.Position`: one logit
    a column (full columns are masked here) and the value for the side to move. The
    column: the winning one if there is one, else the most visited (the higher prior
    among equals)."""
    if not simulations and deadline is None:
        raise ValueError("puct.search needs simulations > 0 or a deadline")
    root = PUCTNode(position)
    _expand(root, evaluate)
    root.visits = 1
    if root.exact is not None:
        if root.win >= 0:
            return root.win, root
        raise ValueError("puct.search: the position has no legal move")
    done = 0
    while True:
        simulate(root, evaluate, c)
        done += 1
        if simulations and done >= simulations:
            break
        if deadline is not None and time.perf_counter() >= deadline:
            break
    best = max(range(len(root.moves)), key=lambda i: (
        0 if root.children[i] is None else root.children[i].visits, root.priors[i]))
    return root.moves[best], root


__all__ = ["PUCTNode", "planes_of_position", "search", "simulate"]
