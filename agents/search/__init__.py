"""The search room: one algorithm a file, kernels and a short driver each, the slow
pure-Python references beside them. Searches see the board (:mod:`agents.board`) and
the evaluations (:mod:`heuristics`), never the players or the exact solver
(:mod:`agents.solver`).

* :mod:`~agents.search.scores`: the score scale;
* :mod:`~agents.search.counters`: the counter slots (nodes, aborted, ...) every search
  fills;
* :mod:`~agents.search.minimax`: the Kaggle tutorial's depth-N minimax;
* :mod:`~agents.search.alphabeta`: negamax alpha-beta, transposition table, killers;
* :mod:`~agents.search.tactics`: the immediate win / forced block every agent checks;
* :mod:`~agents.search.mcts`: UCT with MCTS-Solver;
* :mod:`~agents.search.reference`, :mod:`~agents.search.uct_reference`: the slow
  references the kernels are tested against (ConnectX on the lessons' game protocol,
  :mod:`agents.games.game`, whose reference minimax and alpha-beta search it).
"""
