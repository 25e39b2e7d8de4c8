"""The teacher's positions: the positions a learner meets in its games against graded
opponents, each labelled with every column's exact score by the solver.

A :class:`Task` plays ``boards`` games at a time on the batched environment
(:class:`agents.envs.boards.Boards`, seat drawn at each reset) against a kernel
opponent (``random``, ``onestep``, ``rules``, ``alphabeta:depth=D``) or itself
(``"self"``: the learner plays both sides), until ``positions`` distinct positions
have been seen. At each of the learner's turns the position is labelled
(:meth:`agents.solver.solver.Solver.analyze`, with the installed opening database on
7x6) and the learner moves:

* ``"teacher"``: a best column (uniform among them), or with probability ``noise`` a
  uniformly random legal column: a strong player's mistakes;
* ``"net"``: a column drawn from the network's softmax (full columns masked), or with
  probability ``noise`` a random one: the positions the learner itself reaches.

The result is ``(planes, scores)``: uint8 ``(n, rows, columns, 2)`` (the side to
move's stones, the opponent's; the format of :mod:`agents.solver.labels`) and int16
``(n, columns)`` (the solver's scale, :data:`agents.solver.labels.FULL` for a full
column). Everything from the task's seed: the same task, the same positions.
"""
from dataclasses import dataclass

import numpy as np

from agents.solver.labels import FULL, labelling_solver


@dataclass(frozen=True)
class Task:
    rows: int
    columns: int
    inarow: int
    opponent: str       # a kernel opponent's spec, or "self"
    learner: str        # "teacher" or "net"
    noise: float
    boards: int
    positions: int
    seed: int
    net: bytes = b""    # the network's .npz bytes (learner "net")
    database: bool = True


def label(solver, grid, mark, cfg):
    """The exact score of every column of Kaggle's flat ``grid`` with ``mark`` to move."""
    from agents.solver.position import Position
    p = Position.from_grid(grid, cfg[0], cfg[1], cfg[2], mark)
    return np.array(solver.analyze(p), dtype=np.int16)


def play_and_label(task):
    """``(planes, scores)`` of ``task`` (module docstring)."""
    from agents.envs.boards import Boards
    from agents.players.network import read_network
    from scripts.learn.evaluate import sampled
    cfg = (task.rows, task.columns, task.inarow)
    rng = np.random.default_rng(task.seed)
    boards = Boards(task.boards, *cfg, opponent=None if task.opponent == "self" else task.opponent,
                    seat="random")
    boards.seed(task.seed)
    boards.reset()
    solver = labelling_solver(*cfg, task.database)
    net = read_network(task.net) if task.learner == "net" else None
    seen = {}
    steps = 0
    most_steps = 4 * task.positions + 100  # a board too small to give that many positions
    while len(seen) < task.positions and steps < most_steps:
        steps += 1
        obs = boards.obs.astype(np.uint8)
        live = ~boards.terminated
        scores = np.full((boards.n, task.columns), FULL, dtype=np.int16)
        for b in np.flatnonzero(live):
            key = obs[b].tobytes()
            if key not in seen:
                seen[key] = (obs[b].copy(), label(solver, boards.grid[b], boards.to_move(b), cfg))
            scores[b] = seen[key][1]
        actions = np.zeros(boards.n, dtype=np.int64)
        legal = boards.mask.astype(bool)
        drawn = sampled(net.params, obs, rng) if net is not None else None
        for b in np.flatnonzero(live):
            cols = np.flatnonzero(legal[b])
            if rng.random() < task.noise:
                actions[b] = rng.choice(cols)
            elif net is None:
                s = scores[b]
                actions[b] = rng.choice(np.flatnonzero(s == s[cols].max()))
            else:
                actions[b] = drawn[b]
        boards.step(actions)
    items = list(seen.values())[:task.positions]
    planes = np.array([i[0] for i in items], dtype=np.uint8).reshape(-1, *cfg[:2], 2)
    scores = np.array([i[1] for i in items], dtype=np.int16).reshape(-1, task.columns)
    return planes, scores


def mirrored(planes, scores):
    """Each position and its mirror image (columns reversed): twice the positions."""
    return (np.concatenate([planes, planes[:, :, ::-1]]),
            np.concatenate([scores, scores[:, ::-1]]))


def merge(parts, exclude=()):
    """One ``(planes, scores)`` of ``parts`` without repeats, and without the positions
    whose planes' bytes are in ``exclude`` (a held-out judge set, mirror images included)."""
    seen = set(exclude)
    keep_p, keep_s = [], []
    for planes, scores in parts:
        for i in range(len(planes)):
            key = planes[i].tobytes()
            if key not in seen:
                seen.add(key)
                keep_p.append(planes[i])
                keep_s.append(scores[i])
    if not keep_p:
        raise ValueError("no positions left to learn from")
    return np.array(keep_p, dtype=np.uint8), np.array(keep_s, dtype=np.int16)


def keys_of(planes):
    """The planes' bytes of each position and of its mirror image (for :func:`merge`)."""
    return {p.tobytes() for p in planes} | {p[:, ::-1].tobytes() for p in planes}


