"""Labelled positions, and the one verdict of a move from them: positions with the exact
score of every column, to judge players by.

This module is the one home of the judge's rules. Every judge of the package
(``connectx score`` through :mod:`scripts.arena.judging`, ``connectx blunders``,
``connectx learn``'s evaluation, ``connectx bench value`` and ``bench perfect``) calls
:func:`verdicts` and reads and writes labelled positions here. It sits in the solver's
room (the scale of the scores is the solver's) and imports only numpy and the standard
library at import time, so both the agents (the players may import the solver) and the
scripts import it without an arrow back up; the solver is imported lazily, by
:func:`labelling_solver` only.

A move's verdict, from the exact scores of the columns of the position it was played in
(the solver's scale, side to move; :data:`FULL` for a full column):

* *perfect* when its column has the best score (the fastest win, the slowest loss);
* *good* when it keeps the position's value: its score has the sign of the best (a win
  stays a win, a draw a draw; in a lost position every legal column is good);
* its *loss* is the best score less its score (0 for a perfect move; in stones).

A full column, or no column (-1: a failed move), is neither perfect nor good and has no
loss (NaN).

A move's *accuracy* (:func:`accuracies`) is built from the same exact scores, with no
fitted constant: 0 for a move that loses value (not good), else its place between the
worst and the best legal column, counted in stones with the worst column's own,

    accuracy = (score - worst + 1) / (best - worst + 1),

so a perfect move scores 1, a slower win (or a faster loss) less in proportion to the
stones it gives up against the spread of the position's columns (the worst column that
still keeps the value ``1 / (best - worst + 1)``), and a thrown win or draw 0 whatever
the spread. A player's accuracy is the mean over its moves, in percent (100: every move
perfect). Lichess' accuracy is a curve fitted over engine centipawns; here the solver's
scores are exact, so the scale is the position's own.

Two formats of labelled positions:

* a *labelled set*, a compressed numpy archive (``.npz``; ``numpy.load`` reads it with
  ``allow_pickle=False``) of ``n`` positions of one board shape (:func:`load_labels`,
  :func:`save_labels`);
* *analysis lines*, a text file of ``moves s1 ... sW`` lines (the 1-based move string,
  then the score of playing each column, :data:`FULL` for a full one; the format of
  ``scripts/data/positions/`` and ``connectx solve -a``): :func:`read_lines`,
  :func:`write_lines`.

The arrays of a labelled set:

=========  =========================  ====================================================
array      dtype, shape               meaning
=========  =========================  ====================================================
planes     uint8 (n, rows, columns, 2) ``[..., 0]`` the stones of the side to move,
                                        ``[..., 1]`` the opponent's; row 0 is the top row
                                        (Kaggle's layout: ``board[c + r * columns]``)
scores     int16 (n, columns)          the exact score of playing each column, the
                                        solver's scale (:mod:`agents.solver.solver`: side
                                        to move, 0 a draw, a faster win higher);
                                        :data:`FULL` (-1000) for a full column
stage      int8 (n,)                   0 opening, 1 middle, 2 end (:data:`STAGES`,
                                        :func:`stage_of`)
moves      str (n,)                    the 1-based move string that led there (columns
                                        past 9: comma-separated numbers)
meta       str ()                      JSON: ``format``, ``rows``, ``columns``,
                                        ``inarow``, ``seed`` and ``made`` (how the set was
                                        made: the command and the players)
=========  =========================  ====================================================

The side to move is mark 1 when the number of stones is even (Kaggle's first player),
else mark 2. Positions are never over (no line on the board, not full). Numpy and the
standard library only; :func:`save_labels` writes the same bytes for the same set
(the archive's dates are fixed), so a rebuild can be compared byte for byte.
"""
import io
import json
import threading
import zipfile

import numpy as np

FORMAT = 1
# The score of a full column: its one name outside the solver (whose kernels keep it as
# agents.solver.roots.INVALID_MOVE, and its numpy-free opening tables as
# agents.solver.openings.INVALID_MOVE; tests/test_verdicts.py pins the three equal).
FULL = -1000
STAGES = ("opening", "middle", "end")
ARRAYS = ("planes", "scores", "stage", "moves", "meta")
_DATE = (1980, 1, 1, 0, 0, 0)  # every member's date: the same set, the same bytes
LABELLING_TT_BITS = 22  # the labelling solver's table (32 MiB a thread)
_LOCAL = threading.local()  # one labelling solver a thread (Dask may run tasks in threads)


def stage_of(stones, rows, columns):
    """The stage of a position of ``stones`` stones: 0 (opening) below a third of the
    board's cells, 1 (middle) below two thirds, else 2 (end). 7x6: 0-13, 14-27, 28-41."""
    cells = rows * columns
    return 0 if 3 * stones < cells else (1 if 3 * stones < 2 * cells else 2)


