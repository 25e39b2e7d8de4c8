"""max^n (Luckhardt and Irani 1986) with Korf's shallow pruning (Korf 1991), for games
of any number of players, on the :class:`agents.games.protocol.Game` protocol plus
``game.players`` (the tuple of players).

Each node's value is a vector, one utility per player (``game.utility`` at the end,
``game.evaluate`` at the horizon); the player to move picks the child whose vector is
best for itself, the first such child on ties. With two players and a zero-sum
utility this is minimax.

Shallow pruning needs every utility >= 0 and their sum equal to ``total`` in every
state. A node of player ``i`` whose parent (player ``j``) already has a child worth
``b`` to ``j`` can stop as soon as a child is worth ``>= total - b`` to ``i``: then
``j`` gets at most ``b`` here and keeps its earlier child. The root's vector is the
same as without pruning (ties go to the earlier child in both), with no more nodes;
the tests check both on every position of small games.

:func:`maxn_value_reference` is the same recursion with no bound, the plain max^n the
pruned search is checked against: the bound and its cut-off are the only difference.
"""


def _leaf(game, state, depth):
    if game.is_terminal(state):
        return tuple(game.utility(state, p) for p in game.players)
    if depth == 0:
        return tuple(game.evaluate(state, p) for p in game.players)
    return None


def maxn_value_reference(game, state, depth, counter=None):
    """The max^n vector of ``state`` searched ``depth`` plies (one value per player of
    ``game.players``, in that order); no pruning."""
    return maxn_best(game, state, depth, None, counter)[0]


def maxn_value(game, state, depth, total=None, counter=None):
    """The max^n vector of ``state`` searched ``depth`` plies, with shallow pruning when
    ``total`` (the constant sum of the utilities) is given; the same vector as
    :func:`maxn_value_reference` at the root. ``ValueError`` if a leaf breaks the
    pruning's contract (a negative utility or a sum other than ``total``)."""
    return maxn_best(game, state, depth, total, counter)[0]


def maxn_best(game, state, depth, total=None, counter=None):
    """``(vector, action)``: the max^n vector of ``state`` (as :func:`maxn_value`) and
    the first action reaching it for the player to move (None at a leaf)."""
    index = {p: i for i, p in enumerate(game.players)}

    def best_of(s, d, bound):
        # with pruning, a node stops once a child is worth ``bound`` to its mover: the
        # parent's mover then gets at most total - bound here (at the root, nothing
        # beats the whole sum)
        leaf = _leaf(game, s, d)
        if leaf is not None:
            if total is not None and (min(leaf) < 0 or abs(sum(leaf) - total) > 1e-9):
                raise ValueError(f"shallow pruning needs utilities >= 0 summing to "
                                 f"{total}, got {leaf}")
            return leaf, None
        me = index[game.to_move(s)]
        best, move = None, None
        for a in game.actions(s):
            if counter is not None:
                counter.nodes += 1
            child_bound = None if total is None else total - (best[me] if best else 0)
            v = best_of(game.result(s, a), d - 1, child_bound)[0]
            if best is None or v[me] > best[me]:
                best, move = v, a
                if bound is not None and best[me] >= bound:
                    break
        return best, move

    return best_of(state, depth, total)
