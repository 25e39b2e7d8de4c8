"""What the Gymnasium and PettingZoo environments share: the observation space (PettingZoo's
``connect_four_v3`` layout on any board), the check of one action, a text board."""
import numpy as np
from gymnasium import spaces


def observation_space(rows, columns):
    """``Dict(observation=Box(0, 1, (rows, columns, 2), int8), action_mask=Box(0, 1,
    (columns,), int8))``: plane 0 the player's own stones, plane 1 the opponent's, row 0
    the top row; the mask 1 on the columns with room."""
    return spaces.Dict({
        "observation": spaces.Box(low=0, high=1, shape=(rows, columns, 2), dtype=np.int8),
        "action_mask": spaces.Box(low=0, high=1, shape=(columns,), dtype=np.int8)})


def check_action(action, columns):
    """``action`` as a plain int in ``0..columns-1``: ``TypeError`` for anything but an
    integer (a numpy integer or a 0-d integer array too; never a bool or a float),
    ``ValueError`` out of range."""
    if type(action) is int and 0 <= action < columns:  # the common case, first
        return action
    if isinstance(action, np.ndarray) and action.ndim == 0:
        action = action[()]
    if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
        raise TypeError(f"action must be an integer column, got {type(action).__name__} "
                        f"{action!r}")
    if not 0 <= action < columns:
        raise ValueError(f"action {action} is out of range 0..{columns - 1}")
    return int(action)


def board_text(grid, rows, columns):
    """Kaggle's flat board as text, row 0 on top: ``.`` empty, ``X`` mark 1, ``O`` mark 2."""
    symbols = ".XO"
    lines = [" ".join(symbols[int(grid[c + r * columns])] for c in range(columns))
             for r in range(rows)]
    return "\n".join(lines + [" ".join(str(c % 10) for c in range(columns))]) + "\n"
