"""The package's opening scores: every 7x6 position of at most :data:`OPENING_PLY` stones
with its exact score, shipped in ``agents/data/`` and read in plain Python.

Why: a 7x6 position early in the game is the solver's hardest (the empty board's column
scores take minutes without a database, and with BitBully's 12-ply database a search
of up to 12 plies after numba is imported and its kernels loaded, about 1.5 s of
process time). These files answer the first plies of any game from a table, without
numpy or numba, so ``echo "" | connectx solve -a`` prints the empty board's seven
scores in a few tens of milliseconds of process time, with or without the ``books``
extra.

The files (``openings7x6-<ply>.cxdb``, one a number of stones) are the package's own
database format (:mod:`agents.solver.database` documents it; :func:`parse` checks and
reads it here without numpy). They were written by ``connectx database build --config
rows=6,columns=7,inarow=4 --plies K`` (the exact solver, BitBully's 12-ply database at
its leaves); ``tests/test_openings.py`` checks a seeded sample against the solver.
Like every database of the package they leave out the positions whose side to move
wins at once; :meth:`Openings.score` scores those itself.

Scores are the solver's (side to move; :mod:`agents.solver.solver`): ``(N + 1 - m) // 2``
for a win with the stone ``m`` of ``N``, 0 a draw, negative a loss.
"""
import array
import bisect
import struct
import sys
import zlib

from agents.solver.position import Position, canonical
from agents.resources import read_resource

MAGIC = b"CXDB\x00\x01\r\n"
HEADER = struct.Struct("<8sBBBBIQ")  # magic, rows, columns, inarow, ply, crc32, count
OPENING_PLY = 8  # the files hold every 7x6 position of 0..OPENING_PLY stones
OPENING_CONFIG = (6, 7, 4)
INVALID_MOVE = -1000  # a full column in :meth:`Openings.analyze` (as the solver's)


class DatabaseError(ValueError):
    """A database file that cannot be used: missing, truncated, corrupt, wrong board."""


def parse(data, source):
    """``(rows, columns, inarow, ply, n, payload_offset)`` of a database file's bytes in the
    package's format, after checking its magic, its size against the header's count and
    the payload's crc32; :class:`DatabaseError` names ``source`` and what is wrong.
    The ``n`` keys (little-endian int64) start at ``payload_offset``, the ``n`` scores
    (int8) follow them."""
    if len(data) < HEADER.size:
        raise DatabaseError(f"{source}: truncated ({len(data)} bytes, the header alone is {HEADER.size})")
    magic, rows, columns, inarow, ply, crc, n = HEADER.unpack_from(data)
    if magic != MAGIC:
        raise DatabaseError(f"{source}: not a database of this package (bad magic {magic!r})")
    if len(data) != HEADER.size + 9 * n:
        raise DatabaseError(f"{source}: {len(data)} bytes, but its header announces {n} positions "
                            f"({HEADER.size + 9 * n} bytes): truncated or corrupt")
    if zlib.crc32(memoryview(data)[HEADER.size:]) != crc:
        raise DatabaseError(f"{source}: checksum mismatch: the file is corrupt")
    return rows, columns, inarow, ply, n, HEADER.size


class Layer:
    """One file: the sorted canonical keys (``array('q')``) and scores (``array('b')``) of
    every position of ``ply`` stones."""

    def __init__(self, data, source, config, ply):
        rows, columns, inarow, got_ply, n, off = parse(data, source)
        if (rows, columns, inarow) != tuple(config) or got_ply != ply:
            raise DatabaseError(f"{source}: holds {columns}x{rows}/{inarow} positions of {got_ply} "
                                f"stones, expected {config[1]}x{config[0]}/{config[2]} of {ply}")
        self.keys = array.array("q")
        self.keys.frombytes(data[off:off + 8 * n])
        if sys.byteorder != "little":
            self.keys.byteswap()
        self.values = array.array("b")
        self.values.frombytes(data[off + 8 * n:off + 9 * n])
        if any(self.keys[i] >= self.keys[i + 1] for i in range(n - 1)):
            raise DatabaseError(f"{source}: keys are not strictly ascending: the file is corrupt")

    def get(self, key):
        i = bisect.bisect_left(self.keys, key)
        if i < len(self.keys) and self.keys[i] == key:
            return self.values[i]
        return None


class Openings:
    """Exact scores of the 7x6 positions of at most ``ply`` stones from the package's
    files (``read``: name -> bytes, the package resources by default; loaded lazily, one
    file a number of stones)."""

    def __init__(self, ply=OPENING_PLY, read=read_resource):
        self.rows, self.columns, self.inarow = OPENING_CONFIG
        self.ply = ply
        self._read = read
        self._layers = {}

    @staticmethod
    def file_name(ply):
        return f"openings7x6-{ply}.cxdb"

    def _layer(self, ply):
        if ply not in self._layers:
            name = self.file_name(ply)
            try:
                data = self._read(name)
            except FileNotFoundError as e:
                raise DatabaseError(f"the package's opening file is missing: {e}") from None
            self._layers[ply] = Layer(data, name, OPENING_CONFIG, ply)
        return self._layers[ply]

    def holds(self, p):
        """True if ``p`` (a :class:`Position`) is a 7x6 position these files score."""
        return (p.rows, p.columns, p.inarow) == OPENING_CONFIG and p.moves <= self.ply

    def score(self, p):
        """The exact score of ``p`` (not over), or None if the files do not hold it."""
        if not self.holds(p):
            return None
        if p.can_win_next():
            return (self.rows * self.columns + 1 - p.moves) // 2
        s = self._layer(p.moves).get(canonical(p.key(), self.rows, self.columns)[0])
        if s is None:  # every legal position is there: the file lost one
            raise DatabaseError(f"{self.file_name(p.moves)}: a position of {p.moves} stones "
                                "is missing: the file is corrupt")
        return s

    def analyze(self, p):
        """Each column's exact score (:data:`INVALID_MOVE` for a full column), as
        :meth:`agents.solver.solver.Solver.analyze`; None if the files do not hold the
        children (``p`` has ``ply`` stones or more, or another board)."""
        if not self.holds(p) or p.moves >= self.ply:
            return None
        n = self.rows * self.columns
        out = []
        for c in range(self.columns):
            if not p.can_play(c):
                out.append(INVALID_MOVE)
            elif p.is_winning_move(c):
                out.append((n + 1 - p.moves) // 2)
            else:
                q = p.copy()
                q.play(c)
                out.append(-self.score(q))
        return out
