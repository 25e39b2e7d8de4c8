"""``ConnectXEnv``: the Gymnasium environment of one learner against one opponent, on
any board (``gymnasium.make("connectx/ConnectX-v0", ...)``, registered by
:mod:`agents.envs`). One board of the batched core (:class:`agents.envs.boards.Boards`),
so that it plays exactly what board 0 of :class:`agents.envs.vector.ConnectXVectorEnv`
plays on the same seed."""
import gymnasium
import numpy as np
from gymnasium import spaces

from agents.envs.boards import Boards
from agents.envs.spaces import board_text, check_action, observation_space


class ConnectXEnv(gymnasium.Env):
    """The learner plays ``seat`` ("first", "second" or "random", drawn at each reset)
    against ``opponent`` (an agent spec of the package, ``"random"`` to ``"perfect"``,
    or a callable ``agent(obs, config)``: :mod:`agents.envs.opponents`) on ``rows`` x
    ``columns``, ``inarow`` to win.

    Observation: PettingZoo's ``connect_four_v3`` dict, ``observation`` (rows, columns,
    2) int8 (plane 0 the learner's stones, plane 1 the opponent's, row 0 the top) and
    ``action_mask`` (columns,) int8; :meth:`action_masks` gives the mask as booleans
    (what sb3-contrib's MaskablePPO asks for). Action: a column. Reward +1 when the
    learner connects, -1 when the opponent does, 0 for a draw and while the game goes on.
    A full column (an illegal move) ends the episode with -1, as in PettingZoo; an action
    that is not an integer is a ``TypeError``, a column out of range a ``ValueError``, a
    step after the end a ``RuntimeError``. ``info["mark"]``: the learner's mark (1
    moves first). Seeding: ``reset(seed=s)`` replays the same episodes for the same
    actions (the seat draw, a random opponent's moves, the opponents' tie-breaks)."""

    metadata = {"render_modes": ["ansi"], "render_fps": 2}

    def __init__(self, rows=6, columns=7, inarow=4, opponent="random", seat="first",
                 render_mode=None):
        if opponent is None:
            raise ValueError("ConnectXEnv needs an opponent; self-play: the PettingZoo "
                             "environment (agents.envs.aec) or ConnectXVectorEnv(opponent=None)")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        self.boards = Boards(1, rows, columns, inarow, opponent, seat)
        self.render_mode = render_mode
        self.observation_space = observation_space(rows, columns)
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
        return self._observation(), {"mark": self._mark}

    def step(self, action):
        if self._over:
            raise RuntimeError("the episode is over (or never began): call reset()")
        b = self.boards
        self._action[0] = check_action(action, self._columns)
        b.play(self._action)
        self._over = bool(b._terminated[0])
        return self._observation(), float(b.rewards[0]), self._over, False, {"mark": self._mark}

    def _observation(self):
        """Copies of board 0's planes and mask (the batch's own arrays change next step)."""
        return {"observation": self._obs.copy(), "action_mask": self._mask.copy()}

    def action_masks(self):
        """The legal columns as a bool array (sb3-contrib's ``MaskablePPO`` convention)."""
        return self.boards.mask[0].astype(bool)

    def render(self):
        if self.render_mode == "ansi":
            return board_text(self.boards.grid[0], self.boards.cfg.rows, self.boards.cfg.columns)
        return None
