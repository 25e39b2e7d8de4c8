"""``connectx learn``: train a small policy/value network for any board and write it, its
learning curve and a JSON record of the run (the work: :mod:`scripts.learn`).

    connectx learn                                   # 7x6, teacher, into the current folder
    connectx learn --out runs/teacher --seed 1
    connectx learn --config rows=4,columns=5,inarow=3 --positions 3000 --steps 600 --out small
    connectx learn --init run/net.npz --seed 1 --value-weight 3 --out run2   # continue run

Mode ``teacher`` (the default): supervised on positions the learner meets in games
against graded opponents, every column labelled by the exact solver
(:mod:`scripts.learn.teacher`). Mode ``zero``: AlphaZero's loop, self-play with the
package's MCTS guided by the network, trained on the search's visit counts and the
games' results, no teacher (:mod:`scripts.learn.zero`; any board). Mode ``reinforce``: the same network trained by PPO
from its own games against a curriculum of the graded opponents, illegal moves masked
(:mod:`scripts.learn.reinforce`). Mode ``recipe``: the Kaggle course's CNN and PPO,
50,000 steps against ``random`` over kaggle's ``env.train`` (:mod:`scripts.learn.recipe`;
needs kaggle-environments). The network plays as ``policy:file=DIR/net.npz``.
Needs the ``learn`` extra (JAX, Optax, matplotlib).

    connectx learn --mode reinforce --out runs/reinforce
    connectx learn --mode recipe --out runs/recipe
    connectx learn --mode zero --out runs/zero --workers 2
    connectx learn --mode zero --out runs/zero --iterations 14 --resume
"""
import argparse
import sys
import time

from scripts.args import (ArgumentParser, ProgressCallback, add_config_argument,
                          add_quiet_argument, add_seed_argument, board_shape, count_arg,
                          positive_float_arg, positive_int_arg, require, share_arg)


