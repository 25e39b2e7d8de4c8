"""MTD(f) and the aspiration window on ConnectX: Python drivers over the grid kernel
:func:`agents.search.alphabeta.negamax` (fail-soft, with its transposition table), which
they call with narrow windows from the root.

The table keeps each entry's bound (``LOWER``/``UPPER``/``EXACT``) and the kernel cuts
on an entry only at the same remaining depth where it proves a fail, so the bounds one
null-window pass proves are reused by the next, and every driver returns the value of
the full-window search at ``depth`` (the tests check it on seeded positions against
that search and the reference minimax). Scores are the kernel's (the side to move's,
:mod:`agents.search.scores`: a win is ``WIN - stones``); the evaluation at the horizon is
a heuristic kernel (``heuristics.get(name)``). The Game-protocol versions, for the
lessons, are :mod:`agents.games.searches.windows`.
"""
from agents.board.grid import center_order, window_table
from agents.search.alphabeta import Tables, _hash, negamax
from agents.search.scores import INF
from agents.search.counters import S_NODES, new_counters


class WindowSearch:
    """One position searched again and again with windows, sharing one table.

    ``grid``/``heights`` are not changed (the kernel plays and takes back in place)."""

    def __init__(self, grid, heights, mark, cfg, evaluate, tt_bits=16):
        stones = int(heights.sum())
        if stones >= cfg.rows * cfg.columns:
            raise ValueError("the board is full: nothing to search")
        self.grid, self.heights, self.mark, self.cfg = grid, heights, mark, cfg
        self.evaluate, self.stones = evaluate, stones
        self.tables = Tables(cfg.rows, cfg.columns, tt_bits)
        self.tables.arrays_used = True
        self.windows = window_table(cfg.rows, cfg.columns, cfg.inarow)
        self.order = center_order(cfg.columns)
        self.nodes = 0   # over every call
        self.calls = 0

    def value(self, depth, alpha, beta):
        """The kernel's fail-soft value in ``(alpha, beta)`` at ``depth``."""
        t, cfg = self.tables, self.cfg
        key = _hash(self.grid, t.zobrist)
        counters = new_counters()
        v = negamax(self.grid, self.heights, cfg.rows, cfg.columns, cfg.inarow, self.windows,
                    self.evaluate, self.order, depth, alpha, beta, self.mark, self.mark,
                    self.stones, key, t.zobrist, t.tt_key, t.tt_val, t.tt_info, t.tt_move,
                    t.killers, t.moves, 0, 0.0, counters, t.pv, t.pvlen)
        self.nodes += int(counters[S_NODES])
        self.calls += 1
        return int(v)


def _check_depth(depth):
    if isinstance(depth, bool) or not isinstance(depth, int) or depth < 1:
        raise ValueError(f"depth must be an integer >= 1, got {depth!r}")


def full_window(search, depth):
    """The plain alpha-beta value, window ``(-INF, INF)``."""
    _check_depth(depth)
    return search.value(depth, -INF, INF)


def mtdf(search, depth, first_guess=0):
    """MTD(f) from ``first_guess``: null windows ``(beta - 1, beta)`` until the bounds
    meet; the value (the passes are ``search.calls``)."""
    _check_depth(depth)
    g, lower, upper = int(first_guess), -INF, INF
    while lower < upper:
        beta = g + 1 if g == lower else g
        g = search.value(depth, beta - 1, beta)
        if g < beta:
            upper = g
        else:
            lower = g
    return g


def aspiration(search, depth, guess, delta):
    """Alpha-beta in ``(guess - delta, guess + delta)``, each failed side opened to
    ``INF`` and searched again; the value."""
    _check_depth(depth)
    if delta <= 0:
        raise ValueError(f"the aspiration window needs delta > 0, got {delta!r}")
    a, b = guess - delta, guess + delta
    while True:
        g = search.value(depth, a, b)
        if a < g < b or (g <= a and a == -INF) or (g >= b and b == INF):
            return g
        if g <= a:
            a = -INF
        else:
            b = INF
