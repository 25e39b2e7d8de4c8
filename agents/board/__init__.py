"""The board room: the rules of ConnectX, drawn once here (numpy + numba only).

* :mod:`agents.board.rules`: the validated API (``legal_moves``, ``drop_piece``,
  ``winner``, ``parse_observation``, ...), the one source of truth every caller uses;
* :mod:`agents.board.grid`: the array kernels (every shape) and the window tables;
* :mod:`agents.board.bitboard`: the bitboard kernels (boards of up to 64 bits);
* :mod:`agents.board.jit`: numba options in one place (``njit``, ``now``, the
  plain-Python fallback);
* :mod:`agents.board.rules_reference`: the slow pure-Python rules the kernels are tested
  against.

This package imports nothing else of the project: evaluation (``heuristics``),
search and the players build on it, never the other way (``tests/test_imports.py``).

Two representations of the same position:

Array (any shape): Kaggle's flat board, row-major with row 0 at the *top*,
``index = column + row * columns``; 0 empty, 1 and 2 the players' stones.
Kernels also keep ``heights[c]``, the number of stones in column ``c``::

    rows=6, columns=7             column:  0  1  2  3  4  5  6
                                   row 0 [ 0  1  2  3  4  5  6]   <- top
                                   row 1 [ 7  8  9 10 11 12 13]
                                   ...
                                   row 5 [35 36 37 38 39 40 41]   <- stones land here first

Bitboard (when ``columns * (rows + 1) <= 64``): one bit a cell, column-major
from the bottom, ``H = rows + 1`` bits a column, the top bit of each column a
sentinel that is always 0 so lines never wrap from one column into the next::

    7x6:  .  .  .  .  .  .  .     <- sentinels 6 13 20 27 34 41 48
          5 12 19 26 33 40 47
          4 11 18 25 32 39 46
          3 10 17 24 31 38 45
          2  9 16 23 30 37 44
          1  8 15 22 29 36 43
          0  7 14 21 28 35 42     <- bottom row

A bitboard position is ``(current, mask)``: the stones of the side to move and
all stones. Playing column ``c`` is ``current ^= mask; mask |= mask + bottom(c)``
(the new ``current`` is the opponent's stones: negamax). Shifting by 1, H-1, H
and H+1 walks vertical, diagonal \\, horizontal and diagonal / lines.

Kernels (``grid``, ``bitboard``) are public names shared by every search; they take
plain ints and arrays and do not validate. ``rules`` validates its input in plain
Python first and raises ``ValueError`` naming the bad field.
"""
