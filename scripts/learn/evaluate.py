"""How a network plays: its win rate against kernel opponents on the batched
environment, and its moves on a labelled set judged against the exact scores, as a
pure policy (the legal column of highest logit, in one batched forward pass) or with
the package's MCTS (:func:`network_moves`: one pipeline, with or without search;
:func:`good_moves` during training, :func:`judge_network` for ``connectx score
NET.npz``, the same report as any agent's).
"""
from dataclasses import dataclass

import numpy as np

from agents.players.network import policy_logits
from agents.solver.labels import STAGES, verdicts


def greedy(params, planes, architecture=None):
    """The policy's column on each of ``planes`` (the highest legal logit of
    :func:`agents.players.network.policy_logits`, lowest column among equal ones): the
    ``policy`` agent's move."""
    return policy_logits(params, planes, architecture)[0].argmax(axis=1)


def sampled(params, planes, rng, architecture=None):
    """A column drawn from the policy's softmax on each of ``planes`` (int64; column 0
    where the board is full)."""
    logits = policy_logits(params, planes, architecture)[0]
    none = ~np.isfinite(logits).any(axis=1)
    logits[none] = 0.0
    p = np.exp(logits - logits.max(axis=1, keepdims=True))
    p /= p.sum(axis=1, keepdims=True)
    return np.array([rng.choice(len(q), p=q) for q in p], dtype=np.int64)


