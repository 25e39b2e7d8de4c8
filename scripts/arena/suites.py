"""Opening suites for matches: ``--openings FILE | balanced:K | none``.

An opening is a move string in the notation of ``scripts/data/positions`` (1-based columns from
the empty board, ``"4453"``: first player in column 4, second in 4, first in 5,
second in 3). A suite file has one opening a line, its first token; blank lines and
lines starting with ``#`` are ignored, so the labelled position files
(``moves score``) are suites too. Each opening is checked against the match's board:
columns in range, no full column, no four in a row (the position must not be over).

``balanced:K`` is the package's own suite for the standard 7x6 board, shipped in
``scripts/data/suites/balancedK.txt`` and made by::

    python -m scripts.tools.balanced_suites --generate K [--bound T] [--budget SECONDS]

Every K-ply move sequence is played out; sequences that reach the same position
(transpositions) or its mirror image count once (the smallest move string is kept).
"Close to balanced" means: the exact solver proves ``|score| <= T`` (default
:data:`BOUND` = 4), i.e. with perfect play neither side connects four before its
``22 - T``-th stone -- the game goes to the last few empty cells. That takes two
null-window searches (:meth:`agents.solver.solver.Solver.score_at_least` at ``T + 1`` and
``-T``), far cheaper than an exact solve of a 4-stone position (seconds to minutes
each). The kept openings are then narrowed towards their exact score with the time
left, so each line reads ``moves lo hi``: the score (side to move, the convention of
:mod:`agents.solver.solver`) lies in ``[lo, hi]``, exact when ``lo == hi``. Openings whose
bound could not be proved within the per-search deadline are left out and counted in
the file's header.
"""
import os

import numpy as np

from agents.resources import data_path

BOUND = 4  # "close to balanced": |score| <= BOUND (win, if any, at the 18th stone or later)
DATA_DIR = str(data_path("scripts", "data", "suites"))
STANDARD = (6, 7, 4)  # rows, columns, inarow of the shipped suites


def suite_path(k):
    return os.path.join(DATA_DIR, f"balanced{k}.txt")


def shipped():
    """The K of the shipped ``balanced:K`` suites, ascending."""
    if not os.path.isdir(DATA_DIR):
        return []
    out = []
    for name in os.listdir(DATA_DIR):
        if name.startswith("balanced") and name.endswith(".txt") and name[8:-4].isdigit():
            out.append(int(name[8:-4]))
    return sorted(out)


# ---------------------------------------------------------------------------
# Reading and checking suites (ValueError with a one-line message)
# ---------------------------------------------------------------------------


def check_opening(moves, rows, columns, inarow):
    """``ValueError`` if ``moves`` is not a legal, unfinished position on this board."""
    from agents.solver.position import Position
    if not moves.isdigit() and moves:
        bad = next(ch for ch in moves if not ch.isdigit())
        raise ValueError(f"opening {moves!r}: {bad!r} is not a column")
    if columns > 9:
        raise ValueError("move strings name columns with one digit: at most 9 columns")
    if len(moves) >= rows * columns:
        raise ValueError(f"opening {moves!r} fills the board")
    try:
        Position.from_moves(moves, rows, columns, inarow)
    except ValueError as e:
        raise ValueError(f"opening {moves!r}: {e}") from None


def read_suite(path, rows=6, columns=7, inarow=4):
    """The openings of a suite file, in file order, each checked (:func:`check_opening`)."""
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except (OSError, UnicodeDecodeError) as e:
        why = getattr(e, "strerror", None) or e
        raise ValueError(f"cannot read openings file {path!r}: {why}") from None
    out = []
    for number, line in enumerate(lines, 1):
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        moves = text.split()[0]
        try:
            check_opening(moves, rows, columns, inarow)
        except ValueError as e:
            raise ValueError(f"{path}, line {number}: {e}") from None
        out.append(moves)
    if not out:
        raise ValueError(f"openings file {path!r} has no openings")
    return out


def resolve(text, rows=6, columns=7, inarow=4):
    """The openings named by an ``--openings`` value: ``[""]`` for ``none`` (the empty
    board), the shipped suite for ``balanced:K``, else a suite file."""
    if text == "none":
        return [""]
    if text.startswith("balanced"):
        _, sep, k = text.partition(":")
        have = shipped()
        listed = ", ".join(f"balanced:{x}" for x in have) or "none"
        if not sep or not k.isdigit() or int(k) not in have:
            raise ValueError(f"no shipped suite {text!r}; shipped: {listed}")
        if (rows, columns, inarow) != STANDARD:
            raise ValueError(f"{text} is for the 7x6 board with 4 in a row; this match is "
                             f"{columns}x{rows} with {inarow} in a row: give --openings FILE "
                             "or none")
        return read_suite(suite_path(int(k)), rows, columns, inarow)
    return read_suite(text, rows, columns, inarow)


def default_openings(rows=6, columns=7, inarow=4):
    """The default ``--openings``: the largest shipped balanced suite on the 7x6 board,
    ``none`` on other boards (no suite is shipped for them)."""
    have = shipped()
    if (rows, columns, inarow) == STANDARD and have:
        return f"balanced:{have[-1]}"
    return "none"


# ---------------------------------------------------------------------------
# Generating the balanced suites
# ---------------------------------------------------------------------------


def mirror(moves, columns=7):
    return "".join(str(columns + 1 - int(ch)) for ch in moves)


def distinct_openings(k, rows=6, columns=7, inarow=4):
    """Every unfinished position after ``k`` plies, mirror images folded: the smallest
    move string reaching it or its mirror, sorted."""
    from agents.solver.position import Position
    best = {}
    frontier = [("", Position(rows, columns, inarow))]
    for _ in range(k):
        nxt = {}
        for moves, p in frontier:
            for c in range(columns):
                if not p.can_play(c) or p.is_winning_move(c):
                    continue
                q = p.copy()
                q.play(c)
                m = moves + str(c + 1)
                key = q.key()
                if key not in nxt or m < nxt[key][0]:
                    nxt[key] = (m, q)
        frontier = list(nxt.values())
    for m, q in frontier:
        canon = min(m, mirror(m, columns))
        mq = Position.from_moves(mirror(m, columns), rows, columns, inarow)
        key = min(q.key(), mq.key())
        if key not in best or canon < best[key]:
            best[key] = canon
    return sorted(best.values())


def pair_openings(openings, pairs, seed):
    """The opening of each of ``pairs`` pairs: the suite ``openings`` (None or ``[]``:
    the empty board) in an order shuffled by the match ``seed``, again in a new
    shuffled order once every opening has been used."""
    if not openings:
        return [""] * pairs
    rng = np.random.default_rng(np.random.SeedSequence([seed, 16]))
    out = []
    while len(out) < pairs:
        out.extend(openings[k] for k in rng.permutation(len(openings)))
    return out[:pairs]
