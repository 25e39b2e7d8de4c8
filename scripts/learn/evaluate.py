"""How a network plays, measured during training: its win rate against kernel opponents
on the batched environment, and its good-move rate by stage on a labelled set (what
``connectx score`` reports, computed here in one batched forward pass).

The learner plays the pure policy: the legal column of highest logit, no search.
"""
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
