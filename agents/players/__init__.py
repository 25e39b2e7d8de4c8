"""The players room: the agent classes behind ``agents.make`` (options, clock, input
validation, the ``agent(obs, config) -> int`` protocol), thin over :mod:`agents.search`.

* :mod:`~agents.players.base`: the protocol (:class:`~agents.players.base.Agent`),
  option checkers and the move clock;
* :mod:`~agents.players.baselines`: random, one-step, rules and the tutorial's agent;
* :mod:`~agents.players.lookahead`: ``minimax`` and ``alphabeta``;
* :mod:`~agents.players.uct`: ``mcts``;
* :mod:`~agents.players.perfect`: ``perfect`` (book, exact solver, traps);
* :mod:`~agents.players.network` and :mod:`~agents.players.policy`: the network of
  ``connectx learn`` (its file, its numpy forward pass) and ``policy``, the player over it;
* :mod:`~agents.players.warmup`: compiling kernels in a background thread.
"""
