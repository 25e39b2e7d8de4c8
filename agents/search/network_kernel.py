"""The forward pass of the policy/value network (:mod:`agents.players.network`) in
numba, for one position, so that :mod:`agents.search.mcts` can ask the network from
inside its kernel (the network as the search's evaluator, as AlphaZero does).

The network's arrays travel as two flat arrays made by :func:`pack_network`:
``weights`` (float32, every array of the network one after the other) and ``layout``
(int64)::

    layout[TRUNK, KERNEL, PADDING, MARKS, DENSE, HIDDEN, ROWS, COLUMNS]  (the HEAD)
                  trunk layers T, kernel k, padding p (k // 2 for "same", 0 for "valid"),
                  inputs (1: "marks", one plane; 0: the 4 planes), dense D (0: none),
                  value hidden H (0: a linear value), rows, columns
    layout[HEAD + LAYER * i + (LAYER_IN, LAYER_OUT, LAYER_W, LAYER_B)]
                  trunk layer i: in channels, out channels, offset of w, of b
    layout[HEAD + LAYER * T + (DENSE_W, DENSE_B, POLICY_W, POLICY_B, VALUE1_W, VALUE1_B,
                               VALUE2_W, VALUE2_B)]  (the tail)
                  offsets of dense_w, dense_b, policy_w, policy_b,
                  value1_w (value_w when H = 0), value1_b (value_b), value2_w, value2_b

The fields are named by the constants below (numba reads module constants as the
compile-time numbers they are); :class:`PackedNetwork` holds the two arrays and answers
the board the network plays (``rows``, ``columns``).

Sums run in float32, as numpy's float32 matrix products do (``fastmath``: the compiler
may fuse and vectorise them): the results equal numpy's float32 forward to about 1e-6
(the tests compare them on seeded networks and positions).

The input (:func:`agents.players.network.features`) is built here from a bitboard or a
flat Kaggle grid; :func:`evaluate_bb` and :func:`evaluate_grid` average the board and
its mirror image as :func:`agents.players.network.policy_logits` does.
"""
import math
from typing import NamedTuple

import numpy as np

from agents.board.jit import njit

# the layout's head: one field each
TRUNK, KERNEL, PADDING, MARKS, DENSE, HIDDEN, ROWS, COLUMNS = range(8)
HEAD = 8
# a trunk layer's fields, from HEAD + LAYER * i
LAYER_IN, LAYER_OUT, LAYER_W, LAYER_B = range(4)
LAYER = 4
# the tail's offsets, from HEAD + LAYER * T (T trunk layers)
DENSE_W, DENSE_B, POLICY_W, POLICY_B, VALUE1_W, VALUE1_B, VALUE2_W, VALUE2_B = range(8)


class PackedNetwork(NamedTuple):
    """A network packed for the kernels: ``weights`` (float32) and ``layout`` (int64),
    module docstring; unpacks as ``weights, layout``."""
    weights: np.ndarray
    layout: np.ndarray

    @property
    def rows(self):
        """The rows of the board the network plays."""
        return int(self.layout[ROWS])

    @property
    def columns(self):
        """The columns of the board the network plays."""
        return int(self.layout[COLUMNS])