def win_rate(params, cfg, opponent, games, seed, architecture=None):
    """``(wins, draws, losses)`` of ``games`` games of the policy against ``opponent`` (a
    kernel opponent of :mod:`agents.envs.opponents`), half of them first, seeded. The
    learner's first move is drawn from its policy's softmax, every later one is greedy:
    against a deterministic opponent (``alphabeta``) the games differ from the first move.
    ``architecture``: the network's (None: the default of :mod:`agents.players.network`)."""
    from agents.envs.boards import Boards
    counts = np.zeros(3, dtype=np.int64)  # wins, draws, losses
    for seat, n in (("first", (games + 1) // 2), ("second", games // 2)):
        if n == 0:
            continue
        boards = Boards(n, *cfg, opponent=opponent, seat=seat)
        boards.seed(seed + (0 if seat == "first" else 1_000_003))
        boards.reset()
        result = np.full(n, 2, dtype=np.int64)  # not over yet
        pending = np.ones(n, dtype=bool)
        rng = np.random.default_rng(seed)
        first = True
        while pending.any():
            obs = boards.obs.astype(np.uint8)
            if first:
                actions = sampled(params, obs, rng, architecture)
                first = False
            else:
                actions = greedy(params, obs, architecture).astype(np.int64)
            boards.step(actions)
            over = pending & boards.terminated
            r = boards.rewards
            result[over & (r > 0)] = 0
            result[over & (r == 0)] = 1
            result[over & (r < 0)] = 2
            pending &= ~over
        counts += np.bincount(result, minlength=3)
    return tuple(int(c) for c in counts)


# the kernel opponents of every mode's learning curve
EVAL_OPPONENTS = ("random", "onestep", "alphabeta:depth=4")
LOSS_NAMES = ("loss", "policy_loss", "value_loss", "entropy", "kl")


def curve_point(params, cfg, architecture, judge, eval_games, seed, seconds, step,
                losses=None, extra=None):
    """One point of a learning curve, every mode's: ``seconds`` and ``step``, the
    ``losses`` (by :data:`LOSS_NAMES`, as many as given: the supervised modes' three,
    PPO's five; None: none yet) and ``extra``, then the pure policy's score against each
    of :data:`EVAL_OPPONENTS` (``eval_games`` games each, :func:`win_rate`) and its
    good/perfect-move rates by stage on ``judge`` (a labelled set or None,
    :func:`good_moves`)."""
    p = {k: np.asarray(v) for k, v in params.items()}
    point = {"seconds": round(seconds, 1), "step": int(step)}
    if losses is not None:
        point.update({k: float(v) for k, v in zip(LOSS_NAMES, losses)})
    point.update(extra or {})
    point["win_rates"] = {}
    for opp in EVAL_OPPONENTS:
        w, d, l = win_rate(p, cfg, opp, eval_games, seed + 7, architecture)
        point["win_rates"][opp] = {"wins": w, "draws": d, "losses": l,
                                   "score": (w + 0.5 * d) / max(1, w + d + l)}
    if judge is not None:
        rates = good_moves(p, judge, architecture)
        point["good"] = {k: v[0] for k, v in rates.items()}
        point["perfect"] = {k: v[1] for k, v in rates.items()}
    return point


def point_line(point, unit="step"):
    """The log line of a curve ``point``: its ``unit`` and number, seconds, loss, scores
    and good-move rates (the search's too when measured)."""
    rates = ", ".join(f"{o} {v['score']:.2f}" for o, v in point["win_rates"].items())
    good = f", good {point['good']['all']:.3f}" if "good" in point else ""
    good += f", search good {point['search']['good']:.3f}" if "search" in point else ""
    return (f"{unit} {point['step']} ({point['seconds']:.0f} s): loss "
            f"{point.get('loss', float('nan')):.3f}, score vs {rates}{good}")


def good_moves(params, labelled, architecture=None):
    """``{stage: (good-move rate, perfect-move rate)}`` of the policy on ``labelled`` (an
    :class:`agents.solver.labels.LabelledSet`), the stages and ``"all"``, by the package's
    one verdict (:func:`agents.solver.labels.verdicts`)."""
    return rates_by_stage(labelled, greedy(params, labelled.planes, architecture))


def rates_by_stage(labelled, columns):
    """``{stage: (good-move rate, perfect-move rate)}`` of the moves ``columns`` (one a
    position) on ``labelled``: the stages that have positions and ``"all"``, by the
    package's one verdict (:func:`agents.solver.labels.verdicts`)."""
    perfect, good, _ = verdicts(labelled.scores, columns)
    out = {}
    for k, name in enumerate(STAGES):
        m = labelled.stage == k
        if m.any():
            out[name] = (float(good[m].mean()), float(perfect[m].mean()))
    out["all"] = (float(good.mean()), float(perfect.mean()))
    return out


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


def search_columns(net_bytes, cfg, judge, simulations, c, pool=None, progress=None):
    """The network's searched column on each position of ``judge`` (int64, in order),
    in tasks of 50 positions on ``pool``."""
    chunks = np.array_split(np.arange(len(judge)), max(1, len(judge) // 50))
    tasks = [JudgeTask(*cfg, net_bytes, judge.subset(i), simulations, c) for i in chunks]
    from scripts.learn.selfplay import in_order
    return np.concatenate(in_order(search_moves, tasks, pool, progress, "judging the search"))


def network_moves(params, architecture, labelled, simulations=0, c=1.5, pool=None,
                  progress=None):
    """The network's column (int64) on each position of ``labelled``: its pure policy's
    (:func:`greedy`, as ``policy:file=NET`` plays) with ``simulations`` 0, else its
    search's at that many simulations a move (a fresh tree a position, as
    ``mcts:prior=NET,iterations=N`` plays; :func:`search_columns`, tasks on ``pool``)."""
    if not simulations:
        return greedy(params, labelled.planes, architecture)
    from agents.players.network import Network, network_bytes
    cfg = labelled.config
    net = Network(*cfg, architecture, {k: np.asarray(v, dtype=np.float32)
                                       for k, v in params.items()})
    return search_columns(network_bytes(net), cfg, labelled, simulations, c, pool, progress)


def good_moves(params, labelled, architecture=None, simulations=0, c=1.5, pool=None,
               progress=None):
    """``{stage: (good-move rate, perfect-move rate)}`` of the network on ``labelled`` (an
    :class:`agents.solver.labels.LabelledSet`), the stages and ``"all"``, by the package's
    one verdict (:func:`agents.solver.labels.verdicts`): the pure policy, or with
    ``simulations`` its search (:func:`network_moves`)."""
    return rates_by_stage(labelled, network_moves(params, architecture, labelled,
                                                  simulations, c, pool, progress))


def judge_network(path, labelled, simulations=0, c=1.5, workers=1, progress=None, dask=None):
    """The network in the file ``path`` judged on ``labelled`` (:func:`network_moves`),
    the result as :func:`scripts.arena.judging.score` gives any agent's (``agent``,
    ``config``, ``rows``, ``columns``, ``failures``: none, ``seconds``); ``ValueError``
    for an unreadable network or a set of another board. With search the positions are
    judged in ``workers`` processes or on the Dask cluster ``dask``
    (:func:`scripts.arena.pools.executor`)."""
    import time

    from agents.players.network import read_network
    from scripts.arena.judging import summarise
    from scripts.arena.specs import Struct
    try:
        with open(path, "rb") as f:
            net = read_network(f.read(), repr(path))
    except OSError as e:
        raise ValueError(f"{path}: {e.strerror or e}") from None
    if labelled.config != net.config:
        raise ValueError(f"{path} plays {net.config}, the set is of {labelled.config}")
    start = time.perf_counter()
    from scripts.arena.pools import executor
    with executor(workers if simulations else 1, dask if simulations else None,
                  "scripts.learn.evaluate") as pool:
        columns = network_moves(net.params, net.architecture, labelled, simulations, c,
                                pool, progress)
    agent = f"mcts:prior={path},iterations={simulations}" if simulations else \
        f"policy:file={path}"
    return Struct(agent=agent, config=list(labelled.config),
                  rows=summarise(labelled, [int(c) for c in columns], {}),
                  columns=[int(c) for c in columns], failures={},
                  seconds=time.perf_counter() - start)
