"""Build an opening database: the exact score of every position of ``ply`` stones on one
board shape, in the package's own format (:func:`agents.solver.database.save`; the same
:func:`agents.solver.database.load` reads it and :meth:`agents.solver.solver.Solver.use_database`
stops its search on it). The command line is ``connectx database build``
(:mod:`scripts.commands.database`); this module holds the work, without printing.

Which positions (:mod:`agents.solver.layers`): every position of ``ply`` stones
reached by legal moves that never complete a line of ``inarow`` (a position with a four
on the board is over, not held), one entry for a position and its mirror image
(:func:`agents.solver.table.db_key`), and, as in BitBully's files, not the positions
whose side to move can win at once (their score is known without a database, and the
solver never asks for them). Scores are the solver's (side to move, see
:mod:`agents.solver.solver`).

How: the positions, sorted by key, are cut into chunks of ``chunk`` positions, and each
chunk is solved by :func:`solve_chunk` -- here, in a process pool or on a Dask cluster --
with a database of more stones at the leaves when there is one (for 7x6/4, the installed
12-ply database: a 7x6 build of up to 12 plies then searches at most 12 - ply plies a
position; ``leaves`` names another, e.g. the next layer built here).

Resumable: each solved chunk is written at once, atomically (a temporary file renamed),
into ``OUT.parts/`` beside the output, with ``job.json`` naming the build; a rerun of the
same build solves only the chunks that are not there (a chunk file that fails its
checksum is solved again), merges them, writes ``OUT`` (atomically) and removes
``OUT.parts/``. Scores are exact, so a resumed build writes the same bytes as an
uninterrupted one.
"""
import json
import os
import shutil
import struct
import threading
import time
import zlib
from dataclasses import dataclass

import numpy as np

from agents.solver.layers import check_shape, geometry, positions
from scripts.arena.pools import map_tasks

PARTS_SUFFIX = ".parts"
JOB_FILE = "job.json"
CHUNK_HEADER = struct.Struct("<4sIIQ")  # magic, crc32 of the chunk's keys, of its scores, count
CHUNK_MAGIC = b"CXCH"
TARGET_CHUNKS = 200  # the default chunk size cuts a build into about this many tasks


# ---------------------------------------------------------------------------
# Solving a chunk (in this process, a worker process or a Dask worker)
# ---------------------------------------------------------------------------

# ``leaves`` of a task: "default" (the installed database of the board shape, if it holds
# more stones than the build), None (none), or the path of a database file
_LOCAL = threading.local()  # one solver a thread: a Dask worker may run tasks in threads
_LEAVES = {}
_LEAVES_LOCK = threading.Lock()


def leaves_database(leaves, rows, columns, inarow, ply):
    """The database to stop the search at, for a build of ``ply`` stones, or None.

    ``leaves``: "default" (:func:`agents.solver.database.default_database`, used when it
    holds at least ``ply`` stones), None, or a path (``ValueError`` if it is another
    board or fewer stones). Loaded once a process."""
    from agents.solver import database as D
    if leaves is None:
        return None
    key = (leaves, rows, columns, inarow)
    with _LEAVES_LOCK:
        if key not in _LEAVES:
            if leaves == "default":
                db = D.default_database(rows, columns, inarow)
            else:
                try:
                    db = D.load(leaves)
                except D.DatabaseError as e:
                    raise ValueError(str(e)) from None
                if db.config != (rows, columns, inarow):
                    raise ValueError(f"{leaves}: a {db.columns}x{db.rows}/{db.inarow} database, the "
                                     f"build is {columns}x{rows}/{inarow}")
            _LEAVES[key] = db
    db = _LEAVES[key]
    if db is not None and db.ply < ply:
        if leaves == "default":
            return None
        raise ValueError(f"{leaves}: a database of {db.ply} stones cannot help a build of {ply}")
    return db


def _solver(rows, columns, inarow, leaves, ply):
    from agents.solver.solver import Solver
    key = (rows, columns, inarow, leaves, ply)
    cached = getattr(_LOCAL, "solver", None)
    if cached is None or cached[0] != key:
        s = Solver(rows, columns, inarow)
        s.use_database(leaves_database(leaves, rows, columns, inarow, ply))
        _LOCAL.solver = cached = (key, s)
    return cached[1]


@dataclass(frozen=True)
class Chunk:
    """One chunk to solve: the positions ``pos``/``mask`` of ``ply`` stones."""
    index: int
    rows: int
    columns: int
    inarow: int
    ply: int
    pos: np.ndarray
    mask: np.ndarray
    leaves: object = "default"


def solve_chunk(task):
    """``(index, scores)``: the exact score (int8, side to move) of each position of the
    task, by the solver with the task's database at the leaves."""
    from agents.solver.position import Position
    s = _solver(task.rows, task.columns, task.inarow, task.leaves, task.ply)
    out = np.empty(len(task.pos), dtype=np.int8)
    for i in range(len(task.pos)):
        p = Position(task.rows, task.columns, task.inarow, int(task.pos[i]), int(task.mask[i]), task.ply)
        out[i] = s.solve(p)
    return task.index, out


