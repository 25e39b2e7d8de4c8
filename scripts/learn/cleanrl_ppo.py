"""PPO on ``ConnectXVectorEnv`` in one file, as CleanRL writes its examples (``ppo.py``):
the settings in one dataclass, the environment made once, then rollout, advantages and
update in one loop that reads top to bottom; run as a script, it prints one line a
rollout and the final score against ``random``::

    python -m scripts.learn.cleanrl_ppo --rows 4 --columns 5 --inarow 3 --total-steps 60000

It uses the environments' array conventions (docs/rl.md): ``obs_type="array"`` (the
``(num_envs, rows, columns, 2)`` planes as the observation, the legal columns in
``info["action_mask"]``) and Gymnasium's next-step autoreset (the step after a board's
end only resets it: that step's action is nobody's decision and stays out of the batch).
The mathematics is the package's, imported rather than copied (one home for each thing):
PPO's hyperparameters and their defaults, the masked sampling, the rollout's arrays and
its batch (:mod:`scripts.learn.reinforce`: ``PPOSettings``, ``act``, ``rollout_storage``,
``decided_batch``), GAE, the clipped loss and its Adam step (:mod:`scripts.learn.ppo`),
the network (:mod:`scripts.learn.model`, a small one here) and the final games
(:func:`scripts.learn.evaluate.win_rate`). Needs the ``learn`` extra (JAX, Optax).
``connectx learn --mode reinforce`` is the full recipe (a curriculum of opponents,
mirrored boards, the judge's good-move rates).

This file stays one file, its settings, loop and command line together, by CleanRL's
single-file convention (an example is read top to bottom, in one place): it is the one
module of :mod:`scripts.learn` that writes its rollout loop out, where the modes of
``connectx learn`` run theirs through :func:`scripts.learn.loop.train_loop` (its PPO
update, :func:`scripts.learn.ppo.update`, is one phase of that loop).
"""
import dataclasses
import functools
import time

import numpy as np

from agents.envs.vector import ConnectXVectorEnv
from agents.players.network import features
from scripts.args import ArgumentParser, positive_float_arg, positive_int_arg
from scripts.learn.reinforce import PPOSettings, act, decided_batch, rollout_storage


@dataclasses.dataclass
class Args(PPOSettings):
    # PPO's hyperparameters (learning_rate, gamma, gae_lambda, clip_coef, ent_coef,
    # vf_coef, max_grad_norm) and their defaults come from PPOSettings
    rows: int = 6
    columns: int = 7
    inarow: int = 4
    opponent: str = "random"        # the training opponent (a kernel one is fastest)
    seed: int = 0
    total_steps: int = 200_000      # board steps in all
    num_envs: int = 64              # boards stepped at once
    num_steps: int = 32             # steps of every board a rollout
    update_epochs: int = 4
    minibatch_size: int = 256
    eval_games: int = 200           # games against random at the end, half in each seat
    trunk: int = 16                 # channels of the network's one 3x3 convolution


def train(args, log=print):
    """Train a policy as ``args`` say; ``(params, architecture, (wins, draws, losses)
    against random)``."""
    import jax
    import jax.numpy as jnp

    from scripts.learn import ppo
    from scripts.learn.evaluate import win_rate
    from scripts.learn.model import forward, init_params

    cfg = (args.rows, args.columns, args.inarow)
    rng = np.random.default_rng(args.seed)
    env = ConnectXVectorEnv(args.num_envs, *cfg, opponent=args.opponent, seat="random",
                            obs_type="array")
    obs, info = env.reset(seed=args.seed)

    architecture = {"trunk": [args.trunk], "kernel": 3, "value_hidden": 32}
    params = {k: jnp.asarray(v) for k, v in
              init_params(args.rows, args.columns, architecture, args.seed).items()}
    n, T, columns = args.num_envs, args.num_steps, args.columns
    rollouts = max(1, args.total_steps // (n * T))
    updates = rollouts * args.update_epochs * max(1, n * T // args.minibatch_size)
    fwd = functools.partial(forward, architecture=architecture)
    step, opt_state = args.update_rule(params, fwd, updates)
    policy_value = jax.jit(fwd)

    # the rollout's storage, time-major (T, n); decided: not a reset step
    xs = np.zeros((T, n, args.rows, columns, 4), dtype=np.float32)
    legal, actions, logps, values, rewards, ended, decided = rollout_storage(T, n, columns)
    was_over = np.zeros(n, dtype=bool)        # the board resets at the next step
    start = time.perf_counter()
    for rollout in range(rollouts):
        results = []
        for t in range(T):
            x = features(obs.astype(np.uint8), architecture)
            logits, value = policy_value(params, x)
            mask = info["action_mask"].astype(bool)
            # a reset step's action is ignored: any column (all legal) will do
            action, logp = act(np.asarray(logits), mask | was_over[:, None], rng)
            xs[t], legal[t], actions[t], logps[t], values[t] = x, mask, action, logp, value
            decided[t] = ~was_over
            obs, reward, terminated, _, info = env.step(action)
            rewards[t], ended[t] = reward, terminated
            results.extend(reward[terminated])
            was_over = terminated
        x = features(obs.astype(np.uint8), architecture)
        last_value = np.asarray(policy_value(params, x)[1])
        advantages, returns = ppo.gae(rewards, values, ended, last_value, args.gamma,
                                      args.gae_lambda)
        batch = decided_batch(xs, legal, actions, logps, advantages, returns, decided)
        params, opt_state, losses = ppo.update(step, params, opt_state, batch,
                                               args.update_epochs, args.minibatch_size, rng)
        log(f"rollout {rollout + 1}/{rollouts}: {(rollout + 1) * n * T} steps, "
            f"{len(results)} games, mean return {np.mean(results) if results else 0:+.2f}, "
            f"loss {losses[0]:.3f}, entropy {losses[3]:.2f}, "
            f"{time.perf_counter() - start:.1f} s")
    params = {k: np.asarray(v) for k, v in params.items()}
    score = win_rate(params, cfg, "random", args.eval_games, args.seed + 1, architecture)
    log(f"against random, greedy policy: W-D-L {score[0]}-{score[1]}-{score[2]} in "
        f"{args.eval_games} games, half in each seat")
    return params, architecture, score


def main(argv=None):
    """The command line: :class:`Args` as options (counts >= 1, rates > 0; a bad board or
    opponent: exit status 2 and one line); :func:`train`'s result."""
    p = ArgumentParser(prog="python -m scripts.learn.cleanrl_ppo",
                       description=__doc__.splitlines()[0])
    kinds = {int: positive_int_arg, float: positive_float_arg, str: str}
    for f in dataclasses.fields(Args):
        kind = int if f.name == "seed" else kinds[f.type]
        p.add_argument(f"--{f.name.replace('_', '-')}", type=kind, default=f.default,
                       help=f"(default {f.default})")
    args = Args(**vars(p.parse_args(argv)))
    try:  # the board and the opponent, checked before JAX starts
        ConnectXVectorEnv(1, args.rows, args.columns, args.inarow, opponent=args.opponent)
    except (TypeError, ValueError) as e:
        p.error(str(e))
    return train(args)


if __name__ == "__main__":
    main()
