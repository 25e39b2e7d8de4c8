"""Slow, obviously-correct pure-Python references for the searches (the rules'
references are in :mod:`agents.board.reference`).

Nothing here is fast or used by the agents; the tests compare the numba kernels
against it on seeded random positions, and the benchmark times the tutorial's
agent against ours.

* A tiny game protocol (:class:`Game`) that the reference minimax and alpha-beta
  are written against, and :class:`ConnectX` implementing it on plain lists.
* The Kaggle tutorial's N-step lookahead agent, kept as close to the original
  text as possible (numpy grid, ``count_windows``, ``minimax``, ``score_move``).
"""
import random

import numpy as np

from agents.board.reference import ref_drop, ref_legal_moves, ref_winner

# ---------------------------------------------------------------------------
# Game protocol
# ---------------------------------------------------------------------------


class Game:
    """A two-player, zero-sum, perfect-information game.

    States are immutable values. Players are the values ``to_move`` returns.
    ``evaluate`` is the heuristic used by depth-limited searches at the horizon."""

    def initial(self):
        raise NotImplementedError

    def to_move(self, state):
        raise NotImplementedError

    def actions(self, state):
        """Legal actions in a fixed order."""
        raise NotImplementedError

    def result(self, state, action):
        raise NotImplementedError

    def is_terminal(self, state):
        raise NotImplementedError

    def utility(self, state, player):
        """Value of a terminal ``state`` for ``player``."""
        raise NotImplementedError

    def evaluate(self, state, player):
        """Heuristic value of a non-terminal ``state`` for ``player`` (default 0)."""
        return 0


class Counter:
    """Counts the positions a search visits (every child generated, not the root)."""

    def __init__(self):
        self.nodes = 0


def leaf_value(game, state, depth, player):
    """The value of a leaf for ``player``: ``game.utility`` of a terminal ``state``,
    ``game.evaluate`` at ``depth`` 0; None for a node to search further."""
    if game.is_terminal(state):
        return game.utility(state, player)
    if depth == 0:
        return game.evaluate(state, player)
    return None


def minimax_value(game, state, depth, player=None, counter=None):
    """Depth-limited minimax value of ``state`` for ``player`` (default: the side to move).

    Terminal states score ``game.utility``; states at depth 0 score ``game.evaluate``."""
    player = game.to_move(state) if player is None else player

    def value(s, d):
        leaf = leaf_value(game, s, d, player)
        if leaf is not None:
            return leaf
        children = []
        for a in game.actions(s):
            if counter is not None:
                counter.nodes += 1
            children.append(value(game.result(s, a), d - 1))
        return max(children) if game.to_move(s) == player else min(children)

    return value(state, depth)


def alphabeta_value(game, state, depth, player=None, counter=None):
    """Same value as :func:`minimax_value`, with alpha-beta pruning."""
    player = game.to_move(state) if player is None else player

    def value(s, d, alpha, beta):
        leaf = leaf_value(game, s, d, player)
        if leaf is not None:
            return leaf
        maximizing = game.to_move(s) == player
        best = -float("inf") if maximizing else float("inf")
        for a in game.actions(s):
            if counter is not None:
                counter.nodes += 1
            v = value(game.result(s, a), d - 1, alpha, beta)
            if maximizing:
                best = max(best, v)
                alpha = max(alpha, v)
            else:
                best = min(best, v)
                beta = min(beta, v)
            if alpha >= beta:
                break
        return best

    return value(state, depth, -float("inf"), float("inf"))


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


def best_actions(game, state, depth, search=minimax_value):
    """(value, actions achieving it) for the side to move, searching ``depth`` plies."""
    player = game.to_move(state)
    scored = [(search(game, game.result(state, a), depth - 1, player), a)
              for a in game.actions(state)]
    top = max(v for v, _ in scored)
    return top, [a for v, a in scored if v == top]


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


# ---------------------------------------------------------------------------
# The Kaggle tutorial's agents ("N-step lookahead"), near-verbatim, generalised
# from 3 and 4 to inarow-1 and inarow
# ---------------------------------------------------------------------------


def tutorial_drop_piece(grid, col, mark, config):
    next_grid = grid.copy()
    for row in range(config.rows - 1, -1, -1):
        if next_grid[row][col] == 0:
            break
    next_grid[row][col] = mark
    return next_grid


def tutorial_check_window(window, num_discs, piece, config):
    return window.count(piece) == num_discs and window.count(0) == config.inarow - num_discs


