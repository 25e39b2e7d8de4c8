"""The solver's position, as in Pascal Pons' ``Position``: two bitboards (the stones
of the side to move, ``pos``, and all stones, ``mask``) and the number of stones, in
the bitboard layout of :mod:`agents.board` (``H = rows + 1`` bits a column, bottom
cell lowest).

* :class:`Position`: plain Python, short verbs (``play``, ``can_play``,
  ``is_winning_move``), built from a 1-based move string (``from_moves("4453")``) or
  a Kaggle grid (``from_grid``);
* the int64 kernels the solver's search runs on the same three integers
  (``winning_cells``, ``possible_moves``, ``non_losing_moves``, ``mirror``, ...),
  each taking ``g``, the geometry vector of the board shape (the ``G_*`` indices
  below; built by :func:`agents.search.solver.geometry`); ``popcount`` and ``shift``
  are in :mod:`agents.board.bitboard`.
"""

from agents.board.bitboard import bb_has_line, shift
from agents.board.jit import njit

# g[] -- the geometry vector every kernel receives (int64).
G_W, G_ROWS, G_H, G_INAROW, G_FAST, G_BOTTOM, G_BOARD, G_DB, G_SYM, G_N, G_EVEN = range(11)
G_ORDER = 11  # G_ORDER .. G_ORDER+W-1: columns centre first; then W column masks
# G_DB: the number of stones of the positions in the solver's database (-1: none; see
# agents.search.table.db_probe)
# G_EVEN: the cells of the even rows (2nd, 4th, ... from the bottom) when the number of
# rows is even, else 0 (see claimeven_bound)

# ---------------------------------------------------------------------------
# Bitboard helpers (int64 flavour of the layout drawn in agents.board)
# ---------------------------------------------------------------------------


@njit(inline="always")
def _completing_four(pos, s):
    """The cells that complete four of ``pos`` along the shift ``s`` (Pons'
    compute_winning_position, one direction): three stones on one side, or two on
    one side and one on the other."""
    p = (pos << s) & (pos << (2 * s))
    r = p & ((pos << (3 * s)) | (pos >> s))
    p = (pos >> s) & (pos >> (2 * s))
    return r | (p & ((pos << s) | (pos >> (3 * s))))


@njit
def winning_cells(pos, mask, g):
    """Empty playable cells that would complete ``inarow`` for the stones ``pos``.

    Lines that wrap from one column into the next always cross a sentinel cell
    (never a stone, never playable), so they can only "complete" on a sentinel,
    which the final mask removes."""
    H = g[G_H]
    r = 0
    if g[G_FAST] == 1:  # inarow == 4 and 3 * (H + 1) < 64: Pons' shifts
        r = ((pos << 1) & (pos << 2) & (pos << 3) | _completing_four(pos, H)
             | _completing_four(pos, H - 1) | _completing_four(pos, H + 1))
    else:  # any inarow: the empty cell at index k of the line, stones at the others
        k_in = g[G_INAROW]
        for di in range(4):
            s = 1
            if di == 1:
                s = H - 1
            elif di == 2:
                s = H
            elif di == 3:
                s = H + 1
            for k in range(k_in):
                m = -1
                for j in range(k_in):
                    if j != k:
                        m &= shift(pos, (j - k) * s)
                        if m == 0:
                            break
                r |= m
    return r & (g[G_BOARD] ^ mask)


@njit
def has_line(b, g):
    """True if the cells ``b`` (inside the board: no sentinel bit) hold ``inarow`` in a line."""
    if g[G_FAST] != 1:
        return bb_has_line(b, g[G_H], g[G_INAROW])
    H = g[G_H]  # inarow 4: two shifts a direction, as in Pons' alignment test
    m = b & (b >> 1)
    if m & (m >> 2):
        return True
    m = b & (b >> H)
    if m & (m >> (2 * H)):
        return True
    m = b & (b >> (H - 1))
    if m & (m >> (2 * H - 2)):
        return True
    m = b & (b >> (H + 1))
    return (m & (m >> (2 * H + 2))) != 0


@njit
def claimeven_bound(pos, mask, g):
    """An upper bound on the score of a position whose side to move is the first player
    (an even number of stones) on a board of even rows; 1 << 20 when there is none.

    The second player can answer every move on an odd row by the cell above it, and a
    move on an even row (a column of odd height) by the even cell of another column of
    odd height (their number is even). That strategy ("claimeven") gives the second
    player every empty even cell not playable now; the first player gets at most the
    other cells. If those hold no line, the first player never wins (bound 0); if the
    second player's cells also hold a line, the second player wins (bound -1). The
    second player also wins when every line of the first player's cells lies above a
    line of the second player's of the same direction starting in the same column (c4's
    refinement): each cell of the upper line is filled after the one below it, so the
    lower line is complete first::

        row 6  even   second player      (cells not playable now)
        row 5  odd    first player
        ...
        row 2  even   second player
        row 1  odd    first player
    """
    theirs = (pos ^ mask) | (g[G_EVEN] & ~(mask | possible_moves(mask, g)))
    board = g[G_BOARD]
    mine = board & ~theirs
    if not has_line(mine, g):
        return -1 if has_line(theirs, g) else 0
    H = g[G_H]
    for d in (1, H - 1, H, H + 1):
        ours = line_starts(mine, d, g[G_INAROW])
        if ours == 0:
            continue
        above = 0  # the cells above the first cell of a line of theirs, in its column
        t = line_starts(theirs, d, g[G_INAROW])
        while t != 0:
            t = (t << 1) & board
            above |= t
        if ours & ~above:
            return 1 << 20
    return -1


@njit
def line_starts(b, d, inarow):
    """The cells ``x`` of ``b`` with ``x + i * d`` in ``b`` for every ``i < inarow``: the
    first cells of the lines of ``b`` in direction ``d`` (``b`` inside the board)."""
    m = b
    for i in range(1, inarow):
        m &= shift(b, i * d)
        if m == 0:
            break
    return m


@njit
def possible_moves(mask, g):
    return (mask + g[G_BOTTOM]) & g[G_BOARD]


@njit
def can_win_next(pos, mask, g):
    return (winning_cells(pos, mask, g) & possible_moves(mask, g)) != 0


@njit
def non_losing_moves(pos, mask, g):
    """Playable cells that do not let the opponent win at once (0: every move loses).

    A single opponent threat forces the block; two threats lose; a cell right
    under an opponent's winning cell would let the opponent play it."""
    possible = possible_moves(mask, g)
    opp_win = winning_cells(pos ^ mask, mask, g)
    forced = possible & opp_win
    if forced != 0:
        if (forced & (forced - 1)) != 0:
            return 0
        possible = forced
    return possible & ~(opp_win >> 1)


@njit
def mirror(x, g):
    """The bitboard ``x`` mirrored left-right."""
    W = g[G_W]
    H = g[G_H]
    col = (1 << H) - 1
    out = 0
    for c in range(W):
        out |= ((x >> (c * H)) & col) << ((W - 1 - c) * H)
    return out


@njit
def column_of(move, g):
    """Column index of a one-bit move."""
    W = g[G_W]
    for c in range(W):
        if move & g[G_ORDER + W + c]:
            return c
    return -1


# ---------------------------------------------------------------------------
# Position (plain Python)
# ---------------------------------------------------------------------------



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
