"""The policy/value network of ``connectx learn``: its file format and its forward pass,
numpy only (the ``policy`` agent and the Kaggle file run it; training lives in
``scripts/learn/`` and never here).

A network is a convolutional net for one board shape. Its input is :func:`features` of
a position: ``(rows, columns, 4)`` float32 planes, row 0 the top row (Kaggle's
layout), channel 0 the stones of the side to move, 1 the opponent's, 2 the cell each
non-full column's next stone would take, 3 all ones (so that the zero padding of the
convolutions shows the board's edge). Its layers::

    x -> [conv k x k, "same" padding, + bias, ReLU] x len(trunk)    (rows, columns, F)
      -> flatten (row-major: rows, columns, channels)                 h
    policy: h @ policy_w + policy_b                                   one logit a column
    value:  tanh(relu(h @ value1_w + value1_b) @ value2_w + value2_b) in [-1, 1], the
            side to move's expected result (+1 a win, 0 a draw, -1 a loss)

The file is a numpy ``.npz`` (read with ``allow_pickle=False``): ``meta`` (a JSON
string: ``format``, ``kind`` = ``"connectx-policy"``, ``rows``, ``columns``,
``inarow``, ``architecture`` = ``{"trunk": [F1, F2, ...], "kernel": k,
"value_hidden": H}`` and ``made``, how it was trained) and float32 arrays:
``trunk{i}_w`` (k, k, in, out) (HWIO, as ``jax.lax.conv`` takes them), ``trunk{i}_b``
(out,), ``policy_w`` (rows*columns*F, columns), ``policy_b``, ``value1_w``
(rows*columns*F, H), ``value1_b``, ``value2_w`` (H, 1), ``value2_b`` (1,).

Optional architecture keys, for the Kaggle course's network (``connectx learn --mode
recipe``); their defaults are the network above:

* ``"inputs"``: ``"planes"`` (the 4 planes) or ``"marks"``: one plane, 0 an empty
  cell, 1 a stone of the side to move, 2 the opponent's (the course's observation, Kaggle's
  board as its first player sees it);
* ``"padding"``: ``"same"`` or ``"valid"`` (no padding: each convolution takes k - 1 rows
  and columns off);
* ``"dense"``: D > 0 adds a ReLU layer ``h = relu(h @ dense_w + dense_b)``, (flat, D),
  after the flatten, shared by both heads;
* ``"value_hidden"``: 0 makes the value linear and unbounded, ``h @ value_w + value_b``
  ((flat, 1), (1,)): the course's critic of discounted returns.
"""
import io
import json
import os
import zipfile

import numpy as np

from agents.resources import read_file

FORMAT = 1
KIND = "connectx-policy"
INPUTS = 4  # the feature planes (module docstring)


def features(planes, architecture=None):
    """The network input of ``planes`` (uint8 ``(n, rows, columns, 2)``: the side to
    move's stones, the opponent's; row 0 the top row, as labelled sets hold them):
    float32 ``(n, rows, columns, 4)``, or ``(n, rows, columns, 1)`` for an
    ``architecture`` of ``"inputs": "marks"`` (module docstring)."""
    planes = np.asarray(planes)
    if architecture is not None and architecture.get("inputs", "planes") == "marks":
        return (planes[..., :1] + 2 * planes[..., 1:2]).astype(np.float32)
    n, rows, columns, _ = planes.shape
    x = np.zeros((n, rows, columns, INPUTS), dtype=np.float32)
    x[..., :2] = planes
    taken = planes.sum(axis=-1) > 0                    # (n, rows, columns)
    heights = taken.sum(axis=1)                        # stones a column
    # row of each column's next cell (-1 when full, matching no row)
    x[..., 2] = np.arange(rows)[None, :, None] == (rows - 1 - heights)[:, None, :]
    x[..., 3] = 1.0
    return x


def conv_same(x, w, b, padding="same"):
    """``x`` (n, rows, columns, in) convolved with ``w`` (k, k, in, out), zero "same"
    padding (or none: ``"valid"``, the output k - 1 rows and columns smaller), plus
    ``b``: cross-correlation, as ``jax.lax.conv_general_dilated`` computes."""
    k = w.shape[0]
    p = k // 2 if padding == "same" else 0
    n, rows, columns, cin = x.shape
    padded = np.zeros((n, rows + 2 * p, columns + 2 * p, cin), dtype=x.dtype)
    padded[:, p:p + rows, p:p + columns] = x  # np.pad costs 10x more on a small board
    rows, columns = rows + 2 * p - k + 1, columns + 2 * p - k + 1
    cols = np.concatenate([padded[:, dy:dy + rows, dx:dx + columns, :]
                           for dy in range(k) for dx in range(k)], axis=-1)
    out = cols.reshape(n * rows * columns, k * k * cin) @ w.reshape(k * k * cin, -1)
    return out.reshape(n, rows, columns, -1) + b  # one 2-d product: numpy's batched @ is slow


