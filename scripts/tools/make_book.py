"""Generate the opening book of the ``perfect`` agent with the package's own solver.

The book holds the positions the agent meets when it plays its own book moves:
as first player from the empty board, as second player from each first move;
after each book move every reply of the opponent (that does not end the game)
leads to the next book position. Each position is solved exactly
(:meth:`agents.solver.solver.Solver.best_move`) and stored with its best column and
score, mirror images folded (see :mod:`agents.players.perfect` for the format).

``--weak`` stores outcome-keeping moves (kind WEAK: about ten times cheaper to
prove than exact ones: the committed book is weak-solved down to the empty
board, which took 234 s; the four 1-stone positions 592 s, the 2-stone ones
384 s, about 50 minutes in all on two shared cores). Positions with fewer than
``--exact-from`` stones (``--first-exact-from`` for the first player) can instead
get the move of a fixed-depth ``alphabeta`` search (kind HEURISTIC,
deterministic, so the positions reachable below them are known) when the
solver is too slow for them.

Resumable: every solved position is appended to ``WORK/solved.txt`` at once; a
rerun skips what is there. Usage::

    python -m scripts.tools.make_book --depth 7 --weak --lost-heuristic --heuristic-depth 10 \
        [--work DIR] [--out FILE]

``--depth`` is the largest number of stones on the board in a book position.
``--rescore BOOK`` generates nothing: it marks EXACT, with its exact score, each entry of
BOOK whose column is a best one (:func:`rescore`, with the 12-ply database)::

    python -m scripts.tools.make_book --rescore agents/data/book7x6.bin
"""
import os
import sys
import time

import numpy as np

from agents.players.lookahead import AlphaBetaAgent
from agents.resources import data_path
from agents.solver.book import (BOOK_NAME, EXACT, HEURISTIC, KIND_NAMES, WEAK, decode_book,
                                encode_book)
from agents.board.rules import parse_config
from agents.solver.position import Position, canonical
from agents.solver.solver import DEFAULT_TT_BITS, INVALID_MOVE, Solver
from scripts.arena.bars import progress

ROWS, COLUMNS, INAROW = 6, 7, 4


def to_moves(p_moves):
    return "".join(str(c + 1) for c in p_moves)


def load_solved(path):
    """{canonical key: (column, score, kind, stones)} of a progress file."""
    solved = {}
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                fields = line.split()
                if len(fields) != 5:
                    continue  # a line cut short by an interrupted run
                moves, col, score, kind, seconds = fields
                p = Position.from_moves(moves if moves != "-" else "", ROWS, COLUMNS, INAROW)
                key, mirrored = canonical(p.key(), ROWS, COLUMNS)
                c = int(col)
                solved[key] = (COLUMNS - 1 - c if mirrored else c, int(score), int(kind), p.moves)
    return solved


def grid_of(seq):
    grid = np.zeros(ROWS * COLUMNS, dtype=np.int8)
    heights = np.zeros(COLUMNS, dtype=np.int64)
    for i, c in enumerate(seq):
        grid[c + (ROWS - 1 - heights[c]) * COLUMNS] = 1 + i % 2
        heights[c] += 1
    return grid, heights


def heuristic_move(agent, seq, depth):
    """The fixed-depth alphabeta move (no clock: deterministic)."""
    grid, heights = grid_of(seq)
    col, value, reached, nodes = agent.search(grid, heights, 1 + len(seq) % 2,
                                              parse_config(None), 0.0, depth)
    return int(col)


