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
   :data:`~scripts.learn.selfplay.GAMES_PER_TASK` on a pool of processes; every task is seeded by the run's seed,
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
   (:func:`scripts.learn.evaluate.curve_point`), and, with ``judge_simulations``, the
   good/perfect-move rates of the search with the network at that many simulations.

After every iteration the run's folder holds the network and the record (as ``--mode
teacher`` writes them; the curve's picture at the end and every 10 minutes), the
iteration's network again as ``networks/iteration-NNN.npz`` (:data:`~scripts.learn.checkpoints.CHECKPOINTS`: to
measure the curve afterwards at any cost, e.g. matches against ``negamax``) and
:data:`~scripts.learn.checkpoints.STATE` (the training window and the optimiser's state): ``resume`` continues from
there, the same run as one without a stop. With ``minutes`` the run stops early, after
the last iteration that is expected (from the one before) to end within the budget.
"""
import functools
import time
from dataclasses import dataclass
from types import SimpleNamespace

import numpy as np

from scripts.learn.checkpoints import keep_network, load_state, resumed, save_state
from scripts.learn.configs import Start, option
from scripts.learn.loop import train_loop
from scripts.learn.selfplay import in_order, play_games, play_tasks


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
    from scripts.learn.evaluate import curve_point, good_moves, point_line
    from scripts.learn.model import starting_params, to_network, train_step
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
                            seconds(), it, losses, extra)
        if judge is not None and plan.judge_simulations:
            good, perfect = good_moves(as_numpy(), judge, architecture, plan.judge_simulations,
                                       plan.c, pool, progress)["all"]
            point["search"] = {"simulations": plan.judge_simulations, "good": good,
                               "perfect": perfect}
        point["seconds"] = seconds()
        record["curve"].append(point)
        if log:
            log(point_line(point, "iteration"))

    if first >= plan.iterations:
        raise ValueError(f"--resume: the run in {out} has done its {first} iterations "
                         f"already (ask for more with --iterations)")
    record["plan"] = dict(plan.__dict__)
    if not record["curve"]:
        measure(0, None, {"positions": 0})
    plotted, paths, losses = time.perf_counter(), None, []

    def self_play(it, params):
        """Iteration ``it``'s games, joined to the window: the training set."""
        nonlocal window, losses
        losses = []
        t0 = time.perf_counter()
        net_bytes = network_bytes(to_network(params, rows, columns, inarow, architecture))
        tasks = play_tasks(cfg, net_bytes, plan, seed, it)
        got = in_order(play_games, tasks, pool, progress,
                       f"iteration {it + 1}/{plan.iterations}: self-play")
        data = tuple(np.concatenate([g[i] for g in got]) for i in range(3))
        window = (window + [data])[-plan.window:]
        x, legal, policy, value = training_set(window)
        return SimpleNamespace(t0=t0, positions=len(data[0]), x=x, legal=legal,
                               policy=policy, value=value,
                               stats={k: sum(g[3][k] for g in got) for k in got[0][3]},
                               play_seconds=time.perf_counter() - t0,
                               train_start=time.perf_counter())

    def minibatches(it, d):
        rng = np.random.default_rng([seed, it])
        weight = np.ones(plan.batch, dtype=np.float32)
        for _ in range(plan.steps):
            idx = rng.integers(0, len(d.x), size=plan.batch)
            yield d.x[idx], d.legal[idx], d.policy[idx], d.value[idx], weight

    def stepped(it, params, out):
        losses.append(tuple(float(v) for v in out))
        if progress:
            progress(f"iteration {it + 1}/{plan.iterations}: training", len(losses),
                     plan.steps)

    def finished(it, new_params, new_state, d):
        """The iteration's record, curve point, files and checkpoint; True when the
        budget has no room for another."""
        nonlocal params, opt_state, paths, record, plotted
        params, opt_state = new_params, new_state
        tenth = max(1, plan.steps // 10)
        first_loss = [float(np.mean([l[i] for l in losses[:tenth]])) for i in range(3)]
        last_loss = [float(np.mean([l[i] for l in losses[-tenth:]])) for i in range(3)]
        record["iterations"].append({
            "iteration": it + 1, "games": d.stats, "positions": int(d.positions),
            "window_positions": int(len(d.x) // 2), "play_seconds": round(d.play_seconds, 1),
            "train_seconds": round(time.perf_counter() - d.train_start, 1),
            "loss_first": first_loss, "loss_last": last_loss})
        measure(it + 1, last_loss, {"positions": int(sum(len(w[0]) for w in window)),
                                    "games": d.stats})
        record["seconds"] = seconds()
        # the curve's picture costs seconds: drawn at the end and every 10 minutes
        plot = it + 1 == plan.iterations or time.perf_counter() - plotted > 600
        paths, record = finish(cfg, as_numpy(), architecture, record, seed, out, judge,
                               command, workers, plot)
        plotted = time.perf_counter() if plot else plotted
        save_state(out, window, opt_state, it + 1)
        keep_network(out, paths[0], it + 1)
        took = time.perf_counter() - d.t0
        if plan.minutes and it + 1 < plan.iterations and \
                seconds() + took > plan.minutes * 60:
            if log:
                log(f"stopped after iteration {it + 1}: another one would end past "
                    f"--minutes {plan.minutes:g}")
            if not plot:  # the picture of the curve as it stands
                paths, record = finish(cfg, as_numpy(), architecture, record, seed, out,
                                       judge, command, workers, True)
            return True
        return False

    train_loop(params, opt_state, step_fn, range(first, plan.iterations), self_play,
               minibatches, stepped, finished)
    return paths, record
