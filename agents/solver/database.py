"""Opening databases: the exact score of every position of one number of stones.

A :class:`Database` holds, for one board shape and one number of stones ``ply``, the
canonical key of each position (the smaller of ``pos + mask`` and its mirror image's,
:func:`agents.solver.table.db_key`) sorted ascending, and its exact score (int8, from the
side to move, the solver's scale: see :mod:`agents.solver.solver`). The solver stops at
any node of ``ply`` stones the database holds (:meth:`agents.solver.solver.Solver.use_database`),
so every position with at most ``ply`` stones is solved by a search ``ply`` plies deep at most.

Two file formats load into it, through one function, :func:`load`:

* **BitBully's 12-ply database with distances** (``book_12ply_distances.dat`` of the
  ``bitbully-databases`` package on PyPI, MIT licence, by Markus Thill; installed by the
  ``books`` extra). Its format, as that package documents it: records of 5 bytes, a
  big-endian signed 32-bit Huffman code of the board then a signed byte of the score,
  sorted by code. The code reads the columns left to right, each bottom to top: ``10``
  a first-player stone, ``11`` a second-player stone, ``0`` the end of the column (also
  after a full column), then one ``0``: 32 bits for 12 stones. The score is from the
  first player (to move at 12 stones): 0 a draw, ``100 - d`` a win ``d`` plies later,
  ``-(100 - d)`` a loss ``d`` plies later. A position and its mirror image have one
  record; positions whose side to move wins at once are left out (the solver never
  asks for them). The 8-ply and 12-ply files without distances (win/draw/loss only) are
  not exact and are refused.
* **The package's own files** (``connectx database build``, any board that fits the
  bitboard), little-endian::

      offset  size  field
      0       8     magic b"CXDB\\x00\\x01\\r\\n" (version 1)
      8       1     rows       9  1 columns    10  1 inarow    11  1 ply
      12      4     crc32 of the payload
      16      8     count
      24      8*n   keys (int64, canonical, strictly ascending)
      24+8n   n     scores (int8)

A missing, truncated or corrupt file raises :class:`DatabaseError` naming the file and
what is wrong: the size must match the header (or the record length), the keys must be
strictly ascending, every BitBully code must decode to a legal position of 12 stones
with 6 of each player and no four, every score must be one a position of that many
stones can have, the crc32 must match, and a file of the published 12-ply database's
size must have its SHA-256.
"""
import hashlib
import os
import zlib

import numpy as np

from agents.board.jit import njit
from agents.solver.bits import G_H, G_N, G_ROWS, G_W, has_line, mirror
from agents.solver.openings import HEADER, MAGIC, DatabaseError, parse  # noqa: F401 (the format's one reader)
from agents.solver.table import db_key

BITBULLY_PLY = 12
BITBULLY_RECORD = 5
# the published file (bitbully-databases 0.0.2) by its size: a file of that size with
# other bytes is a corrupt copy of it; a file of another size is checked by its structure
BITBULLY_SHA256 = {
    21004495: "1e01874dbb9b296a96baa2f5483ae69333ac7009377b34b222f112d9d8e89704",
}
BITBULLY_FILE = "book_12ply_distances.dat"
INSTALL_HINT = 'pip install "connectx-search[databases]"'


class Database:
    """Exact scores of every position of ``ply`` stones on one board shape.

    ``keys``: int64 canonical keys, strictly ascending; ``values``: int8 scores, side to
    move. ``source``: where it was loaded from (a path), for messages."""

    def __init__(self, rows, columns, inarow, ply, keys, values, source=""):
        self.rows, self.columns, self.inarow, self.ply = int(rows), int(columns), int(inarow), int(ply)
        self.keys = np.ascontiguousarray(keys, dtype=np.int64)
        self.values = np.ascontiguousarray(values, dtype=np.int8)
        self.source = source
        if self.keys.shape != self.values.shape:
            raise DatabaseError(f"{source}: {len(self.keys)} keys but {len(self.values)} scores")

    @property
    def config(self):
        return self.rows, self.columns, self.inarow

    @property
    def nbytes(self):
        """Memory held by the loaded arrays."""
        return self.keys.nbytes + self.values.nbytes

    def __len__(self):
        return len(self.keys)

    def __repr__(self):
        return (f"Database({self.columns}x{self.rows}/{self.inarow}, {self.ply} stones, "
                f"{len(self)} positions, {self.nbytes / 2**20:.1f} MiB, {self.source})")

    def score(self, p):
        """Score of the Position ``p`` (``ply`` stones), or None if not held."""
        from agents.solver.solver import geometry
        if (p.rows, p.columns, p.inarow) != self.config or p.moves != self.ply:
            return None
        k = _key(p.pos, p.mask, geometry(*self.config))
        i = int(np.searchsorted(self.keys, k))
        if i < len(self.keys) and self.keys[i] == k:
            return int(self.values[i])
        return None


