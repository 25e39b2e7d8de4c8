"""``connectx learn --mode teacher``: a policy/value network trained on positions labelled
by the exact solver, in rounds.

Round 0 labels the positions of a noisy perfect player (:mod:`scripts.learn.positions`:
``teacher``) against each opponent of :data:`DATA_OPPONENTS` and itself; every later
round adds the positions the network itself reaches (``net``: its own policy, sampled)
against the same opponents. After each round the network trains on everything labelled
so far (both mirror images), by AdamW on the teacher's loss
(:func:`scripts.learn.model.loss_fn`): the policy against a softmax of the exact
scores, the value against the position's win/draw/loss; the critical positions (where
some columns keep the game value and others throw it away:
:func:`scripts.learn.positions.critical`) weigh ``critical`` times the others in the
policy's loss. The positions of the judge's
labelled set (and their mirror images) are never trained on.

Everything is seeded: the same arguments, the same positions and the same network (up to
floating-point sums of a different thread count).
"""
import time
from dataclasses import dataclass, field
from types import SimpleNamespace

import numpy as np

from scripts.learn.configs import Start, option
from scripts.learn.evaluate import curve_point, point_line
from scripts.learn.loop import train_loop
from scripts.learn.positions import (Task, children, critical, keys_of, merge, mirrored,
                                     openings, play_and_label, targets)

# (opponent, weight): who the learner's games are against (kernel opponents)
DATA_OPPONENTS = (("random", 1), ("onestep", 1), ("rules", 1), ("alphabeta:depth=2", 1),
                  ("alphabeta:depth=4", 2), ("self", 2))


@dataclass
class Plan(Start):
    """What a teacher run does: the sizes of its rounds and its training (the fields
    made by :func:`~scripts.learn.configs.option` are ``connectx learn`` options)."""
    positions: int = option(64000, "labelled positions in all (before mirror images)",
                            "positive_int")
    rounds: int = option(2, "rounds of labelling then training", "positive_int")
    steps: int = option(7500, "optimiser steps in all", "positive_int")
                                    # (steps_until: a fifth before the last round, the
                                    # rest on every position)
    batch: int = 128
    learning_rate: float = 2e-3
    temperature: float = 1.0        # the policy target's softmax of scores
    critical: float = 3.0           # weight of a critical position (positions.critical)
    value_weight: float = option(1.0, "the value's share of the loss, W times its squared "
                                      "error", "positive_float", metavar="W")
    children: int = option(0, "add N child positions to each batch (a labelled position "
                              "one legal move on), trained on the value only: the labels "
                              "give their exact values", "count", metavar="N")
                                    # (positions.children)
    openings: int = option(0, "also label and learn every position of up to STONES stones "
                              "(7x6: 6 stones, 22,100 positions, about a minute with the "
                              "database)", "count", metavar="STONES", shown="0: none")
                                    # in the first round (positions.openings)
    noise: float = 0.25             # the teacher's random moves
    net_noise: float = 0.1          # the network's random moves (later rounds)
    boards: int = 64                # games at once in a labelling task
    eval_games: int = option(100, "games against each evaluation opponent at each point "
                                  "of the curve", "positive_int")
    evals: int = 5                  # evaluations over the run
    database: bool = option(True, "label without the installed opening database (7x6: "
                                  "slower)", "no_switch")
    exclude: list = option((), "never train on this labelled set's positions (a held-out "
                               "set; the --eval-set's never are); may be given more than "
                               "once", "list", metavar="FILE", shown="none")
    workers: int = option(2, "processes labelling positions", "positive_int")
    dask: str = option(None, "label the positions on a Dask scheduler, e.g. "
                             "tcp://host:8786, instead of --workers processes (the cluster "
                             "extra)", metavar="ADDRESS", shown="none")
    opponents: tuple = field(default=DATA_OPPONENTS)
    architecture: dict = None       # None: scripts.learn.model.ARCHITECTURE, or the one
                                    # of trunk and value_hidden (Start)


def steps_until(plan, r):
    """The optimiser steps done by the end of round ``r``: the rounds before the last
    share a fifth of ``plan.steps`` (a network good enough to play the next round's
    games), the last round trains the rest on every position labelled."""
    if r >= plan.rounds - 1:
        return plan.steps
    return plan.steps // 5 * (r + 1) // (plan.rounds - 1)