def targets(scores, temperature=1.0):
    """``(legal, policy, value)`` of labelled ``scores``: bool (n, columns); the policy
    target, a softmax of the legal columns' scores divided by ``temperature`` (0: uniform
    over the best columns); the value target, the sign of the best score (+1 the side to
    move wins, 0 a draw, -1 it loses), float32."""
    legal = scores != FULL
    s = np.where(legal, scores.astype(np.float64), -np.inf)
    best = s.max(axis=1, keepdims=True)
    if temperature > 0:
        w = np.exp((s - best) / temperature)
    else:
        w = (s == best).astype(np.float64)
    policy = (w / w.sum(axis=1, keepdims=True)).astype(np.float32)
    return legal, policy, np.sign(best[:, 0]).astype(np.float32)


def critical(scores):
    """Bool (n,): the positions where the legal columns do not all have the same sign
    (some keep the game value and some throw it away): the only positions where a
    policy's move can change the result, the ones ``connectx score``'s good-move rate
    counts against it."""
    legal = scores != FULL
    sign = np.sign(scores.astype(np.int64))
    lo = np.where(legal, sign, 2).min(axis=1)
    hi = np.where(legal, sign, -2).max(axis=1)
    return lo != hi



def children(planes, scores, inarow, exclude=()):
    """The value targets the labels give for free: every position one legal move after a
    labelled one. ``planes`` uint8 (n, rows, columns, 2) and ``scores`` int16 (n, columns)
    as :func:`play_and_label` gives them. Returns ``(planes, values)``: uint8 (m, rows,
    columns, 2) of the children, their side to move first (the labelled position's
    opponent), and float32 (m,) their exact win/draw/loss for that side (``-sign`` of the
    column's score). A move that ends the game (a win, or the last cell) gives no child:
    the search scores game ends exactly, it never asks the network. Each child once, and
    none whose planes' bytes are in ``exclude`` (:func:`keys_of` of a held-out set)::

        labelled, X to move          its child after column 2: O to move, value -sign(s[2])
        . . . . .                    . . . . .
        . . O . .        column 2    . . X . .
        . X X . .        ------->    . X X . .      planes: [O's stones, X's stones]
    """
    from agents.board.grid import wins_by_playing
    n, rows, columns, _ = planes.shape
    seen = set(exclude)
    out_p, out_v = [], []
    for i in range(n):
        # Kaggle's flat grid, 1 the side to move, 2 the opponent; row 0 the top row
        grid = (planes[i, :, :, 0] + 2 * planes[i, :, :, 1]).astype(np.int64).reshape(-1)
        taken = planes[i].sum(axis=-1) > 0
        heights = taken.sum(axis=0).astype(np.int64)
        if heights.sum() + 1 >= rows * columns:
            continue  # every move ends the game
        for c in range(columns):
            if scores[i, c] == FULL or wins_by_playing(grid, heights, rows, columns, inarow, c, 1):
                continue
            child = np.stack([planes[i, :, :, 1], planes[i, :, :, 0]], axis=-1)
            child[rows - 1 - heights[c], c, 1] = 1
            key = child.tobytes()
            if key in seen:
                continue
            seen.add(key)
            out_p.append(child)
            out_v.append(-np.sign(scores[i, c]))
    if not out_p:
        return (np.zeros((0, rows, columns, 2), dtype=np.uint8), np.zeros(0, dtype=np.float32))
    return np.array(out_p, dtype=np.uint8), np.array(out_v, dtype=np.float32)



def opening_grids(rows, columns, inarow, stones):
    """``[(grid, mark)]``: every position of at most ``stones`` stones that play reaches
    with the game still on (no line, the board not full), each once, by stones then by
    bytes; ``grid`` Kaggle's flat int64 board, ``mark`` the side to move. On 7x6: 1, 7,
    49, 238, 1,120, 4,263, 16,422 positions of 0..6 stones (the known counts)."""
    from agents.board.grid import wins_by_playing
    level = {np.zeros(rows * columns, dtype=np.int64).tobytes()}
    out = []
    for n in range(stones + 1):
        mark = 1 + n % 2
        after = set()
        for key in sorted(level):
            grid = np.frombuffer(key, dtype=np.int64).copy()
            out.append((grid, mark))
            if n == stones or n + 1 == rows * columns:
                continue
            heights = (grid.reshape(rows, columns) != 0).sum(axis=0).astype(np.int64)
            for c in range(columns):
                if heights[c] < rows and not wins_by_playing(grid, heights, rows, columns,
                                                             inarow, c, mark):
                    child = grid.copy()
                    child[c + (rows - 1 - heights[c]) * columns] = mark
                    after.add(child.tobytes())
        level = after
    return out


def openings(rows, columns, inarow, stones, database=True):
    """The positions of :func:`opening_grids` labelled as :func:`play_and_label`'s:
    ``(planes, scores)``. On 7x6 up to 6 stones: 22,100 positions, labelled by the opening
    database in about 5 seconds. The positions a player meets most often, and where a
    network's error costs a whole game."""
    cfg = (rows, columns, inarow)
    solver = labelling_solver(rows, columns, inarow, database)
    grids = opening_grids(rows, columns, inarow, stones)
    planes = [np.stack([g == m, g == 3 - m], axis=-1).reshape(rows, columns, 2)
              for g, m in grids]
    scores = [label(solver, g, m, cfg) for g, m in grids]
    return (np.array(planes, dtype=np.uint8).reshape(-1, rows, columns, 2),
            np.array(scores, dtype=np.int16).reshape(-1, columns))