def move_text(columns_played, columns):
    """A 1-based move string of 0-based ``columns_played``: digits up to 9 columns,
    comma-separated numbers on wider boards."""
    if columns <= 9:
        return "".join(str(c + 1) for c in columns_played)
    return ",".join(str(c + 1) for c in columns_played)


class LabelledSet:
    """``n`` positions of one board with each column's exact score (see the module
    docstring for the arrays). ``ValueError`` if the arrays do not agree."""

    def __init__(self, rows, columns, inarow, planes, scores, stage, moves, seed=None, made=None):
        self.rows, self.columns, self.inarow = int(rows), int(columns), int(inarow)
        self.planes = np.ascontiguousarray(planes, dtype=np.uint8)
        self.scores = np.ascontiguousarray(scores, dtype=np.int16)
        self.stage = np.ascontiguousarray(stage, dtype=np.int8)
        self.moves = np.asarray(moves, dtype=str)
        self.seed = seed
        self.made = made if made is not None else {}
        n = len(self.planes)
        if self.planes.shape != (n, self.rows, self.columns, 2):
            raise ValueError(f"planes are {self.planes.shape}, expected (n, {self.rows}, "
                             f"{self.columns}, 2)")
        if self.scores.shape != (n, self.columns) or self.stage.shape != (n,) \
                or self.moves.shape != (n,):
            raise ValueError(f"scores {self.scores.shape}, stage {self.stage.shape} and moves "
                             f"{self.moves.shape} do not match {n} positions of {self.columns} "
                             "columns")
        if n and (self.stage.min() < 0 or self.stage.max() >= len(STAGES)):
            raise ValueError("stage values must be 0, 1 or 2")
        full = self.planes[:, 0].sum(axis=-1) > 0  # the top row taken: a full column
        if n and not np.array_equal(full, self.scores == FULL):
            raise ValueError("the scores mark full columns that the planes do not (or miss one)")

    def __len__(self):
        return len(self.planes)

    @property
    def config(self):
        return self.rows, self.columns, self.inarow

    def stones(self):
        """The number of stones of each position (int64, n)."""
        return self.planes.sum(axis=(1, 2, 3)).astype(np.int64)

    def legal(self, i):
        """The legal columns of position ``i`` (0-based, left to right)."""
        return [c for c in range(self.columns) if self.scores[i, c] != FULL]

    def best(self, i):
        """The columns of position ``i`` with the best score."""
        s = self.scores[i]
        top = s[s != FULL].max()
        return [c for c in range(self.columns) if s[c] == top]

    def value(self, i):
        """The exact score of position ``i`` (its best column's)."""
        s = self.scores[i]
        return int(s[s != FULL].max())

    def observation(self, i):
        """``(board, mark)`` of position ``i``: Kaggle's flat board (a list of 0, 1, 2,
        row 0 at the top) and the mark to move."""
        stones = int(self.planes[i].sum())
        mark = 1 + stones % 2
        grid = self.planes[i, :, :, 0].astype(np.int64) * mark \
            + self.planes[i, :, :, 1].astype(np.int64) * (3 - mark)
        return [int(v) for v in grid.ravel()], mark

    def subset(self, index):
        """The positions ``index`` (an index array or a slice) as a new set."""
        return LabelledSet(self.rows, self.columns, self.inarow, self.planes[index],
                           self.scores[index], self.stage[index], self.moves[index], self.seed,
                           self.made)


def verdicts(scores, columns):
    """``(perfect, good, loss)`` of the moves ``columns`` (one a position; -1: no move) in
    positions of exact column ``scores`` (an ``(n, W)`` array-like, :data:`FULL` for a full
    column): two bool arrays and a float array (NaN where there is no move: -1, a column
    off the board or a full one). The rules are the module docstring's: the one place the
    package decides whether a move is perfect or good."""
    s = np.asarray(scores, dtype=np.int64)
    if s.ndim != 2:
        raise ValueError(f"scores must be (positions, columns), got shape {s.shape}")
    cols = np.asarray(columns, dtype=np.int64).reshape(-1)
    if len(cols) != len(s):
        raise ValueError(f"{len(cols)} columns for {len(s)} positions")
    low = np.iinfo(np.int64).min
    best = np.where(s != FULL, s, low).max(axis=1, initial=low)
    on_board = (cols >= 0) & (cols < s.shape[1])
    mine = s[np.arange(len(s)), np.where(on_board, cols, 0)]
    played = on_board & (mine != FULL)
    perfect = played & (mine == best)
    good = played & (np.sign(mine) == np.sign(best))
    loss = np.where(played, (best - mine).astype(np.float64), np.nan)
    return perfect, good, loss


