"""The seed lessons' small games, solved by the package's reference searches.

* :mod:`agents.games.tictactoe`: tic-tac-toe as a :class:`agents.search.reference.Game`, an
  exact solver over its 5478 reachable positions and the perfect agent registered
  as ``agents.make("tictactoe")`` (kaggle-environments' ``open_spiel_tic_tac_toe``).
* :mod:`agents.games.coins`: the 21-coin game (take 1 or 2, taking the last coin
  wins), a tiny gym-style environment and random, rule-based and minimax players.

Both games are played by the same pure-Python :func:`agents.search.reference.minimax_value`
and :func:`agents.search.reference.alphabeta_value` as Connect Four; the numba ConnectX
kernels stay specialised and do not import anything from here.
"""
