"""``connectx learn --mode reinforce``: the teacher's network (the same architecture,
:data:`scripts.learn.model.ARCHITECTURE`, and file) trained by PPO
(:mod:`scripts.learn.ppo`) from its own games on the batched environment
(:class:`agents.envs.boards.Boards`), illegal moves masked, against a curriculum of the
graded kernel opponents.

The curriculum (:data:`CURRICULUM`): the run's steps in equal phases, each phase's games
spread evenly over its opponents, one :class:`~agents.envs.boards.Boards` an opponent,
the learner's seat drawn at each game. The opponents grow stronger from phase to phase
and every phase keeps a weaker one, so that the learner does not forget how to win.
Every step the learner sees half of the boards in their mirror image (and plays the
mirrored column): the ``policy`` player averages both images, so the policy learns both.

A step is one step of every board: a learner move, or the reset of a board whose game
ended at the step before (Gymnasium's next-step autoreset; not a move, left out of the
batch: about one step in twelve on 7x6). The record counts the moves.
Everything is seeded: the same arguments, the same run (up to floating-point sums).
"""
import functools
import time
from dataclasses import dataclass, field

import numpy as np

from scripts.learn.configs import option
from scripts.learn.evaluate import curve_point, point_line

CURRICULUM = (("random", "onestep"),
              ("onestep", "rules", "alphabeta:depth=2"),
              ("rules", "alphabeta:depth=2", "alphabeta:depth=4"))


@dataclass
class PPOSettings:
    """PPO's hyperparameters and their defaults, in one place for this mode's
    :class:`Plan` and the CleanRL-style example's ``Args``
    (:mod:`scripts.learn.cleanrl_ppo`); :meth:`update_rule` turns them into the step."""
    learning_rate: float = 1e-3     # decayed linearly to a tenth
    gamma: float = 0.99
    gae_lambda: float = 0.95
    clip_coef: float = 0.2
    ent_coef: float = 0.01
    vf_coef: float = 0.5
    max_grad_norm: float = 0.5

    def update_rule(self, params, forward, updates):
        """``(step, opt_state)``: the jitted minibatch step of :func:`scripts.learn.ppo.ppo_step`
        for ``forward(params, x)``, with Adam's learning rate decayed linearly to a tenth
        over ``updates`` minibatches, and the optimiser's state for ``params``."""
        import optax

        from scripts.learn import ppo
        lr = optax.linear_schedule(self.learning_rate, self.learning_rate / 10, updates)
        opt = ppo.optimiser(lr, self.max_grad_norm)
        step = ppo.ppo_step(opt, forward, self.clip_coef, self.ent_coef, self.vf_coef)
        return step, opt.init(params)


@dataclass
class Plan(PPOSettings):
    """What a reinforce run does (PPO's own settings: :class:`PPOSettings`; the fields
    made by :func:`~scripts.learn.configs.option` are ``connectx learn`` options)."""
    steps: int = option(300_000, "board steps in all (a step of every board at "
                                 "once)", "positive_int")
    boards: int = 192               # games at once (split over the phase's opponents)
    horizon: int = 32               # steps of every board a rollout
    epochs: int = 4
    batch: int = 512
    eval_games: int = option(100, "games against each evaluation opponent at each point "
                                  "of the curve", "positive_int")
    evals: int = 5
    curriculum: tuple = field(default=CURRICULUM)
    architecture: dict = None       # None: the teacher's (scripts.learn.model.ARCHITECTURE)


def phase_boards(cfg, opponents, boards, seed):
    """One seeded :class:`~agents.envs.boards.Boards` an opponent, ``boards`` games in all,
    the learner's seat drawn at each reset; reset."""
    from agents.envs.boards import Boards
    out = []
    for k, opp in enumerate(opponents):
        n = boards // len(opponents) + (k < boards % len(opponents))
        b = Boards(n, *cfg, opponent=opp, seat="random")
        b.seed(seed + 100_003 * k)
        b.reset()
        out.append(b)
    return out


def act(logits, legal, rng):
    """A column of each row drawn from the softmax of ``logits`` over the ``legal``
    columns (Gumbel-max), and its log-probability: ``(int64 (n,), float32 (n,))``."""
    z = np.where(legal, logits.astype(np.float64), -np.inf)
    z -= z.max(axis=1, keepdims=True)
    logp = z - np.log(np.exp(z).sum(axis=1, keepdims=True))
    a = (z + rng.gumbel(size=z.shape)).argmax(axis=1)
    return a, logp[np.arange(len(a)), a].astype(np.float32)


def rollout_storage(T, n, columns):
    """A rollout's arrays, time-major ``(T, n)``, zeroed: ``legal`` (bool, ``(T, n,
    columns)``), ``actions`` (int32), ``logps``, ``values``, ``rewards`` (float32),
    ``terminal`` and ``decided`` (bool; ``decided``: a learner's move, not a reset step)."""
    return (np.zeros((T, n, columns), dtype=bool), np.zeros((T, n), dtype=np.int32),
            np.zeros((T, n), dtype=np.float32), np.zeros((T, n), dtype=np.float32),
            np.zeros((T, n), dtype=np.float32), np.zeros((T, n), dtype=bool),
            np.zeros((T, n), dtype=bool))


