"""The opening book: its file format (``encode_book``/``decode_book``) and lookup (:class:`Book`), read from the package resource
``BOOK_NAME`` through :mod:`agents.resources`; keys are folded with
:func:`agents.solver.position.canonical`. Built by ``scripts/tools/make_book.py``
with the exact solver; played by the ``perfect`` agent (:mod:`agents.players.perfect`)."""
import struct
import zlib

import numpy as np

from agents.solver.position import canonical
from agents.resources import read_resource

BOOK_NAME = "book7x6.bin"
BOOK_MAGIC = b"C4BOOK1\0"


# ---------------------------------------------------------------------------
# Book format: header, then zlib(sorted keys as little-endian uint64 deltas, then
# per key one byte column, one signed byte score, one byte kind). Keys are the
# smaller of a position's key and its mirror image's; the column is for that
# orientation. Kinds: EXACT (score exact, the column optimal), WEAK (score -1/0/1,
# the column keeps the outcome), HEURISTIC (positions too early for the solver in
# the time the book was built: the move of a fixed-depth alphabeta search, score 0).
# ---------------------------------------------------------------------------

EXACT, WEAK, HEURISTIC = 0, 1, 2
KIND_NAMES = {EXACT: "exact", WEAK: "weak", HEURISTIC: "heuristic"}


def encode_book(entries, rows, columns, inarow, max_stones):
    """Bytes of a book: ``entries`` maps canonical key -> (column, score, kind)."""
    keys = np.array(sorted(entries), dtype=np.uint64)
    deltas = np.diff(keys, prepend=np.uint64(0)).astype("<u8")
    cols = np.array([entries[int(k)][0] for k in keys], dtype=np.uint8)
    scores = np.array([entries[int(k)][1] for k in keys], dtype=np.int8)
    kinds = np.array([entries[int(k)][2] for k in keys], dtype=np.uint8)
    body = zlib.compress(deltas.tobytes() + cols.tobytes() + scores.tobytes() + kinds.tobytes(), 9)
    header = BOOK_MAGIC + struct.pack("<5I", rows, columns, inarow, max_stones, len(keys))
    return header + body


def decode_book(data):
    """``(rows, columns, inarow, max_stones, {key: (column, score, kind)})`` of book bytes."""
    if data[:8] != BOOK_MAGIC:
        raise ValueError("not an opening book (bad magic)")
    rows, columns, inarow, max_stones, n = struct.unpack("<5I", data[8:28])
    raw = zlib.decompress(data[28:])
    if len(raw) != 11 * n:
        raise ValueError(f"book body has {len(raw)} bytes, expected {11 * n}")
    keys = np.cumsum(np.frombuffer(raw[:8 * n], dtype="<u8"), dtype=np.uint64)
    cols = np.frombuffer(raw[8 * n:9 * n], dtype=np.uint8)
    scores = np.frombuffer(raw[9 * n:10 * n], dtype=np.int8)
    kinds = np.frombuffer(raw[10 * n:], dtype=np.uint8)
    table = {int(k): (int(c), int(s), int(t)) for k, c, s, t in zip(keys, cols, scores, kinds)}
    return rows, columns, inarow, max_stones, table


class Book:
    """Lookup of book moves, mirror images included."""

    def __init__(self, data):
        self.rows, self.columns, self.inarow, self.max_stones, self.table = decode_book(data)

    def __len__(self):
        return len(self.table)

    def counts(self):
        """{kind name: entries}"""
        out = {}
        for _, _, kind in self.table.values():
            out[KIND_NAMES[kind]] = out.get(KIND_NAMES[kind], 0) + 1
        return out

    def lookup(self, p):
        """``(column, score, kind)`` for Position ``p`` or None."""
        if (p.rows, p.columns, p.inarow) != (self.rows, self.columns, self.inarow) \
                or p.moves > self.max_stones:
            return None
        key, mirrored = canonical(p.key(), p.rows, p.columns)
        hit = self.table.get(key)
        if hit is None:
            return None
        col, score, kind = hit
        return (self.columns - 1 - col if mirrored else col), score, kind


def load_book(name=BOOK_NAME):
    try:
        return Book(read_resource(name))
    except FileNotFoundError:
        return None
