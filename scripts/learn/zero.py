"""``connectx learn --mode zero``: AlphaZero's loop on the package's own pieces, no teacher.

Each iteration:

1. **Self-play.** The network plays ``games`` games against itself, each move searched
   by the package's numba MCTS with the network as its evaluator
   (:func:`agents.search.mcts.search` with ``network=``: PUCT, the network's policy as
   the priors, its value instead of a rollout, MCTS-Solver's exact game ends), a fresh
   tree of ``simulations`` simulations a move. Dirichlet noise (``dirichlet``, weight
   ``noise_weight``) is mixed into the root's priors only. For the first
   ``temperature_plies`` plies of a game the move is drawn in proportion to the root's
   visit counts (temperature 1), after that the search's own move
   (:meth:`agents.search.mcts.Tree.best_move`). The games run in tasks of
   :data:`GAMES_PER_TASK` on a pool of processes; every task is seeded by the run's seed,
   the iteration and its index, so the data do not depend on the number of workers.
2. **Targets.** Each position's policy target is the root's visit counts over the legal
   columns, normalised, the columns proven lost left out
   (:meth:`~agents.search.mcts.Tree.visit_targets`; a
   one-hot on the search's move when the root was proven, since MCTS-Solver then stops
   visiting), its value target the game's
   result for the side to move (+1, 0, -1), or with ``search_value`` = ``w`` > 0 that
   result's ``1 - w`` share plus ``w`` of the root's searched value
   (:meth:`~agents.search.mcts.Tree.searched_value`: exact where MCTS-Solver proved
   the root). The solver labels
   nothing.
3. **Training.** The positions of the last ``window`` iterations, both mirror images, are
   the training set; ``steps`` AdamW steps (constant learning rate) of minibatches of
   ``batch`` on the teacher's loss (:func:`scripts.learn.model.loss_fn`: the policy's
   cross-entropy against the visit distribution plus the value's squared error).
4. **Measures only** (never training data): the pure policy's score against the
   teacher's evaluation opponents and its good/perfect-move rates on the judge's set
   (:func:`scripts.learn.reinforce.curve_point`), and, with ``judge_simulations``, the
   good/perfect-move rates of the search with the network at that many simulations.

After every iteration the run's folder holds the network and the record (as ``--mode
teacher`` writes them; the curve's picture at the end and every 10 minutes), the
iteration's network again as ``networks/iteration-NNN.npz`` (:data:`CHECKPOINTS`: to
measure the curve afterwards at any cost, e.g. matches against ``negamax``) and
:data:`STATE` (the training window and the optimiser's state): ``resume`` continues from
there, the same run as one without a stop. With ``minutes`` the run stops early, after
the last iteration that is expected (from the one before) to end within the budget.
"""
import functools
import json
import os
import shutil
import time
from dataclasses import dataclass

import numpy as np

from scripts.learn.configs import Start, option

STATE = "zero-state.npz"
CHECKPOINTS = "networks"
GAMES_PER_TASK = 4


@dataclass
class Plan(Start):
    """What a zero run does (the sizes of the 7x6 run of docs/results-learning.md: 5 to 9
    minutes an iteration on the shared 2-core machine at load 5-9; the fields made by
    :func:`~scripts.learn.configs.option` are ``connectx learn`` options)."""
    iterations: int = option(10, "self-play then training iterations in all",
                             "positive_int")
    games: int = option(64, "self-play games an iteration", "positive_int")
    simulations: int = option(64, "MCTS simulations a self-play move", "positive_int")
    temperature_plies: int = 8      # plies drawn by visit counts (tau = 1), then greedy
    dirichlet: float = 1.0          # Dirichlet alpha of the root noise
    noise_weight: float = 0.25      # weight of the noise in the root's priors
    c: float = 1.5                  # PUCT's constant
    search_value: float = option(0.0, "the root's searched value's share in the value "
                                      "target, the game's result the rest (0.5: their "
                                      "average, as in Oracle's Lessons from AlphaZero)",
                                 "share", metavar="W", shown="0: the result alone")
    window: int = 4                 # iterations of positions trained on
    steps: int = option(300, "optimiser steps an iteration", "positive_int")
    batch: int = 256
    learning_rate: float = 1e-3
    value_weight: float = 1.0
    eval_games: int = option(50, "games against each evaluation opponent at each point "
                                 "of the curve", "positive_int")
    judge_simulations: int = option(0, "also judge the search with the network at this "
                                       "many simulations a move after each iteration",
                                    "positive_int", shown="0: not judged")
    minutes: float = option(0.0, "wall budget of the run (resumed parts included): no "
                                 "iteration starts that would end past it",
                            "positive_float", shown="none")
    workers: int = option(2, "processes playing the self-play games and judging the "
                             "search", "positive_int")
    dask: str = option(None, "play the self-play games (and judge the search) on a Dask "
                             "scheduler, e.g. tcp://host:8786, instead of --workers "
                             "processes (the cluster extra)", metavar="ADDRESS",
                       shown="none")
    resume: bool = option(False, "continue the zero run in --out from its last iteration",
                          "switch")
    architecture: dict = None       # None: the teacher's (scripts.learn.model.ARCHITECTURE),
                                    # or the one of trunk and value_hidden (Start)


