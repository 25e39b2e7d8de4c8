"""PettingZoo's AEC environment of ConnectX, a drop-in for ``connect_four_v3`` on 6x7 (the
same agents ``player_0`` and ``player_1``, the same observation dict and mask, the same
rewards and illegal-move rule) and the same on any board, on the batched core's rules
(one board of :class:`agents.envs.boards.Boards`, played by :func:`agents.envs.core.play_one`)."""
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from agents.envs.boards import Boards
from agents.envs.core import play_one
from agents.envs.render import RenderBoard, Window, check_render_mode
from agents.envs.spaces import check_action, check_obs_type, observation_space


def env(**kwargs):
    """:class:`raw_env` in PettingZoo's order-enforcing wrapper (:class:`OrderEnforcing`),
    as ``connect_four_v3.env()`` gives its own (illegal moves and actions out of range
    are handled by the environment itself, see :class:`raw_env`)."""
    return OrderEnforcing(raw_env(**kwargs))


class OrderEnforcing(wrappers.OrderEnforcingWrapper):
    """PettingZoo's ``OrderEnforcingWrapper`` (the same checks) with ``last`` and
    ``step`` handed to the environment at once: each attribute read through the
    wrapper's ``__getattr__`` costs microseconds, and ``AECEnv.last`` makes six."""

    def last(self, observe=True):
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        return self.env.last(observe)

    def step(self, action):
        if self._has_reset and self.env.agents:
            self._has_updated = True
            self.env.step(action)
        else:
            super().step(action)


class raw_env(RenderBoard, AECEnv):  # noqa: N801 - PettingZoo's name for the unwrapped environment
    """Two players, ``player_0`` (mark 1, moves first) and ``player_1``, on ``rows`` x
    ``columns``, ``inarow`` to win.

    ``observe(agent)``: ``observation`` (rows, columns, 2) int8, plane 0 the agent's
    stones, plane 1 the other's (row 0 the top), and ``action_mask`` (columns,) int8, the
    columns with room on the agent's turn (also once the game is over, as
    ``connect_four_v3`` gives it), zeros otherwise. Rewards: +1 to the player who
    connects, -1 to the other, 0 each for a draw. A full column ends the game with -1
    for the player who chose it and 0 for the other (``connect_four_v3``'s
    ``TerminateIllegalWrapper`` rule, which also sets every truncation: here only the
    terminations are set); an action that is not an integer is a
    ``TypeError``, a column out of range a ``ValueError``. No randomness: ``seed`` is
    accepted and changes nothing.

    ``obs_type="array"``: ``observe`` gives the planes alone and the mask is in the
    agent's info (``infos[agent]["action_mask"]``, what ``last()`` returns), the same mask
    as the dict's. ``render_mode``: ``"ansi"`` (text), ``"rgb_array"`` (an ``(H, W, 3)``
    uint8 image), ``"human"`` (a pygame window drawn at each step, as
    ``connect_four_v3``'s; off screen, with a warning, without a display:
    :func:`agents.envs.render.check_render_mode`)."""

    metadata = {"render_modes": ["ansi", "rgb_array", "human"], "name": "connectx_v0",
                "is_parallelizable": False, "render_fps": 2}

    def __init__(self, rows=6, columns=7, inarow=4, render_mode=None, obs_type="dict"):
        super().__init__()
        check_obs_type(obs_type)
        self.render_mode = check_render_mode(render_mode, self.metadata["render_modes"])
        self.boards = Boards(1, rows, columns, inarow, opponent=None)
        self._array = obs_type == "array"
        self._window = Window("ConnectX", self.metadata["render_fps"]) \
            if render_mode == "human" else None
        self._extra = self._array or self._window is not None  # _moved has work to do
        self.agents = ["player_0", "player_1"]
        self.possible_agents = self.agents[:]
        self.action_spaces = {a: spaces.Discrete(columns) for a in self.agents}
        self.observation_spaces = {a: observation_space(rows, columns, obs_type)
                                   for a in self.agents}
        self._columns = columns
        b = self.boards
        # player_0's view is kept (``me`` stays 1: play_one never turns it), player_1's
        # is the planes swapped
        self._view = {"player_0": b.obs[0], "player_1": b.obs[0, :, :, ::-1]}
        self._mask = b.mask[0]
        self._play = (b.grid, b.heights, b.stones, b.me, b.obs, b.mask)
        self._inarow = inarow
        self._empty_mask = np.zeros(columns, dtype=np.int8)

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def observe(self, agent):
        planes = self._view[agent].copy()
        if self._array:
            return planes
        mask = self._mask if agent == self.agent_selection else self._empty_mask
        return {"observation": planes, "action_mask": mask.copy()}

    def _moved(self):
        """After a reset or a step, what only the options need (``_extra``): every agent's
        mask into its info (``obs_type="array"``; zeros off turn, as ``observe``'s), the
        window's frame (``"human"``)."""
        if self._array:
            for a in self.agents:
                mask = self._mask if a == self.agent_selection else self._empty_mask
                self.infos[a]["action_mask"] = mask.copy()
        if self._window is not None:
            self.render()

    def reset(self, seed=None, options=None):
        self.boards.reset()
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.agents[0]
        self._next = dict(zip(self.agents, self.agents[::-1]))
        if self._extra:
            self._moved()

    def step(self, action):
        mover = self.agent_selection
        if self.terminations[mover] or self.truncations[mover]:
            self._was_dead_step(action)
            if self._array:  # the next agent's turn: its mask
                self._moved()
            return
        result = play_one(*self._play, check_action(action, self._columns), self._inarow)
        self._cumulative_rewards[mover] = 0
        other = self._next[mover]
        if result:  # 1 a line (+1 to the mover), 2 a full board, 3 an illegal move (-1)
            reward = 1.0 if result == 1 else -1.0 if result == 3 else 0.0
            self.rewards[mover] = reward
            self.rewards[other] = -reward if reward > 0 else 0.0
            self.terminations = dict.fromkeys(self.agents, True)
            self._accumulate_rewards()
        # rewards are all 0 until the end: nothing to add
        self.agent_selection = other
        if self._extra:
            self._moved()

