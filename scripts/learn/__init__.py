"""``connectx learn``'s work: the learner's positions labelled by the solver
(:mod:`~scripts.learn.positions`), the network in JAX (:mod:`~scripts.learn.model`), its
measures (:mod:`~scripts.learn.evaluate`), the teacher's rounds
(:mod:`~scripts.learn.teacher`), AlphaZero's self-play loop (:mod:`~scripts.learn.zero`),
one run and its files (:mod:`~scripts.learn.run`,
:mod:`~scripts.learn.record`). JAX and Optax are imported here only (the ``learn``
extra); the trained network plays in numpy (:mod:`agents.players.network`).

Beside them, not part of ``connectx learn``: :mod:`~scripts.learn.cleanrl_ppo`, the
CleanRL-style PPO example of docs/rl.md."""