def _key(pos, mask, g):
    return int(db_key(np.int64(pos), np.int64(mask), g))


# ---------------------------------------------------------------------------
# The package's own format
# ---------------------------------------------------------------------------


def save(db, path):
    """Write ``db`` to ``path`` in the package's format (atomically: a temporary file
    renamed over ``path``)."""
    payload = db.keys.astype("<i8").tobytes() + db.values.astype(np.int8).tobytes()
    header = HEADER.pack(MAGIC, db.rows, db.columns, db.inarow, db.ply,
                         zlib.crc32(payload), len(db.keys))
    tmp = f"{path}.tmp"
    with open(tmp, "wb") as f:
        f.write(header)
        f.write(payload)
    os.replace(tmp, path)


def _load_own(path, data):
    rows, columns, inarow, ply, n, off = parse(data, path)
    keys = np.frombuffer(data, dtype="<i8", count=n, offset=off)
    values = np.frombuffer(data, dtype=np.int8, count=n, offset=off + 8 * n)
    db = Database(rows, columns, inarow, ply, keys, values, path)
    _check(db)
    return db


def _check(db):
    """Structure shared by both formats: ascending keys, scores in range, board fits."""
    from agents.solver.solver import geometry
    try:
        geometry(*db.config)
    except ValueError as e:
        raise DatabaseError(f"{db.source}: {e}") from None
    if len(db.keys) > 1 and not np.all(db.keys[1:] > db.keys[:-1]):
        raise DatabaseError(f"{db.source}: keys are not strictly ascending: the file is corrupt")
    n = db.rows * db.columns
    lo, hi = -((n - db.ply) // 2), (n + 1 - db.ply) // 2
    if len(db.values) and (db.values.min() < lo or db.values.max() > hi):
        raise DatabaseError(f"{db.source}: a score outside [{lo}, {hi}], impossible with "
                            f"{db.ply} stones: the file is corrupt")


# ---------------------------------------------------------------------------
# BitBully's 12-ply database with distances
# ---------------------------------------------------------------------------


@njit
def _decode_bitbully(codes, scores, g, keys, values):
    """Huffman codes (uint32 as int64) and scores into canonical keys and solver scores;
    the index of the first record that is not a legal 12-stone position, or -1."""
    W = g[G_W]
    H = g[G_H]
    rows = g[G_ROWS]
    N = g[G_N]
    for i in range(codes.shape[0]):
        code = codes[i]
        bit = 31
        p1 = 0
        mask = 0
        ok = True
        for c in range(W):
            r = 0
            while True:
                if bit < 0:
                    ok = False
                    break
                b = (code >> bit) & 1
                bit -= 1
                if b == 0:
                    break
                if r == rows or bit < 0:
                    ok = False
                    break
                who = (code >> bit) & 1
                bit -= 1
                cell = 1 << (c * H + r)
                mask |= cell
                if who == 0:
                    p1 |= cell
                r += 1
            if not ok:
                break
        # one trailing 0, 12 stones, 6 each, no four of either player
        if not ok or bit != 0 or (code & 1) != 0:
            return i
        n1 = 0
        nm = 0
        x = p1
        while x:
            x &= x - 1
            n1 += 1
        x = mask
        while x:
            x &= x - 1
            nm += 1
        if nm != 12 or n1 != 6 or has_line(p1, g) or has_line(p1 ^ mask, g):
            return i
        v = scores[i]
        if v == 0:
            s = 0
        else:
            d = 100 - (v if v > 0 else -v)  # plies to the end of the game
            if d < 1 or d > N - 12 or (d % 2 == 1) != (v > 0):
                return i
            s = (N + 2 - 12 - d) // 2
            if v < 0:
                s = -s
        k = p1 + mask
        m = mirror(k, g)
        keys[i] = m if m < k else k
        values[i] = s
    return -1


def _load_bitbully(path, data, digest):
    from agents.solver.solver import geometry
    if len(data) % BITBULLY_RECORD:
        raise DatabaseError(f"{path}: {len(data)} bytes is not a whole number of 5-byte records: "
                            f"truncated or corrupt")
    known = BITBULLY_SHA256.get(len(data))
    if known is not None and known != digest:
        raise DatabaseError(f"{path}: the size of the published 12-ply database but other bytes "
                            f"(SHA-256 {digest[:16]}..., expected {known[:16]}...): the file is corrupt")
    rec = np.frombuffer(data, dtype=[("code", ">i4"), ("score", "i1")])
    if len(rec) and not np.all(np.diff(rec["code"].astype(np.int64)) > 0):
        raise DatabaseError(f"{path}: records are not sorted: the file is corrupt")
    codes = rec["code"].astype(np.int64) & 0xFFFFFFFF
    g = geometry(6, 7, 4)
    keys = np.empty(len(rec), dtype=np.int64)
    values = np.empty(len(rec), dtype=np.int8)
    bad = _decode_bitbully(codes, rec["score"].astype(np.int64), g, keys, values)
    if bad >= 0:
        raise DatabaseError(f"{path}: record {bad} is not a legal 12-stone position with an "
                            f"exact score: the file is corrupt (or not the 12-ply database "
                            f"with distances)")
    order = np.argsort(keys, kind="stable")
    keys, values = keys[order], values[order]
    same = keys[1:] == keys[:-1]
    if same.any():  # a position stored twice (itself and its mirror image): one entry
        if np.any(values[1:][same] != values[:-1][same]):
            raise DatabaseError(f"{path}: a position stored twice with two scores: corrupt")
        keep = np.concatenate(([True], ~same))
        keys, values = keys[keep], values[keep]
    db = Database(6, 7, 4, BITBULLY_PLY, keys, values, path)
    _check(db)
    return db


def bitbully_path():
    """Path of BitBully's 12-ply database with distances, or None when the
    ``bitbully-databases`` package (the ``books`` extra) is not installed."""
    try:
        import importlib.resources as resources
        root = resources.files("bitbully_databases")
    except (ImportError, ModuleNotFoundError, TypeError):
        return None
    return os.fspath(root.joinpath("assets", BITBULLY_FILE))


def cache_dir():
    """Where converted BitBully files are kept (``$CONNECTX_CACHE``, else
    ``$XDG_CACHE_HOME/connectx`` or ``~/.cache/connectx``, then ``databases``)."""
    base = os.environ.get("CONNECTX_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"),
        "connectx")
    return os.path.join(base, "databases")