def pack_network(params, architecture, rows, columns):
    """The :class:`PackedNetwork` of a network's ``params`` (arrays by name, as
    :class:`agents.players.network.Network` holds them) and ``architecture`` on a
    ``rows`` x ``columns`` board (module docstring)."""
    names = []
    i = 0
    while f"trunk{i}_w" in params:
        names += [f"trunk{i}_w", f"trunk{i}_b"]
        i += 1
    trunk = i
    hidden = int(architecture["value_hidden"])
    names += ["dense_w", "dense_b", "policy_w", "policy_b"]
    names += ["value1_w", "value1_b", "value2_w", "value2_b"] if hidden else ["value_w", "value_b"]
    offsets, chunks, at = {}, [], 0
    for name in names:
        if name not in params:
            offsets[name] = -1
            continue
        a = np.ascontiguousarray(params[name], dtype=np.float32).ravel()
        offsets[name] = at
        chunks.append(a)
        at += a.size
    head = np.zeros(HEAD, dtype=np.int64)
    k = int(architecture["kernel"])
    head[TRUNK], head[KERNEL] = trunk, k
    head[PADDING] = k // 2 if architecture.get("padding", "same") == "same" else 0
    head[MARKS] = 1 if architecture.get("inputs", "planes") == "marks" else 0
    head[DENSE], head[HIDDEN] = int(architecture.get("dense", 0)), hidden
    head[ROWS], head[COLUMNS] = rows, columns
    layers = np.zeros((trunk, LAYER), dtype=np.int64)
    for j in range(trunk):
        w = params[f"trunk{j}_w"]
        layers[j, LAYER_IN], layers[j, LAYER_OUT] = w.shape[2], w.shape[3]
        layers[j, LAYER_W], layers[j, LAYER_B] = offsets[f"trunk{j}_w"], offsets[f"trunk{j}_b"]
    value = ("value1_w", "value1_b", "value2_w", "value2_b") if hidden \
        else ("value_w", "value_b", "value_w", "value_b")
    tail = np.zeros(8, dtype=np.int64)
    for field, name in zip((DENSE_W, DENSE_B, POLICY_W, POLICY_B, VALUE1_W, VALUE1_B,
                            VALUE2_W, VALUE2_B),
                           ("dense_w", "dense_b", "policy_w", "policy_b") + value):
        tail[field] = offsets[name]
    return PackedNetwork(np.concatenate(chunks),
                         np.concatenate([head, layers.ravel(), tail]))


@njit(fastmath=True)
def _dense(h, n, weights, w_off, b_off, out, m):
    """``out[:m] = h[:n] @ w + b`` (w ``(n, m)`` at ``w_off``, b at ``b_off``)."""
    for j in range(m):
        out[j] = weights[b_off + j]
    for i in range(n):
        v = h[i]
        if v != 0.0:
            row = w_off + i * m
            wrow = weights[row:row + m]  # a slice: no index wraparound, the loop vectorises
            for j in range(m):
                out[j] += v * wrow[j]


@njit(fastmath=True)
def _conv_relu(h, weights, cout, w_off, b_off, k, p):
    """One trunk layer: ``h`` (float32 ``(rows, columns, in)``) convolved with the
    ``(k, k, in, cout)`` weights at ``w_off`` (padding ``p``), plus the bias at
    ``b_off``, then ReLU; a new float32 array. The sums run in float32, as numpy's
    float32 matrix product does, over a contiguous row of ``cout`` weights taken as a
    slice: indexing ``weights[row + o]`` instead costs numba a negative-index check per
    element, which keeps LLVM from vectorising the loop (2.6-3x slower)."""
    rows_in, cols_in, cin = h.shape[0], h.shape[1], h.shape[2]
    rows_out, cols_out = rows_in + 2 * p - k + 1, cols_in + 2 * p - k + 1
    out = np.empty((rows_out, cols_out, cout), dtype=np.float32)
    acc = np.empty(cout, dtype=np.float32)
    for r in range(rows_out):
        for c in range(cols_out):
            for o in range(cout):
                acc[o] = weights[b_off + o]
            for dy in range(k):
                y = r + dy - p
                if y < 0 or y >= rows_in:
                    continue
                for dx in range(k):
                    xx = c + dx - p
                    if xx < 0 or xx >= cols_in:
                        continue
                    for i in range(cin):
                        v = h[y, xx, i]
                        if v == 0.0:
                            continue
                        row = w_off + ((dy * k + dx) * cin + i) * cout
                        wrow = weights[row:row + cout]
                        for o in range(cout):
                            acc[o] += v * wrow[o]
            for o in range(cout):
                out[r, c, o] = acc[o] if acc[o] > 0.0 else 0.0
    return out


