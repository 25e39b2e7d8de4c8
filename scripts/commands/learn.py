"""``connectx learn``: train a small policy/value network for any board and write it, its
learning curve and a JSON record of the run (the work: :mod:`scripts.learn`).

    connectx learn                                   # 7x6, teacher, into the current folder
    connectx learn --out runs/teacher --seed 1
    connectx learn --config rows=4,columns=5,inarow=3 --positions 3000 --steps 600 --out small

Mode ``teacher`` (the default): supervised on positions the learner meets in games
against graded opponents, every column labelled by the exact solver
(:mod:`scripts.learn.teacher`). Mode ``reinforce``: the same network trained by PPO
from its own games against a curriculum of the graded opponents, illegal moves masked
(:mod:`scripts.learn.reinforce`). Mode ``recipe``: the Kaggle course's CNN and PPO,
50,000 steps against ``random`` over kaggle's ``env.train`` (:mod:`scripts.learn.recipe`;
needs kaggle-environments). The network plays as ``policy:file=DIR/net.npz``.
Needs the ``learn`` extra (JAX, Optax, matplotlib).

    connectx learn --mode reinforce --out runs/reinforce
    connectx learn --mode recipe --out runs/recipe
"""
import argparse
import sys
import time

from scripts.args import (ArgumentParser, ProgressCallback, add_config_argument,
                          add_quiet_argument, add_seed_argument, board_shape, positive_int_arg,
                          require)


def main(argv=None, prog="python -m scripts.commands.learn"):
    ap = ArgumentParser(prog=prog, description="Train a policy/value network (numpy .npz), "
                        "with its learning curve (PNG) and a JSON record of the run.")
    add_config_argument(ap, board_only=True)
    ap.add_argument("--mode", choices=("teacher", "reinforce", "recipe"), default="teacher",
                    help="teacher: supervised on solver-labelled positions (default); "
                         "reinforce: PPO against graded opponents; recipe: the Kaggle "
                         "course's PPO over kaggle's env")
    add_seed_argument(ap, "the games and the network")
    ap.add_argument("--out", default=".", metavar="DIR",
                    help="folder of net.npz, curve.png, record.json (default: this one)")
    ap.add_argument("--positions", type=positive_int_arg, default=None,
                    help="labelled positions in all (default 64000)")
    ap.add_argument("--steps", type=positive_int_arg, default=None,
                    help="teacher: optimiser steps in all (default 7500); reinforce, recipe: "
                         "steps of the environment in all (default 300000 board steps, 50000)")
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
                    help="processes labelling positions (default 2)")
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
    try:
        plan = plan_for(cfg, args.positions, args.steps, args.rounds, args.eval_games,
                        not args.no_database)
        eval_set = _eval_set(cfg, args.eval_set)
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
                                log, command)
        else:
            paths, record = _learn_by_games(args, cfg, eval_set, bar, log, command)
    except OSError as e:
        ap.error(f"{args.out}: {e.strerror or e}")
    finally:
        on_progress.close()
    last = record["curve"][-1]
    rates = ", ".join(f"{o} {v['score']:.2f}" for o, v in last["win_rates"].items())
    print(f"{paths[0]}: {record['board']} network, {record['seconds'] / 60:.1f} min; "
          f"score as a pure policy against {rates}"
          + (f"; good moves {last['good']['all']:.3f}" if "good" in last else ""))
    print(f"curve: {paths[1]}; record: {paths[2]}; play it as policy:file={paths[0]}")
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


def _eval_set(cfg, path):
    """The labelled set of ``--eval-set`` (None: the shipped 7x6 set on 7x6, no set on
    other boards); ``ValueError`` when it is of another board."""
    from agents.solver.labels import load_labels
    if path is None:
        if tuple(cfg) != (6, 7, 4):
            return None
        from scripts.arena.judging import DEFAULT_SET
        path = DEFAULT_SET
    labelled = load_labels(path)
    if labelled.config != tuple(cfg):
        raise ValueError(f"--eval-set {path} is a set of {labelled.columns}x{labelled.rows} "
                         f"with {labelled.inarow} in a row, not of the board learned")
    return labelled


def _log(text):
    print(f"[{time.strftime('%H:%M:%S')}] {text}", file=sys.stderr, flush=True)


if __name__ == "__main__":
    sys.exit(main())
