"""The table of outcomes: the empty board of every board shape solved, and checked twice.

A *cell* is one board shape, named ``WxH/K`` (``columns x rows / inarow``, as ``7x6/4``):
the exact outcome of its empty board under perfect play (``first``, ``second`` or
``draw``) and the *end move*, the number of the move (1-based ply) on which the perfect
game ends: the winning stone's, or the last cell's for a draw.

The end move comes from the solver's score (:mod:`agents.solver.solver`): a win with the
winning stone dropped when ``m`` stones are on the board scores ``(N + 1 - m) // 2``
(``N = rows * columns``), so ``m`` is ``N + 1 - 2s`` or ``N - 2s``, whichever the winner
drops (even ``m``: the first player's stone), and the game ends on move ``m + 1``.

Each cell is solved by the solver and checked by runs that share no table with it and
not its move order (:func:`check_cell`):

* ``probes``: a second :class:`~agents.solver.solver.Solver` with its own table, no
  mirror folding and the columns' tie order mirrored (the first run's is centre first,
  left before right at equal distance; left to right took over 60 s on 6x6/4, where the
  first run took 5 s), asked two null-window questions, "at least ``s``?" (yes) and "at least
  ``s + 1``?" (no): the score ``s`` exactly, by another root procedure;
* ``reference``: :func:`reference_score`, a plain-Python negamax (alpha-beta over a
  dict, columns left to right) on :class:`~agents.solver.position.Position`, which
  compiles nothing and shares no code with the kernels, on boards where it finishes
  within its node budget.

A cell where a check disagrees raises :class:`Disagreement` with both figures. A cell
whose search runs past its time budget is *open*: it is recorded with the nodes
searched, and no outcome.

Results are JSON lines (:func:`record_line`, :func:`read_results`), one a cell; a later
line of a board replaces an earlier one, so a run resumes by appending.
"""
import hashlib
import json
import os
import random
import re
import time

from agents.board.bitboard import fits_bitboard
from agents.solver.position import Position

OUTCOMES = ("first", "second", "draw")
OPEN = "open"
INAROWS = (3, 4, 5)  # the published table's rows of the three games
# a JSON line's fields: every record has these; a solved one adds outcome, end_move, score
FIELDS = ("board", "outcome", "nodes", "seconds", "solver", "checked_by")
REFERENCE_NODES = 200_000  # the reference negamax's budget a cell (a few seconds of Python)
_BOARD = re.compile(r"^\s*(-?\d+)\s*x\s*(-?\d+)\s*/\s*(-?\d+)\s*$")
# the solver's code: its version is a hash of these files (a change of any is a new solver)
_SOLVER_FILES = ("bits.py", "kernel.py", "roots.py", "solver.py", "table.py", "position.py")


class Disagreement(Exception):
    """Two runs gave a cell different figures; the message names both."""


def board_name(columns, rows, inarow):
    return f"{columns}x{rows}/{inarow}"


def check_board(columns, rows, inarow):
    """``ValueError`` saying why ``columns x rows / inarow`` is not a cell of the table:
    a size below 1, ``inarow`` above both sides (no line fits: every game is a draw),
    or a board beyond the solver's 64 bits."""
    name = board_name(columns, rows, inarow)
    if min(columns, rows, inarow) < 1:
        raise ValueError(f"board {name}: columns, rows and inarow must be >= 1")
    if inarow > max(columns, rows):
        raise ValueError(f"board {name}: inarow {inarow} is above both sides (no line fits)")
    if not fits_bitboard(rows, columns):
        raise ValueError(f"board {name} needs columns * (rows + 1) = {columns * (rows + 1)} "
                         f"bits; the solver handles at most 64")


def parse_board(text):
    """``(columns, rows, inarow)`` of ``"WxH/K"``, checked (:func:`check_board`)."""
    m = _BOARD.match(text)
    if not m:
        raise ValueError(f"board {text!r}: expected WIDTHxHEIGHT/INAROW, e.g. 7x6/4")
    columns, rows, inarow = (int(v) for v in m.groups())
    check_board(columns, rows, inarow)
    return columns, rows, inarow


