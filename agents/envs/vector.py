"""``ConnectXVectorEnv``: Gymnasium's vector API over the batched core
(:class:`agents.envs.boards.Boards`): ``num_envs`` boards stepped in numba, next-step
autoreset, any board, a kernel opponent (or self-play with ``opponent=None``)."""
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from agents.envs.boards import Boards
from agents.envs.render import check_render_mode, render_board
from agents.envs.spaces import observation_space


class ConnectXVectorEnv(VectorEnv):
    """``num_envs`` boards of ``rows`` x ``columns``, ``inarow`` to win, each one episode
    after another (Gymnasium's next-step autoreset: the step after a board's end resets
    it, ignores its action and returns reward 0). Observations, rewards and illegal moves
    as :class:`agents.envs.single.ConnectXEnv`, batched; board 0 on seed ``s`` plays
    what ``ConnectXEnv`` plays on seed ``s`` (board ``i``: ``s + i``).

    ``opponent``: a spec or callable (:mod:`agents.envs.opponents`: ``random``,
    ``onestep`` and a fixed-depth ``alphabeta`` reply in numba; any other is called
    from Python, board by board); ``seat`` as ``ConnectXEnv``'s ("random" by default).

    ``opponent=None`` is self-play: the caller plays both sides, each board shows the
    side to move, the reward is the mover's, and ``info`` has what pgx's ``State``
    gives: ``info["current_player"]`` int32 (num_envs,), the player the observation is
    shown for (0: mark 1, who moves first, PettingZoo's ``player_0``; 1: mark 2): the one
    to move, or on a board that has just ended the one who made the last move; and
    ``info["rewards"]`` float32 (num_envs, 2), every player's reward for the step (a
    line: +1 to its player, -1 to the other; an illegal move: -1 to its player, 0 to the
    other; as PettingZoo's and pgx's).

    ``obs_type="array"``: the observation is the planes alone, the mask in
    ``info["action_mask"]`` (num_envs, columns) int8 (with Gymnasium's
    ``info["_action_mask"]``, all True). ``render_mode="rgb_array"``: :meth:`render`
    gives a tuple of every board's image (as Gymnasium's ``SyncVectorEnv``), ``"ansi"``
    of their texts. ``copy``: return copies of the batch's arrays (False: views that the
    next step overwrites)."""

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": ["ansi", "rgb_array"],
                "render_fps": 2}

    def __init__(self, num_envs=1, rows=6, columns=7, inarow=4, opponent="random",
                 seat="random", copy=True, obs_type="dict", render_mode=None):
        self.single_observation_space = observation_space(rows, columns, obs_type)
        self.render_mode = check_render_mode(render_mode, self.metadata["render_modes"])
        self.boards = Boards(num_envs, rows, columns, inarow, opponent, seat)
        self.num_envs = self.boards.n
        self.copy = copy
        self._array = obs_type == "array"
        self._present = np.ones(self.num_envs, dtype=bool)  # info["_action_mask"]
        self._self_play = self.boards.self_play
        if self._self_play:
            self._players = np.zeros(self.num_envs, dtype=np.int32)
            self._rows = np.arange(self.num_envs)
            self._rewards = np.zeros((self.num_envs, 2), dtype=np.float32)
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
        return self._observation(), self._info()

    def step(self, actions):
        self.boards.step(actions)
        b = self.boards
        if self.copy:
            return self._observation(), b.rewards.copy(), b.terminated.copy(), \
                self._truncated.copy(), self._info()
        return self._observation(), b.rewards, b.terminated, self._truncated, self._info()

    def _observation(self):
        b = self.boards
        if self._array:
            return b.obs.copy() if self.copy else b.obs
        if self.copy:
            return {"observation": b.obs.copy(), "action_mask": b.mask.copy()}
        return {"observation": b.obs, "action_mask": b.mask}

    def _info(self):
        """The mask (``obs_type="array"``) and self-play's players and rewards."""
        if not (self._array or self._self_play):
            return {}
        b, info = self.boards, {}
        if self._array:
            info["action_mask"] = b.mask.copy() if self.copy else b.mask
            info["_action_mask"] = self._present.copy() if self.copy else self._present
        if self._self_play:
            # me: the side to move, or the last mover where the board has just ended
            # (the only boards with a reward: +1 a line, -1 an illegal move)
            np.subtract(b.me, 1, out=self._players)
            self._rewards[self._rows, self._players] = b.rewards
            self._rewards[self._rows, 1 - self._players] = 0.0 - np.maximum(b.rewards, 0)
            info["current_player"] = self._players.copy() if self.copy else self._players
            info["rewards"] = self._rewards.copy() if self.copy else self._rewards
        return info

    def render(self):
        """A tuple of every board's text (``"ansi"``) or image (``"rgb_array"``); None
        without a ``render_mode``."""
        if self.render_mode is None:
            return None
        rows, columns = self.boards.cfg.rows, self.boards.cfg.columns
        return tuple(render_board(self.render_mode, grid, rows, columns)
                     for grid in self.boards.grid)

    def action_masks(self):
        """(num_envs, columns) bool: the legal columns of every board."""
        return self.boards.mask.astype(bool)