def main(argv=None, prog="python -m scripts.commands.learn"):
    ap = ArgumentParser(prog=prog, description="Train a policy/value network (numpy .npz), "
                        "with its learning curve (PNG) and a JSON record of the run.")
    add_config_argument(ap, board_only=True)
    ap.add_argument("--mode", choices=("teacher", "reinforce", "recipe", "zero"),
                    default="teacher",
                    help="teacher: supervised on solver-labelled positions (default); "
                         "reinforce: PPO against graded opponents; recipe: the Kaggle "
                         "course's PPO over kaggle's env; zero: AlphaZero self-play with "
                         "the MCTS, no teacher")
    add_seed_argument(ap, "the games and the network")
    ap.add_argument("--out", default=".", metavar="DIR",
                    help="folder of net.npz, curve.png, record.json (default: this one)")
    ap.add_argument("--positions", type=positive_int_arg, default=None,
                    help="labelled positions in all (default 64000)")
    ap.add_argument("--steps", type=positive_int_arg, default=None,
                    help="teacher: optimiser steps in all (default 7500); reinforce, recipe: "
                         "steps of the environment in all (default 300000 board steps, 50000); "
                         "zero: optimiser steps an iteration (default 300)")
    ap.add_argument("--rounds", type=positive_int_arg, default=2,
                    help="rounds of labelling then training (default 2)")
    ap.add_argument("--eval-games", type=positive_int_arg, default=None,
                    help="games against each evaluation opponent at each point of the curve")
    ap.add_argument("--eval-set", metavar="FILE", default=None,
                    help="labelled set of the good-move rates (default: the shipped 7x6 set "
                         "on 7x6, none on other boards); its positions are never trained on")
    # --judge: the flag's name until 2026-11-27 ("judge" now names move quality only)
    ap.add_argument("--judge", dest="eval_set", metavar="FILE", help=argparse.SUPPRESS)
    ap.add_argument("--workers", type=positive_int_arg, default=2,
                    help="processes labelling positions (zero: playing the self-play games "
                         "and judging the search; default 2)")
    ap.add_argument("--dask", metavar="ADDRESS", default=None,
                    help="teacher, zero: label the positions (zero: play the self-play games "
                         "and judge the search) on a Dask scheduler, e.g. tcp://host:8786, "
                         "instead of --workers processes (the cluster extra)")
    zero = ap.add_argument_group("--mode zero")
    zero.add_argument("--iterations", type=positive_int_arg, default=None,
                      help="self-play then training iterations in all (default 10)")
    zero.add_argument("--games", type=positive_int_arg, default=None,
                      help="self-play games an iteration (default 64)")
    zero.add_argument("--simulations", type=positive_int_arg, default=None,
                      help="MCTS simulations a self-play move (default 64)")
    zero.add_argument("--judge-simulations", type=positive_int_arg, default=None,
                      help="also judge the search with the network at this many "
                           "simulations a move after each iteration (default: not)")
    zero.add_argument("--search-value", type=share_arg, default=None, metavar="W",
                      help="the root's searched value's share in the value target, the "
                           "game's result the rest (0.5: their average, as in Oracle's "
                           "Lessons from AlphaZero; default 0: the result alone)")
    zero.add_argument("--minutes", type=positive_float_arg, default=None,
                      help="wall budget of the run (resumed parts included): no iteration "
                           "starts that would end past it (default: none)")
    ap.add_argument("--init", metavar="NET", default=None,
                    help="teacher, zero: start from this network (.npz, e.g. --mode "
                         "teacher's; its architecture), not from random weights")
    zero.add_argument("--resume", action="store_true",
                      help="continue the zero run in --out from its last iteration")
    ap.add_argument("--trunk", metavar="F1,F2,...", default=None,
                    help="teacher, zero: the network's convolutions, channels by layer "
                         "(default 32,32,32,32)")
    ap.add_argument("--value-hidden", type=int, default=None, metavar="H",
                    help="teacher, zero: the value head's hidden units (default 32; 0: linear)")
    ap.add_argument("--value-weight", type=positive_float_arg, default=None, metavar="W",
                    help="teacher: the value's share of the loss, W times its squared "
                         "error (default 1)")
    ap.add_argument("--children", type=count_arg, default=None, metavar="N",
                    help="teacher: add N child positions to each batch (a labelled position "
                         "one legal move on), trained on the value only: the labels give "
                         "their exact values (default 0)")
    ap.add_argument("--openings", type=count_arg, default=None, metavar="STONES",
                    help="teacher: also label and learn every position of up to STONES stones "
                         "(7x6: 6 stones, 22,100 positions, about a minute with the database; "
                         "default 0: none)")
    ap.add_argument("--exclude", metavar="FILE", action="append", default=[],
                    help="teacher: never train on this labelled set's positions (a held-out "
                         "set; the --eval-set's never are); may be given more than once")
    ap.add_argument("--no-database", action="store_true",
                    help="label without the installed opening database (7x6: slower)")
    add_quiet_argument(ap)
    args = ap.parse_args(argv)
    cfg = board_shape(ap, args.config)
    try:
        for module in ("jax", "optax", "matplotlib") + \
                (("kaggle_environments",) if args.mode == "recipe" else ()):
            require(module, "connectx learn")
    except ValueError as e:
        ap.error(str(e))

    from scripts.learn.run import plan_for, run
    if args.mode != "zero":
        given = [o for o, v in (("--iterations", args.iterations), ("--games", args.games),
                                ("--simulations", args.simulations),
                                ("--judge-simulations", args.judge_simulations),
                                ("--search-value", args.search_value),
                                ("--minutes", args.minutes),
                                ("--resume", args.resume or None)) if v is not None]
        if given:
            ap.error(f"{given[0]} is an option of --mode zero")
    for option, value in (("--init", args.init), ("--dask", args.dask)):
        if args.mode not in ("teacher", "zero") and value is not None:
            ap.error(f"{option} is an option of --mode teacher and zero")
    for option, value in (("--value-weight", args.value_weight), ("--children", args.children),
                          ("--openings", args.openings), ("--exclude", args.exclude or None)):
        if args.mode != "teacher" and value is not None:
            ap.error(f"{option} is an option of --mode teacher")
    sized = args.trunk is not None or args.value_hidden is not None
    if sized and args.mode in ("reinforce", "recipe"):
        ap.error(f"--{'trunk' if args.trunk is not None else 'value-hidden'} is an option "
                 f"of --mode teacher and zero")
    try:
        from scripts.learn.model import architecture_of
        architecture = architecture_of(args.trunk, args.value_hidden) if sized else None
        if args.mode == "zero":
            plan, init = _zero_plan(args, cfg, architecture)
        else:
            init = _initial(args, cfg, architecture)
            plan = plan_for(cfg, args.positions, args.steps, args.rounds, args.eval_games,
                            not args.no_database, architecture, args.value_weight,
                            args.children, args.openings)
        eval_set = _eval_set(cfg, args.eval_set)
        held_out = [_eval_set(cfg, path, "--exclude") for path in args.exclude]
    except ValueError as e:
        ap.error(str(e))
    # scripts.learn reports progress(kind, done, total): one bar a kind of work
    on_progress = ProgressCallback("", "", not args.quiet)

    def bar(kind, done, total):
        on_progress(done, total, kind)
    command = "connectx learn " + " ".join(sys.argv[1:] if argv is None else argv)
    log = None if args.quiet else _log
    try:
        if args.mode == "teacher":
            paths, record = run(cfg, plan, args.seed, args.out, eval_set, args.workers, bar,
                                log, command, init, exclude=held_out, dask=args.dask)
        elif args.mode == "zero":
            paths, record = _learn_zero(args, cfg, plan, init, eval_set, bar, log, command)
        else:
            paths, record = _learn_by_games(args, cfg, eval_set, bar, log, command)
    except OSError as e:
        ap.error(f"{args.out}: {e.strerror or e}")
    except ValueError as e:  # --resume of a run already done
        ap.error(str(e))
    finally:
        on_progress.close()
    last = record["curve"][-1]
    rates = ", ".join(f"{o} {v['score']:.2f}" for o, v in last["win_rates"].items())
    print(f"{paths[0]}: {record['board']} network, {record['seconds'] / 60:.1f} min; "
          f"score as a pure policy against {rates}"
          + (f"; good moves {last['good']['all']:.3f}" if "good" in last else ""))
    print(f"curve: {paths[1]}; record: {paths[2]}; play it as policy:file={paths[0]}"
          + (f", with search as mcts:prior={paths[0]}" if args.mode == "zero" else ""))
    return 0