def boards(inarow, max_side=None, max_sum=None):
    """Every cell of ``inarow``: both sides from ``inarow`` up to ``max_side``, width +
    height at most ``max_sum`` (default: as far as the solver's 64 bits go),
    ``(columns, rows, inarow)`` by width then height."""
    if inarow < 1:
        raise ValueError(f"inarow must be >= 1, got {inarow}")
    out = []
    top = 64 if max_side is None else max_side
    for columns in range(inarow, top + 1):
        for rows in range(inarow, top + 1):
            if fits_bitboard(rows, columns) and (max_sum is None or columns + rows <= max_sum):
                out.append((columns, rows, inarow))
    return out


def seeded_order(cells, seed):
    """``cells`` smallest first (by number of cells), shuffled with ``seed`` among equal sizes."""
    rng = random.Random(seed)
    keyed = [(c * r, rng.random(), (c, r, k)) for c, r, k in cells]
    return [cell for _, _, cell in sorted(keyed)]


def outcome_of(score):
    """``first``, ``second`` or ``draw`` of the empty board's score (first player to move)."""
    return "first" if score > 0 else "second" if score < 0 else "draw"


def end_move(score, cells):
    """The move (1-based ply) on which the perfect game ends, from the empty board's
    score on a board of ``cells`` cells (the scale in the module docstring)."""
    if score == 0:
        return cells
    s = abs(score)
    m = cells + 1 - 2 * s  # stones on the board before the winning stone
    if m % 2 != (0 if score > 0 else 1):  # the first player drops at even m
        m -= 1
    return m + 1


def solver_version():
    """A short hash of the solver's source files: the results' ``solver`` field."""
    here = os.path.dirname(os.path.abspath(__file__))
    h = hashlib.sha256()
    for name in _SOLVER_FILES:
        with open(os.path.join(here, name), "rb") as f:
            h.update(f.read())
    return h.hexdigest()[:12]


# ---------------------------------------------------------------------------
# The runs
# ---------------------------------------------------------------------------


def solve_cell(columns, rows, inarow, seconds, tt_bits=20):
    """The first run: ``(score or None, nodes, seconds)``; None when ``seconds`` ran out."""
    from agents.solver.solver import Solver
    s = Solver(rows, columns, inarow, tt_bits)
    t0 = time.perf_counter()
    score = s.solve("", deadline=t0 + seconds)
    return score, s.nodes, time.perf_counter() - t0


def probe_score(columns, rows, inarow, score, seconds, tt_bits=20):
    """The second run of :func:`check_cell` (the module docstring's ``probes``): True if
    the empty board's score is exactly ``score``, False if not, None past ``seconds``."""
    from agents.solver.bits import G_ORDER
    from agents.solver.solver import Solver
    s = Solver(rows, columns, inarow, tt_bits, symmetric=False)
    order = [int(c) for c in s.g[G_ORDER:G_ORDER + columns]]
    s.g[G_ORDER:G_ORDER + columns] = [columns - 1 - c for c in order]  # right before left
    deadline = time.perf_counter() + seconds
    at_least = s.score_at_least("", score, deadline=deadline)
    if at_least is None:
        return None
    if not at_least:
        return False
    above = s.score_at_least("", score + 1, deadline=deadline)
    return None if above is None else not above


class _OutOfNodes(Exception):
    pass


