"""The search room: one algorithm a file, kernels and a short driver each, the slow
pure-Python references beside them. Searches see the board (:mod:`agents.board`) and
the evaluations (:mod:`heuristics`), never the players.

* :mod:`~agents.search.scores`: the score scale and stats slots of the depth-limited
  searches;
* :mod:`~agents.search.minimax`: the Kaggle tutorial's depth-N minimax;
* :mod:`~agents.search.alphabeta`: negamax alpha-beta, transposition table, killers;
* :mod:`~agents.search.tactics`: the immediate win / forced block every agent checks;
* :mod:`~agents.search.mcts`: UCT with MCTS-Solver;
* :mod:`~agents.search.position` and :mod:`~agents.search.solver`: the exact bitboard
  solver, split as in Pascal Pons' ``Position`` / ``Solver``;
* :mod:`~agents.search.book_format`: the opening book's format and lookup;
* :mod:`~agents.search.reference`, :mod:`~agents.search.uct_reference`: the slow
  references the kernels are tested against (ConnectX on the lessons' game protocol,
  :mod:`agents.games.game`, whose reference minimax and alpha-beta search it).
"""
