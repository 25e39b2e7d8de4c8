"""``connectx database build``: an opening database of any board that fits the bitboard -- the
exact score of every position of N stones -- in the package's format, which
``connectx solve``, the page and the ``perfect`` agent's solver read
(:mod:`agents.solver.database`). The work is :mod:`scripts.arena.database_build`.

    connectx database build --config rows=4,columns=5,inarow=4 --plies 8 --out 5x4-8.cxdb
    connectx database build --plies 8 --out 7x6-8.cxdb --workers 2
    connectx database build --plies 6 --out 7x6-6.cxdb --dask tcp://scheduler:8786

Held: every position of N stones reached without a four, a position and its mirror
image once; like BitBully's files, not the positions whose side to move wins at once.
Interrupted, the same command resumes: solved chunks wait in OUT.parts/ beside the
output. A 7x6/4 build uses the installed 12-ply database (the ``books`` extra) at the
leaves unless ``--no-database``; ``--leaves FILE`` uses a database of more stones
built here.
"""
import sys

from scripts.args import (ArgumentParser, ProgressCallback, add_board_job_arguments,
                          board_shape, count_arg, positive_int_arg)


def main(argv=None, prog="python -m scripts.commands.database build"):
    ap = ArgumentParser(prog=prog, description="Solve every position of N stones of a board and "
                        "write them as an opening database (resumable).")
    ap.add_argument("--plies", type=count_arg, required=True,
                    help="the number of stones of the database's positions")
    add_board_job_arguments(ap, "the database file to write (chunks wait in FILE.parts/ until "
                            "the end)", "solving chunks", "solve")
    ap.add_argument("--chunk", type=positive_int_arg, default=None,
                    help="positions a task and a chunk file (default: about 200 chunks, at most 2000 "
                         "positions each); a resumed build must use the same")
    leaves = ap.add_mutually_exclusive_group()
    leaves.add_argument("--leaves", metavar="FILE", default=None,
                        help="a database of the same board and more stones to stop the search at "
                             "(default: the installed 12-ply database on 7x6/4)")
    leaves.add_argument("--no-database", action="store_true",
                        help="no database at the leaves: the plain solver")
    args = ap.parse_args(argv)
    rows, columns, inarow = board_shape(ap, args.config)

    from scripts.arena import database_build
    on_progress = ProgressCallback("positions", "pos", not args.quiet)

    error = None
    try:
        report = database_build.build(rows, columns, inarow, args.plies, args.out, workers=args.workers,
                                  dask=args.dask, chunk=args.chunk,
                                  leaves=None if args.no_database else (args.leaves or "default"),
                                  on_progress=on_progress)
    except ValueError as e:
        error = str(e)
    except OSError as e:
        error = f"{args.out}: {e.strerror or e}"
    except KeyboardInterrupt:
        on_progress.close()
        print(f"{prog}: interrupted; the solved chunks are kept in {args.out}.parts/: the same "
              f"command resumes", file=sys.stderr)
        return 130
    finally:
        on_progress.close()
    if error:
        ap.error(error)
    resumed = f", {report.resumed} found solved" if report.resumed else ""
    leaves_note = f"; leaves: {report.leaves}" if report.leaves else ""
    print(f"{report.out}: {report.positions} positions of {report.ply} stones, "
          f"{report.columns}x{report.rows}/{report.inarow}, {report.bytes} bytes; "
          f"{report.chunks} chunks{resumed}, {report.seconds:.1f} s{leaves_note}")
    return 0


if __name__ == "__main__":
    argv = sys.argv[1:]
    if argv[:1] == ["build"]:
        argv = argv[1:]
    sys.exit(main(argv))