def reference_score(columns, rows, inarow, nodes=REFERENCE_NODES):
    """The empty board's score by a plain-Python negamax (alpha-beta, a dict of bounds,
    columns left to right, the rules of :class:`Position`), or None past ``nodes`` nodes."""
    n = rows * columns
    memo = {}
    count = [0]

    def value(p, alpha, beta):
        count[0] += 1
        if count[0] > nodes:
            raise _OutOfNodes
        legal = [c for c in range(columns) if p.can_play(c)]
        if any(p.is_winning_move(c) for c in legal):
            return (n + 1 - p.moves) // 2
        if not legal:
            return 0
        key = p.key()
        lo, hi = memo.get(key, (-n, n))
        if lo >= beta:
            return lo
        if hi <= alpha:
            return hi
        if lo == hi:
            return lo
        a0, b0 = max(alpha, lo), min(beta, hi)
        a, best = a0, -n
        for c in legal:
            q = p.copy()
            q.play(c)
            best = max(best, -value(q, -b0, -a))
            a = max(a, best)
            if a >= b0:
                break
        if best <= a0:
            hi = min(hi, best)
        elif best >= b0:
            lo = max(lo, best)
        else:
            lo = hi = best
        memo[key] = (lo, hi)
        return best

    try:
        return value(Position(rows, columns, inarow), -n, n)
    except _OutOfNodes:
        return None


def check_cell(columns, rows, inarow, score, seconds, reference_nodes=REFERENCE_NODES,
               tt_bits=20):
    """The second checks of a solved cell: the names of those that finished and agreed
    (``probes``, ``reference``), or :class:`Disagreement`. An empty list: none finished."""
    name = board_name(columns, rows, inarow)
    checked = []
    ok = probe_score(columns, rows, inarow, score, seconds, tt_bits)
    if ok is False:
        raise Disagreement(f"board {name}: the solver scores {score}, the probes of a second "
                           f"solver (own table, mirrored order) say the score is not {score}")
    if ok:
        checked.append("probes")
    ref = reference_score(columns, rows, inarow, reference_nodes) if reference_nodes else None
    if ref is not None:
        if ref != score:
            raise Disagreement(f"board {name}: the solver scores {score} ({outcome_of(score)} "
                               f"on move {end_move(score, rows * columns)}), the reference "
                               f"negamax {ref} ({outcome_of(ref)} on move "
                               f"{end_move(ref, rows * columns)})")
        checked.append("reference")
    return checked


def run_cell(columns, rows, inarow, seconds, check=check_cell, tt_bits=20):
    """One cell's record (a dict of :data:`FIELDS`): solved and checked, or open."""
    score, nodes, took = solve_cell(columns, rows, inarow, seconds, tt_bits)
    record = {"board": board_name(columns, rows, inarow), "outcome": OPEN, "nodes": nodes,
              "seconds": round(took, 3), "solver": solver_version(), "checked_by": [],
              "budget": seconds}
    if score is None:
        return record
    t0 = time.perf_counter()
    checked = check(columns, rows, inarow, score, seconds, tt_bits=tt_bits)
    record["check_seconds"] = round(time.perf_counter() - t0, 3)
    if not checked:  # solved once, no second run finished: not a result yet
        record["open_reason"] = "no second check finished"
        return record
    record.update(outcome=outcome_of(score), end_move=end_move(score, rows * columns),
                  score=score, checked_by=["solver"] + checked)
    return record


def run_task(task):
    """:func:`run_cell` of one task ``(columns, rows, inarow, seconds, tt_bits)``, as a
    process pool or a Dask worker runs it (a :class:`Disagreement` is raised to the caller
    by the pool's future)."""
    columns, rows, inarow, seconds, tt_bits = task
    return run_cell(columns, rows, inarow, seconds, tt_bits=tt_bits)


# ---------------------------------------------------------------------------
# The results file
# ---------------------------------------------------------------------------


def record_line(record):
    return json.dumps(record, sort_keys=True) + "\n"


def read_results(path):
    """``{board: record}`` of a results file (the last line of a board wins); ``{}`` if
    there is no file. ``ValueError`` naming the file and line of the first bad line."""
    if not os.path.exists(path):
        return {}
    out = {}
    with open(path) as f:
        for i, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                rec = json.loads(line)
                if not isinstance(rec, dict) or any(k not in rec for k in FIELDS):
                    raise ValueError(f"a record needs the fields {', '.join(FIELDS)}")
                parse_board(rec["board"])
                if rec["outcome"] not in OUTCOMES + (OPEN,):
                    raise ValueError(f"unknown outcome {rec['outcome']!r}")
                if rec["outcome"] != OPEN and not isinstance(rec.get("end_move"), int):
                    raise ValueError("a solved record needs an integer end_move")
            except ValueError as e:  # json.JSONDecodeError is a ValueError
                raise ValueError(f"results file {path} line {i} is corrupt: {e}") from None
            out[rec["board"]] = rec
    return out


