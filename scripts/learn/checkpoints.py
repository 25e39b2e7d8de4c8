"""A zero run's files between its iterations (:mod:`scripts.learn.zero`): the state
to resume from (:data:`STATE`: the training window and the optimiser's state) and the
networks kept one an iteration (:data:`CHECKPOINTS`: ``networks/iteration-NNN.npz``, to
measure the curve afterwards at any cost, e.g. matches against ``negamax``)."""
import json
import os
import shutil

import numpy as np

STATE = "zero-state.npz"
CHECKPOINTS = "networks"


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


def keep_network(out, path, iteration):
    """Copy the network file ``path`` into ``out``'s :data:`CHECKPOINTS` as the one of
    ``iteration``."""
    os.makedirs(os.path.join(out, CHECKPOINTS), exist_ok=True)
    shutil.copyfile(path, os.path.join(out, CHECKPOINTS, f"iteration-{iteration:03d}.npz"))