@dataclass
class SelfPlay:
    """One self-play task: ``games`` games of the network in ``net_bytes`` (a ``.npz``)."""
    rows: int
    columns: int
    inarow: int
    net_bytes: bytes
    games: int
    simulations: int
    temperature_plies: int
    dirichlet: float
    noise_weight: float
    c: float
    seed: int
    search_value: float = 0.0


def play_games(task):
    """Self-play of ``task`` (:class:`SelfPlay`): ``(planes, policy, value, stats)`` of every
    position a player moved in: uint8 ``(n, rows, columns, 2)`` (the side to move's
    stones, the opponent's), float32 ``(n, columns)`` visit targets, float32 ``(n,)``
    value targets for the side to move (the game's result, +1/0/-1, or with
    ``task.search_value`` = ``w`` > 0, ``(1 - w) * result + w * v`` with ``v`` the root's
    searched value, :meth:`~agents.search.mcts.Tree.searched_value`: the "average of z and q" of Oracle's *Lessons
    from AlphaZero*, part 4); ``stats`` counts the games' ``first`` wins, ``second`` wins,
    ``draws`` and ``moves``."""
    from agents.board.grid import center_order, drop, planes_of, wins_by_playing
    from agents.envs.boards import board_config
    from agents.players.network import read_network
    from agents.search.mcts import Tree, search
    from agents.search.network_kernel import pack_network
    rows, columns = task.rows, task.columns
    cfg = board_config(rows, columns, task.inarow)
    net = read_network(task.net_bytes)
    packed = pack_network(net.params, net.architecture, rows, columns)
    rng = np.random.default_rng(task.seed)
    tree = Tree(task.simulations * columns + columns + 1)
    order = center_order(columns)
    planes, policy, value = [], [], []
    stats = {"first": 0, "second": 0, "draws": 0, "moves": 0}
    w = float(task.search_value)
    for _ in range(task.games):
        grid = np.zeros(rows * columns, dtype=np.int64)
        heights = np.zeros(columns, dtype=np.int64)
        movers, searched, winner, mark, ply = [], [], 0, 1, 0
        while True:
            tree.reset()
            legal = int(sum(1 for c in order if heights[c] < rows))
            noise = rng.dirichlet(np.full(legal, task.dirichlet)) if task.noise_weight > 0 \
                else None
            search(grid, mark, cfg, task.simulations, c=task.c, tree=tree, network=packed,
                   noise=noise, noise_weight=task.noise_weight)
            target = tree.visit_targets(columns)
            if ply < task.temperature_plies and tree.proven_value() is None:
                col = int(rng.choice(columns, p=target / target.sum()))
            else:
                col = tree.best_move()
            planes.append(planes_of(grid, mark, rows, columns))
            policy.append(target)
            movers.append(mark)
            searched.append(tree.searched_value())
            won = wins_by_playing(grid, heights, rows, columns, task.inarow, col, mark)
            drop(grid, heights, rows, columns, col, mark)
            ply += 1
            if won:
                winner = mark
                break
            if ply == rows * columns:
                break
            mark = 3 - mark
        value += [(1.0 - w) * (0.0 if winner == 0 else (1.0 if m == winner else -1.0)) + w * v
                  for m, v in zip(movers, searched)]
        stats["moves"] += ply
        stats[{0: "draws", 1: "first", 2: "second"}[winner]] += 1
    return (np.array(planes, dtype=np.uint8).reshape(-1, rows, columns, 2),
            np.array(policy, dtype=np.float32).reshape(-1, columns),
            np.array(value, dtype=np.float32), stats)