def accuracies(scores, columns):
    """The accuracy of each move (a float array in 0..1, NaN where there is no move; the
    formula is the module docstring's), over the same arguments as :func:`verdicts`."""
    s = np.asarray(scores, dtype=np.int64)
    _, good, loss = verdicts(s, columns)
    legal = s != FULL
    big = np.iinfo(np.int64).max
    best = np.where(legal, s, -big).max(axis=1, initial=-big)
    worst = np.where(legal, s, big).min(axis=1, initial=big)
    share = 1.0 - loss / (best - worst + 1).astype(np.float64)
    return np.where(np.isnan(loss), np.nan, np.where(good, share, 0.0))


def verdict(scores, column):
    """``(perfect, good, loss)`` of one move: :func:`verdicts` of one position (``loss``
    an int, None where there is no move)."""
    perfect, good, loss = verdicts([scores], [column])
    return bool(perfect[0]), bool(good[0]), None if np.isnan(loss[0]) else int(loss[0])


def outcome(score):
    """The result an exact score means for its side to move: 1 a win, 0 a draw, -1 a loss."""
    return (score > 0) - (score < 0)


def best_score(scores):
    """The exact score of a position: its best column's (``ValueError`` if all are full)."""
    legal = [int(v) for v in scores if v != FULL]
    if not legal:
        raise ValueError("every column is full")
    return max(legal)


def read_lines(path):
    """``[(moves, [score per column])]`` of an analysis-lines file (``moves s1 ... sW`` a
    line; blank lines skipped); ``ValueError`` naming the file and line if one is not."""
    out = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            fields = line.split()
            if not fields:
                continue
            try:
                scores = [int(x) for x in fields[1:]]
            except ValueError:
                scores = []
            if len(scores) < 2:
                raise ValueError(f"{path}:{n}: expected 'moves s1 ... sW', got {line.strip()!r}")
            out.append((fields[0], scores))
    return out


def write_lines(path, lines):
    """Write ``[(moves, scores)]`` as analysis lines (what :func:`read_lines` reads)."""
    with open(path, "w", encoding="utf-8") as f:
        for moves, scores in lines:
            f.write(moves + " " + " ".join(str(int(v)) for v in scores) + "\n")


def save_labels(path, labelled):
    """Write ``labelled`` (a :class:`LabelledSet`) to ``path`` (a compressed ``.npz``)."""
    meta = {"format": FORMAT, "rows": labelled.rows, "columns": labelled.columns,
            "inarow": labelled.inarow, "seed": labelled.seed, "made": labelled.made}
    arrays = {"planes": labelled.planes, "scores": labelled.scores, "stage": labelled.stage,
              "moves": labelled.moves, "meta": np.array(json.dumps(meta, sort_keys=True))}
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name in ARRAYS:
            buf = io.BytesIO()
            np.lib.format.write_array(buf, np.asanyarray(arrays[name]), allow_pickle=False)
            info = zipfile.ZipInfo(f"{name}.npy", _DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, buf.getvalue())


def load_labels(path):
    """The :class:`LabelledSet` in ``path``; ``ValueError`` naming the file if it is not one."""
    try:
        with np.load(path, allow_pickle=False) as data:
            missing = [a for a in ARRAYS if a not in data.files]
            if missing:
                raise ValueError(f"no array(s) {', '.join(missing)}")
            arrays = {a: data[a] for a in ARRAYS}
        meta = json.loads(str(arrays["meta"]))
        if meta.get("format") != FORMAT:
            raise ValueError(f"format {meta.get('format')!r}, this version reads {FORMAT}")
        return LabelledSet(meta["rows"], meta["columns"], meta["inarow"], arrays["planes"],
                           arrays["scores"], arrays["stage"], arrays["moves"], meta.get("seed"),
                           meta.get("made"))
    except OSError as e:
        raise ValueError(f"cannot read labelled set {path!r}: {e.strerror or e}") from None
    except (ValueError, KeyError, TypeError, zipfile.BadZipFile) as e:
        raise ValueError(f"{path!r} is not a labelled set: {e}") from None


def labelling_solver(rows, columns, inarow, database=True):
    """This thread's exact solver for the board, with the installed opening database
    attached where ``database`` (``agents.solver.database.attach``), kept between calls
    so that its table stays warm: what ``connectx dataset`` and ``connectx learn``
    label positions with."""
    from agents.solver.database import attach
    from agents.solver.solver import Solver
    key = (rows, columns, inarow, database)
    cached = getattr(_LOCAL, "solver", None)
    if cached is None or cached[0] != key:
        s = Solver(rows, columns, inarow, LABELLING_TT_BITS)
        attach(s, database)
        _LOCAL.solver = cached = (key, s)
    return cached[1]