def tutorial_count_windows(grid, num_discs, piece, config):
    num_windows = 0
    for row in range(config.rows):
        for col in range(config.columns - (config.inarow - 1)):
            window = list(grid[row, col:col + config.inarow])
            if tutorial_check_window(window, num_discs, piece, config):
                num_windows += 1
    for row in range(config.rows - (config.inarow - 1)):
        for col in range(config.columns):
            window = list(grid[row:row + config.inarow, col])
            if tutorial_check_window(window, num_discs, piece, config):
                num_windows += 1
    for row in range(config.rows - (config.inarow - 1)):
        for col in range(config.columns - (config.inarow - 1)):
            window = list(grid[range(row, row + config.inarow), range(col, col + config.inarow)])
            if tutorial_check_window(window, num_discs, piece, config):
                num_windows += 1
    for row in range(config.inarow - 1, config.rows):
        for col in range(config.columns - (config.inarow - 1)):
            window = list(grid[range(row, row - config.inarow, -1), range(col, col + config.inarow)])
            if tutorial_check_window(window, num_discs, piece, config):
                num_windows += 1
    return num_windows


def tutorial_get_heuristic(grid, mark, config):
    num_threes = tutorial_count_windows(grid, config.inarow - 1, mark, config)
    num_fours = tutorial_count_windows(grid, config.inarow, mark, config)
    num_threes_opp = tutorial_count_windows(grid, config.inarow - 1, mark % 2 + 1, config)
    num_fours_opp = tutorial_count_windows(grid, config.inarow, mark % 2 + 1, config)
    score = num_threes - 1e2 * num_threes_opp - 1e4 * num_fours_opp + 1e6 * num_fours
    return score


def tutorial_is_terminal_window(window, config):
    return window.count(1) == config.inarow or window.count(2) == config.inarow


def tutorial_is_terminal_node(grid, config):
    if list(grid[0, :]).count(0) == 0:
        return True
    for row in range(config.rows):
        for col in range(config.columns - (config.inarow - 1)):
            if tutorial_is_terminal_window(list(grid[row, col:col + config.inarow]), config):
                return True
    for row in range(config.rows - (config.inarow - 1)):
        for col in range(config.columns):
            if tutorial_is_terminal_window(list(grid[row:row + config.inarow, col]), config):
                return True
    for row in range(config.rows - (config.inarow - 1)):
        for col in range(config.columns - (config.inarow - 1)):
            window = list(grid[range(row, row + config.inarow), range(col, col + config.inarow)])
            if tutorial_is_terminal_window(window, config):
                return True
    for row in range(config.inarow - 1, config.rows):
        for col in range(config.columns - (config.inarow - 1)):
            window = list(grid[range(row, row - config.inarow, -1), range(col, col + config.inarow)])
            if tutorial_is_terminal_window(window, config):
                return True
    return False


def tutorial_minimax(node, depth, maximizingPlayer, mark, config):
    is_terminal = tutorial_is_terminal_node(node, config)
    valid_moves = [c for c in range(config.columns) if node[0][c] == 0]
    if depth == 0 or is_terminal:
        return tutorial_get_heuristic(node, mark, config)
    if maximizingPlayer:
        value = -np.inf
        for col in valid_moves:
            child = tutorial_drop_piece(node, col, mark, config)
            value = max(value, tutorial_minimax(child, depth - 1, False, mark, config))
        return value
    value = np.inf
    for col in valid_moves:
        child = tutorial_drop_piece(node, col, mark % 2 + 1, config)
        value = min(value, tutorial_minimax(child, depth - 1, True, mark, config))
    return value


def tutorial_score_move(grid, col, mark, config, nsteps):
    next_grid = tutorial_drop_piece(grid, col, mark, config)
    return tutorial_minimax(next_grid, nsteps - 1, False, mark, config)


def tutorial_scores(board, mark, config, nsteps=3):
    """{column: tutorial score} for every legal column."""
    valid_moves = [c for c in range(config.columns) if board[c] == 0]
    grid = np.asarray(board).reshape(config.rows, config.columns)
    return dict(zip(valid_moves,
                    [tutorial_score_move(grid, col, mark, config, nsteps) for col in valid_moves]))


def tutorial_best_columns(board, mark, config, nsteps=3):
    scores = tutorial_scores(board, mark, config, nsteps)
    top = max(scores.values())
    return sorted(c for c, s in scores.items() if s == top)


def make_tutorial_agent(nsteps=3, seed=None):
    """The tutorial's ``agent(obs, config)`` with ``N_STEPS = nsteps``."""
    rng = random.Random(seed)

    def agent(obs, config):
        return rng.choice(tutorial_best_columns(obs["board"] if isinstance(obs, dict)
                                                else obs.board, obs["mark"] if isinstance(obs, dict)
                                                else obs.mark, config, nsteps))
    return agent


def tutorial_heuristic_flat(board, mark, rows, columns, inarow):
    """``tutorial_get_heuristic`` on a flat board (for :class:`ConnectX`)."""
    cfg = TutorialConfig(rows, columns, inarow)
    return tutorial_get_heuristic(np.asarray(board).reshape(rows, columns), mark, cfg)


class TutorialConfig:
    def __init__(self, rows, columns, inarow):
        self.rows, self.columns, self.inarow = rows, columns, inarow


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