@dataclass
class JudgeTask:
    """Searched moves of the network on some positions of a labelled set."""
    rows: int
    columns: int
    inarow: int
    net_bytes: bytes
    positions: object               # an agents.solver.labels.LabelledSet
    simulations: int
    c: float


def search_moves(task):
    """The column the network's search (``task.simulations`` simulations, a fresh tree,
    as ``mcts:prior=...,iterations=N`` plays) picks on each of ``task.positions``."""
    from agents.envs.boards import board_config
    from agents.players.network import read_network
    from agents.search.mcts import Tree, search
    from agents.search.network_kernel import pack_network
    rows, columns = task.rows, task.columns
    cfg = board_config(rows, columns, task.inarow)
    net = read_network(task.net_bytes)
    packed = pack_network(net.params, net.architecture, rows, columns)
    tree = Tree(task.simulations * columns + columns + 1)
    out = []
    for i in range(len(task.positions)):
        board, mark = task.positions.observation(i)
        grid = np.array(board, dtype=np.int64)
        tree.reset()
        search(grid, mark, cfg, task.simulations, c=task.c, tree=tree, network=packed)
        out.append(tree.best_move())
    return np.array(out, dtype=np.int64)


def _map(function, tasks, pool, progress=None, kind=""):
    """``[function(t) for t in tasks]`` in order, on ``pool`` if there is one."""
    futures = [pool.submit(function, t) for t in tasks] if pool is not None else None
    out = []
    for i, t in enumerate(tasks):
        out.append(futures[i].result() if futures is not None else function(t))
        if progress:
            progress(kind, i + 1, len(tasks))
    return out


