"""AlphaZero's self-play (:mod:`scripts.learn.zero`, step 1): the network plays itself,
each move searched by the package's numba MCTS with the network as its evaluator
(:func:`agents.search.mcts.search` with ``network=``), in seeded tasks of
:data:`GAMES_PER_TASK` games that run on any executor (:func:`in_order`)."""
from dataclasses import dataclass

import numpy as np

GAMES_PER_TASK = 4


@dataclass
class SelfPlay:
    """One self-play task: ``games`` games of the network in ``net_bytes`` (a ``.npz``)."""
    rows: int
    columns: int
    inarow: int
    net_bytes: bytes
    games: int
    simulations: int
    temperature_plies: int
    dirichlet: float
    noise_weight: float
    c: float
    seed: int
    search_value: float = 0.0


def play_games(task):
    """Self-play of ``task`` (:class:`SelfPlay`): ``(planes, policy, value, stats)`` of every
    position a player moved in: uint8 ``(n, rows, columns, 2)`` (the side to move's
    stones, the opponent's), float32 ``(n, columns)`` visit targets, float32 ``(n,)``
    value targets for the side to move (the game's result, +1/0/-1, or with
    ``task.search_value`` = ``w`` > 0, ``(1 - w) * result + w * v`` with ``v`` the root's
    searched value, :meth:`~agents.search.mcts.Tree.searched_value`: the "average of z and q" of Oracle's *Lessons
    from AlphaZero*, part 4); ``stats`` counts the games' ``first`` wins, ``second`` wins,
    ``draws`` and ``moves``."""
    from agents.board.grid import center_order, drop, planes_of, wins_by_playing
    from agents.envs.boards import board_config
    from agents.players.network import read_network
    from agents.search.mcts import Tree, search
    from agents.search.network_kernel import pack_network
    rows, columns = task.rows, task.columns
    cfg = board_config(rows, columns, task.inarow)
    net = read_network(task.net_bytes)
    packed = pack_network(net.params, net.architecture, rows, columns)
    rng = np.random.default_rng(task.seed)
    tree = Tree(task.simulations * columns + columns + 1)
    order = center_order(columns)
    planes, policy, value = [], [], []
    stats = {"first": 0, "second": 0, "draws": 0, "moves": 0}
    w = float(task.search_value)
    for _ in range(task.games):
        grid = np.zeros(rows * columns, dtype=np.int64)
        heights = np.zeros(columns, dtype=np.int64)
        movers, searched, winner, mark, ply = [], [], 0, 1, 0
        while True:
            tree.reset()
            legal = int(sum(1 for c in order if heights[c] < rows))
            noise = rng.dirichlet(np.full(legal, task.dirichlet)) if task.noise_weight > 0 \
                else None
            search(grid, mark, cfg, task.simulations, c=task.c, tree=tree, network=packed,
                   noise=noise, noise_weight=task.noise_weight)
            target = tree.visit_targets(columns)
            if ply < task.temperature_plies and tree.proven_value() is None:
                col = int(rng.choice(columns, p=target / target.sum()))
            else:
                col = tree.best_move()
            planes.append(planes_of(grid, mark, rows, columns))
            policy.append(target)
            movers.append(mark)
            searched.append(tree.searched_value())
            won = wins_by_playing(grid, heights, rows, columns, task.inarow, col, mark)
            drop(grid, heights, rows, columns, col, mark)
            ply += 1
            if won:
                winner = mark
                break
            if ply == rows * columns:
                break
            mark = 3 - mark
        value += [(1.0 - w) * (0.0 if winner == 0 else (1.0 if m == winner else -1.0)) + w * v
                  for m, v in zip(movers, searched)]
        stats["moves"] += ply
        stats[{0: "draws", 1: "first", 2: "second"}[winner]] += 1
    return (np.array(planes, dtype=np.uint8).reshape(-1, rows, columns, 2),
            np.array(policy, dtype=np.float32).reshape(-1, columns),
            np.array(value, dtype=np.float32), stats)


def play_tasks(cfg, net_bytes, plan, seed, iteration):
    """The self-play tasks of ``iteration`` of a zero run's ``plan``: ``plan.games`` games
    of the network in ``net_bytes`` in tasks of :data:`GAMES_PER_TASK`, each seeded by
    the run's ``seed``, the iteration and its index (the data do not depend on the
    number of workers)."""
    counts = [GAMES_PER_TASK] * (plan.games // GAMES_PER_TASK)
    if plan.games % GAMES_PER_TASK:
        counts.append(plan.games % GAMES_PER_TASK)
    return [SelfPlay(*cfg, net_bytes, n, plan.simulations, plan.temperature_plies,
                     plan.dirichlet, plan.noise_weight, plan.c,
                     seed * 1_000_003 + iteration * 1009 + k, plan.search_value)
            for k, n in enumerate(counts)]


def in_order(function, tasks, pool, progress=None, kind=""):
    """``[function(t) for t in tasks]`` in order, on ``pool`` if there is one."""
    futures = [pool.submit(function, t) for t in tasks] if pool is not None else None
    out = []
    for i, t in enumerate(tasks):
        out.append(futures[i].result() if futures is not None else function(t))
        if progress:
            progress(kind, i + 1, len(tasks))
    return out
