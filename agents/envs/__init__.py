"""Reinforcement-learning environments on the package's rules (docs/rl.md):

* :mod:`agents.envs.single`: ``ConnectXEnv``, Gymnasium, one learner against an opponent;
* :mod:`agents.envs.vector`: ``ConnectXVectorEnv``, Gymnasium's vector API, N boards in numba;
* :mod:`agents.envs.aec`: PettingZoo's AEC environment (``connect_four_v3``'s layout, any board);
* :mod:`agents.envs.spiel`: the package's agents as OpenSpiel bots;

over :mod:`agents.envs.core` (the batched numba kernels), :mod:`agents.envs.boards` (their
validated Python side), :mod:`agents.envs.opponents` (agent specs, kernel forms),
:mod:`agents.envs.spaces` (the observation space, ``obs_type``, the check of an action)
and :mod:`agents.envs.render` (``render_mode``: text, image, window).

Importing this package registers ``connectx/ConnectX-v0`` with Gymnasium when it is
installed (``gymnasium.make("connectx/ConnectX-v0", rows=6, columns=7, inarow=4,
opponent="alphabeta:depth=4", seat="random")``; ``gymnasium.make_vec(...,
vectorization_mode="vector_entry_point")`` gives the batched environment).
``gymnasium.make("agents.envs:connectx/ConnectX-v0")`` imports it first. ``import agents``
imports none of this: Gymnasium is not a dependency of the agents.
"""
ENV_ID = "connectx/ConnectX-v0"


def register():
    """Register :data:`ENV_ID` with Gymnasium (once)."""
    import gymnasium
    if ENV_ID not in gymnasium.registry:
        gymnasium.register(id=ENV_ID, entry_point="agents.envs.single:ConnectXEnv",
                           vector_entry_point="agents.envs.vector:ConnectXVectorEnv")


try:
    register()
except ImportError:  # pragma: no cover - gymnasium is an extra (rl, games, dev)
    pass