@njit(fastmath=True)
def forward(x, weights, layout, logits):
    """The network on one input ``x`` (float32 ``(rows, columns, channels)``,
    :func:`agents.players.network.features` of one position): writes the ``columns``
    policy logits into ``logits`` and returns the value (module docstring)."""
    trunk, k, p = layout[TRUNK], layout[KERNEL], layout[PADDING]
    dense, hidden, columns = layout[DENSE], layout[HIDDEN], layout[COLUMNS]
    h = x
    for t in range(trunk):
        layer = HEAD + LAYER * t
        h = _conv_relu(h, weights, layout[layer + LAYER_OUT], layout[layer + LAYER_W],
                       layout[layer + LAYER_B], k, p)
    flat = h.ravel()
    n = flat.shape[0]
    tail = HEAD + LAYER * trunk
    if dense > 0:
        d = np.empty(dense, dtype=np.float32)
        _dense(flat, n, weights, layout[tail + DENSE_W], layout[tail + DENSE_B], d, dense)
        for j in range(dense):
            if d[j] < 0.0:
                d[j] = 0.0
        flat, n = d, dense
    out = np.empty(columns, dtype=np.float32)
    _dense(flat, n, weights, layout[tail + POLICY_W], layout[tail + POLICY_B], out, columns)
    for j in range(columns):
        logits[j] = out[j]
    v = np.empty(1, dtype=np.float32)
    if hidden == 0:
        _dense(flat, n, weights, layout[tail + VALUE1_W], layout[tail + VALUE1_B], v, 1)
        return float(v[0])
    hid = np.empty(hidden, dtype=np.float32)
    _dense(flat, n, weights, layout[tail + VALUE1_W], layout[tail + VALUE1_B], hid, hidden)
    for j in range(hidden):
        if hid[j] < 0.0:
            hid[j] = 0.0
    _dense(hid, hidden, weights, layout[tail + VALUE2_W], layout[tail + VALUE2_B], v, 1)
    return math.tanh(float(v[0]))


@njit
def _fill_features(x, cell, rows, columns, marks, mirror):
    """``x`` from ``cell`` ((rows, columns): 0 empty, 1 the side to move's stone, 2 the
    opponent's; row 0 the top row), columns reversed with ``mirror``."""
    for c in range(columns):
        src = columns - 1 - c if mirror else c
        top = rows  # row of the column's next cell (rows: full)
        for r in range(rows):
            v = cell[r, src]
            if marks:
                x[r, c, 0] = v
            else:
                x[r, c, 0] = 1.0 if v == 1 else 0.0
                x[r, c, 1] = 1.0 if v == 2 else 0.0
                x[r, c, 2] = 0.0
                x[r, c, 3] = 1.0
            if v == 0:
                top = r
        if not marks and top < rows:  # the lowest empty cell: stones fill from the bottom
            x[top, c, 2] = 1.0


@njit
def _evaluate_cells(cell, weights, layout, logits):
    """Logits (into ``logits``) and value of the side to move of ``cell``, averaged over
    the board and its mirror image."""
    rows, columns, marks = layout[ROWS], layout[COLUMNS], layout[MARKS] == 1
    x = np.zeros((rows, columns, 1 if marks else 4), dtype=np.float32)
    mirrored = np.empty(columns)
    _fill_features(x, cell, rows, columns, marks, False)
    value = forward(x, weights, layout, logits)
    _fill_features(x, cell, rows, columns, marks, True)
    value += forward(x, weights, layout, mirrored)
    for c in range(columns):
        logits[c] = (logits[c] + mirrored[columns - 1 - c]) / 2.0
    return value / 2.0


@njit
def evaluate_grid(grid, rows, columns, mark, weights, layout, logits):
    """:func:`_evaluate_cells` of Kaggle's flat ``grid`` with ``mark`` to move."""
    cell = np.zeros((rows, columns), dtype=np.int64)
    for r in range(rows):
        for c in range(columns):
            v = grid[c + r * columns]
            if v != 0:
                cell[r, c] = 1 if v == mark else 2
    return _evaluate_cells(cell, weights, layout, logits)


@njit
def evaluate_bb(current, mask, rows, columns, weights, layout, logits):
    """:func:`_evaluate_cells` of a bitboard (``current``: the side to move's stones,
    ``mask``: all stones; :mod:`agents.board.bitboard`)."""
    cell = np.zeros((rows, columns), dtype=np.int64)
    H = rows + 1
    one = np.uint64(1)
    for c in range(columns):
        for h in range(rows):
            bit = one << np.uint64(c * H + h)
            if (mask & bit) == np.uint64(0):
                break
            cell[rows - 1 - h, c] = 1 if (current & bit) != np.uint64(0) else 2
    return _evaluate_cells(cell, weights, layout, logits)