def generate(depth, work, exact_from=0, weak=False, heuristic_depth=8,
             tt_bits=DEFAULT_TT_BITS, quiet=False, first_exact_from=None,
             lost_heuristic=False):
    """Solve the book positions; {canonical key: (column, score, kind)}.

    ``first_exact_from`` (default ``exact_from``) is the threshold for the first
    player's positions (an even number of stones)."""
    if first_exact_from is None:
        first_exact_from = exact_from
    os.makedirs(work, exist_ok=True)
    progress_file = os.path.join(work, "solved.txt")
    # a rerun with a smaller --exact-from solves what was a heuristic entry before
    def threshold(stones):
        return first_exact_from if stones % 2 == 0 else exact_from

    solved = {k: v for k, v in load_solved(progress_file).items()
              if not (v[2] == HEURISTIC and v[3] >= threshold(v[3]))}
    solver = Solver(ROWS, COLUMNS, INAROW, tt_bits)
    agent = AlphaBetaAgent()
    # frontier: move lists of positions with the book's side to move, one level at a time
    level = {0: [[]], 1: [[c] for c in range(COLUMNS)]}
    out = open(progress_file, "a")
    try:
        for stones in range(depth + 1):
            todo, seen = [], set()
            for seq in level.get(stones, []):
                p = position_of(seq)
                key, _ = canonical(p.key(), ROWS, COLUMNS)
                if key not in seen:
                    seen.add(key)
                    todo.append(seq)
            for seq in progress(todo, f"{stones:2d} stones", "pos", not quiet):
                p = position_of(seq)
                key, mirrored = canonical(p.key(), ROWS, COLUMNS)
                if key not in solved:
                    t0 = time.perf_counter()
                    if stones < threshold(stones):
                        col, lo, kind = heuristic_move(agent, seq, heuristic_depth), 0, HEURISTIC
                    else:
                        col, lo, hi, done = solver.best_move(p, weak=weak)
                        assert done and lo == hi
                        kind = WEAK if weak else EXACT
                    dt = time.perf_counter() - t0
                    out.write(f"{to_moves(seq) or '-'} {col} {lo} {kind} {dt:.3f}\n")
                    out.flush()
                    solved[key] = (COLUMNS - 1 - col if mirrored else col, lo, kind, p.moves)
                c, score, kind, _ = solved[key]
                col = COLUMNS - 1 - c if mirrored else c
                if kind == WEAK and score < 0 and lost_heuristic:
                    # every move loses against perfect play: keep the proof (score -1) but
                    # play the fixed-depth alphabeta move, which sets the opponent problems
                    col = heuristic_move(agent, seq, heuristic_depth)
                    solved[key] = (COLUMNS - 1 - col if mirrored else col, score, kind, p.moves)
                if stones + 2 > depth or p.is_winning_move(col):
                    continue
                q = p.copy()
                q.play(col)
                for reply in range(COLUMNS):
                    if q.can_play(reply) and not q.is_winning_move(reply) \
                            and q.moves + 1 < ROWS * COLUMNS:
                        level.setdefault(stones + 2, []).append(seq + [col, reply])
    finally:
        out.close()
    return {k: (c, sc, kd) for k, (c, sc, kd, n) in solved.items() if n <= depth}


def rescore(table, solver):
    """``(table', changed)``: the book ``table`` (``{key: (column, score, kind)}``) with
    each entry whose column is a best one marked EXACT with the position's exact score
    (``changed`` such entries). ``solver`` analyses every entry's position: give it the
    12-ply database (:func:`agents.solver.database.attach`), which answers every book
    position in milliseconds. The other entries (a WEAK column that keeps the value but
    is not the fastest win or the slowest loss) keep their column, score and kind: the
    ``perfect`` agent asks its solver there when it has the database. Columns never
    change, so the positions the agent meets from the book are the same."""
    out, changed = {}, 0
    for key, (col, score, kind) in table.items():
        scores = solver.analyze(Position.from_key(key, ROWS, COLUMNS, INAROW))
        best = max(v for v in scores if v > INVALID_MOVE)
        if kind != EXACT and scores[col] == best:
            out[key], changed = (col, best, EXACT), changed + 1
        else:
            out[key] = (col, score, kind)
    return out, changed


def position_of(seq):
    p = Position(ROWS, COLUMNS, INAROW)
    for c in seq:
        p.play(c)
    return p