def forward(params, x, architecture=None):
    """``(logits, value)`` of the network ``params`` (the arrays by name) on input ``x``
    (:func:`features`): float32 ``(n, columns)`` and ``(n,)``. Full columns are not
    masked here (:func:`masked_logits`). ``architecture`` gives the padding (default
    "same"); the dense layer and the value head follow from the arrays present."""
    padding = (architecture or {}).get("padding", "same")
    h = np.asarray(x, dtype=np.float32)
    i = 0
    while f"trunk{i}_w" in params:
        h = np.maximum(conv_same(h, params[f"trunk{i}_w"], params[f"trunk{i}_b"], padding), 0.0)
        i += 1
    h = h.reshape(h.shape[0], -1)
    if "dense_w" in params:
        h = np.maximum(h @ params["dense_w"] + params["dense_b"], 0.0)
    logits = h @ params["policy_w"] + params["policy_b"]
    if "value_w" in params:
        return logits, (h @ params["value_w"] + params["value_b"])[:, 0]
    hidden = np.maximum(h @ params["value1_w"] + params["value1_b"], 0.0)
    value = np.tanh(hidden @ params["value2_w"] + params["value2_b"])[:, 0]
    return logits, value


def masked_logits(logits, planes):
    """``logits`` with the full columns of ``planes`` set to -inf."""
    full = np.asarray(planes)[:, 0].sum(axis=-1) > 0  # the top row taken
    return np.where(full, -np.inf, logits)


def policy_logits(params, planes, architecture=None):
    """``(logits, value)`` of the policy on ``planes``: the network's output averaged over
    each board and its mirror image (columns reversed; Connect Four is symmetric, so the
    player is too), full columns -inf. On the 7x6 labelled set this keeps the value on
    88.4% of the positions against 87.0% for one image (a network of connectx learn)."""
    planes = np.asarray(planes)
    both = np.concatenate([planes, planes[:, :, ::-1]])
    logits, value = forward(params, features(both, architecture), architecture)
    n = len(planes)
    logits = (logits[:n] + logits[n:, ::-1]) / 2
    return masked_logits(logits, planes), (value[:n] + value[n:]) / 2


class Network:
    """A network read from a file (:func:`load_network`) or built from arrays:
    ``rows``, ``columns``, ``inarow``, ``architecture``, ``made``, ``params``."""

    def __init__(self, rows, columns, inarow, architecture, params, made=None):
        self.rows, self.columns, self.inarow = int(rows), int(columns), int(inarow)
        self.architecture = dict(architecture)
        self.params = {k: np.ascontiguousarray(v, dtype=np.float32) for k, v in params.items()}
        self.made = made if made is not None else {}
        check_params(self)

    @property
    def config(self):
        return self.rows, self.columns, self.inarow

    def evaluate(self, planes):
        """:func:`policy_logits` of ``planes`` (:func:`features`' input)."""
        return policy_logits(self.params, planes, self.architecture)


def shapes(rows, columns, architecture):
    """The shape of every array of a network ``architecture`` on ``rows`` x ``columns``
    (module docstring), in layer order."""
    k, trunk, hidden = architecture["kernel"], list(architecture["trunk"]), \
        architecture["value_hidden"]
    out, cin = {}, INPUTS if architecture.get("inputs", "planes") == "planes" else 1
    for i, f in enumerate(trunk):
        out[f"trunk{i}_w"], out[f"trunk{i}_b"] = (k, k, cin, f), (f,)
        cin = f
    shrink = len(trunk) * (k - 1) if architecture.get("padding", "same") == "valid" else 0
    flat = (rows - shrink) * (columns - shrink) * cin
    dense = architecture.get("dense", 0)
    if dense:
        out["dense_w"], out["dense_b"] = (flat, dense), (dense,)
        flat = dense
    out.update({"policy_w": (flat, columns), "policy_b": (columns,)})
    if hidden:
        out.update({"value1_w": (flat, hidden), "value1_b": (hidden,),
                    "value2_w": (hidden, 1), "value2_b": (1,)})
    else:
        out.update({"value_w": (flat, 1), "value_b": (1,)})
    return out


