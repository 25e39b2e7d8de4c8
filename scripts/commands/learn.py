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

# the argument of each kind of option value (scripts.learn.configs.KINDS)
KIND_ARGUMENTS = {
    "text": {}, "int": {"type": int}, "positive_int": {"type": positive_int_arg},
    "count": {"type": count_arg}, "positive_float": {"type": positive_float_arg},
    "share": {"type": share_arg}, "switch": {"action": "store_true"},
    "no_switch": {"action": "store_false"}, "list": {"action": "append"}}


def modes():
    """``{mode: its run configuration class}`` of ``connectx learn``, the default first
    (:mod:`scripts.learn.configs`)."""
    from scripts.learn.recipe import Plan as Recipe
    from scripts.learn.reinforce import Plan as Reinforce
    from scripts.learn.teacher import Plan as Teacher
    from scripts.learn.zero import Plan as Zero
    return {"teacher": Teacher, "reinforce": Reinforce, "recipe": Recipe, "zero": Zero}


def main(argv=None, prog="python -m scripts.commands.learn"):
    from scripts.learn.configs import modes_of, refusal
    configs = modes()
    ap = ArgumentParser(prog=prog, description="Train a policy/value network (numpy .npz), "
                        "with its learning curve (PNG) and a JSON record of the run.")
    add_config_argument(ap, board_only=True)
    ap.add_argument("--mode", choices=tuple(configs), default="teacher",
                    help="teacher: supervised on solver-labelled positions (default); "
                         "reinforce: PPO against graded opponents; recipe: the Kaggle "
                         "course's PPO over kaggle's env; zero: AlphaZero self-play with "
                         "the MCTS, no teacher")
    add_seed_argument(ap, "the games and the network")
    ap.add_argument("--out", default=".", metavar="DIR",
                    help="folder of net.npz, curve.png, record.json (default: this one)")
    ap.add_argument("--eval-set", metavar="FILE", default=None,
                    help="labelled set of the good-move rates (default: the shipped 7x6 set "
                         "on 7x6, none on other boards); its positions are never trained on")
    # --judge: the flag's name until 2026-11-27 ("judge" now names move quality only)
    ap.add_argument("--judge", dest="eval_set", metavar="FILE", help=argparse.SUPPRESS)
    add_mode_options(ap, configs)
    add_quiet_argument(ap)
    args = ap.parse_args(argv)
    cfg = board_shape(ap, args.config)
    values = {}
    for flag, owners in modes_of(configs).items():
        name = owners[0][1].name
        if getattr(args, name) is not None:
            line = refusal(flag, configs, args.mode)
            if line is not None:
                ap.error(line)
            values[name] = getattr(args, name)
    try:
        for module in ("jax", "optax", "matplotlib") + \
                (("kaggle_environments",) if args.mode == "recipe" else ()):
            require(module, "connectx learn")
    except ValueError as e:
        ap.error(str(e))

    from scripts.learn.run import plan_for, run
    try:
        if args.mode == "teacher":
            plan = plan_for(cfg, **values)
        else:
            plan = configs[args.mode](**values)
        if args.mode == "recipe":
            from scripts.learn.recipe import check_board
            check_board(cfg[0], cfg[1])
        init = _initial(plan, cfg, args.out) if args.mode in ("teacher", "zero") else None
        eval_set = _eval_set(cfg, args.eval_set)
        held_out = [_eval_set(cfg, path, "--exclude") for path in values.get("exclude", ())]
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
            paths, record = run(cfg, plan, args.seed, args.out, eval_set, plan.workers, bar,
                                log, command, init, exclude=held_out, dask=plan.dask)
        elif args.mode == "zero":
            paths, record = _learn_zero(args, cfg, plan, init, eval_set, bar, log, command)
        else:
            paths, record = _learn_by_games(args, cfg, plan, eval_set, bar, log, command)
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