def load(path, cache=True):
    """The database in ``path`` (either format, told apart by the magic).

    A BitBully file is converted (decoded, keys sorted: about 1.5 s) the first time and,
    with ``cache``, kept in the package's format in :func:`cache_dir` under the
    SHA-256 of its bytes, so later loads take tens of milliseconds; a cached copy that
    fails its own checks is converted again."""
    path = os.fspath(path)
    if not os.path.isfile(path):
        raise DatabaseError(f"{path}: no such database file")
    with open(path, "rb") as f:
        data = f.read()
    if data[:len(MAGIC)] == MAGIC:
        return _load_own(path, data)
    if data[:4] == MAGIC[:4]:
        raise DatabaseError(f"{path}: a connectx database of another version "
                            f"({data[:8]!r}); this package reads version 1")
    digest = hashlib.sha256(data).hexdigest()
    cached = os.path.join(cache_dir(), f"bitbully-{digest[:24]}.cxdb") if cache else None
    if cached and os.path.isfile(cached):
        try:
            with open(cached, "rb") as f:
                db = _load_own(cached, f.read())
            db.source = path
            return db
        except DatabaseError:
            pass
    db = _load_bitbully(path, data, digest)
    if cached:
        try:
            os.makedirs(os.path.dirname(cached), exist_ok=True)
            save(db, cached)
        except OSError:  # a read-only home: convert again next time
            pass
    return db


_DEFAULT = {}


def default_database(rows=6, columns=7, inarow=4):
    """The installed database of a board shape, loaded once a process, or None.

    7x6/4: BitBully's 12-ply database when the ``books`` extra is installed
    (``$CONNECTX_DATABASE`` names another file; ``CONNECTX_DATABASE=0`` turns the
    databases off). A file that is there but cannot be read raises DatabaseError."""
    shape = (rows, columns, inarow)
    if shape not in _DEFAULT:
        path = os.environ.get("CONNECTX_DATABASE", "")
        if path == "0":
            path = None
        elif not path:
            path = bitbully_path() if shape == (6, 7, 4) else None
        db = load(path) if path else None
        if db is not None and db.config != shape:
            db = None
        _DEFAULT[shape] = db
    return _DEFAULT[shape]


def attach(solver, use=True):
    """Give ``solver`` the installed database of its board shape (:func:`default_database`)
    when ``use``; the database or None."""
    db = default_database(solver.rows, solver.columns, solver.inarow) if use else None
    solver.use_database(db)
    return db


def missing_note():
    """One line for users without the databases: what they get by installing them."""
    return (f"note: instant exact scores in the opening (7x6, up to 12 stones): {INSTALL_HINT}")