def main(argv=None, prog="python -m scripts.tools.make_book"):
    from scripts.args import ArgumentParser, add_quiet_argument
    ap = ArgumentParser(prog=prog, description=__doc__.split("\n\n")[0])
    ap.add_argument("--depth", type=int, default=None,
                    help="largest number of stones in a book position")
    ap.add_argument("--rescore", metavar="BOOK", default=None,
                    help="instead of generating: mark EXACT, with the exact score, the entries "
                         "of BOOK whose column is a best one (needs the 12-ply database) and "
                         "write the book to --out")
    ap.add_argument("--work", default=os.path.join("build", "book"),
                    help="directory of the resumable progress file (default build/book)")
    ap.add_argument("--out", default=str(data_path("agents", "data", BOOK_NAME)),
                    help=f"book file to write (default agents/data/{BOOK_NAME})")
    ap.add_argument("--exact-from", type=int, default=0,
                    help="positions with fewer stones get a fixed-depth alphabeta move")
    ap.add_argument("--first-exact-from", type=int, default=None,
                    help="--exact-from for the first player's positions (default: the same)")
    ap.add_argument("--heuristic-depth", type=int, default=8,
                    help="depth of the fixed-depth alphabeta moves (default 8)")
    ap.add_argument("--weak", action="store_true", help="outcome-keeping moves, not exact ones")
    ap.add_argument("--lost-heuristic", action="store_true",
                    help="in lost positions, the fixed-depth alphabeta move")
    ap.add_argument("--tt-bits", type=int, default=DEFAULT_TT_BITS,
                    help=f"solver transposition table of about 2**TT_BITS slots (default {DEFAULT_TT_BITS})")
    add_quiet_argument(ap)
    args = ap.parse_args(argv)
    if args.rescore is not None:
        return rescore_file(ap, args.rescore, args.out)
    if args.depth is None:
        ap.error("--depth is required (or --rescore BOOK)")
    if not 0 <= args.depth <= 20:
        ap.error(f"--depth must be in 0..20, got {args.depth}")
    t0 = time.perf_counter()
    entries = generate(args.depth, args.work, args.exact_from, args.weak, args.heuristic_depth,
                       args.tt_bits, args.quiet, args.first_exact_from, args.lost_heuristic)
    size, kinds = write_book(args.out, entries, ROWS, COLUMNS, INAROW, args.depth)
    print(f"{len(entries)} positions {kinds}, {size} bytes -> {args.out} "
          f"({time.perf_counter() - t0:.0f} s)")


def write_book(path, entries, rows, columns, inarow, max_stones):
    """Write the book of ``entries`` to ``path``: ``(bytes, {kind name: entries})``."""
    data = encode_book(entries, rows, columns, inarow, max_stones)
    with open(path, "wb") as f:
        f.write(data)
    kinds = {}
    for _, _, kind in entries.values():
        kinds[KIND_NAMES[kind]] = kinds.get(KIND_NAMES[kind], 0) + 1
    return len(data), kinds


def rescore_file(ap, path, out):
    """``--rescore``: :func:`rescore` the book in ``path``, written to ``out``."""
    from agents.solver.database import INSTALL_HINT, DatabaseError, attach
    with open(path, "rb") as f:
        rows, columns, inarow, max_stones, table = decode_book(f.read())
    solver = Solver(rows, columns, inarow, DEFAULT_TT_BITS)
    try:
        if attach(solver) is None:
            ap.error(f"--rescore needs the 12-ply database: {INSTALL_HINT}")
    except DatabaseError as e:
        ap.error(f"--rescore needs the 12-ply database: {e}")
    t0 = time.perf_counter()
    table, changed = rescore(table, solver)
    size, kinds = write_book(out, table, rows, columns, inarow, max_stones)
    print(f"{changed} of {len(table)} entries now EXACT {kinds}, {size} bytes -> {out} "
          f"({time.perf_counter() - t0:.1f} s)")
    return 0


if __name__ == "__main__":
    main()
