"""``perfect``: the game-theoretic best move, within Kaggle's time limits.

For each move, in this order:

1. the opening book (7x6, four in a row only): positions the agent meets when it
   plays its own book moves, as either colour, solved by :mod:`agents.solver`
   (``scripts/make_book.py``), mirror images folded. Entries are EXACT (optimal
   column), WEAK (the column keeps the win or the draw) or HEURISTIC (the
   first plies, too early for the solver: a fixed-depth alphabeta move). In a
   position proven lost (WEAK, score -1) every move loses against perfect play
   and the slowest loss is out of the solver's reach so early; there the book
   holds the move of a fixed-depth alphabeta search, which sets a fallible
   opponent the most problems (``make_book --lost-heuristic``);
2. the exact solver (:func:`agents.solver.Solver.best_move`) under the time
   budget. Its first probes ask "can I win?" then "can I at least draw?", so
   even when it runs out of time it often knows a column that keeps the
   game-theoretic outcome, and plays it;
3. otherwise the ``alphabeta`` agent's move with the time that is left.

Scores count stones (see :mod:`agents.solver`), so the best score is also the
fastest win or the slowest loss.

Time: ``actTimeout`` less the safety margin of :class:`agents.base.Clock`, or
``time_limit``; with ``use_overage`` (default) the agent also spends part of
``remainingOverageTime``: a larger share in the first moves after the book,
where positions are hardest, down to an even share later.
"""
import struct
import time
import zlib

import numpy as np

from .base import Agent, Clock, _field, boolean, optional, positive_int, positive_number
from .lookahead import AlphaBetaAgent
from .resources import read_resource
from .rules import fits_bitboard
from .solver import DEFAULT_TT_BITS, Position, Solver, warm_up

BOOK_NAME = "book7x6.bin"
BOOK_MAGIC = b"C4BOOK1\0"
# Seconds of the move's budget kept for the alpha-beta fallback after an unfinished
# exact search (at most this share of the budget).
FALLBACK_SHARE = 0.25
FALLBACK_MAX = 0.4
OVERAGE_KEEP = 5.0  # seconds of overage never spent


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


def mirror_key(key, rows, columns):
    H = rows + 1
    col = (1 << H) - 1
    out = 0
    for c in range(columns):
        out |= ((key >> (c * H)) & col) << ((columns - 1 - c) * H)
    return out


def canonical(key, rows, columns):
    """(canonical key, mirrored?)"""
    m = mirror_key(key, rows, columns)
    return (m, True) if m < key else (key, False)


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


class PerfectAgent(Agent):
    """Plays the game-theoretic best move: opening book, exact solver under the
    time budget, the ``alphabeta`` agent if the solver cannot finish. Works on
    every board with ``columns * (rows + 1) <= 64`` (the book only on 7x6/4);
    on larger boards it is the ``alphabeta`` agent.

    Options: ``tt_bits`` (transposition table of ``next_prime(2**tt_bits)``
    8-byte slots, default 24 = 128 MiB), ``time_limit`` (seconds a move, capped by
    ``actTimeout`` less a safety margin), ``use_overage`` (spend part of the
    overage reserve, default True), ``book`` (use the opening book, default True)."""

    name = "perfect"
    OPTIONS = {"tt_bits": (positive_int("tt_bits", 28), DEFAULT_TT_BITS),
               "time_limit": (optional(positive_number("time_limit")), None),
               "use_overage": (boolean("use_overage"), True),
               "book": (boolean("book"), True)}

    def __init__(self, **options):
        super().__init__(**options)
        if self.tt_bits < 10:
            raise ValueError(f"option tt_bits must be at least 10, got {self.tt_bits}")
        self._solvers = {}
        self.opening_book = load_book() if self.book else None
        self.fallback = AlphaBetaAgent()
        self.last = {}
        self._overage = 0.0
        self._obs = self._config = None
        # compile everything now: the first move must not pay for numba
        warm_up(self.solver(6, 7, 4))
        grid = np.zeros(42, dtype=np.int8)
        heights = np.zeros(7, dtype=np.int64)
        from .rules import parse_config
        self.fallback.search(grid, heights, 1, parse_config(None), time.perf_counter() + 0.05, 2)
        # and the whole call path (validation kernels, book, solver) on two positions
        config = {"rows": 6, "columns": 7, "inarow": 4}
        board = [0] * 42
        self({"board": board, "mark": 1}, config)
        for i, ch in enumerate("12332365265661174712777667"):  # 26 stones: solved at once
            c = int(ch) - 1
            row = 5 - sum(1 for r in range(6) if board[c + 7 * r])
            board[c + 7 * row] = 1 + i % 2
        self({"board": board, "mark": 1}, config)
        self.last = {}
        self._solvers[(6, 7, 4)].reset()

    def solver(self, rows, columns, inarow):
        key = (rows, columns, inarow)
        if key not in self._solvers:
            # one table at a time: a new shape replaces the old one (memory stays bounded)
            self._solvers = {key: Solver(rows, columns, inarow, self.tt_bits)}
        return self._solvers[key]

    def __call__(self, obs, config):
        self._obs, self._config = obs, config
        over = _field(obs, "remainingOverageTime", 0.0)
        try:
            self._overage = max(0.0, float(over or 0.0))
        except (TypeError, ValueError):
            self._overage = 0.0
        return super().__call__(obs, config)

    def _deadline(self, clock, stones, cfg):
        """The move's deadline: actTimeout (or time_limit) less the safety margin, plus
        this agent's own share of the overage reserve (not the Clock's even share)."""
        deadline = Clock(clock.start, self._obs, self._config, self.time_limit, False).deadline
        if self.use_overage:
            spare = max(0.0, self._overage - OVERAGE_KEEP)
            moves_left = max(1, (cfg.rows * cfg.columns - stones) // 2)
            # hardest right after the book: spend up to a third of what is left there
            share = 1.0 / 3.0 if stones < 14 else 1.0 / moves_left
            deadline += spare * share
        return deadline

    def choose(self, grid, heights, mark, cfg, clock):
        if not fits_bitboard(cfg.rows, cfg.columns):
            col, val, depth, nodes = self.fallback.search(grid, heights, mark, cfg, clock.deadline)
            self.last = {"source": "alphabeta", "column": col, "depth": depth, "nodes": nodes}
            return col
        p = Position.from_grid(grid, cfg.rows, cfg.columns, cfg.inarow, mark)
        if self.opening_book is not None:
            hit = self.opening_book.lookup(p)
            if hit is not None and p.can_play(hit[0]):
                self.last = {"source": "book", "column": hit[0], "score": hit[1],
                             "kind": KIND_NAMES[hit[2]]}
                return hit[0]
        s = self.solver(cfg.rows, cfg.columns, cfg.inarow)
        deadline = self._deadline(clock, p.moves, cfg)
        budget = deadline - clock.start
        reserve = min(FALLBACK_MAX, FALLBACK_SHARE * budget)
        col, lo, hi, done = s.best_move(p, deadline - reserve)
        self.last = {"source": "solver", "column": col, "lo": lo, "hi": hi, "complete": done,
                     "nodes": s.nodes}
        if done or lo >= 1 or (lo >= 0 and hi <= 0):
            return col
        acol, val, depth, nodes = self.fallback.search(grid, heights, mark, cfg, deadline)
        if acol is None or acol < 0:
            return col
        self.last.update({"source": "alphabeta", "column": acol, "depth": depth})
        return acol
