"""Opening suites for matches: ``--openings FILE | balanced:K | none``.

An opening is a move string in the notation of ``tests/data`` (1-based columns from
the empty board, ``"4453"``: first player in column 4, second in 4, first in 5,
second in 3). A suite file has one opening a line, its first token; blank lines and
lines starting with ``#`` are ignored, so the labelled position files
(``moves score``) are suites too. Each opening is checked against the match's board:
columns in range, no full column, no four in a row (the position must not be over).

``balanced:K`` is the package's own suite for the standard 7x6 board, shipped in
``scripts/data/openings/balancedK.txt`` and made by::

    python -m scripts.arena.openings --generate K [--bound T] [--budget SECONDS]

Every K-ply move sequence is played out; sequences that reach the same position
(transpositions) or its mirror image count once (the smallest move string is kept).
"Close to balanced" means: the exact solver proves ``|score| <= T`` (default
:data:`BOUND` = 4), i.e. with perfect play neither side connects four before its
``22 - T``-th stone -- the game goes to the last few empty cells. That takes two
null-window searches (:meth:`agents.search.solver.Solver.score_at_least` at ``T + 1`` and
``-T``), far cheaper than an exact solve of a 4-stone position (seconds to minutes
each). The kept openings are then narrowed towards their exact score with the time
left, so each line reads ``moves lo hi``: the score (side to move, the convention of
:mod:`agents.search.solver`) lies in ``[lo, hi]``, exact when ``lo == hi``. Openings whose
bound could not be proved within the per-search deadline are left out and counted in
the file's header.
"""
import os
import sys
import time

BOUND = 4  # "close to balanced": |score| <= BOUND (win, if any, at the 18th stone or later)
DATA_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data", "openings")
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
    from agents.search.position import Position
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
    from agents.search.position import Position
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


def generate(k, bound=BOUND, deadline_each=20.0, budget=600.0, log=sys.stderr):
    """Classify the ``k``-ply openings; returns (rows of (moves, lo, hi), counts dict).

    Phase 1 proves ``-bound <= score <= bound`` (or refutes it) for each opening with
    a deadline of ``deadline_each`` seconds per search; phase 2 narrows the kept ones
    towards their exact score by bisection until ``budget`` seconds have passed."""
    from agents.search.solver import Solver, warm_up
    solver = Solver(*STANDARD)
    warm_up(solver)
    start, cpu0 = time.perf_counter(), time.process_time()
    openings = distinct_openings(k, *STANDARD)
    kept, counts = [], {"openings": len(openings), "balanced": 0, "unbalanced": 0,
                        "unresolved": 0}
    for i, m in enumerate(openings):
        p = solver.position(m)
        verdict = None
        for t, ok_if in ((bound + 1, False), (-bound, True)):
            r = solver.score_at_least(p, t, deadline=time.perf_counter() + deadline_each)
            if r is None:
                verdict = "unresolved"
                break
            if r != ok_if:
                verdict = "unbalanced"
                break
        verdict = verdict or "balanced"
        counts[verdict] += 1
        if verdict == "balanced":
            kept.append([m, -bound, bound])
        if (i + 1) % 50 == 0:
            print(f"{i + 1}/{len(openings)} {counts} {time.perf_counter() - start:.0f} s",
                  file=log, flush=True)
    counts["phase1_seconds"] = round(time.perf_counter() - start, 1)
    # phase 2: bisection on [lo, hi], one probe per opening per round, while time lasts
    progress = True
    while progress and time.perf_counter() - start < budget:
        progress = False
        for row in kept:
            m, lo, hi = row
            if lo == hi or time.perf_counter() - start >= budget:
                continue
            mid = (lo + hi + 1) // 2  # is score >= mid ?
            left = budget - (time.perf_counter() - start)
            r = solver.score_at_least(solver.position(m), mid,
                                      deadline=time.perf_counter() + min(deadline_each, left))
            if r is None:
                continue
            progress = True
            if r:
                row[1] = mid
            else:
                row[2] = mid - 1
    counts["exact"] = sum(lo == hi for _, lo, hi in kept)
    counts["seconds"] = round(time.perf_counter() - start, 1)
    counts["cpu"] = round(time.process_time() - cpu0, 1)
    return kept, counts


def write_suite(path, k, rows, counts, bound, command):
    """Write the kept ``rows`` with a header saying how they were made."""
    with open(path, "w", encoding="utf-8") as f:
        f.write(f"# balanced:{k} -- {k}-ply openings of 7x6 Connect Four (1-based columns) that\n"
                f"# the exact solver (agents.solver) proves close to balanced: |score| <= {bound}\n"
                f"# (side to move; with perfect play no four before the {22 - bound}th stone).\n"
                f"# Transpositions and mirror images folded (smallest move string kept).\n"
                f"# Line: moves lo hi -- the exact score lies in [lo, hi] (exact if lo == hi).\n"
                f"# Made by: {command}\n"
                f"# {counts['openings']} distinct openings: {counts['balanced']} balanced, "
                f"{counts['unbalanced']} not, {counts['unresolved']} unresolved in the "
                f"per-search deadline (left out); {counts['exact']} scores exact; "
                f"{counts['seconds']:.0f} s wall, {counts['cpu']:.0f} s CPU "
                f"(phase 1 {counts['phase1_seconds']:.0f} s)\n")
        for m, lo, hi in rows:
            f.write(f"{m} {lo} {hi}\n")


def main(argv=None):
    from scripts.arena.runner import ArgumentParser
    p = ArgumentParser(prog="python -m scripts.arena.openings",
                       description="Generate a balanced:K opening suite.")
    p.add_argument("--generate", type=int, required=True, metavar="K", help="plies")
    p.add_argument("--bound", type=int, default=BOUND, help=f"|score| bound (default {BOUND})")
    p.add_argument("--deadline", type=float, default=20.0, help="seconds per search (default 20)")
    p.add_argument("--budget", type=float, default=600.0, help="total seconds (default 600)")
    p.add_argument("--out", default=None, help="output file (default the shipped suite)")
    args = p.parse_args(argv)
    if not 0 <= args.generate <= 8 or args.bound < 0:
        p.error("K must be in 0..8 and --bound >= 0")
    rows, counts = generate(args.generate, args.bound, args.deadline, args.budget)
    command = ("python -m scripts.arena.openings --generate "
               f"{args.generate} --bound {args.bound} --deadline {args.deadline:g} "
               f"--budget {args.budget:g}")
    os.makedirs(DATA_DIR, exist_ok=True)
    path = args.out or suite_path(args.generate)
    write_suite(path, args.generate, rows, counts, args.bound, command)
    print(f"{path}: {counts}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
