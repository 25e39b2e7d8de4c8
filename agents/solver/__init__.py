"""The exact solver's room, its pieces named as in Pascal Pons' solver. Importing this
package imports nothing (a book move compiles nothing): import the module you need.

* :mod:`~agents.solver.position`: the plain-Python bitboard ``Position`` (no numpy, no
  numba): move strings, the key, the mirror; what a book move needs;
* :mod:`~agents.solver.bits`: the same position's int64 bit kernels (numba);
* :mod:`~agents.solver.table`: the transposition table;
* :mod:`~agents.solver.kernel`: the search kernel (negamax, null window);
* :mod:`~agents.solver.roots`: its root entry points (solve, analyse, the best line);
* :mod:`~agents.solver.split`: two threads on one search;
* :mod:`~agents.solver.sizing`: the solver's sizing options (table bits, threads) and
  their one check;
* :mod:`~agents.solver.solver`: the geometry and ``Solver``, the one front of them all;
* :mod:`~agents.solver.database`: opening databases (every position of N stones, scored);
* :mod:`~agents.solver.openings`: the package's shipped 7x6 opening scores (plain Python);
* :mod:`~agents.solver.book`: the opening (move) book's format and lookup;
* :mod:`~agents.solver.layers`: every position of N stones (the layers a database holds);
* :mod:`~agents.solver.outcomes`: the table of outcomes, the empty board of every board
  shape solved and checked twice (``connectx table``).

Its command line is ``connectx solve`` (:mod:`scripts.commands.solve`).
"""