def check_architecture(architecture):
    """``ValueError`` unless ``architecture`` is ``{"trunk": [F, ...], "kernel": k odd,
    "value_hidden": H >= 0}`` with positive integers, and optionally ``"inputs"``
    (``"planes"``, ``"marks"``), ``"padding"`` (``"same"``, ``"valid"``) and ``"dense"``
    (an int >= 0) (module docstring)."""
    def count(v, least):
        return isinstance(v, int) and not isinstance(v, bool) and v >= least
    try:
        trunk, k, hidden = architecture["trunk"], architecture["kernel"], \
            architecture["value_hidden"]
        ok = len(trunk) >= 1 and all(count(f, 1) for f in trunk) \
            and count(k, 1) and k % 2 == 1 and count(hidden, 0) \
            and architecture.get("inputs", "planes") in ("planes", "marks") \
            and architecture.get("padding", "same") in ("same", "valid") \
            and count(architecture.get("dense", 0), 0) \
            and set(architecture) <= {"trunk", "kernel", "value_hidden", "inputs", "padding",
                                      "dense"}
    except (KeyError, TypeError, AttributeError):
        ok = False
    if not ok:
        raise ValueError(f"architecture must be {{'trunk': [positive ints], 'kernel': odd int, "
                         f"'value_hidden': int >= 0}} and optionally 'inputs' (planes, marks), "
                         f"'padding' (same, valid), 'dense' (int >= 0), got {architecture!r}")


def check_params(net):
    check_architecture(net.architecture)
    a = net.architecture
    if a.get("padding", "same") == "valid" and \
            min(net.rows, net.columns) <= len(a["trunk"]) * (a["kernel"] - 1):
        raise ValueError(f"{len(a['trunk'])} valid convolutions of {a['kernel']}x{a['kernel']} "
                         f"leave no cell of a {net.columns}x{net.rows} board")
    want = shapes(net.rows, net.columns, a)
    if set(want) != set(net.params):
        missing, extra = sorted(set(want) - set(net.params)), sorted(set(net.params) - set(want))
        raise ValueError(f"the network's arrays do not match its architecture (missing "
                         f"{missing or 'none'}, unexpected {extra or 'none'})")
    for name, shape in want.items():
        if net.params[name].shape != shape:
            raise ValueError(f"array {name} is {net.params[name].shape}, the architecture "
                             f"wants {shape}")


def network_bytes(net):
    """The ``.npz`` bytes of ``net`` (module docstring)."""
    meta = {"format": FORMAT, "kind": KIND, "rows": net.rows, "columns": net.columns,
            "inarow": net.inarow, "architecture": net.architecture, "made": net.made}
    buf = io.BytesIO()
    np.savez_compressed(buf, meta=np.array(json.dumps(meta, sort_keys=True)), **net.params)
    return buf.getvalue()


def save_network(path, net):
    """Write ``net`` to ``path`` (an ``.npz``)."""
    with open(path, "wb") as f:
        f.write(network_bytes(net))


def read_network(data, source="network"):
    """The :class:`Network` in the ``.npz`` bytes ``data``; ``ValueError`` naming
    ``source`` if they are not one."""
    try:
        with np.load(io.BytesIO(data), allow_pickle=False) as z:
            arrays = {name: z[name] for name in z.files}
        meta = json.loads(str(arrays.pop("meta")))
        if meta.get("kind") != KIND or meta.get("format") != FORMAT:
            raise ValueError(f"kind {meta.get('kind')!r} format {meta.get('format')!r}, "
                             f"expected {KIND!r} format {FORMAT}")
        return Network(meta["rows"], meta["columns"], meta["inarow"], meta["architecture"],
                       arrays, meta.get("made"))
    except (ValueError, KeyError, TypeError, OSError, EOFError, zipfile.BadZipFile) as e:
        raise ValueError(f"{source} is not a connectx network (.npz of connectx learn): "
                         f"{e}") from None


def network_file(value):
    """The ``file`` option: a non-empty path (the network is read by the agent)."""
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"option file must be the path of a network .npz (connectx learn), "
                         f"got {value!r}")
    return value


network_file.accepts = "a path of a network .npz"  # (agents.players.base.accepting)


def load_network(agent, path, name):
    """The network of the file ``path`` for ``agent`` (the agent named ``name``), read
    through :func:`agents.resources.read_file` (a Kaggle file's embedded copy first); the
    agent's ``RESOURCES``/``RESOURCE_PATHS`` name it for the bundler (embedded under its
    base name). ``ValueError`` if it cannot be read or is not a network."""
    try:
        data = read_file(path)
    except OSError as e:
        raise ValueError(f"agent {name!r}: cannot read network {path!r}: "
                         f"{getattr(e, 'strerror', None) or e}") from None
    net = read_network(data, repr(path))
    agent.RESOURCES = (os.path.basename(path),)
    agent.RESOURCE_PATHS = {agent.RESOURCES[0]: path}
    return net


def check_board(net, path, cfg):
    """``ValueError`` unless ``cfg`` is the board of ``net`` (read from ``path``)."""
    if (cfg.rows, cfg.columns, cfg.inarow) != net.config:
        r, c, k = net.config
        raise ValueError(f"network {path!r} plays {c}x{r} boards with {k} in a row, "
                         f"not {cfg.columns}x{cfg.rows} with {cfg.inarow}")
