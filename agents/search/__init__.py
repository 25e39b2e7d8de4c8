"""The search room: one algorithm a file, kernels and a short driver each, the slow
pure-Python references beside them. Searches see the board (:mod:`agents.board`) and
the evaluations (:mod:`heuristics`), never the players or the exact solver
(:mod:`agents.solver`).

* :mod:`~agents.search.scores`: the score scale;
* :mod:`~agents.search.counters`: the counter slots (nodes, aborted, ...) every search
  fills;
* :mod:`~agents.search.minimax`: the Kaggle tutorial's depth-N minimax;
* :mod:`~agents.search.alphabeta`: negamax alpha-beta, transposition table, killers,
  on the Kaggle grid; :mod:`~agents.search.alphabeta_bb`: the same search on bitboards;
* :mod:`~agents.search.horizon`: what the alpha-beta kernels do at the horizon (the
  evaluation, the quiescence of forced threats, the extension on evaluation swings);
* :mod:`~agents.search.mtdf`: MTD(f) and the aspiration window over the grid kernel;
* :mod:`~agents.search.tactics`: the immediate win / forced block every agent checks;
* :mod:`~agents.search.mcts`: Monte Carlo tree search with MCTS-Solver and an
  evaluator: rollouts (UCT; :mod:`~agents.search.rollout`: the rollouts and random
  numbers) or the policy/value network (PUCT; :mod:`~agents.search.network_kernel`:
  the network's forward pass in numba);
* :mod:`~agents.search.reference`, :mod:`~agents.search.uct_reference`,
  :mod:`~agents.search.puct_reference`: the slow references the kernels are tested against (ConnectX on the lessons' game protocol,
  :mod:`agents.games.protocol`, whose reference minimax and alpha-beta search it).
"""
