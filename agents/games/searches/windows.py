"""The searches of the lesson's "aspiration and null windows" and SSS* paragraphs, on the
:class:`agents.games.protocol.Game` protocol: one fail-soft alpha-beta with a window and a
memory of bounds, and the drivers that call it with narrow windows.

* :func:`window_value`: fail-soft alpha-beta of ``state`` in the window ``(alpha,
  beta)``, with a table of bounds per ``(state, depth)`` (Plaat's alpha-beta with
  memory): the exact value when it lies inside the window, else a bound on the side it
  failed (``<= alpha`` or ``>= beta``).
* :func:`pvs_value`: principal variation search: the first child with the full window,
  the others with a null window, searched again when one fails high.
* :func:`lalphabeta_value`: Fishburn's Lalphabeta, "last move with minimal window", which
  the lesson names as killer heuristic plus zero-window search without a rule; the
  package's reading: PVS whose first child at a node is the killer of its ply (the last
  move that cut off there), so the full window goes to the move that refuted last time.
* :func:`aspiration_value`: a window of ``delta`` around a guess, opened on the side
  it fails.
* :func:`mtdf_value`: MTD(f) (Plaat et al. 1996): null-window calls only, each moving a
  bound, until the bounds meet; :func:`mt_sss_value` is MTD(+inf), the MT form of SSS*
  (best-first, as the lesson says SSS* is, at the cost of the table).

Values are from ``player``'s side (max where ``player`` moves, min elsewhere), as in
:func:`agents.games.protocol.alphabeta_value`, and equal it at the same depth (the tests
check every driver on every position of small games). The null window ``(g - 1, g)``
needs integer values: a game with fractional values gets a ``ValueError``.

Node counts: ``counter.nodes`` grows by one for every child generated, across every
pass of a driver (so MTD(f)'s count is the sum of its passes), as in the reference.
"""
import math

from agents.games.protocol import leaf_value


class Memory:
    """The table of bounds: ``(state, depth) -> (lower, upper)``."""

    def __init__(self):
        self.bounds = {}

    def __len__(self):
        return len(self.bounds)


def _integer(v):
    if v not in (math.inf, -math.inf) and v != int(v):
        raise ValueError(f"null-window searches need integer values, got {v!r}")
    return v


def window_value(game, state, depth, alpha, beta, player=None, counter=None, memory=None):
    """Fail-soft alpha-beta value of ``state`` in ``(alpha, beta)`` for ``player``
    (default: the side to move), ``depth`` plies; ``memory`` (a :class:`Memory`) keeps
    the bounds it proves for later calls."""
    player = game.to_move(state) if player is None else player
    table = memory.bounds if memory is not None else None

    def value(s, d, a, b):
        if table is not None and (s, d) in table:
            lo, hi = table[(s, d)]
            if lo >= b:
                return lo
            if hi <= a:
                return hi
            a, b = max(a, lo), min(b, hi)
        leaf = leaf_value(game, s, d, player)
        if leaf is not None:
            g = _integer(leaf)
        elif game.to_move(s) == player:
            g, lo_a = -math.inf, a
            for act in game.actions(s):
                if counter is not None:
                    counter.nodes += 1
                g = max(g, value(game.result(s, act), d - 1, lo_a, b))
                lo_a = max(lo_a, g)
                if g >= b:
                    break
        else:
            g, hi_b = math.inf, b
            for act in game.actions(s):
                if counter is not None:
                    counter.nodes += 1
                g = min(g, value(game.result(s, act), d - 1, a, hi_b))
                hi_b = min(hi_b, g)
                if g <= a:
                    break
        if table is not None:
            lo, hi = table.get((s, d), (-math.inf, math.inf))
            if g <= a:
                hi = min(hi, g)
            elif g >= b:
                lo = max(lo, g)
            else:
                lo = hi = g
            table[(s, d)] = (lo, hi)
        return g

    return value(state, depth, alpha, beta)


