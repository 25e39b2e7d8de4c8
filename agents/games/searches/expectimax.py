"""Expectimax (expectiminimax) for two-player games with chance, on the
:class:`agents.games.protocol.Game` protocol.

A game with chance adds ``outcomes(state, action) -> [(probability, state), ...]``
(probabilities summing to 1) to the protocol; a game without it is deterministic
(one outcome, ``result(state, action)``, with probability 1). The side named
``player`` takes the best action, the other side the worst for ``player``, and each
action is worth the probability-weighted mean of its outcomes: a chance node
between the decision and the next state. On a game without chance this is exactly
:func:`agents.games.protocol.minimax_value` (the tests check it), and a search that
ignores the chance is ``minimax_value`` itself, which sees only ``result``.
"""
from agents.games.protocol import leaf_value


def outcomes(game, state, action):
    """The chance outcomes of ``action``: ``game.outcomes`` or the one certain result."""
    if hasattr(game, "outcomes"):
        return game.outcomes(state, action)
    return [(1.0, game.result(state, action))]


def expectimax_value(game, state, depth, player=None, counter=None):
    """Expected value of ``state`` for ``player`` (default: the side to move), searching
    ``depth`` decisions; every outcome state generated counts as a node."""
    player = game.to_move(state) if player is None else player

    # minimax_value's recursion, with a chance node (action_value) between a decision
    # and its outcomes
    def value(s, d):
        leaf = leaf_value(game, s, d, player)
        if leaf is not None:
            return leaf
        values = [action_value(s, a, d) for a in game.actions(s)]
        return max(values) if game.to_move(s) == player else min(values)

    def action_value(s, a, d):
        total = 0.0
        for p, child in outcomes(game, s, a):
            if counter is not None:
                counter.nodes += 1
            v = value(child, d - 1)
            if p > 0:  # 0 * inf is nan: an impossible outcome adds nothing
                total += p * v
        return total

    return value(state, depth)


def expectimax_best(game, state, depth, counter=None):
    """``(value, action)`` for the side to move: the first action of best expected value."""
    player = game.to_move(state)
    best, move = None, None
    for a in game.actions(state):
        v = 0.0
        for p, child in outcomes(game, state, a):
            if counter is not None:
                counter.nodes += 1
            if p > 0:
                v += p * expectimax_value(game, child, depth - 1, player, counter)
        if best is None or v > best:
            best, move = v, a
    return best, move
