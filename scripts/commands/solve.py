"""``connectx solve``: the exact solver's command line.

    echo 4453 | connectx solve
    connectx solve -a < scripts/data/positions/end.txt
    connectx solve --config rows=5,columns=6,inarow=4 --pv < lines

Reads move strings (1-based columns, first token of each line) on stdin and prints
``moves score nodes microseconds``; ``-a`` prints the score of each column instead (-1000
for a full column); ``--pv`` adds the principal variation (1-based columns, ``-`` when the
board is full). The board is ``--config rows=R,columns=C,inarow=K`` (``--rows``,
``--columns`` and ``--inarow`` are kept as aliases; ``--config`` wins). The installed
opening database (``pip install "connectx-search[databases]"``) is used unless
``--no-database``. Bad lines print ``moves error: <what is wrong>`` and the solver goes on;
bad options exit with status 2 and one line.

7x6 positions of at most 8 stones are answered from the package's opening scores
(:mod:`agents.solver.openings`, plain Python) until the first line that needs a search
(or ``--pv``): only then are numpy, numba and the solver loaded, so ``echo "" | connectx
solve -a`` takes a few tens of milliseconds of process time. Such a line prints 0
nodes. ``--no-database`` turns the opening scores off too.
"""
import sys
import time

from agents.solver.openings import INVALID_MOVE, DatabaseError, Openings
from agents.solver.sizing import DEFAULT_TT_BITS, check_solver_options
from agents.solver.position import Position
from scripts.args import ArgumentParser, add_config_argument, board_fields


def main(argv=None, stdin=None, stdout=None, prog="connectx solve"):
    """Run the command on ``argv`` (``sys.argv[1:]`` if None), reading ``stdin`` and
    writing ``stdout`` (the process's if None); returns the exit status."""
    ap = ArgumentParser(
        prog=prog,
        description="Solve Connect Four positions read on stdin, one move string a line "
                    "(1-based columns; anything after the first space is ignored). Prints "
                    "'moves score nodes microseconds', or with -a 'moves s1 ... sW'.")
    ap.add_argument("-a", "--analyze", action="store_true",
                    help=f"print the score of each column ({INVALID_MOVE} for a full column)")
    ap.add_argument("-w", "--weak", action="store_true", help="only win (1) / draw (0) / loss (-1)")
    add_config_argument(ap, board_only=True)
    # the flags of the solver's first command line, kept as aliases of --config's fields
    for key, default in (("rows", 6), ("columns", 7), ("inarow", 4)):
        ap.add_argument(f"--{key}", type=int, default=default,
                        help=f"the same as --config {key}=N (default {default})")
    ap.add_argument("--tt-bits", type=int, default=DEFAULT_TT_BITS,
                    help="transposition table of about 2**TT_BITS 8-byte entries (default 20)")
    ap.add_argument("--pv", action="store_true",
                    help="print the principal variation after the score: the columns (1-based, "
                         "as in the moves) of a line that keeps the score to the end of the game")
    ap.add_argument("--threads", type=int, default=1,
                    help="search threads sharing one table, each on its own null-window probe "
                         "(default 1)")
    ap.add_argument("--no-database", action="store_true",
                    help="search without the opening databases (the installed one and the "
                         "package's opening scores)")
    args = ap.parse_args(argv)
    for key, value in board_fields(ap, args.config).items():
        setattr(args, key, value)
    # the Solver's own check, before any line: a line the opening scores answer builds none
    try:
        check_solver_options(args.tt_bits, args.threads)
    except ValueError as e:
        ap.error(str(e))
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    openings = Openings()
    if args.no_database or not openings.holds(Position(args.rows, args.columns, args.inarow)):
        openings = None
    solver = None if openings else _solver(ap, args)
    for line in stdin:
        fields = line.split()
        moves = fields[0] if fields else ""
        try:
            p = Position.from_moves(moves, args.rows, args.columns, args.inarow)
        except ValueError as e:
            stdout.write(f"{moves} error: {e}\n")
            stdout.flush()
            continue
        t0 = time.perf_counter()
        out = _from_openings(openings, p, moves, args, t0)
        if out is not None:
            stdout.write(out + "\n")
            stdout.flush()
            continue
        if solver is None:
            solver = _solver(ap, args)
            t0 = time.perf_counter()
        if args.analyze:
            scores = solver.analyze(p, args.weak)
            out = moves + "".join(f" {s}" for s in scores)
            score = max(scores) if scores else 0
        else:
            score = solver.solve(p, args.weak)
            us = int((time.perf_counter() - t0) * 1e6)
            out = f"{moves} {score} {solver.nodes} {us}"
        if args.pv:
            line = solver.principal_variation(p, None if args.weak else score)[0] \
                if p.moves < solver.rows * solver.columns else []
            out += " " + ("".join(str(c + 1) for c in line) or "-")
        stdout.write(out + "\n")
        stdout.flush()
    return 0


def _solver(ap, args):
    """The solver of the command's options, with the installed database unless
    ``--no-database`` (a bad option or database file: ``ap.error``)."""
    from agents.solver.database import attach, missing_note
    from agents.solver.solver import Solver
    try:
        solver = Solver(args.rows, args.columns, args.inarow, args.tt_bits, threads=args.threads)
        db = attach(solver, not args.no_database)
    except ValueError as e:  # DatabaseError too: a corrupt or unreadable database file
        ap.error(str(e))
    if db is None and not args.no_database and (args.rows, args.columns, args.inarow) == (6, 7, 4):
        sys.stderr.write(missing_note() + "\n")
    return solver


def _from_openings(openings, p, moves, args, t0):
    """The output line of ``p`` from the opening scores, or None if they do not answer it
    (``--pv`` always searches)."""
    if openings is None or args.pv or not openings.holds(p):
        return None
    try:
        if args.analyze:
            scores = openings.analyze(p)
            if scores is None:
                return None
            if args.weak:
                scores = [s if s == INVALID_MOVE else (s > 0) - (s < 0) for s in scores]
            return moves + "".join(f" {s}" for s in scores)
        score = openings.score(p)
    except DatabaseError as e:
        raise SystemExit(f"error: {e}") from None
    if args.weak:
        score = (score > 0) - (score < 0)
    us = int((time.perf_counter() - t0) * 1e6)
    return f"{moves} {score} 0 {us}"


if __name__ == "__main__":
    sys.exit(main())
