"""The search room: one algorithm a file, kernels and a short driver each, the slow
pure-Python references beside them. Searches see the board (:mod:`agents.board`) and
the evaluations (:mod:`heuristics`), never the players or the exact solver
(:mod:`agents.solver`).

* :mod:`~agents.search.scores`: the score scale;
* :mod:`~agents.search.counters`: the counter slots (nodes, aborted, ...) every search fills of the depth-limited
  searches;
* :mod:`~agents.search.minimax`: the Kaggle tutorial's depth-N minimax;
* :mod:`~agents.search.alphabeta`: negamax alpha-beta, transposition table, killers;
* :mod:`~agents.search.tactics`: the immediate win / forced block every agent checks;
* :mod:`~agents.search.mcts`: UCT with MCTS-Solver;
* the lessons' searches on the ``Game`` protocol: :mod:`~agents.search.deepening`,
  :mod:`~agents.search.maxn`, :mod:`~agents.search.paranoid`,
  :mod:`~agents.search.expectimax`, :mod:`~agents.search.montecarlo`;
* :mod:`~agents.search.reference`, :mod:`~agents.search.uct_reference`: the slow
  references the kernels are tested against.
"""
