"""Explicit game trees, as textbooks draw them, on the :class:`agents.games.protocol.Game`
protocol: the reference searches back values up through them and the drawing shows
which leaves alpha-beta never reads.

A tree is a nested sequence: a leaf is a number (its value for MAX, ``math.inf`` for a
MAX win), an inner node a list or tuple of children, left to right. MAX moves at the
root and the sides alternate level by level. A state is the path from the root (a tuple
of child indices); an action is a child's index.

:class:`GameTree` remembers every leaf whose value a search read (``read``), so the leaves
alpha-beta prunes are the ones it never read (:func:`pruned_leaves`). ::

    >>> t = GameTree([[3, 5], [2, 9]])          # the tic-tac-toe article's tree
    >>> backed_up(t)[()]
    3
    >>> pruned_leaves(t)                    # after 2 < 3 the right MIN node is cut
    [(1, 1)]
"""
from agents.games.protocol import Game, alphabeta_value, minimax_value

MAX, MIN = "max", "min"


class GameTree(Game):
    """The explicit tree ``nodes`` as a two-player zero-sum game (MAX at the root).

    ``ValueError`` for an empty inner node or a leaf that is not a number."""

    players = (MAX, MIN)

    def __init__(self, nodes):
        _check(nodes, ())
        self.nodes = nodes
        self.read = set()  # the leaves whose value a search asked for

    def node(self, state):
        n = self.nodes
        for i in state:
            n = n[i]
        return n

    def initial(self):
        return ()

    def to_move(self, state):
        return MAX if len(state) % 2 == 0 else MIN

    def actions(self, state):
        n = self.node(state)
        return [] if _is_leaf(n) else list(range(len(n)))

    def result(self, state, action):
        return state + (action,)

    def is_terminal(self, state):
        return _is_leaf(self.node(state))

    def utility(self, state, player):
        self.read.add(state)
        v = self.node(state)
        return v if player == MAX else -v

    def leaves(self, state=()):
        """Every leaf's path below ``state``, left to right."""
        if self.is_terminal(state):
            return [state]
        return [leaf for a in self.actions(state) for leaf in self.leaves(state + (a,))]


def _is_leaf(n):
    return not isinstance(n, (list, tuple))


def _check(n, path):
    if _is_leaf(n):
        if isinstance(n, bool) or not isinstance(n, (int, float)):
            raise ValueError(f"leaf {path} is {n!r}, not a number")
        return
    if not n:
        raise ValueError(f"inner node {path} has no children")
    for i, child in enumerate(n):
        _check(child, path + (i,))


def backed_up(tree):
    """``{path: minimax value for MAX}`` of every node of ``tree``: a leaf its value, a
    node the max (MAX to move) or min (MIN) of its children's."""
    out = {}

    def visit(state):
        if tree.is_terminal(state):
            out[state] = tree.node(state)
        else:
            values = [visit(state + (a,)) for a in tree.actions(state)]
            out[state] = max(values) if tree.to_move(state) == MAX else min(values)
        return out[state]

    visit(())
    return out


def depth_of(tree, state=()):
    if tree.is_terminal(state):
        return 0
    return 1 + max(depth_of(tree, state + (a,)) for a in tree.actions(state))


def pruned_leaves(tree):
    """The leaves, left to right, that :func:`agents.games.protocol.alphabeta_value` never
    reads when it searches ``tree`` from the root in the drawn order."""
    tree.read.clear()
    alphabeta_value(tree, (), depth_of(tree), MAX)
    seen = set(tree.read)
    return [leaf for leaf in tree.leaves() if leaf not in seen]


def root_value(tree, search=minimax_value):
    """The root's value for MAX by a reference search (the whole depth)."""
    return search(tree, (), depth_of(tree), MAX)


def draw(tree):
    """The tree as indented text (:func:`agents.games.pictures.text` of alpha-beta's
    search, without the windows): each node's value (``<=``/``>=`` where alpha-beta
    backed up a bound), ``max``/``min`` at inner nodes, ``(pruned)`` at the leaves
    alpha-beta never reads (their values shown all the same) and ``*`` along the
    principal variation. :func:`agents.games.pictures.svg` draws the same as a picture."""
    from agents.games.pictures import text, trace
    return text(trace(tree, (), depth_of(tree)), windows=False)
