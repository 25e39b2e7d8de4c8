"""The board room: the rules of ConnectX and the numba switch.

* :mod:`agents.board.rules`: the validated API (``legal_moves``, ``drop_piece``,
  ``winner``, ...), the array kernels and the bitboard kernels, with the board and
  bitboard layout drawn once in its docstring;
* :mod:`agents.board.jit`: numba options in one place (``njit``, ``now``, the
  plain-Python fallback).

This package imports nothing else of the project: evaluation (``heuristics``),
search and the players build on it, never the other way (``tests/test_imports.py``).
"""