def todo(cells, results, seconds):
    """The cells of ``cells`` a run with ``seconds`` a cell must still do: not in
    ``results``, or open there under a smaller budget."""
    left = []
    for cell in cells:
        rec = results.get(board_name(*cell))
        if rec is None or (rec["outcome"] == OPEN and rec.get("budget", 0) < seconds):
            left.append(cell)
    return left


def append_record(path, record):
    """Append ``record`` as one line (after a newline if the file's last line lacks one)."""
    lead = ""
    if os.path.exists(path) and os.path.getsize(path):
        with open(path, "rb") as f:
            f.seek(-1, os.SEEK_END)
            lead = "" if f.read(1) == b"\n" else "\n"
    with open(path, "a") as f:
        f.write(lead + record_line(record))
        f.flush()


# ---------------------------------------------------------------------------
# The tables as the published one is laid out: width across, height down
# ---------------------------------------------------------------------------


def cell_text(record):
    """``+41`` (first player wins on move 41), ``-20`` (second player, move 20), ``=16``
    (a draw: the board fills on move 16), ``?`` (open)."""
    if record is None or record["outcome"] == OPEN:
        return "?"
    sign = {"first": "+", "second": "-", "draw": "="}[record["outcome"]]
    return f"{sign}{record['end_move']}"


def markdown_table(results, inarow, max_side, max_sum=None):
    """The markdown table of ``inarow``'s cells up to ``max_side`` a side and width + height
    ``max_sum``; a cell not in ``results`` (or open) is ``?``, a board beyond 64 bits or
    ``max_sum`` blank."""
    sides = range(inarow, max_side + 1)
    head = "| height \\ width | " + " | ".join(str(w) for w in sides) + " |"
    lines = [head, "|" + "---|" * (len(sides) + 1)]
    for h in sides:
        row = [cell_text(results.get(board_name(w, h, inarow)))
               if fits_bitboard(h, w) and (max_sum is None or w + h <= max_sum) else ""
               for w in sides]
        lines.append(f"| {h} | " + " | ".join(row) + " |")
    return "\n".join(lines)


def parse_markdown_table(text, inarow):
    """``{board: cell text}`` of a table :func:`markdown_table` wrote (its ``?`` too)."""
    out = {}
    rows = [line for line in text.splitlines() if line.startswith("|")]
    widths = [int(v) for v in rows[0].strip("|").split("|")[1:]]
    for line in rows[2:]:
        fields = [v.strip() for v in line.strip().strip("|").split("|")]
        h = int(fields[0])
        for w, v in zip(widths, fields[1:]):
            if v:
                out[board_name(w, h, inarow)] = v
    return out


def markdown_costs(results, cells):
    """The markdown table of the cost of each of ``cells`` in ``results``: outcome, end
    move, the first run's nodes and seconds, the second checks' seconds and the runs that
    agree on it (an open board: its budget and the nodes searched within it)."""
    lines = ["| board | outcome | end move | nodes | seconds | checks' seconds | checked by |",
             "|---|---|---|---|---|---|---|"]
    for cell in cells:
        rec = results.get(board_name(*cell))
        if rec is None:
            continue
        solved = rec["outcome"] != OPEN
        outcome = rec["outcome"] if solved else (
            f"open (budget {rec.get('budget', 0):g} s"
            + (f"; {rec['open_reason']}" if "open_reason" in rec else "") + ")")
        checks = f"{rec['check_seconds']:.1f}" if "check_seconds" in rec else ""
        lines.append(f"| {rec['board']} | {outcome} | {rec['end_move'] if solved else ''} | "
                     f"{rec['nodes']:,} | {rec['seconds']:.1f} | {checks} | "
                     f"{', '.join(rec['checked_by'])} |")
    return "\n".join(lines)
