"""Proximal policy optimisation (Schulman et al. 2017) in JAX, as stable-baselines3's
``PPO`` computes it, for the networks of :mod:`agents.players.network`: the
advantages (:func:`gae`), the clipped loss (:func:`ppo_loss`) and one jitted minibatch
step (:func:`ppo_step`) of Adam with a global gradient-norm clip. Used by ``connectx
learn --mode reinforce`` (:mod:`scripts.learn.reinforce`, masked illegal moves) and
``--mode recipe`` (:mod:`scripts.learn.recipe`, the course's PPO, no mask).

Arrays are time-major ``(T, N)``: ``N`` games stepped ``T`` times. ``terminal[t]``:
the game ended at step ``t`` (the value after it is 0). Steps that are not the
learner's decisions (a board's reset step under next-step autoreset) may sit between
a terminal step and the next game's first: they are cut off by ``terminal`` and left
out of the batch by the caller.
"""
import functools

import numpy as np

# stable-baselines3's PPO defaults (the course's run): n_steps 2048, batch 64, 10 epochs
SB3 = {"learning_rate": 3e-4, "gamma": 0.99, "gae_lambda": 0.95, "clip": 0.2,
       "ent_coef": 0.0, "vf_coef": 0.5, "max_grad_norm": 0.5, "n_steps": 2048,
       "batch": 64, "epochs": 10}


def gae(rewards, values, terminal, last_value, gamma, lam):
    """``(advantages, returns)`` by generalised advantage estimation: float32 ``(T, N)``
    of ``rewards``, ``values`` (the critic's, before each step), ``terminal`` (bool) and
    ``last_value`` ``(N,)`` (the critic's after the last step). ``returns = advantages +
    values`` (the critic's target, as stable-baselines3)."""
    rewards = np.asarray(rewards, dtype=np.float32)
    values = np.asarray(values, dtype=np.float32)
    going = 1.0 - np.asarray(terminal, dtype=np.float32)
    adv = np.zeros_like(rewards)
    last = np.zeros(rewards.shape[1], dtype=np.float32)
    nxt = np.asarray(last_value, dtype=np.float32)
    for t in range(len(rewards) - 1, -1, -1):
        delta = rewards[t] + gamma * going[t] * nxt - values[t]
        last = delta + gamma * lam * going[t] * last
        adv[t] = last
        nxt = values[t]
    return adv, adv + values


def masked_log_softmax(logits, legal):
    """Log-probabilities of ``logits`` (JAX) with the columns not ``legal`` given none
    (a logit of -1e9, so no NaN where every column is masked)."""
    import jax
    import jax.numpy as jnp
    return jax.nn.log_softmax(jnp.where(legal, logits, -1e9))


def ppo_loss(params, batch, forward, clip, ent_coef, vf_coef):
    """stable-baselines3's PPO loss of ``params`` on ``batch`` (a dict of ``x``,
    ``legal`` bool (n, columns), ``action``, ``logp`` (the acting policy's
    log-probability of the action), ``advantage``, ``returns``): the advantages
    normalised over the batch, ``-mean(min(r A, clip(r, 1 - clip, 1 + clip) A))`` with
    ``r = exp(logp_new - logp_old)``, plus ``vf_coef`` times the squared error of the
    value against the returns, minus ``ent_coef`` times the mean entropy. Returns
    ``(loss, (policy loss, value loss, entropy, approximate KL))``. ``forward(params, x)
    -> (logits, value)``."""
    import jax.numpy as jnp
    logits, value = forward(params, batch["x"])
    logp_all = masked_log_softmax(logits, batch["legal"])
    logp = jnp.take_along_axis(logp_all, batch["action"][:, None], axis=1)[:, 0]
    adv = batch["advantage"]
    adv = (adv - adv.mean()) / (adv.std() + 1e-8)
    log_ratio = logp - batch["logp"]
    ratio = jnp.exp(log_ratio)
    policy = -jnp.mean(jnp.minimum(adv * ratio, adv * jnp.clip(ratio, 1 - clip, 1 + clip)))
    vloss = jnp.mean((batch["returns"] - value) ** 2)
    p = jnp.exp(logp_all)
    entropy = jnp.mean(-jnp.sum(jnp.where(batch["legal"], p * logp_all, 0.0), axis=1))
    kl = jnp.mean((ratio - 1) - log_ratio)
    return policy + vf_coef * vloss - ent_coef * entropy, (policy, vloss, entropy, kl)


