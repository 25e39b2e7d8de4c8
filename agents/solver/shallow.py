"""A shallow exact-rules search in plain Python: what the ``perfect`` agent plays when
the solver's kernels are still compiling and waiting for them does not fit the clock.

It is the solver's negamax (:mod:`agents.solver.kernel`) cut at a depth, on the
plain-Python :class:`agents.solver.position.Position` integers, so it imports neither
numpy nor numba and compiles nothing:

* a side that can complete a line at once wins; a side facing two immediate threats,
  or whose every move plays under a winning cell of the opponent's, loses (Pons'
  "non-losing moves": a single threat forces the block, which costs no depth);
* past ``depth`` plies a position is scored 0: *unknown* (a draw for alpha-beta's
  purposes), so a value above 0 is a proven win and one below 0 a proven loss, in the
  solver's scale (:mod:`agents.solver.solver`: the score counts the winner's stones);
* iterative deepening until ``deadline``: the answer is the last finished depth's.

What it sees in a fraction of a second on 7x6 (depth 4 to 6): a win in a few moves, an
open three being set up on an empty row (two plies ahead), a double threat two plies
ahead, a move under the opponent's winning cell. What it cannot see: zugzwang and
parity (the deep plans the solver proves). Among the columns of equal value the
caller's ``order`` decides (the window count of
:func:`agents.players.warmup.fallback_move`).
"""
import time

from agents.solver.position import winning_cells

_CHECK_EVERY = 127  # nodes between two looks at the clock (a mask: 2**k - 1)


class _Timeout(Exception):
    pass


class _Geometry:
    """The board's constant masks and the search's clock and node count."""

    def __init__(self, rows, columns, inarow, deadline):
        self.rows, self.columns, self.inarow = rows, columns, inarow
        self.H = H = rows + 1
        self.n = rows * columns
        self.bottom = sum(1 << (c * H) for c in range(columns))
        self.board = sum(((1 << rows) - 1) << (c * H) for c in range(columns))
        self.column = [((1 << rows) - 1) << (c * H) for c in range(columns)]
        self.order = sorted(range(columns), key=lambda c: (abs(2 * c - (columns - 1)), c))
        self.deadline = deadline
        self.nodes = 0

    def wins(self, stones, mask):
        return winning_cells(stones, mask, self.rows, self.columns, self.inarow)


def _negamax(g, pos, mask, moves, depth, alpha, beta):
    """The score of the position for its side to move, within ``[alpha, beta]`` (fail
    hard), looking ``depth`` plies ahead (forced blocks free); 0 past the horizon."""
    g.nodes += 1
    if not g.nodes & _CHECK_EVERY and time.perf_counter() > g.deadline:
        raise _Timeout
    possible = (mask + g.bottom) & g.board
    if g.wins(pos, mask) & possible:
        return (g.n + 1 - moves) // 2
    loss = -((g.n - moves) // 2)
    theirs = g.wins(pos ^ mask, mask)
    forced = possible & theirs
    if forced:
        if forced & (forced - 1):
            return loss  # two threats: one is left
        possible = forced
    safe = possible & ~(theirs >> 1)
    if not safe:
        return loss
    if moves >= g.n - 2 or depth <= 0:
        return 0  # a draw (the board fills) or the horizon
    if alpha < loss:
        alpha = loss
    if alpha >= beta:
        return alpha
    single = not safe & (safe - 1)
    for c in g.order:
        move = safe & g.column[c]
        if move:
            v = -_negamax(g, pos ^ mask, mask | move, moves + 1,
                          depth if single else depth - 1, -beta, -alpha)
            if v >= beta:
                return v
            if v > alpha:
                alpha = v
    return alpha


def shallow_values(p, depth, deadline=float("inf"), order=None):
    """``{column: value}`` of every legal column of ``p`` (a
    :class:`agents.solver.position.Position`) at ``depth`` plies after it: a value
    above 0 is a proven win (the quickest it sees: never quicker than the best), below
    0 a proven loss, 0 unknown (or a draw); each column searched with a full window.
    ``TimeoutError`` past ``deadline`` (``time.perf_counter`` seconds)."""
    g = _Geometry(p.rows, p.columns, p.inarow, deadline)
    return _values(g, p, depth, order or g.order, full=True)


def _values(g, p, depth, order, full=False):
    """The columns' values in ``order``; without ``full`` each after the first with a
    window from the best so far: a column no better than an earlier one gets a bound (at
    most that value), and the first column of the best value has its exact value."""
    values = {}
    best = -g.n
    try:
        for c in order:
            if not p.can_play(c):
                continue
            if p.is_winning_move(c):
                values[c] = (g.n + 1 - p.moves) // 2
            else:
                q = p.copy()
                q.play(c)
                values[c] = -_negamax(g, q.pos, q.mask, q.moves, depth - 1, -g.n,
                                      g.n if full else -best)
            best = max(best, values[c])
    except _Timeout:
        raise TimeoutError("shallow search: deadline passed") from None
    return values


def shallow_move(p, deadline, order=None, max_depth=None):
    """``(column, value, depth, nodes)``: iterative deepening of :func:`shallow_values`
    from depth 1 until ``deadline`` (``time.perf_counter`` seconds), a win or a loss is
    proven, or ``max_depth``; the best column of the last finished depth, the first in
    ``order`` (default centre first) among equals. Depth 1 runs whatever the clock (a
    few milliseconds on 7x6: an answer is owed). ``nodes``: positions visited, all
    depths."""
    g = _Geometry(p.rows, p.columns, p.inarow, float("inf"))
    order = [c for c in (order or g.order) if p.can_play(c)]
    if not order:
        raise ValueError("the board is full: no move to choose")
    limit = g.n - p.moves if max_depth is None else max_depth
    col, value, reached = order[0], 0, 0
    for depth in range(1, limit + 1):
        g.deadline = deadline if depth > 1 else float("inf")
        try:
            values = _values(g, p, depth, order)
        except TimeoutError:
            break
        best = max(values.values())
        col, value, reached = next(c for c in order if values[c] == best), best, depth
        if best != 0:
            break  # proven: a win (the quickest at this depth) or every column loses
    return col, value, reached, g.nodes
