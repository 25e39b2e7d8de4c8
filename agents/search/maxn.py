"""max^n (Luckhardt and Irani 1986) with Korf's shallow pruning (Korf 1991), for games
of any number of players, on the :class:`agents.search.reference.Game` protocol plus
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

:func:`maxn_value_reference` is the plain recursion the pruned search is checked
against.
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
    index = {p: i for i, p in enumerate(game.players)}

    def value(s, d):
        leaf = _leaf(game, s, d)
        if leaf is not None:
            return leaf
        me = index[game.to_move(s)]
        best = None
        for a in game.actions(s):
            if counter is not None:
                counter.nodes += 1
            v = value(game.result(s, a), d - 1)
            if best is None or v[me] > best[me]:
                best = v
        return best

    return value(state, depth)


def maxn_value(game, state, depth, total=None, counter=None):
    """The max^n vector of ``state`` searched ``depth`` plies, with shallow pruning when
    ``total`` (the constant sum of the utilities) is given; the same vector as
    :func:`maxn_value_reference` at the root. ``ValueError`` if a leaf breaks the
    pruning's contract (a negative utility or a sum other than ``total``)."""
    return maxn_best(game, state, depth, total, counter)[0]


def maxn_best(game, state, depth, total=None, counter=None):
    """``(vector, action)``: the max^n vector of ``state`` (as :func:`maxn_value`) and
    the first action reaching it for the player to move (None at a leaf)."""
    if total is None:
        return _best(game, state, depth, counter, lambda s, d, bound: maxn_value_reference(
            game, s, d, counter), None)
    index = {p: i for i, p in enumerate(game.players)}

    def value(s, d, bound):
        leaf = _leaf(game, s, d)
        if leaf is not None:
            if min(leaf) < 0 or abs(sum(leaf) - total) > 1e-9:
                raise ValueError(f"shallow pruning needs utilities >= 0 summing to "
                                 f"{total}, got {leaf}")
            return leaf
        me = index[game.to_move(s)]
        best = None
        # duplicates: maxn_value_reference's loop, plus the bound; the reference stays
        # the plain recursion the pruned search is checked against
        for a in game.actions(s):
            if counter is not None:
                counter.nodes += 1
            v = value(game.result(s, a), d - 1, total - (best[me] if best else 0))
            if best is None or v[me] > best[me]:
                best = v
                if best[me] >= bound:
                    break  # the parent's mover gets at most total - best[me] here
        return best

    return _best(game, state, depth, counter, value, total)


def _best(game, state, depth, counter, value, total):
    """The root of either search: its children valued by ``value(child, depth - 1,
    bound)``, the bound from the root's best so far."""
    leaf = _leaf(game, state, depth)
    if leaf is not None:
        return leaf, None
    me = list(game.players).index(game.to_move(state))
    best, move = None, None
    for a in game.actions(state):
        if counter is not None:
            counter.nodes += 1
        bound = None if total is None else total - (best[me] if best else 0)
        v = value(game.result(state, a), depth - 1, bound)
        if best is None or v[me] > best[me]:
            best, move = v, a
            if total is not None and best[me] >= total:
                break  # nothing beats the whole sum
    return best, move
