"""Monte Carlo move choice for two-player games on the
:class:`agents.games.protocol.Game` protocol: the lesson's contrast between
uniform sampling and UCT. The lessons' pure-Python teaching version: the package's
Monte Carlo tree search (numba, MCTS-Solver, rollouts or a network as its evaluator)
is :mod:`agents.search.mcts`.

* :func:`uniform_sampling_move`: the playouts are shared out evenly among the moves
  of the root (round robin), each played to the end at random; the move with the
  best mean result wins. Every move gets the same attention, good or bad.
* :func:`uct_move`: UCT (Kocsis and Szepesvari 2006), a tree grown one node per
  playout, each step of the descent taking the child of highest
  ``mean + c * sqrt(ln(parent visits) / visits)`` (untried children first): the
  playouts go where the good moves are, and deeper than one ply.
* :func:`mcts`: the same tree search with either tree policy: ``"uct"``, or
  ``"uniform"`` (the lesson's MCTS with uniform sampling of the actions: each step of
  the descent takes a child at random, whatever its results); :func:`root_estimate` is
  the root's value as the search estimates it (its playouts' mean, -1 to 1), which
  converges to the minimax value under UCT, and to a blend of every line under the
  uniform policy.

A playout's result is 1 for a win, 1/2 for a draw and 0 for a loss (the sign of
``game.utility``), counted for the player who moved into the node. Both take a
``random.Random`` and are reproducible with a seeded one. The numba ConnectX UCT
(:mod:`agents.search.mcts`, checked against :mod:`agents.search.uct_reference`)
is the fast version of the same algorithm for Connect Four.
"""
import math


def _reward(game, state, player):
    u = game.utility(state, player)
    return 1.0 if u > 0 else (0.5 if u == 0 else 0.0)


def _playout(game, state, rng):
    while not game.is_terminal(state):
        actions = game.actions(state)
        state = game.result(state, actions[rng.randrange(len(actions))])
    return state


def uniform_sampling_move(game, state, playouts, rng):
    """``(action, {action: mean result})``: ``playouts`` random games shared evenly
    among the root's actions; the first action of best mean."""
    player = game.to_move(state)
    actions = game.actions(state)
    if not actions:
        raise ValueError("no move: the game is over")
    wins = {a: 0.0 for a in actions}
    plays = {a: 0 for a in actions}
    for i in range(max(playouts, len(actions))):
        a = actions[i % len(actions)]
        wins[a] += _reward(game, _playout(game, game.result(state, a), rng), player)
        plays[a] += 1
    means = {a: wins[a] / plays[a] for a in actions}
    return max(actions, key=lambda a: means[a]), means


class _Node:
    __slots__ = ("state", "children", "untried", "visits", "wins")

    def __init__(self, game, state):
        self.state = state
        self.children = {}  # action -> _Node
        self.untried = [] if game.is_terminal(state) else list(game.actions(state))
        self.visits = 0
        self.wins = 0.0  # for the player who moved into this node


POLICIES = ("uct", "uniform")


def mcts(game, state, iterations, rng, c=math.sqrt(2), policy="uct"):
    """The root of a Monte Carlo tree search of ``iterations`` iterations from ``state``
    (each: descend by the tree ``policy`` while every child has been tried, add one
    untried child, play out at random, back the result up). ``ValueError`` for a
    finished game or an unknown policy."""
    if game.is_terminal(state):
        raise ValueError("no move: the game is over")
    if policy not in POLICIES:
        raise ValueError(f"unknown tree policy {policy!r}; valid: {', '.join(POLICIES)}")
    root = _Node(game, state)
    for _ in range(iterations):
        node, path = root, [root]
        while not node.untried and node.children:
            if policy == "uniform":
                node = list(node.children.values())[rng.randrange(len(node.children))]
            else:
                log_n = math.log(node.visits)
                node = max(node.children.values(), key=lambda ch: ch.wins / ch.visits
                           + c * math.sqrt(log_n / ch.visits))
            path.append(node)
        if node.untried:
            a = node.untried.pop(rng.randrange(len(node.untried)))
            child = _Node(game, game.result(node.state, a))
            node.children[a] = child
            node, path = child, path + [child]
        end = _playout(game, node.state, rng)
        for n, parent in zip(path[1:], path[:-1]):
            n.visits += 1
            n.wins += _reward(game, end, game.to_move(parent.state))
        root.visits += 1
    return root


def root_estimate(root):
    """The root's value for its side to move as the search estimates it: the mean
    result of all its playouts, rescaled from 0..1 to -1..1."""
    visits = sum(ch.visits for ch in root.children.values())
    return 2 * sum(ch.wins for ch in root.children.values()) / visits - 1


def uct_move(game, state, iterations, rng, c=math.sqrt(2)):
    """``(action, {action: visits})``: ``iterations`` UCT iterations from ``state``;
    the most visited action (the first on ties)."""
    root = mcts(game, state, iterations, rng, c)
    visits = {a: ch.visits for a, ch in root.children.items()}
    order = game.actions(state)
    return max((a for a in order if a in visits), key=lambda a: visits[a]), visits
