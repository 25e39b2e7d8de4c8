"""``connectx learn``'s work: each mode's run configuration (:mod:`~scripts.learn.configs`),
the learner's positions labelled by the solver (:mod:`~scripts.learn.positions`), the
network in JAX and its starting weights (:mod:`~scripts.learn.model`), its measures and
its judge on a labelled set, with or without search (:mod:`~scripts.learn.evaluate`), the
teacher's rounds (:mod:`~scripts.learn.teacher`), PPO (:mod:`~scripts.learn.reinforce`,
:mod:`~scripts.learn.recipe`), AlphaZero's loop (:mod:`~scripts.learn.zero`: its
self-play :mod:`~scripts.learn.selfplay`, its state and kept networks
:mod:`~scripts.learn.checkpoints`), one run and its files (:mod:`~scripts.learn.run`,
:mod:`~scripts.learn.record`). JAX and Optax are imported here only (the ``learn``
extra); the trained network plays in numpy (:mod:`agents.players.network`).

Beside them, not part of ``connectx learn``: :mod:`~scripts.learn.cleanrl_ppo`, the
CleanRL-style PPO example of docs/rl.md."""
