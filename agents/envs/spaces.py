"""What the Gymnasium and PettingZoo environments share: the observation space (PettingZoo's
``connect_four_v3`` layout on any board, or its planes alone with the mask in ``info``)
and the check of one action. (Their drawings: :mod:`agents.envs.render`.)"""
import numpy as np
from gymnasium import spaces


# ``obs_type``: PettingZoo's dict of the planes and the mask, or the planes alone (an
# array, the mask in ``info["action_mask"]``: what CleanRL- and PufferLib-style code takes)
OBS_TYPES = ("dict", "array")


def check_obs_type(obs_type):
    """``obs_type`` if it is one of :data:`OBS_TYPES`, else ``ValueError``."""
    if obs_type not in OBS_TYPES:
        raise ValueError(f"obs_type must be one of {', '.join(map(repr, OBS_TYPES))}, "
                         f"got {obs_type!r}")
    return obs_type


def observation_space(rows, columns, obs_type="dict"):
    """``Dict(observation=Box(0, 1, (rows, columns, 2), int8), action_mask=Box(0, 1,
    (columns,), int8))``: plane 0 the player's own stones, plane 1 the opponent's, row 0
    the top row; the mask 1 on the columns with room. ``obs_type="array"``: the ``Box``
    of the planes alone."""
    planes = spaces.Box(low=0, high=1, shape=(rows, columns, 2), dtype=np.int8)
    if check_obs_type(obs_type) == "array":
        return planes
    return spaces.Dict({
        "observation": planes,
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
