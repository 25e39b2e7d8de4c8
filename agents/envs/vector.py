"""``ConnectXVectorEnv``: Gymnasium's vector API over the batched core
(:class:`agents.envs.boards.Boards`): ``num_envs`` boards stepped in numba, next-step
autoreset, any board, a kernel opponent (or self-play with ``opponent=None``)."""
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from agents.envs.boards import Boards
from agents.envs.spaces import observation_space


class ConnectXVectorEnv(VectorEnv):
    """``num_envs`` boards of ``rows`` x ``columns``, ``inarow`` to win, each one episode
    after another (Gymnasium's next-step autoreset: the step after a board's end resets
    it, ignores its action and returns reward 0). Observations, rewards and illegal moves
    as :class:`agents.envs.single.ConnectXEnv`, batched; board 0 on seed ``s`` plays
    what ``ConnectXEnv`` plays on seed ``s`` (board ``i``: ``s + i``).

    ``opponent``: a spec or callable (:mod:`agents.envs.opponents`: ``random``,
    ``onestep`` and a fixed-depth ``alphabeta`` reply in numba; any other is called
    from Python, board by board); None is self-play: each board shows the side to move,
    the reward is the mover's, and the caller plays both sides. ``copy``: return copies
    of the batch's arrays (False: views that the next step overwrites)."""

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}

    def __init__(self, num_envs=1, rows=6, columns=7, inarow=4, opponent="random",
                 seat="first", copy=True):
        self.boards = Boards(num_envs, rows, columns, inarow, opponent, seat)
        self.num_envs = self.boards.n
        self.copy = copy
        self.single_observation_space = observation_space(rows, columns)
        self.single_action_space = spaces.Discrete(columns)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self._truncated = np.zeros(self.num_envs, dtype=bool)
        self._seeded = False

    def reset(self, *, seed=None, options=None):
        if seed is not None or not self._seeded:
            self._np_random_seed = seed
            self.boards.seed(seed)
            self._seeded = True
        self.boards.reset()
        return self._observation(), {}

    def step(self, actions):
        self.boards.step(actions)
        b = self.boards
        if self.copy:
            return self._observation(), b.rewards.copy(), b.terminated.copy(), \
                self._truncated.copy(), {}
        return self._observation(), b.rewards, b.terminated, self._truncated, {}

    def _observation(self):
        if self.copy:
            return {"observation": self.boards.obs.copy(), "action_mask": self.boards.mask.copy()}
        return {"observation": self.boards.obs, "action_mask": self.boards.mask}

    def action_masks(self):
        """(num_envs, columns) bool: the legal columns of every board."""
        return self.boards.mask.astype(bool)
