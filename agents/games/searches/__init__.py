"""The lessons' searches on the :class:`agents.games.protocol.Game` protocol, one file each
(as OpenSpiel's ``python/algorithms``): :mod:`~agents.games.searches.deepening`
(iterative deepening), :mod:`~agents.games.searches.maxn` (max^n with shallow pruning),
:mod:`~agents.games.searches.paranoid` (the two-player reduction),
:mod:`~agents.games.searches.expectimax` (chance nodes),
:mod:`~agents.games.searches.montecarlo` (flat Monte Carlo and UCT) and
:mod:`~agents.games.searches.stored` (a whole tree built, kept and searched)."""