def round_tasks(cfg, plan, r, seed, net_bytes):
    """The labelling tasks of round ``r``: its share of the positions split over the
    opponents by weight (the network plays in rounds after the first)."""
    share = plan.positions // plan.rounds
    total = sum(w for _, w in plan.opponents)
    tasks = []
    for k, (opponent, w) in enumerate(plan.opponents):
        n = max(1, share * w // total)
        learner = "teacher" if r == 0 or k % 2 == 0 else "net"
        noise = plan.noise if learner == "teacher" else plan.net_noise
        tasks.append(Task(*cfg, opponent, learner, noise, plan.boards, n,
                          seed * 1000 + r * 100 + k, net_bytes if learner == "net" else b"",
                          plan.database))
    return tasks


def train(cfg, plan, seed, judge, pool=None, progress=None, log=None, init=None, exclude=()):
    """Run the plan on board ``cfg``; ``(network params, record)``. ``judge``: the
    labelled set of the good-move rates (excluded from training); ``pool``: an
    executor for the labelling (None: in this process); ``progress(kind, done, total)``;
    ``log(text)``; ``init``: ``(params, architecture)`` to start from (``--init``: its
    architecture replaces the plan's; the optimiser and its learning-rate schedule start
    afresh), None: seeded random weights; ``exclude``: more labelled sets never trained
    on (``--exclude``: a held-out set), besides ``judge``. The record: the curve (time,
    step, losses, win rates, good-move rates by stage), the rounds' positions, children,
    openings and seconds."""
    import jax

    from agents.players.network import network_bytes
    from scripts.learn.model import optimiser, starting_params, to_network, train_step
    start = time.perf_counter()
    rows, columns, inarow = cfg
    params, architecture = starting_params(rows, columns, plan.architecture, seed, init)
    opt = optimiser(plan.learning_rate, plan.steps)
    state = opt.init(params)
    step_fn = train_step(opt, plan.value_weight)
    held_out = [s for s in [judge, *exclude] if s is not None]
    exclude = set().union(*(keys_of(s.planes) for s in held_out))
    rng = np.random.default_rng(seed)
    curve, rounds, parts = [], [], []
    step, eval_every = 0, max(1, plan.steps // max(1, plan.evals))
    losses = []

    def evaluate(params):
        recent = None if not losses else \
            [float(np.mean([l[i] for l in losses[-50:]])) for i in range(3)]
        curve.append(curve_point(params, cfg, architecture, judge, plan.eval_games, seed,
                                 time.perf_counter() - start, step, recent,
                                 {"positions": int(sum(len(x[0]) for x in parts))}))
        if log:
            log(point_line(curve[-1]))

    def label(r, params):
        """Round ``r``'s positions labelled (with the network's games after the first),
        with everything labelled before: the round's training data."""
        from agents.players.network import features
        t0 = time.perf_counter()
        net_bytes = b""
        if r > 0:
            net_bytes = network_bytes(to_network(params, rows, columns, inarow, architecture))
        tasks = round_tasks(cfg, plan, r, seed, net_bytes)
        got = []
        if pool is None:
            for i, t in enumerate(tasks):
                got.append(play_and_label(t))
                if progress:
                    progress(f"round {r + 1}/{plan.rounds}: labelling", i + 1, len(tasks))
        else:
            futures = [pool.submit(play_and_label, t) for t in tasks]
            for i, f in enumerate(futures):
                got.append(f.result())
                if progress:
                    progress(f"round {r + 1}/{plan.rounds}: labelling", i + 1, len(tasks))
        if r == 0 and plan.openings:
            got.append(openings(rows, columns, inarow, plan.openings, plan.database))
        parts.extend(got)
        planes, scores = merge(parts, exclude)
        d = SimpleNamespace(tasks=tasks, got=got, label_seconds=time.perf_counter() - t0,
                            kids=np.zeros((0,)))
        if plan.children:
            kids, kid_values = children(planes, scores, inarow, exclude | keys_of(planes))
            d.kids = np.concatenate([kids, kids[:, :, ::-1]])
            d.kid_values = np.concatenate([kid_values, kid_values])
            d.no_policy = (np.zeros((plan.children, columns), dtype=bool),
                           np.zeros((plan.children, columns), dtype=np.float32),
                           np.zeros(plan.children, dtype=np.float32))
        planes, scores = mirrored(planes, scores)
        d.x = features(planes)
        d.legal, d.policy, d.value = targets(scores, plan.temperature)
        d.weight = np.where(critical(scores), plan.critical, 1.0).astype(np.float32)
        d.n = len(d.x)
        d.train_start = time.perf_counter()
        return d

    def minibatches(r, d):
        """The round's batches until :func:`steps_until` (each with ``plan.children``
        child positions, trained on the value alone)."""
        from agents.players.network import features
        for _ in range(steps_until(plan, r) - step):
            idx = rng.integers(0, d.n, size=plan.batch)
            batch = d.x[idx], d.legal[idx], d.policy[idx], d.value[idx], d.weight[idx]
            if plan.children and len(d.kids):
                k = rng.integers(0, len(d.kids), size=plan.children)
                batch = [np.concatenate(z) for z in zip(
                    batch, (features(d.kids[k]), d.no_policy[0], d.no_policy[1],
                            d.kid_values[k], d.no_policy[2]))]
            yield batch

    def stepped(r, params, out):
        nonlocal step
        step += 1
        if step % 50 == 0 or step == plan.steps:
            losses.append(tuple(float(v) for v in out))
        if progress:
            progress(f"round {r + 1}/{plan.rounds}: training", step, plan.steps)
        if step % eval_every == 0 or step == plan.steps:
            evaluate(params)

    def finished(r, params, state, d):
        rounds.append({"round": r, "positions": int(d.n // 2),
                       "label_seconds": round(d.label_seconds, 1),
                       "children": int(len(d.kids) // 2) if plan.children else 0,
                       "openings": int(len(d.got[-1][0])) if r == 0 and plan.openings else 0,
                       "train_seconds": round(time.perf_counter() - d.train_start, 1),
                       "tasks": [[t.opponent, t.learner, t.noise, t.positions]
                                 for t in d.tasks]})
        if log:
            kids_text = f" (and {len(d.kids) // 2} children)" if plan.children else ""
            log(f"round {r + 1}: {d.n // 2} positions labelled in {d.label_seconds:.0f} s"
                f"{kids_text}")

    params, state = train_loop(params, state, step_fn, range(plan.rounds), label, minibatches,
                               stepped, finished)
    params = {k: np.asarray(v) for k, v in params.items()}
    plan_record = {k: v for k, v in plan.__dict__.items() if k != "architecture"}
    record = {"mode": "teacher", "architecture": architecture,
              "init": None if init is None else "network", "plan": plan_record | {
        "opponents": [list(o) for o in plan.opponents]}, "rounds": rounds, "curve": curve,
        "seconds": round(time.perf_counter() - start, 1), "jax": jax.__version__}
    return params, record