def decided_batch(xs, legal, actions, logps, advantages, returns, decided):
    """The PPO batch (:func:`scripts.learn.ppo.ppo_loss`'s dict) of a rollout's decided
    steps, flattened in time-major order (the arrays of :func:`rollout_storage`, ``xs``
    the inputs ``(T, n, ...)``, ``advantages`` and ``returns`` of
    :func:`scripts.learn.ppo.gae`)."""
    keep = decided.reshape(-1)
    return {"x": xs.reshape(-1, *xs.shape[2:])[keep],
            "legal": legal.reshape(-1, legal.shape[2])[keep],
            "action": actions.reshape(-1)[keep], "logp": logps.reshape(-1)[keep],
            "advantage": advantages.reshape(-1)[keep], "returns": returns.reshape(-1)[keep]}


def train(cfg, plan, seed, judge=None, progress=None, log=None):
    """Run ``plan`` on board ``cfg``; ``(network params, record)``. ``judge``: the
    labelled set of the good-move rates; ``progress(kind, done, total)``; ``log(text)``.
    The record: the curve (time, steps, PPO losses, win rates, good-move rates by stage)
    and the phases' opponents."""
    import jax
    import jax.numpy as jnp

    from agents.players.network import features
    from scripts.learn import ppo
    from scripts.learn.model import ARCHITECTURE, forward, init_params
    start = time.perf_counter()
    rows, columns, _ = cfg
    rng = np.random.default_rng(seed)
    architecture = plan.architecture or ARCHITECTURE
    params = {k: jnp.asarray(v) for k, v in init_params(rows, columns, architecture, seed).items()}
    n, T = plan.boards, max(1, min(plan.horizon, plan.steps // plan.boards))
    per_rollout = n * T
    rollouts = max(1, -(-plan.steps // per_rollout))
    updates = rollouts * plan.epochs * max(1, per_rollout // plan.batch)
    fwd = functools.partial(forward, architecture=architecture)
    step_fn, state = plan.update_rule(params, fwd, updates)
    run_forward = jax.jit(fwd)
    phases = len(plan.curriculum)
    every = max(1, rollouts // max(1, plan.evals))
    curve, moves, phase, groups, was_over = [], 0, -1, [], None

    def rollout(k, params):
        """Rollout ``k``'s decided steps as PPO's batch (the curriculum's phase first)."""
        nonlocal moves, phase, groups, was_over
        if k * phases // rollouts != phase:
            phase = k * phases // rollouts
            groups = phase_boards(cfg, plan.curriculum[phase], n, seed * 1000 + phase)
            was_over = np.zeros(n, dtype=bool)
        xs = None
        legal, actions, logps, values, rewards, terminal, valid = rollout_storage(T, n, columns)
        for t in range(T + 1):
            obs = np.concatenate([g.obs for g in groups]).astype(np.uint8)
            mask = np.concatenate([g.mask for g in groups]).astype(bool)
            flip = rng.random(n) < 0.5
            obs[flip] = obs[flip, :, ::-1]
            mask[flip] = mask[flip, ::-1]
            x = features(obs, architecture)
            logits, value = run_forward(params, x)
            if t == T:
                last_value = np.asarray(value)
                break
            a, logp = act(np.asarray(logits), mask | was_over[:, None], rng)
            if xs is None:
                xs = np.zeros((T,) + x.shape, dtype=np.float32)
            xs[t], legal[t], actions[t], logps[t], values[t] = x, mask, a, logp, value
            valid[t] = ~was_over
            played = np.where(flip, columns - 1 - a, a).astype(np.int64)
            i = 0
            for g in groups:
                g.step(played[i:i + g.n])
                rewards[t, i:i + g.n] = g.rewards
                terminal[t, i:i + g.n] = g.terminated
                i += g.n
            was_over = terminal[t].copy()
            moves += int(valid[t].sum())
            if progress:
                progress("reinforce: board steps", (k * T + t + 1) * n, rollouts * T * n)
        adv, returns = ppo.gae(rewards, values, terminal, last_value, plan.gamma,
                               plan.gae_lambda)
        return decided_batch(xs, legal, actions, logps, adv, returns, valid)

    def measure(k, params, losses):
        if (k + 1) % every == 0 or k + 1 == rollouts:
            extra = {"phase": phase, "opponents": list(plan.curriculum[phase])}
            curve.append(curve_point(params, cfg, architecture, judge, plan.eval_games, seed,
                                     time.perf_counter() - start, moves, losses, extra))
            if log:
                log(point_line(curve[-1]))

    params, state = ppo.learn(params, state, step_fn, rollouts, rollout, plan.epochs,
                              plan.batch, rng, measure)
    record = {"mode": "reinforce", "architecture": architecture,
              "plan": plan.__dict__ | {"curriculum": [list(c) for c in plan.curriculum]},
              "curve": curve, "moves": moves, "seconds": round(time.perf_counter() - start, 1),
              "jax": jax.__version__}
    return {k: np.asarray(v) for k, v in params.items()}, record