# ---------------------------------------------------------------------------
# Chunk files and the job description
# ---------------------------------------------------------------------------


def parts_dir(out):
    return os.fspath(out) + PARTS_SUFFIX


def chunk_path(parts, index):
    return os.path.join(parts, f"chunk-{index:06d}.bin")


def write_chunk(parts, index, keys, scores):
    """The scores of one chunk, atomically (a temporary file renamed)."""
    scores = np.ascontiguousarray(scores, dtype=np.int8)
    header = CHUNK_HEADER.pack(CHUNK_MAGIC, zlib.crc32(keys.astype("<i8").tobytes()),
                               zlib.crc32(scores.tobytes()), len(scores))
    path = chunk_path(parts, index)
    tmp = f"{path}.tmp"
    with open(tmp, "wb") as f:
        f.write(header + scores.tobytes())
    os.replace(tmp, path)


def read_chunk(parts, index, keys):
    """The scores of a chunk written for ``keys``, or None if the file is missing, short,
    or not the chunk of these keys (then it is solved again)."""
    try:
        with open(chunk_path(parts, index), "rb") as f:
            data = f.read()
    except OSError:
        return None
    if len(data) < CHUNK_HEADER.size:
        return None
    magic, kcrc, vcrc, n = CHUNK_HEADER.unpack_from(data)
    scores = np.frombuffer(data, dtype=np.int8, offset=CHUNK_HEADER.size)
    if magic != CHUNK_MAGIC or n != len(keys) or len(scores) != n \
            or kcrc != zlib.crc32(keys.astype("<i8").tobytes()) or vcrc != zlib.crc32(scores.tobytes()):
        return None
    return scores


def job_description(rows, columns, inarow, ply, keys, chunk):
    return {"format": 1, "rows": int(rows), "columns": int(columns), "inarow": int(inarow),
            "ply": int(ply), "positions": int(len(keys)), "chunk": int(chunk),
            "keys_crc32": zlib.crc32(keys.astype("<i8").tobytes())}


def open_parts(out, job):
    """Create ``OUT.parts`` with ``job.json``, or check that the one there is this
    build's (``ValueError`` otherwise: it belongs to another build)."""
    parts = parts_dir(out)
    path = os.path.join(parts, JOB_FILE)
    if os.path.isfile(path):
        try:
            with open(path) as f:
                there = json.load(f)
        except (OSError, ValueError):
            there = None
        if there != job:
            raise ValueError(f"{parts} holds the chunks of another build (job.json differs: "
                             f"other board, plies or --chunk); remove it or choose another --out")
        return parts
    os.makedirs(parts, exist_ok=True)
    tmp = f"{path}.tmp"
    with open(tmp, "w") as f:
        json.dump(job, f, indent=1, sort_keys=True)
    os.replace(tmp, path)
    return parts


