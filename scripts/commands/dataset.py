"""``connectx dataset``: write a labelled set -- positions from realistic play, every
legal column's exact score -- for any board the solver takes (the format:
:mod:`agents.solver.labels`; the work: :mod:`scripts.arena.dataset`, which says what
"realistic" means).

    connectx dataset --positions 1000 --seed 0 --out 7x6.npz --workers 2
    connectx dataset --config rows=5,columns=6,inarow=4 --positions 300 --out 6x5.npz
    connectx dataset --positions 5000 --out big.npz --dask tcp://scheduler:8786
    connectx dataset --config rows=7,columns=8,inarow=4 --stages end --positions 500 --out 8x7-end.npz

The shipped set, ``scripts/data/labelled/7x6.npz``, is ``connectx dataset --positions 1000
--seed 0 --out scripts/data/labelled/7x6.npz`` (with the ``books`` extra installed: the
labels are exact either way, the database only makes the opening fast); the same
command writes the same bytes. ``connectx score`` judges an agent on such a file.
"""
import sys

from scripts.args import (ArgumentParser, ProgressCallback, add_board_job_arguments,
                          add_seed_argument, board_shape, positive_int_arg)


def main(argv=None, prog="python -m scripts.commands.dataset"):
    ap = ArgumentParser(prog=prog, description="Write a labelled set: positions from realistic "
                        "play with the exact score of every column (a compressed .npz).")
    add_board_job_arguments(ap, "the .npz file to write", "playing and labelling games", "work")
    ap.add_argument("--positions", type=positive_int_arg, required=True,
                    help="the number of positions (distinct, one a game)")
    add_seed_argument(ap, "the games")
    ap.add_argument("--stages", default="opening,middle,end",
                    help="the stages sampled in turn, names separated by commas (default "
                         "opening,middle,end; 'end' alone on a board whose openings the solver "
                         "cannot label in time)")
    ap.add_argument("--no-database", action="store_true",
                    help="label without the installed opening database (7x6: slower, same labels)")
    args = ap.parse_args(argv)
    rows, columns, inarow = board_shape(ap, args.config)

    from agents.solver.labels import STAGES, save_labels
    names = [x.strip() for x in args.stages.split(",")]
    unknown = [x for x in names if x not in STAGES]
    if unknown or len(set(names)) < len(names):
        ap.error(f"--stages: distinct names among {', '.join(STAGES)}, got {args.stages!r}")
    stages = tuple(STAGES.index(x) for x in names)
    from scripts.arena.dataset import make_set
    on_progress = ProgressCallback("games", "game", not args.quiet)

    command = (f"connectx dataset --config rows={rows},columns={columns},inarow={inarow} "
               f"--positions {args.positions} --seed {args.seed}"
               + (f" --stages {','.join(names)}" if stages != (0, 1, 2) else ""))
    try:
        labelled = make_set(rows, columns, inarow, args.positions, args.seed, args.workers,
                            args.dask, not args.no_database, command, on_progress, stages)
        save_labels(args.out, labelled)
    except ValueError as e:
        ap.error(str(e))
    except OSError as e:
        ap.error(f"{args.out}: {e.strerror or e}")
    finally:
        on_progress.close()
    counts = ", ".join(f"{(labelled.stage == k).sum()} {name}" for k, name in enumerate(STAGES))
    print(f"{args.out}: {len(labelled)} positions of {columns}x{rows}/{inarow} ({counts}) from "
          f"{labelled.made['games']} games, seed {args.seed}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
