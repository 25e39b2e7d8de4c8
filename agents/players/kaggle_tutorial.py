"""The Kaggle tutorial's agents ("N-step lookahead"), transcribed near-verbatim and
generalised from 3 and 4 to ``inarow - 1`` and ``inarow``: the registry's ``tutorial``
agent (:class:`agents.players.baselines.TutorialAgent`) plays it, and the tests and
``connectx bench search`` compare the package's minimax against it.

Slow on purpose (numpy slices, Python loops: 0.2-0.5 s a move at depth 3) and kept as
close to the tutorial's text as possible, names included, so that a reader can set it
beside the notebook; :func:`tutorial_heuristic_flat` adapts its heuristic to the
reference :class:`agents.search.reference.ConnectX`.
"""
import random

import numpy as np


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