def default_chunk(n):
    """Positions a task: about :data:`TARGET_CHUNKS` tasks of 32..2000 positions (depends
    on the number of positions only, so a rerun cuts the same chunks)."""
    return max(32, min(2000, -(-n // TARGET_CHUNKS)))


# ---------------------------------------------------------------------------
# The build
# ---------------------------------------------------------------------------


@dataclass
class BuildReport:
    out: str
    rows: int
    columns: int
    inarow: int
    ply: int
    positions: int
    chunks: int
    resumed: int  # chunks found solved by an earlier run
    seconds: float
    bytes: int
    leaves: str  # the database used at the leaves, or ""


def build(rows, columns, inarow, ply, out, workers=1, dask=None, chunk=None, leaves="default",
          on_progress=None, on_chunk=None):
    """Solve every position of ``ply`` stones and write the database to ``out``.

    ``workers`` > 1: a process pool of that many; ``dask``: a scheduler address or a
    ``distributed.Client``. ``chunk``: positions a task (default :func:`default_chunk`).
    ``leaves``: see :func:`leaves_database`. ``on_progress(done, total)``: positions
    solved so far (also after the chunks found on disk); ``on_chunk(index, written)``:
    after each chunk file is written (``written`` chunks so far in this run).
    ``ValueError`` for bad input. Returns a :class:`BuildReport`."""
    from agents.solver import database as D
    t0 = time.perf_counter()
    out = os.fspath(out)
    check_shape(rows, columns, inarow, ply)
    if chunk is not None and (isinstance(chunk, bool) or not isinstance(chunk, int) or chunk < 1):
        raise ValueError(f"chunk must be an integer >= 1, got {chunk!r}")
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ValueError(f"workers must be an integer >= 1, got {workers!r}")
    folder = os.path.dirname(os.path.abspath(out))
    if not os.path.isdir(folder):
        raise ValueError(f"{out}: no such directory {folder}")
    leaf_db = leaves_database(leaves, rows, columns, inarow, ply)  # checks a path early
    keys, pos, mask = positions(rows, columns, inarow, ply)
    chunk = chunk or default_chunk(len(keys))
    job = job_description(rows, columns, inarow, ply, keys, chunk)
    parts = open_parts(out, job)
    bounds = [(i, min(i + chunk, len(keys))) for i in range(0, len(keys), chunk)]
    scores = np.zeros(len(keys), dtype=np.int8)
    todo = []
    for index, (a, b) in enumerate(bounds):
        found = read_chunk(parts, index, keys[a:b])
        if found is None:
            todo.append(Chunk(index, rows, columns, inarow, ply, pos[a:b], mask[a:b], leaves))
        else:
            scores[a:b] = found
    done = len(keys) - sum(len(t.pos) for t in todo)
    if on_progress:
        on_progress(done, len(keys))
    written = 0

    def finished(index, values):
        nonlocal done, written
        a, b = bounds[index]
        scores[a:b] = values
        write_chunk(parts, index, keys[a:b], values)
        done += b - a
        written += 1
        if on_progress:
            on_progress(done, len(keys))
        if on_chunk:
            on_chunk(index, written)

    map_tasks(solve_chunk, todo, workers, dask, lambda r: finished(*r),
              prepare=lambda: _compile(todo))
    db = D.Database(rows, columns, inarow, ply, keys, scores, out)
    D._check(db)
    D.save(db, out)
    shutil.rmtree(parts, ignore_errors=True)
    return BuildReport(out, rows, columns, inarow, ply, len(keys), len(bounds), len(bounds) - len(todo),
                       time.perf_counter() - t0, os.path.getsize(out),
                       leaf_db.source if leaf_db is not None else "")


def _compile(tasks):
    """Compile the solver and load the leaves here once, before the workers fork: they
    inherit both."""
    if tasks:
        t = tasks[0]
        solve_chunk(Chunk(-1, t.rows, t.columns, t.inarow, t.ply, t.pos[:1], t.mask[:1], t.leaves))


# ---------------------------------------------------------------------------
# An independent check: BitBully's 8-ply database (win/draw/loss)
# ---------------------------------------------------------------------------

BITBULLY_8PLY_FILE = "book_8ply.dat"


def read_bitbully_8ply(path):
    """``{canonical key: outcome}`` of BitBully's ``book_8ply.dat`` (the
    ``bitbully-databases`` package), outcome from the first player (to move at 8 stones):
    0 a draw, -1 a loss. Its format, as that package documents it: records of 3 bytes,
    big-endian, sorted: the Huffman code of the board (as in the 12-ply file: the columns
    left to right, each bottom to top, ``10``/``11`` a first/second player's stone, ``0``
    the end of a column, one ``0`` at the end: 24 bits for 8 stones) whose last two bits
    hold minus the outcome; a position that is not in the file is a first-player win.
    Some positions are there twice, as themselves and as their mirror image.
    ``ValueError`` if a record is not a legal 8-stone position."""
    g = geometry(6, 7, 4)
    with open(path, "rb") as f:
        data = f.read()
    if len(data) % 3:
        raise ValueError(f"{path}: {len(data)} bytes is not a whole number of 3-byte records")
    out = {}
    for i in range(0, len(data), 3):
        x = int.from_bytes(data[i:i + 3], "big")
        code, value = x & ~3, x & 3
        bit, first, mask = 23, 0, 0
        for c in range(7):
            r = 0
            while (code >> bit) & 1:
                if r == 6:
                    raise ValueError(f"{path}: record {i // 3}: a column of more than 6 stones")
                cell = 1 << (c * 7 + r)
                mask |= cell
                if not (code >> (bit - 1)) & 1:
                    first |= cell
                bit -= 2
                r += 1
            bit -= 1
        if bit != 0 or bin(mask).count("1") != 8 or bin(first).count("1") != 4 or value > 1:
            raise ValueError(f"{path}: record {i // 3} is not a legal 8-stone position")
        key = int(_db_key(first, mask, g))
        if out.get(key, -value) != -value:  # a position and its mirror image: one outcome
            raise ValueError(f"{path}: record {i // 3} and its mirror image disagree")
        out[key] = -value
    return out


def _db_key(pos, mask, g):
    from agents.solver.table import db_key
    return db_key(np.int64(pos), np.int64(mask), g)


def compare_bitbully_8ply(db, path):
    """Compare a 7x6 database of 8 stones with BitBully's 8-ply file, entry by entry:
    ``{"entries", "records", "agree", "disagree", "unknown"}`` (``unknown``: records
    for positions the database does not hold; ``agree``/``disagree``: entries whose
    outcome, the sign of their score, is / is not BitBully's, a missing record read as a
    first-player win)."""
    if db.config != (6, 7, 4) or db.ply != 8:
        raise ValueError(f"the 8-ply check needs a 7x6/4 database of 8 stones, got {db!r}")
    book = read_bitbully_8ply(path)
    held = set(db.keys.tolist())
    outcome = np.sign(db.values.astype(np.int64))
    theirs = np.array([book.get(k, 1) for k in db.keys.tolist()], dtype=np.int64)
    agree = int(np.sum(outcome == theirs))
    return {"entries": len(db), "records": len(book), "agree": agree, "disagree": len(db) - agree,
            "unknown": sum(1 for k in book if k not in held)}