def _learn_by_games(args, cfg, eval_set, bar, log, command):
    """The reinforce and recipe modes' run and files."""
    from scripts.learn.run import finish
    eval_games = args.eval_games or 100
    if args.mode == "reinforce":
        from scripts.learn.model import ARCHITECTURE
        from scripts.learn.reinforce import Plan, train
        plan = Plan(eval_games=eval_games)
        if args.steps is not None:
            plan.steps = args.steps
        params, record = train(cfg, plan, args.seed, eval_set, bar, log)
    else:
        from scripts.learn.recipe import ARCHITECTURE, STEPS, train
        params, record = train(cfg, args.seed, args.steps or STEPS, judge=eval_set,
                               eval_games=eval_games, progress=bar, log=log)
    return finish(cfg, params, ARCHITECTURE, record, args.seed, args.out, eval_set, command)


def _initial(args, cfg, architecture=None):
    """The ``--init`` network ``(params, architecture)`` of a teacher or zero run (None
    without the option); ``ValueError`` when ``--trunk``/``--value-hidden`` also size the
    network (``architecture`` not None), or for a network that cannot be trained on
    ``cfg``."""
    from agents.envs.boards import board_config
    from scripts.learn.zero import initial_network
    board_config(*cfg)
    if args.init is not None and args.resume:
        raise ValueError("--init starts a new run, --resume continues one: not both")
    if architecture is not None and (args.init is not None or args.resume):
        raise ValueError(f"--{'trunk' if args.trunk is not None else 'value-hidden'} sizes "
                         f"a new network: --init and --resume take their network's")
    return initial_network(args.init, cfg) if args.init is not None else None


def _zero_plan(args, cfg, architecture=None):
    """The zero run's :class:`~scripts.learn.zero.Plan` and ``--init`` network (or None);
    ``architecture``: of ``--trunk``/``--value-hidden`` (None: the default); ``ValueError``
    for a board or option that cannot be."""
    from scripts.learn.zero import Plan
    init = _initial(args, cfg, architecture)
    plan = Plan(architecture=architecture)
    for option, name in (("iterations", "iterations"), ("games", "games"),
                         ("simulations", "simulations"), ("steps", "steps"),
                         ("eval_games", "eval_games"),
                         ("judge_simulations", "judge_simulations"),
                         ("search_value", "search_value"), ("minutes", "minutes")):
        if getattr(args, option) is not None:
            setattr(plan, name, getattr(args, option))
    if args.resume:
        from scripts.learn.zero import resumed
        resumed(args.out, cfg)  # a clear error now, before JAX starts
    return plan, init


def _learn_zero(args, cfg, plan, init, eval_set, bar, log, command):
    """The zero mode's run: its processes forked before JAX starts (as the teacher's)."""
    from scripts.arena.pools import executor
    from scripts.learn.zero import train
    with executor(args.workers, args.dask, "scripts.learn.zero") as pool:
        return train(cfg, plan, args.seed, args.out, eval_set, pool, bar, log, command, init,
                     args.resume, args.workers)


def _eval_set(cfg, path, option="--eval-set"):
    """The labelled set of ``--eval-set`` (None: the shipped 7x6 set on 7x6, no set on
    other boards) or of ``--exclude``; ``ValueError`` when it is of another board."""
    from agents.solver.labels import load_labels
    if path is None:
        if tuple(cfg) != (6, 7, 4):
            return None
        from scripts.arena.judging import DEFAULT_SET
        path = DEFAULT_SET
    labelled = load_labels(path)
    if labelled.config != tuple(cfg):
        raise ValueError(f"{option} {path} is a set of {labelled.columns}x{labelled.rows} "
                         f"with {labelled.inarow} in a row, not of the board learned")
    return labelled


def _log(text):
    print(f"[{time.strftime('%H:%M:%S')}] {text}", file=sys.stderr, flush=True)


if __name__ == "__main__":
    sys.exit(main())
