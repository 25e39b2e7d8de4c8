"""The network of :mod:`agents.players.network` in JAX, for training: the same
arrays by the same names, the same forward pass (``jax.lax.conv_general_dilated``
where the agent has its numpy ``conv_same``; ``tests/test_learn.py`` checks that the two
agree), its initialisation, the teacher's loss and an Optax step.

Nothing here is imported by the agents or a Kaggle file (JAX is the ``learn`` extra).
"""
import functools

import numpy as np

from agents.players.network import Network, shapes

# the default architecture of connectx learn: four 3x3 convolutions of 32 channels (64
# channels cost 3x the time a step on this 2-core machine: 0.37 against 0.12 s a batch of
# 256, load 7)
ARCHITECTURE = {"trunk": [32, 32, 32, 32], "kernel": 3, "value_hidden": 32}


def architecture_of(trunk=None, value_hidden=None):
    """The architecture of ``connectx learn --trunk`` and ``--value-hidden``: ``trunk``
    a text of channels by layer (``"64,64,64,64"``) or None, ``value_hidden`` an int >= 0
    or None; what is not given is :data:`ARCHITECTURE`'s (both None: a copy of it).
    ``ValueError`` naming the option for a bad value."""
    out = {"trunk": list(ARCHITECTURE["trunk"]), "kernel": ARCHITECTURE["kernel"],
           "value_hidden": ARCHITECTURE["value_hidden"]}
    if trunk is not None:
        try:
            out["trunk"] = [int(f) for f in trunk.split(",")]
        except ValueError:
            out["trunk"] = None
        if not out["trunk"] or min(out["trunk"]) < 1:
            raise ValueError(f"--trunk takes channels by layer, positive integers separated "
                             f"by commas (e.g. 64,64,64,64), got {trunk!r}")
    if value_hidden is not None:
        if value_hidden < 0:
            raise ValueError(f"--value-hidden takes an integer >= 0 (0: a linear value), "
                             f"got {value_hidden}")
        out["value_hidden"] = value_hidden
    return out


def init_params(rows, columns, architecture, seed):
    """He-normal weights and zero biases (float32 numpy arrays by name), seeded."""
    rng = np.random.default_rng(seed)
    params = {}
    for name, shape in shapes(rows, columns, architecture).items():
        if name.endswith("_b"):
            params[name] = np.zeros(shape, dtype=np.float32)
        else:
            fan_in = int(np.prod(shape[:-1]))
            scale = np.sqrt(2.0 / fan_in) if name != "value2_w" else np.sqrt(1.0 / fan_in)
            params[name] = (rng.standard_normal(shape) * scale).astype(np.float32)
    params["policy_w"] *= 0.1  # a nearly uniform first policy
    return params


def starting_params(rows, columns, architecture, seed, init=None):
    """``(params as jax arrays, architecture)`` a training run starts from: ``init``'s
    (``(params, architecture)``: ``--init``/a resumed run; its architecture wins), else
    :func:`init_params` of ``architecture`` (None: :data:`ARCHITECTURE`) seeded by ``seed``."""
    import jax.numpy as jnp
    if init is not None:
        params, architecture = init
    else:
        architecture = architecture or ARCHITECTURE
        params = init_params(rows, columns, architecture, seed)
    return {k: jnp.asarray(v) for k, v in params.items()}, architecture


def forward(params, x, architecture=None):
    """``(logits, value)`` of ``params`` (jax or numpy arrays by name) on ``x`` (n,
    rows, columns, inputs): :func:`agents.players.network.forward` in JAX."""
    import jax
    import jax.numpy as jnp
    padding = (architecture or {}).get("padding", "same").upper()
    h = x
    i = 0
    while f"trunk{i}_w" in params:
        h = jax.lax.conv_general_dilated(h, params[f"trunk{i}_w"], (1, 1), padding,
                                         dimension_numbers=("NHWC", "HWIO", "NHWC"))
        h = jax.nn.relu(h + params[f"trunk{i}_b"])
        i += 1
    h = h.reshape(h.shape[0], -1)
    if "dense_w" in params:
        h = jax.nn.relu(h @ params["dense_w"] + params["dense_b"])
    logits = h @ params["policy_w"] + params["policy_b"]
    if "value_w" in params:
        return logits, (h @ params["value_w"] + params["value_b"])[:, 0]
    hidden = jax.nn.relu(h @ params["value1_w"] + params["value1_b"])
    value = jnp.tanh(hidden @ params["value2_w"] + params["value2_b"])[:, 0]
    return logits, value


def loss_fn(params, x, legal, target, value, weight, value_weight=1.0):
    """The teacher's loss: cross-entropy of the policy (full columns masked) against the
    distribution ``target`` (n, columns), each position weighted by ``weight`` (n,), plus
    ``value_weight`` times the squared error of the value against ``value`` (n,) in -1..1.
    Returns ``(loss, (policy loss, value loss))``."""
    import jax
    import jax.numpy as jnp
    logits, v = forward(params, x)
    logits = jnp.where(legal, logits, -1e9)
    logp = jax.nn.log_softmax(logits)
    cross = -jnp.sum(target * jnp.where(legal, logp, 0.0), axis=-1)
    policy = jnp.sum(weight * cross) / jnp.sum(weight)
    vloss = jnp.mean((v - value) ** 2)
    return policy + value_weight * vloss, (policy, vloss)


def optimiser(learning_rate, steps=None, weight_decay=1e-4):
    """AdamW with a cosine decay of ``learning_rate`` over ``steps`` (Optax); a constant
    ``learning_rate`` when ``steps`` is None (``--mode zero``: no end known in advance)."""
    import optax
    if steps is None:
        return optax.adamw(learning_rate, weight_decay=weight_decay)
    schedule = optax.cosine_decay_schedule(learning_rate, max(1, steps), alpha=0.05)
    return optax.adamw(schedule, weight_decay=weight_decay)


@functools.lru_cache(maxsize=8)
def train_step(opt, value_weight):
    """A jitted ``step(params, state, x, legal, target, value, weight) -> (params, state,
    loss, policy loss, value loss)`` of the optimiser ``opt`` (:func:`loss_fn`)."""
    import jax
    import optax

    def step(params, state, x, legal, target, value, weight):
        (loss, (pl, vl)), grads = jax.value_and_grad(loss_fn, has_aux=True)(
            params, x, legal, target, value, weight, value_weight)
        updates, state = opt.update(grads, state, params)
        return optax.apply_updates(params, updates), state, loss, pl, vl
    return jax.jit(step)


def to_network(params, rows, columns, inarow, architecture, made=None):
    """The :class:`agents.players.network.Network` of trained ``params``."""
    return Network(rows, columns, inarow, architecture,
                   {k: np.asarray(v, dtype=np.float32) for k, v in params.items()}, made)


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