def add_mode_options(ap, configs):
    """The options of the modes' configurations (``configs``: ``{mode: class}``), derived
    from their fields: an option of every mode among the command's own, the others in a
    group a set of modes (``--mode teacher and zero``). Each option's default is None
    (not given: the configuration's default); its help says each mode's default."""
    from scripts.learn.configs import modes_of
    groups = {}
    for flag, owners in modes_of(configs).items():
        meta = owners[0][1].metadata
        if any(f.metadata["kind"] != meta["kind"] for _, f in owners):
            raise ValueError(f"{flag} is not the same kind of option in every mode")
        names = [m for m, _ in owners]
        if len(names) == len(configs):
            where = ap
        else:
            title = "--mode " + (names[0] if len(names) == 1 else
                                 ", ".join(names[:-1]) + " and " + names[-1])
            where = groups.get(title) or groups.setdefault(title, ap.add_argument_group(title))
        extra = {} if meta["metavar"] is None else {"metavar": meta["metavar"]}
        where.add_argument(flag, dest=owners[0][1].name, default=None,
                           help=_help(owners, len(configs)),
                           **KIND_ARGUMENTS[meta["kind"]], **extra)


def _help(owners, modes):
    """An option's help from its fields' (``owners``: ``[(mode, field), ...]``): the
    text (each mode's own where they differ), the default(s), the modes that take it
    (the group's title says it too, the reference page's table does not)."""
    def shown(f):
        d = f.metadata["shown"]
        d = f.default if d is None else d
        return f"{d:g}" if isinstance(d, float) else f"{d}"
    switch = owners[0][1].metadata["kind"] in ("switch", "no_switch")
    texts = {f.metadata["help"] for _, f in owners}
    defaults = {shown(f) for _, f in owners}
    if len(texts) > 1:
        return "; ".join(f"{m}: {f.metadata['help']}" + ("" if switch else
                                                          f" (default {shown(f)})")
                         for m, f in owners)
    text = owners[0][1].metadata["help"]
    if not switch and len(defaults) == 1:
        text += f" (default {defaults.pop()})"
    elif not switch:  # the most common default, then the modes' that differ
        common = max(defaults, key=lambda d: sum(shown(f) == d for _, f in owners))
        text += f" (default {common}; " + ", ".join(
            f"{m} {shown(f)}" for m, f in owners if shown(f) != common) + ")"
    return text if len(owners) == modes else ", ".join(m for m, _ in owners) + ": " + text


def _learn_by_games(args, cfg, plan, eval_set, bar, log, command):
    """The reinforce and recipe modes' run and files."""
    from scripts.learn.run import finish
    if args.mode == "reinforce":
        from scripts.learn.model import ARCHITECTURE
        from scripts.learn.reinforce import train
        params, record = train(cfg, plan, args.seed, eval_set, bar, log)
    else:
        from scripts.learn.recipe import ARCHITECTURE, train
        params, record = train(cfg, args.seed, plan.steps, judge=eval_set,
                               eval_games=plan.eval_games, progress=bar, log=log)
    return finish(cfg, params, ARCHITECTURE, record, args.seed, args.out, eval_set, command)


def _initial(plan, cfg, out):
    """The ``--init`` network ``(params, architecture)`` of a teacher or zero run's
    ``plan`` (None without the option); ``ValueError`` when ``--trunk``/``--value-hidden``
    also size the network, or for a network that cannot be trained on ``cfg``. The size
    of ``--trunk``/``--value-hidden`` goes into ``plan.architecture``, and the run in
    ``out`` to ``--resume`` is checked."""
    from agents.envs.boards import board_config
    from scripts.learn.model import initial_network
    board_config(*cfg)
    resume = getattr(plan, "resume", False)
    if plan.init is not None and resume:
        raise ValueError("--init starts a new run, --resume continues one: not both")
    if plan.sized() and (plan.init is not None or resume):
        raise ValueError(f"--{'trunk' if plan.trunk is not None else 'value-hidden'} sizes "
                         f"a new network: --init and --resume take their network's")
    if plan.sized() and plan.architecture is None:
        from scripts.learn.model import architecture_of
        plan.architecture = architecture_of(plan.trunk, plan.value_hidden)
    if resume:
        from scripts.learn.checkpoints import resumed
        resumed(out, cfg)  # a clear error now, before JAX starts
    return initial_network(plan.init, cfg) if plan.init is not None else None


def _learn_zero(args, cfg, plan, init, eval_set, bar, log, command):
    """The zero mode's run: its processes forked before JAX starts (as the teacher's)."""
    from scripts.arena.pools import executor
    from scripts.learn.zero import train
    with executor(plan.workers, plan.dask, "scripts.learn.zero") as pool:
        return train(cfg, plan, args.seed, args.out, eval_set, pool, bar, log, command, init,
                     plan.resume, plan.workers)


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