def pvs_value(game, state, depth, player=None, counter=None):
    """Principal variation search (no memory): the value of
    :func:`agents.games.protocol.alphabeta_value`."""
    return _scout(game, state, depth, player, counter, None)


def lalphabeta_value(game, state, depth, player=None, counter=None):
    """Lalphabeta in the package's reading (module docstring): :func:`pvs_value` with the
    killer of each ply tried first; the value of :func:`agents.games.protocol.alphabeta_value`."""
    return _scout(game, state, depth, player, counter, {})


def _scout(game, state, depth, player, counter, killers):
    """PVS; ``killers`` (a dict ply -> move, or None for none) puts the last move that
    cut off at a ply first at that ply's nodes."""
    player = game.to_move(state) if player is None else player

    def value(s, d, a, b):
        leaf = leaf_value(game, s, d, player)
        if leaf is not None:
            return _integer(leaf)
        maximizing = game.to_move(s) == player
        best = -math.inf if maximizing else math.inf
        actions = game.actions(s)
        ply = depth - d
        if killers is not None and killers.get(ply) in actions:
            actions = [killers[ply]] + [act for act in actions if act != killers[ply]]
        for i, act in enumerate(actions):
            if counter is not None:
                counter.nodes += 1
            child = game.result(s, act)
            if i == 0 or (maximizing and a == -math.inf) or (not maximizing and b == math.inf):
                v = value(child, d - 1, a, b)  # no bound yet to test against
            elif maximizing:
                v = value(child, d - 1, a, a + 1)  # can it beat alpha at all?
                if a < v < b:
                    v = value(child, d - 1, v, b)
            else:
                v = value(child, d - 1, b - 1, b)
                if a < v < b:
                    v = value(child, d - 1, a, v)
            if maximizing:
                best, a = max(best, v), max(a, v)
            else:
                best, b = min(best, v), min(b, v)
            if a >= b:
                if killers is not None:
                    killers[ply] = act
                break
        return best

    return value(state, depth, -math.inf, math.inf)


def aspiration_value(game, state, depth, guess, delta, player=None, counter=None):
    """Alpha-beta in ``(guess - delta, guess + delta)``; a fail opens that side to
    infinity and searches again. ``(value, searches)``."""
    if delta <= 0:
        raise ValueError(f"the aspiration window needs delta > 0, got {delta!r}")
    a, b, searches = guess - delta, guess + delta, 0
    while True:
        searches += 1
        g = window_value(game, state, depth, a, b, player, counter)
        if a < g < b or (a == -math.inf and g <= a) or (b == math.inf and g >= b):
            return g, searches
        if g <= a:
            a = -math.inf
        else:
            b = math.inf


def mtdf_value(game, state, depth, first_guess=0, player=None, counter=None, memory=None):
    """MTD(f): null-window searches from ``first_guess`` until the lower and upper
    bounds meet; ``(value, passes)``. ``memory`` (default a fresh :class:`Memory`)
    carries the bounds from pass to pass."""
    memory = Memory() if memory is None else memory
    g, lower, upper, passes = first_guess, -math.inf, math.inf, 0
    while lower < upper:
        beta = g + 1 if g == lower else g
        if beta in (math.inf, -math.inf):  # a proven win or loss: one full window
            g = window_value(game, state, depth, -math.inf, math.inf, player, counter, memory)
            return g, passes + 1
        g = window_value(game, state, depth, beta - 1, beta, player, counter, memory)
        passes += 1
        if g < beta:
            upper = g
        else:
            lower = g
    return g, passes


def mt_sss_value(game, state, depth, top, player=None, counter=None, memory=None):
    """MT-SSS*, the SSS* of the lesson in Plaat's memory-enhanced form: MTD from
    ``top`` (at least every value of the game), each pass lowering the upper bound;
    ``(value, passes)``."""
    return mtdf_value(game, state, depth, top, player, counter, memory)
