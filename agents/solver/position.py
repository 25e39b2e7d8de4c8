"""The plain-Python bitboard position, importable without numpy or numba.

:class:`Position` is Pascal Pons' ``Position`` on plain ints: ``pos`` (the stones of
the side to move), ``mask`` (all stones) and ``moves``, in the bitboard layout drawn in
:mod:`agents.board` (``H = rows + 1`` bits a column, the bottom cell lowest, a sentinel
bit on top). ``pos + mask`` is a unique key of the position (Pons' trick), and
:func:`mirror_key` reflects a key left to right.

The solver's kernels (:mod:`agents.solver.bits`) run on the same three integers;
this class is for what must not compile anything: parsing move strings, the perfect
agent's book moves, and the command line's answers from the opening databases
(:mod:`agents.solver.openings`), which start in a few tens of milliseconds because
nothing here imports numpy or numba.
"""


def mirror_key(key, rows, columns):
    """The key (or any bitboard) of the mirror image: column ``c`` becomes ``columns - 1 - c``."""
    H = rows + 1
    col = (1 << H) - 1
    out = 0
    for c in range(columns):
        out |= ((key >> (c * H)) & col) << ((columns - 1 - c) * H)
    return out


def canonical(key, rows, columns):
    """``(canonical key, mirrored)``: the smaller of a key and its mirror image's (one key
    for a position and its mirror image: the databases' and the book's key, as
    :func:`agents.solver.table.db_key` computes it in the kernels), and whether that is
    the mirror image's (a column read under it is mirrored back: ``columns - 1 - c``)."""
    m = mirror_key(key, rows, columns)
    return (m, True) if m < key else (key, False)



class Position:
    """A bitboard position: ``pos`` (stones of the side to move), ``mask``, ``moves``."""

    __slots__ = ("rows", "columns", "inarow", "pos", "mask", "moves")

    def __init__(self, rows=6, columns=7, inarow=4, pos=0, mask=0, moves=0):
        self.rows, self.columns, self.inarow = rows, columns, inarow
        self.pos, self.mask, self.moves = pos, mask, moves

    @property
    def H(self):
        return self.rows + 1

    def can_play(self, col):
        return 0 <= col < self.columns and not (self.mask >> (col * self.H + self.rows - 1)) & 1

    def is_winning_move(self, col):
        move = (self.mask + (1 << (col * self.H))) & (((1 << self.rows) - 1) << (col * self.H))
        return _has_line(self.pos | move, self.H, self.inarow)

    def play(self, col):
        """Play ``col`` (0-based) in place; does not check legality."""
        self.pos ^= self.mask
        self.mask |= self.mask + (1 << (col * self.H))
        self.moves += 1

    def copy(self):
        return Position(self.rows, self.columns, self.inarow, self.pos, self.mask, self.moves)

    def key(self):
        return self.pos + self.mask

    def can_win_next(self):
        """True if the side to move has a winning move."""
        return any(self.can_play(c) and self.is_winning_move(c) for c in range(self.columns))

    @classmethod
    def from_moves(cls, moves, rows=6, columns=7, inarow=4):
        """The position after a 1-based move string such as ``"4453"``.

        ``ValueError`` names the first bad move: a character that is not a
        column 1..columns, a move into a full column, a move after the game
        was won (or the one that wins: the position must not be over)."""
        p = cls(rows, columns, inarow)
        for i, ch in enumerate(moves):
            if not ch.isdigit() or not 1 <= int(ch) <= columns:
                raise ValueError(f"move {i + 1} is {ch!r}: columns are digits 1..{columns}")
            col = int(ch) - 1
            if not p.can_play(col):
                raise ValueError(f"move {i + 1} plays column {ch}, which is full")
            if p.is_winning_move(col):
                raise ValueError(f"move {i + 1} (column {ch}) connects {inarow}: the position is "
                                 "already won")
            p.play(col)
        return p

    @classmethod
    def from_key(cls, key, rows=6, columns=7, inarow=4):
        """The position of a key (``pos + mask``, :meth:`key`; the book's and the
        databases' canonical keys are keys too): a column of ``h`` stones holds
        ``2**h - 1`` plus its stones of the side to move."""
        H = rows + 1
        pos = mask = n = 0
        for c in range(columns):
            k = (key >> (c * H)) & ((1 << H) - 1)
            h = (k + 1).bit_length() - 1 if (k + 1) & k == 0 else k.bit_length() - 1
            pos |= (k - ((1 << h) - 1)) << (c * H)
            mask |= ((1 << h) - 1) << (c * H)
            n += h
        return cls(rows, columns, inarow, pos, mask, n)

    @classmethod
    def from_grid(cls, grid, rows, columns, inarow, mark):
        """The position of a Kaggle flat grid with ``mark`` to move."""
        pos = mask = 0
        H = rows + 1
        n = 0
        for r in range(rows):
            for c in range(columns):
                v = int(grid[c + r * columns])
                if v:
                    bit = 1 << (c * H + rows - 1 - r)
                    mask |= bit
                    n += 1
                    if v == mark:
                        pos |= bit
        return cls(rows, columns, inarow, pos, mask, n)


def winning_cells(stones, mask, rows, columns, inarow):
    """The empty cells where one more stone of ``stones`` completes ``inarow`` in a line
    (any of them, playable or not): :func:`agents.solver.bits.winning_cells` in plain
    Python (Python ints have no 64-bit limit, so any board). A line that would wrap from
    one column into the next crosses a sentinel cell, never a stone, so it completes
    only on a sentinel, which the board mask removes."""
    H = rows + 1
    r = 0
    for s in (1, H - 1, H, H + 1):
        for k in range(inarow):  # the empty cell at index k of the line
            m = -1
            for j in range(inarow):
                if j != k:
                    d = (j - k) * s
                    m &= stones >> d if d > 0 else stones << -d
                    if not m:
                        break
            r |= m
    board = sum(((1 << rows) - 1) << (c * H) for c in range(columns))
    return r & board & ~mask


def _has_line(stones, H, inarow):
    """bb_has_line in plain Python, for the plain-Python :class:`Position` (a book move
    compiles no kernel) and as the kernels' reference in the tests."""
    for s in (1, H - 1, H, H + 1):
        m = stones
        for i in range(1, inarow):
            m &= stones >> (s * i)
        if m:
            return True
    return False
