"""``connectx table``: the table of outcomes, every board's empty position solved.

    connectx table --max-side 6 --results table.jsonl
    connectx table --inarow 5 --max-side 6 --seconds 60 --results table.jsonl
    connectx table --board 7x6/4 --seconds 600 --results table.jsonl
    connectx table --inarow 4 --max-sum 13 --workers 2 --results table.jsonl
    connectx table --inarow 3 --max-side 6 --dask tcp://scheduler:8786 --results table.jsonl

For each ``--inarow`` (default 3, 4 and 5), every board with both sides from ``inarow``
up to ``--max-side`` and width + height up to ``--max-sum`` (default: every board that
fits the solver's 64 bits), or the
``--board WxH/K`` given, smallest first (equal sizes in the order of ``--seed``): the
empty board solved within ``--seconds``, then checked by a second solver and, where it
finishes, a plain-Python negamax (:mod:`agents.solver.outcomes`). Each cell is appended to
``--results`` as a JSON line as soon as it is done; a run resumes from that file (cells
in it are skipped, open ones are tried again under a larger ``--seconds``). At the end
the tables are printed in markdown, width across and height down.

``--workers N`` solves N boards at a time in forked processes, ``--dask ADDRESS`` spreads
them over a Dask cluster (:mod:`scripts.arena.pools`): each board is still solved and
checked in one task, the records are the same; they are appended as boards finish.

Bad input (a board beyond 64 bits, ``inarow`` above both sides, a size or limit below 1,
a corrupt results file or one that cannot be appended to, ``--workers`` with ``--dask``, a
Dask scheduler that cannot be reached) exits with status 2 and one line, the results file
untouched. A cell where
the two runs disagree stops the run with status 1 and both figures.
"""
import sys

from agents.solver import outcomes as O
from scripts.args import (ArgumentParser, add_pool_arguments, add_quiet_argument,
                          add_seed_argument, positive_float_arg, positive_int_arg, progress_bar,
                          report)


def main(argv=None, prog="connectx table"):
    ap = ArgumentParser(prog=prog, description="Solve the empty board of every board shape "
                        "(the table of outcomes), each cell checked twice.")
    ap.add_argument("--inarow", type=int, action="append", default=None,
                    help=f"a game to tabulate (repeat for more; default "
                         f"{', '.join(map(str, O.INAROWS))})")
    ap.add_argument("--max-side", type=int, default=None,
                    help="the largest width and height tabulated (default: all that fit 64 bits)")
    ap.add_argument("--max-sum", type=int, default=None,
                    help="the largest width + height tabulated (default: no limit)")
    ap.add_argument("--board", action="append", default=None, metavar="WxH/K",
                    help="a board to solve, e.g. 7x6/4 (repeat for more; instead of the tables)")
    ap.add_argument("--seconds", type=positive_float_arg, default=60.0,
                    help="time budget of each run on a board (default 60); past it the board "
                         "is open")
    ap.add_argument("--results", required=True, metavar="FILE",
                    help="the JSON-lines results file, read to resume and appended to")
    ap.add_argument("--tt-bits", type=positive_int_arg, default=20,
                    help="the solver's table: about 2**TT_BITS entries (default 20)")
    add_seed_argument(ap, "the order of boards of one size")
    add_pool_arguments(ap, "solving boards", "solve boards")
    add_quiet_argument(ap)
    args = ap.parse_args(argv)
    inarows = args.inarow or list(O.INAROWS)
    try:
        for flag, v in (("--max-side", args.max_side), ("--max-sum", args.max_sum)):
            if v is not None and v < 1:
                raise ValueError(f"{flag} must be >= 1, got {v}")
        if args.board:
            cells = [O.parse_board(text) for text in args.board]
            inarows = sorted({k for _, _, k in cells})
        else:
            cells = []
            for k in inarows:
                found = O.boards(k, args.max_side, args.max_sum)
                if not found and args.inarow:  # a default game with no board is left out
                    limits = "".join(f" and {flag} {v}" for flag, v in (
                        ("--max-side", args.max_side), ("--max-sum", args.max_sum))
                        if v is not None)
                    raise ValueError(f"inarow {k}: no board with both sides >= {k} fits "
                                     f"the solver's 64 bits{limits}")
                cells += found
        results = O.read_results(args.results)
        with open(args.results, "a"):  # appendable before the first board is solved
            pass
    except ValueError as e:
        ap.error(str(e))
    except OSError as e:
        ap.error(f"results file {args.results}: {e.strerror or e}")
    left = O.todo(O.seeded_order(cells, args.seed), results, args.seconds)
    bar = progress_bar(len(left), "boards", "board", enabled=not args.quiet)

    def done(record):
        O.append_record(args.results, record)
        results[record["board"]] = record
        if bar is not None:
            bar.set_postfix_str(record["board"])
            bar.update(1)
    try:
        spread([(*cell, args.seconds, args.tt_bits) for cell in left], args.workers,
               args.dask, done)
    except ValueError as e:  # the Dask scheduler cannot be reached or lacks the package
        if bar is not None:
            bar.close()
            bar = None
        ap.error(str(e))
    except O.Disagreement as e:
        report(f"{prog}: disagreement: {e}")
        return 1
    finally:
        if bar is not None:
            bar.close()
    side = args.max_side or max(max(c, r) for c, r, _ in cells)
    for k in sorted({k for _, _, k in cells}):
        print(f"\n{k} in a row\n\n{O.markdown_table(results, k, side, args.max_sum)}")
    return 0


def spread(tasks, workers, dask, done):
    """``done(record)`` for each task of :func:`agents.solver.outcomes.run_task`: in this
    process in order, in ``workers`` forked processes (the kernels compiled here first, so
    the workers inherit them) or on the Dask cluster ``dask``, as the boards finish."""
    from scripts.arena.pools import map_tasks

    def prepare():
        from agents.solver.solver import Solver, warm_up
        warm_up(Solver(4, 4, 3, 12))
    # a record that stops the run (done raises) leaves the rest of the tasks cancelled
    map_tasks(O.run_task, tasks, workers, dask, on_result=done, prepare=prepare)


if __name__ == "__main__":
    sys.exit(main())