def optimiser(learning_rate, max_grad_norm):
    """Adam (eps 1e-5, as stable-baselines3's) after a global gradient-norm clip;
    ``learning_rate`` a number or an Optax schedule."""
    import optax
    return optax.chain(optax.clip_by_global_norm(max_grad_norm),
                       optax.adam(learning_rate, eps=1e-5))


@functools.lru_cache(maxsize=8)
def ppo_step(opt, forward, clip, ent_coef, vf_coef):
    """A jitted ``step(params, state, batch) -> (params, state, loss, aux)`` of
    :func:`ppo_loss` by the Optax optimiser ``opt``."""
    import jax
    import optax

    def step(params, state, batch):
        (loss, aux), grads = jax.value_and_grad(ppo_loss, has_aux=True)(
            params, batch, forward, clip, ent_coef, vf_coef)
        updates, state = opt.update(grads, state, params)
        return optax.apply_updates(params, updates), state, loss, aux
    return jax.jit(step)


def minibatches(data, epochs, batch, rng):
    """``epochs`` passes over ``data`` (a dict of equal-length numpy arrays,
    :func:`ppo_loss`'s batch) in shuffled minibatches of ``batch`` (full ones only: one
    shape, one compilation; stable-baselines3's 2048 steps are 32 of 64), each a
    one-argument tuple of :func:`ppo_step`'s ``step``; each pass's order drawn from
    ``rng`` as it starts."""
    n = len(data["action"])
    for _ in range(epochs):
        order = rng.permutation(n)
        for i in range(0, n - batch + 1, batch):
            idx = order[i:i + batch]
            yield ({k: v[idx] for k, v in data.items()},)


class Means:
    """The running means of :func:`ppo_step`'s losses (the loss, then its ``aux``: the
    policy's, the value's, the entropy, the approximate KL): :meth:`add` is a
    ``stepped`` of :func:`scripts.learn.loop.train_loop`."""

    def __init__(self):
        self.sums, self.count = np.zeros(5), 0

    def add(self, phase, params, out):
        loss, aux = out
        self.sums += [float(loss), *(float(a) for a in aux)]
        self.count += 1

    def value(self):
        return self.sums / max(1, self.count)


def update(step, params, state, data, epochs, batch, rng):
    """``epochs`` passes of ``step`` over ``data`` in shuffled minibatches of ``batch``
    (:func:`minibatches`), one phase of :func:`scripts.learn.loop.train_loop`;
    ``(params, state, mean of each loss over the passes)``."""
    from scripts.learn.loop import train_loop
    means = Means()
    params, state = train_loop(params, state, step, [None], lambda phase, p: data,
                               lambda phase, d: minibatches(d, epochs, batch, rng),
                               means.add)
    return params, state, means.value()


def learn(params, state, step, rollouts, rollout, epochs, batch, rng, measure):
    """PPO's run on :func:`scripts.learn.loop.train_loop`: ``rollouts`` phases, each
    ``rollout(k, params)`` (a dict of :func:`ppo_loss`'s batch arrays) then ``epochs``
    passes of ``step`` in shuffled minibatches of ``batch`` (:func:`minibatches`), then
    ``measure(k, params, losses)`` with the means of the phase's losses (:class:`Means`);
    the final ``(params, state)``."""
    from scripts.learn.loop import train_loop
    means = []

    def batches(k, data):
        means[:] = [Means()]
        return minibatches(data, epochs, batch, rng)
    return train_loop(params, state, step, range(rollouts), rollout, batches,
                      lambda k, params, out: means[0].add(k, params, out),
                      lambda k, params, state, data: measure(k, params, means[0].value()))
