"""Slow, obviously-correct pure-Python references of the Connect Four searches (the
rules' references are in :mod:`agents.board.rules_reference`; the game protocol and its
reference minimax and alpha-beta are in :mod:`agents.games.protocol`).

Nothing here is fast or used by the agents; the tests compare the numba kernels
against it on seeded random positions.

* :class:`ConnectX`: Connect Four on plain lists as an :class:`agents.games.protocol.Game`,
  which the reference searches of :mod:`agents.games.protocol` search.
* :func:`flat_heuristic`: a registered evaluation of :mod:`heuristics` as the
  ``heuristic`` :class:`ConnectX` takes.
* :func:`quiescence_value`: the reference of :mod:`agents.search.horizon`'s quiescence.
* :func:`swing_value`: the reference of its swing quiescence (``swing_search``).
* :func:`forced_result_reference`, :func:`safety_net_reference`: the tactics' rules
  stated directly (:mod:`agents.search.tactics`).
"""
from agents.board.rules_reference import ref_drop, ref_legal_moves, ref_winner
from agents.games.protocol import Game


def quiescence_value(game, state, depth, bound, player=None):
    """:func:`minimax_value` of a :class:`ConnectX` state with the quiescence search of
    :mod:`agents.search.horizon` at the horizon: while the side to move cannot win at
    once and the opponent threatens exactly one immediate win, the block is played (at
    most ``bound`` of them); two threats are a loss, an immediate win a win."""
    player = game.to_move(state) if player is None else player

    def sign(mark):
        return 1 if mark == player else -1

    def quiet(s, blocks):
        board, mover = s
        stones = sum(1 for v in board if v)
        if any(game.winner(game.result(s, a)) == mover for a in game.actions(s)):
            return sign(mover) * (WIN - (stones + 1))
        threats = [a for a in game.actions(s)
                   if game.winner(game.result((board, 3 - mover), a)) == 3 - mover]
        if len(threats) >= 2:
            return sign(3 - mover) * (WIN - (stones + 2))
        if len(threats) == 1 and blocks < bound:
            child = game.result(s, threats[0])
            return 0 if game.is_terminal(child) else quiet(child, blocks + 1)
        return game.evaluate(s, player)

    def value(s, d):
        if game.is_terminal(s):
            return game.utility(s, player)
        if d == 0:
            return quiet(s, 0)
        children = [value(game.result(s, a), d - 1) for a in game.actions(s)]
        return max(children) if game.to_move(s) == player else min(children)

    return value(state, depth)


def swing_value(game, state, depth, extend, swing, player=None):
    """:func:`minimax_value` of a :class:`ConnectX` state with the swing quiescence of
    :mod:`agents.search.horizon` at the horizon: a position where a move wins or changes
    the evaluation by at least ``swing`` is searched one ply more, every move, at most
    ``extend`` times on a line; a quiet one is evaluated."""
    player = game.to_move(state) if player is None else player

    def noisy(s):
        here = game.evaluate(s, player)
        return any(game.winner(c) or abs(game.evaluate(c, player) - here) >= swing
                   for c in (game.result(s, a) for a in game.actions(s)))

    def value(s, d, left):
        if game.is_terminal(s):
            return game.utility(s, player)
        if d == 0:
            if left == 0 or not noisy(s):
                return game.evaluate(s, player)
            d, left = 1, left - 1
        children = [value(game.result(s, a), d - 1, left) for a in game.actions(s)]
        return max(children) if game.to_move(s) == player else min(children)

    return value(state, depth, extend)


# ---------------------------------------------------------------------------
# ConnectX on plain lists (Kaggle layout: row 0 at the top)
# ---------------------------------------------------------------------------


WIN = 1 << 40  # same scale as agents.search.scores.WIN: a win is WIN - stones on the board


class ConnectX(Game):
    """ConnectX states are ``(board tuple, mark to move)``.

    ``utility`` of a won position is ``+-(WIN - stones)`` (sooner wins are better),
    0 for a draw; ``evaluate`` calls a heuristic ``f(board, mark, rows, columns, inarow)``."""

    def __init__(self, rows=6, columns=7, inarow=4, heuristic=None):
        self.rows, self.columns, self.inarow = rows, columns, inarow
        self.heuristic = heuristic

    def initial(self):
        return (tuple([0] * (self.rows * self.columns)), 1)

    def to_move(self, state):
        return state[1]

    def actions(self, state):
        return ref_legal_moves(state[0], self.rows, self.columns)

    def result(self, state, action):
        board, mark = state
        return (tuple(ref_drop(board, action, mark, self.rows, self.columns)), 3 - mark)

    def winner(self, state):
        return ref_winner(state[0], self.rows, self.columns, self.inarow)

    def is_terminal(self, state):
        return self.winner(state) != 0 or all(v != 0 for v in state[0])

    def utility(self, state, player):
        w = self.winner(state)
        if w == 0:
            return 0
        stones = sum(1 for v in state[0] if v != 0)
        return (WIN - stones) if w == player else -(WIN - stones)

    def evaluate(self, state, player):
        if self.heuristic is None:
            return 0
        return self.heuristic(list(state[0]), player, self.rows, self.columns, self.inarow)


def flat_heuristic(name, rows=6, columns=7, inarow=4):
    """The evaluation ``name`` of :data:`heuristics.REGISTRY` (its array kernel) as
    ``f(board, mark, rows, columns, inarow)`` on a flat board, for :class:`ConnectX`;
    ``ValueError`` lists the valid names."""
    import numpy as np

    from agents.board.grid import column_heights, window_table
    from heuristics import get
    kernel, windows = get(name), window_table(rows, columns, inarow)

    def f(board, mark, rows, columns, inarow):
        grid = np.array(board, dtype=np.int8)
        return int(kernel(grid, column_heights(grid, rows, columns), rows, columns, inarow,
                          windows, mark))
    return f


# ---------------------------------------------------------------------------
# The tactics' safety net, in plain Python (agents.search.tactics.safety_net)
# ---------------------------------------------------------------------------


def _wins_now(board, col, mark, rows, columns, inarow):
    return ref_winner(ref_drop(board, col, mark, rows, columns), rows, columns, inarow) == mark


def forced_result_reference(board, mark, depth, rows, columns, inarow):
    """+1 if ``mark`` (to move) forces a win within ``depth`` plies, -1 if it is forced
    to lose within ``depth`` plies (a line already on the board counts as lost for the
    side to move), else 0."""
    if ref_winner(board, rows, columns, inarow):
        return -1
    legal = ref_legal_moves(board, rows, columns)
    if depth == 0 or not legal:
        return 0
    return max(-forced_result_reference(ref_drop(board, c, mark, rows, columns), 3 - mark,
                                        depth - 1, rows, columns, inarow) for c in legal)


def safety_net_reference(board, mark, best, rows, columns, inarow):
    """The rules of ``safety_net`` stated directly on a list board (see its docstring)."""
    legal = ref_legal_moves(board, rows, columns)
    wins = [c for c in legal if _wins_now(board, c, mark, rows, columns, inarow)]
    if wins:
        if any(c in wins for c in best):
            return [c for c in best if c in wins]
        for c in best:
            after = ref_drop(board, c, mark, rows, columns)
            if -forced_result_reference(after, 3 - mark, 2, rows, columns, inarow) == 1:
                return list(best)
        return wins
    threats = [c for c in legal if _wins_now(board, c, 3 - mark, rows, columns, inarow)]
    if len(threats) == 1 and threats[0] not in best:
        return threats
    return list(best)
