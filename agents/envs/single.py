"""``ConnectXEnv``: the Gymnasium environment of one learner against one opponent, on
any board (``gymnasium.make("connectx/ConnectX-v0", ...)``, registered by
:mod:`agents.envs`). One board of the batched core (:class:`agents.envs.boards.Boards`),
so that it plays exactly what board 0 of :class:`agents.envs.vector.ConnectXVectorEnv`
plays on the same seed."""
import gymnasium
import numpy as np
from gymnasium import spaces

from agents.envs.boards import Boards
from agents.envs.render import RenderBoard, Window, check_render_mode
from agents.envs.spaces import check_action, observation_space


class ConnectXEnv(RenderBoard, gymnasium.Env):
    """The learner plays ``seat`` ("random": drawn at each reset, the default; "first" or
    "second") against ``opponent`` (an agent spec of the package, ``"random"`` to
    ``"perfect"``, or a callable ``agent(obs, config)``: :mod:`agents.envs.opponents`) on
    ``rows`` x ``columns``, ``inarow`` to win.

    Observation (``obs_type="dict"``): PettingZoo's ``connect_four_v3`` dict,
    ``observation`` (rows, columns, 2) int8 (plane 0 the learner's stones, plane 1 the
    opponent's, row 0 the top) and ``action_mask`` (columns,) int8; ``obs_type="array"``:
    the planes alone, the mask in ``info["action_mask"]``. :meth:`action_masks` gives the
    mask as booleans (what sb3-contrib's MaskablePPO asks for). Action: a column. Reward
    +1 when the learner connects, -1 when the opponent does, 0 for a draw and while the
    game goes on. A full column (an illegal move) ends the episode with -1, as in
    PettingZoo; an action that is not an integer is a ``TypeError``, a column out of range
    a ``ValueError``, a step after the end a ``RuntimeError``. ``info["mark"]``: the
    learner's mark (1 moves first). Seeding: ``reset(seed=s)`` replays the same episodes
    for the same actions (the seat draw, a random opponent's moves, the opponents'
    tie-breaks).

    ``render_mode``: ``"ansi"`` (text), ``"rgb_array"`` (an ``(H, W, 3)`` uint8 image),
    ``"human"`` (a pygame window, drawn at each reset and step; off screen, with a
    warning, without a display: :func:`agents.envs.render.check_render_mode`)."""

    metadata = {"render_modes": ["ansi", "rgb_array", "human"], "render_fps": 2}

    def __init__(self, rows=6, columns=7, inarow=4, opponent="random", seat="random",
                 render_mode=None, obs_type="dict"):
        if opponent is None:
            raise ValueError("ConnectXEnv needs an opponent; self-play: the PettingZoo "
                             "environment (agents.envs.aec) or ConnectXVectorEnv(opponent=None)")
        self.observation_space = observation_space(rows, columns, obs_type)
        self.render_mode = check_render_mode(render_mode, self.metadata["render_modes"])
        self.boards = Boards(1, rows, columns, inarow, opponent, seat)
        self._array = obs_type == "array"
        self._window = Window("ConnectX", self.metadata["render_fps"]) \
            if render_mode == "human" else None
        self.action_space = spaces.Discrete(columns)
        self._seeded = False
        self._over = True
        self._action = np.zeros(1, dtype=np.int64)
        self._columns = columns
        self._obs, self._mask = self.boards.obs[0], self.boards.mask[0]

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        if seed is not None or not self._seeded:
            self.boards.seed(int(self.np_random.integers(2**63)) if seed is None else seed)
            self._seeded = True
        self.boards.reset()
        self._over = False
        self._mark = self.boards.to_move(0)
        if self._window is not None:
            self.render()
        return self._observation()

    def step(self, action):
        if self._over:
            raise RuntimeError("the episode is over (or never began): call reset()")
        b = self.boards
        self._action[0] = check_action(action, self._columns)
        b.play(self._action)
        self._over = bool(b._terminated[0])
        if self._window is not None:
            self.render()
        obs, info = self._observation()
        return obs, float(b.rewards[0]), self._over, False, info

    def _observation(self):
        """``(observation, info)`` of ``obs_type``, with copies of board 0's planes and
        mask (the batch's own arrays change next step)."""
        if self._array:
            return self._obs.copy(), {"mark": self._mark, "action_mask": self._mask.copy()}
        return {"observation": self._obs.copy(), "action_mask": self._mask.copy()}, \
            {"mark": self._mark}

    def action_masks(self):
        """The legal columns as a bool array (sb3-contrib's ``MaskablePPO`` convention)."""
        return self.boards.mask[0].astype(bool)

