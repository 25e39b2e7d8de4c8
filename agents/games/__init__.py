"""The lessons' wing: the seed lessons' games and searches, in pure Python, in the
manner of OpenSpiel's ``python/games`` and ``python/algorithms``.

* :mod:`agents.games.protocol`: the :class:`~agents.games.protocol.Game` protocol, its
  reference searches (``minimax_value``, ``alphabeta_value``, ``best_actions``) and the
  one loop that plays any game of the wing (``play``).
* The games: :mod:`agents.games.tictactoe` (the rules, an exact solver over its 5478
  positions and the perfect agent registered as ``agents.make("tictactoe")``),
  :mod:`agents.games.coins` (the 21-coin game), :mod:`agents.games.isolation`
  (Isolation and its 3-player and sloppy variants).
* :mod:`agents.games.searches`: the lessons' searches on the protocol (iterative
  deepening, max^n, paranoid, expectimax, Monte Carlo), each checked against a
  reference.

Nothing here imports the rest of the project; the Connect Four reference
(:class:`agents.search.reference.ConnectX`) is a :class:`~agents.games.protocol.Game` of the
wing, so the numba ConnectX kernels are checked by the same reference searches.
"""