def search_columns(net_bytes, cfg, judge, simulations, c, pool=None, progress=None):
    """The network's searched column on each position of ``judge`` (int64, in order),
    in tasks of 50 positions on ``pool``."""
    chunks = np.array_split(np.arange(len(judge)), max(1, len(judge) // 50))
    tasks = [JudgeTask(*cfg, net_bytes, judge.subset(i), simulations, c) for i in chunks]
    return np.concatenate(_map(search_moves, tasks, pool, progress, "judging the search"))


def search_good_moves(net_bytes, cfg, judge, simulations, c, pool=None, progress=None):
    """``(good-move rate, perfect-move rate)`` on ``judge`` of the network's search."""
    from scripts.learn.evaluate import rates_by_stage
    cols = search_columns(net_bytes, cfg, judge, simulations, c, pool, progress)
    return rates_by_stage(judge, cols)["all"]


def training_set(window):
    """``(x, legal, policy, value)`` of the iterations' ``(planes, policy, value)`` in
    ``window``, each position with its mirror image."""
    from agents.players.network import features
    planes = np.concatenate([w[0] for w in window])
    policy = np.concatenate([w[1] for w in window])
    value = np.concatenate([w[2] for w in window])
    planes = np.concatenate([planes, planes[:, :, ::-1]])
    policy = np.concatenate([policy, policy[:, ::-1]])
    value = np.concatenate([value, value])
    legal = planes[:, 0].sum(axis=-1) == 0
    return features(planes), legal, policy, value


def save_state(out, window, opt_state, iteration):
    """Write the training window and the optimiser's state (its leaves) into ``out``."""
    import jax
    arrays = {"iteration": np.array(iteration)}
    for i, (p, q, v) in enumerate(window):
        arrays.update({f"planes{i}": p, f"policy{i}": q, f"value{i}": v})
    for i, leaf in enumerate(jax.tree_util.tree_leaves(opt_state)):
        arrays[f"opt{i}"] = np.asarray(leaf)
    tmp = os.path.join(out, STATE + ".tmp")
    with open(tmp, "wb") as f:
        np.savez(f, **arrays)
    os.replace(tmp, os.path.join(out, STATE))


def load_state(out, opt_state):
    """``(window, opt_state, iteration)`` saved by :func:`save_state`; ``opt_state`` gives
    the optimiser's structure."""
    import jax
    import jax.numpy as jnp
    with np.load(os.path.join(out, STATE), allow_pickle=False) as z:
        arrays = {k: z[k] for k in z.files}
    window, i = [], 0
    while f"planes{i}" in arrays:
        window.append((arrays[f"planes{i}"], arrays[f"policy{i}"], arrays[f"value{i}"]))
        i += 1
    leaves, treedef = jax.tree_util.tree_flatten(opt_state)
    leaves = [jnp.asarray(arrays[f"opt{i}"]) for i in range(len(leaves))]
    return window, jax.tree_util.tree_unflatten(treedef, leaves), int(arrays["iteration"])


def resumed(out, cfg):
    """``(params, architecture, record)`` of the run in ``out`` to resume; ``ValueError``
    if there is none or it is not a zero run of board ``cfg``."""
    from agents.players.network import read_network
    from scripts.learn.record import NETWORK, RECORD
    paths = [os.path.join(out, n) for n in (NETWORK, RECORD, STATE)]
    missing = [p for p in paths if not os.path.exists(p)]
    if missing:
        raise ValueError(f"--resume: {out} holds no zero run to resume (missing "
                         f"{', '.join(os.path.basename(p) for p in missing)})")
    with open(paths[1], encoding="utf-8") as f:
        record = json.load(f)
    if record.get("mode") != "zero" or (record["rows"], record["columns"],
                                        record["inarow"]) != tuple(cfg):
        raise ValueError(f"--resume: {out} holds a {record.get('mode')} run of "
                         f"{record.get('board')}, not a zero run of the board asked")
    with open(paths[0], "rb") as f:
        net = read_network(f.read(), paths[0])
    return net.params, net.architecture, record


def initial_network(path, cfg):
    """``(params, architecture)`` of ``--init`` ``path`` for board ``cfg`` (``--mode zero``
    and ``teacher``); ``ValueError`` for an unreadable file, a network of another board
    or of a layout the trainer's forward pass does not take."""
    from agents.players.network import check_board, read_network
    from agents.envs.boards import board_config
    try:
        with open(path, "rb") as f:
            net = read_network(f.read(), repr(path))
    except OSError as e:
        raise ValueError(f"--init {path}: {e.strerror or e}") from None
    check_board(net, path, board_config(*cfg))
    a = net.architecture
    if a.get("inputs", "planes") != "planes" or a.get("padding", "same") != "same":
        raise ValueError(f"--init {path}: a network of the course's layout ({a}) cannot be "
                         f"trained by connectx learn (it takes the 4 planes and 'same' padding)")
    return net.params, a


@functools.lru_cache(maxsize=4)
def _optimiser(learning_rate):
    """One optimiser a learning rate, so that a process's runs share the jitted step."""
    from scripts.learn.model import optimiser
    return optimiser(learning_rate)


def train(cfg, plan, seed, out, judge=None, pool=None, progress=None, log=None, command=None,
          init=None, resume=False, workers=1):
    """Run ``plan`` on board ``cfg`` writing into ``out`` after every iteration (module
    docstring); ``(paths, record)``. ``pool``: an executor of the self-play and judging
    tasks, forked before JAX starts (None: this process). ``init``: ``(params,
    architecture)`` to start from; ``resume``: continue the run in ``out``."""
    import jax
    import optax

    from agents.players.network import network_bytes
    from scripts.learn.model import starting_params, to_network, train_step
    from scripts.learn.reinforce import curve_point
    from scripts.learn.run import finish
    start = time.perf_counter()
    rows, columns, inarow = cfg
    if resume:
        params, architecture, record = resumed(out, cfg)
        init = (params, architecture)
    params, architecture = starting_params(rows, columns, plan.architecture, seed, init)
    opt = _optimiser(plan.learning_rate)
    opt_state = jax.jit(opt.init)(params)  # one compilation, not one an array
    step_fn = train_step(opt, plan.value_weight)
    window, first, elapsed = [], 0, 0.0
    if resume:
        window, opt_state, first = load_state(out, opt_state)
        elapsed = record["seconds"]
    else:
        record = {"mode": "zero", "architecture": architecture, "plan": dict(plan.__dict__),
                  "init": None if init is None else "network", "iterations": [], "curve": []}
    record["jax"] = jax.__version__

    def seconds():
        return round(elapsed + time.perf_counter() - start, 1)

    def as_numpy():
        return {k: np.asarray(v) for k, v in params.items()}

    def measure(it, losses, extra):
        point = curve_point(as_numpy(), cfg, architecture, judge, plan.eval_games, seed,
                            start - elapsed, it, losses, extra)
        if judge is not None and plan.judge_simulations:
            good, perfect = search_good_moves(
                network_bytes(to_network(params, rows, columns, inarow, architecture)), cfg,
                judge, plan.judge_simulations, plan.c, pool, progress)
            point["search"] = {"simulations": plan.judge_simulations, "good": good,
                               "perfect": perfect}
        point["seconds"] = seconds()
        record["curve"].append(point)
        if log:
            rates = ", ".join(f"{o} {v['score']:.2f}" for o, v in point["win_rates"].items())
            good = f", good {point['good']['all']:.3f}" if "good" in point else ""
            good += (f", search good {point['search']['good']:.3f}" if "search" in point
                     else "")
            log(f"iteration {it} ({point['seconds']:.0f} s): loss "
                f"{point.get('loss', float('nan')):.3f}, score vs {rates}{good}")

    if first >= plan.iterations:
        raise ValueError(f"--resume: the run in {out} has done its {first} iterations "
                         f"already (ask for more with --iterations)")
    record["plan"] = dict(plan.__dict__)
    if not record["curve"]:
        measure(0, None, {"positions": 0})
    plotted = time.perf_counter()
    for it in range(first, plan.iterations):
        t0 = time.perf_counter()
        net_bytes = network_bytes(to_network(params, rows, columns, inarow, architecture))
        counts = [GAMES_PER_TASK] * (plan.games // GAMES_PER_TASK)
        if plan.games % GAMES_PER_TASK:
            counts.append(plan.games % GAMES_PER_TASK)
        tasks = [SelfPlay(rows, columns, inarow, net_bytes, n, plan.simulations,
                          plan.temperature_plies, plan.dirichlet, plan.noise_weight, plan.c,
                          seed * 1_000_003 + it * 1009 + k, plan.search_value)
                 for k, n in enumerate(counts)]
        got = _map(play_games, tasks, pool, progress,
                   f"iteration {it + 1}/{plan.iterations}: self-play")
        data = tuple(np.concatenate([g[i] for g in got]) for i in range(3))
        stats = {k: sum(g[3][k] for g in got) for k in got[0][3]}
        play_seconds = time.perf_counter() - t0
        window = (window + [data])[-plan.window:]
        x, legal, policy, value = training_set(window)
        rng = np.random.default_rng([seed, it])
        t1 = time.perf_counter()
        losses = []
        weight = np.ones(plan.batch, dtype=np.float32)
        for s in range(plan.steps):
            idx = rng.integers(0, len(x), size=plan.batch)
            params, opt_state, loss, pl, vl = step_fn(params, opt_state, x[idx], legal[idx],
                                                      policy[idx], value[idx], weight)
            losses.append((float(loss), float(pl), float(vl)))
            if progress:
                progress(f"iteration {it + 1}/{plan.iterations}: training", s + 1, plan.steps)
        first_loss = [float(np.mean([l[i] for l in losses[:max(1, plan.steps // 10)]]))
                      for i in range(3)]
        last_loss = [float(np.mean([l[i] for l in losses[-max(1, plan.steps // 10):]]))
                     for i in range(3)]
        record["iterations"].append({
            "iteration": it + 1, "games": stats, "positions": int(len(data[0])),
            "window_positions": int(len(x) // 2), "play_seconds": round(play_seconds, 1),
            "train_seconds": round(time.perf_counter() - t1, 1),
            "loss_first": first_loss, "loss_last": last_loss})
        measure(it + 1, last_loss, {"positions": int(sum(len(w[0]) for w in window)),
                                    "games": stats})
        record["seconds"] = seconds()
        # the curve's picture costs seconds: drawn at the end and every 10 minutes
        plot = it + 1 == plan.iterations or time.perf_counter() - plotted > 600
        paths, record = finish(cfg, as_numpy(), architecture, record, seed, out, judge,
                               command, workers, plot)
        plotted = time.perf_counter() if plot else plotted
        save_state(out, window, opt_state, it + 1)
        os.makedirs(os.path.join(out, CHECKPOINTS), exist_ok=True)
        shutil.copyfile(paths[0], os.path.join(out, CHECKPOINTS, f"iteration-{it + 1:03d}.npz"))
        took = time.perf_counter() - t0
        if plan.minutes and it + 1 < plan.iterations and \
                seconds() + took > plan.minutes * 60:
            if log:
                log(f"stopped after iteration {it + 1}: another one would end past "
                    f"--minutes {plan.minutes:g}")
            if not plot:  # the picture of the curve as it stands
                paths, record = finish(cfg, as_numpy(), architecture, record, seed, out,
                                       judge, command, workers, True)
            break
    return paths, record


def judge_search(path, simulations, first=None, workers=1, judge=None, c=1.5):
    """``{"good", "perfect", "n", "seconds", "stages", "missed"}`` of the network in the
    file ``path`` with search (``simulations`` a move, as ``mcts:prior=PATH,iterations=N``)
    on the first ``first`` positions (None: all) of ``judge`` (default: the shipped 7x6
    set): the good- and perfect-move rates, ``stages`` the same by stage
    (``{stage: {"n", "good", "perfect"}}``), ``missed`` the indices of the positions
    where the searched move throws the value away (not good)."""
    from concurrent.futures import ProcessPoolExecutor

    from agents.players.network import read_network
    from agents.solver.labels import load_labels
    from scripts.arena.judging import DEFAULT_SET
    from scripts.arena.pools import fork_context
    with open(path, "rb") as f:
        data = f.read()
    net = read_network(data, repr(path))
    labelled = load_labels(judge or DEFAULT_SET)
    if labelled.config != net.config:
        raise ValueError(f"{path} plays {net.config}, the set is of {labelled.config}")
    if first is not None:
        labelled = labelled.subset(np.arange(min(first, len(labelled))))
    start = time.perf_counter()
    pool = ProcessPoolExecutor(workers, mp_context=fork_context()) if workers > 1 else None
    try:
        cols = search_columns(data, net.config, labelled, simulations, c, pool)
    finally:
        if pool is not None:
            pool.shutdown()
    from agents.solver.labels import STAGES, verdicts
    from scripts.learn.evaluate import rates_by_stage
    rates = rates_by_stage(labelled, cols)
    good = verdicts(labelled.scores, cols)[1]
    stages = {name: {"n": int((labelled.stage == k).sum()), "good": rates[name][0],
                     "perfect": rates[name][1]} for k, name in enumerate(STAGES) if name in rates}
    return {"good": rates["all"][0], "perfect": rates["all"][1], "n": len(labelled),
            "seconds": round(time.perf_counter() - start, 1), "stages": stages,
            "missed": [int(i) for i in np.flatnonzero(~good)]}


def main(argv=None):
    """``python -m scripts.learn.zero NET SIMULATIONS [FIRST [WORKERS]] [--eval-set FILE]``:
    the network ``NET`` with search at ``SIMULATIONS`` a move on the judge's set (or the
    labelled set ``FILE``; its ``FIRST`` positions, on ``WORKERS`` processes), one JSON
    line with Wilson intervals (:func:`judge_search`'s dict: by stage, and the positions
    missed)."""
    from scripts.args import ArgumentParser, positive_int_arg
    from scripts.arena.stats import wilson
    ap = ArgumentParser(prog="python -m scripts.learn.zero",
                        description="Judge a network with search at a number of simulations "
                                    "a move on the judge's positions (one JSON line).")
    ap.add_argument("net", metavar="NET", help="the network (.npz)")
    ap.add_argument("simulations", metavar="SIMULATIONS", type=positive_int_arg,
                    help="simulations a move")
    ap.add_argument("first", metavar="FIRST", type=positive_int_arg, nargs="?", default=None,
                    help="judge only the set's first positions (default: all)")
    ap.add_argument("workers", metavar="WORKERS", type=positive_int_arg, nargs="?", default=1,
                    help="processes (default 1)")
    ap.add_argument("--eval-set", metavar="FILE", default=None,
                    help="a labelled set of `connectx dataset` (.npz) instead of the judge's "
                         "(for instance a held-out set to tune the search on)")
    args = ap.parse_args(argv)
    if args.eval_set is not None and not os.path.isfile(args.eval_set):
        ap.error(f"--eval-set: no such file: {args.eval_set}")
    result = judge_search(args.net, args.simulations, args.first, args.workers, args.eval_set)
    for k in ("good", "perfect"):
        lo, hi = wilson(result[k], result["n"])
        result[k + "_interval"] = [round(lo, 4), round(hi, 4)]
    print(json.dumps(result))
    return 0


if __name__ == "__main__":  # python -m scripts.learn.zero NET SIMULATIONS [FIRST [WORKERS]]
    raise SystemExit(main())
