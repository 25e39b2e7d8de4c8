"""MCTS benchmark: ``python -m scripts.bench.mcts [--seconds S]`` (also a section of
``python -m scripts.bench.search``).

Prints, measured in this run (these machines are noisy, so only ratios mean much):

* rollouts (= UCT iterations, one rollout each) per second of the numba search
  (:mod:`agents.search.mcts`) against the pure-Python reference (:mod:`agents.search.uct_reference`),
  same position, same algorithm, same random numbers, for the light and the random
  rollout policy, with their ratio; and the two rollout functions alone;
* simulations per second of the agent's search on the empty 7x6 board for ``S``
  seconds (default 1), with the node count and the deepest path;
* PUCT with a network of ``connectx learn``'s default architecture (seeded random
  weights): simulations per second of the kernel (the network as the evaluator of
  :mod:`agents.search.mcts`) against the plain-Python :mod:`agents.search.puct_reference`
  on the numpy network, and one evaluation of each forward pass.
"""
import time

import numpy as np

from agents.search import mcts
from agents.search.rollout import bb_rollout, seed_state
from agents.search.counters import new_counters
from agents.board.bitboard import fits_bitboard
from agents.board.rules import parse_config
from agents.search.uct_reference import Board, XorShift, rollout, uct_search

SHAPE = (6, 7, 4)


def _timed(fn, min_seconds):
    """(calls, seconds): repeat ``fn`` until ``min_seconds`` have passed."""
    n = 0
    t0 = time.perf_counter()
    while True:
        fn()
        n += 1
        dt = time.perf_counter() - t0
        if dt >= min_seconds:
            return n, dt


def search_rates(light, ref_iterations=400, numba_iterations=50_000, min_seconds=0.5):
    """Iterations per second of the reference and of the kernel on the empty 7x6 board."""
    cfg = parse_config(dict(zip(("rows", "columns", "inarow"), SHAPE)))
    grid = np.zeros(SHAPE[0] * SHAPE[1], dtype=np.int8)
    mcts.search(grid, 1, cfg, iterations=10, light=light)  # compile
    n, dt = _timed(lambda: uct_search(Board(*SHAPE), 1, ref_iterations, mcts.DEFAULT_C, light,
                                      int(seed_state(0)[0])), min_seconds)
    ref = n * ref_iterations / dt
    n, dt = _timed(lambda: mcts.search(grid, 1, cfg, iterations=numba_iterations, light=light,
                                       seed=0), min_seconds)
    fast = n * numba_iterations / dt
    return ref, fast


def rollout_rates(light, ref_rollouts=300, numba_rollouts=100_000, min_seconds=0.5):
    """Rollouts per second from the empty 7x6 board: the two rollout functions alone."""
    rows, columns, inarow = SHAPE
    rng_ref = XorShift(int(seed_state(1)[0]))

    def ref_batch():
        for _ in range(ref_rollouts):
            rollout(Board(*SHAPE), 1, light, rng_ref)

    n, dt = _timed(ref_batch, min_seconds)
    ref = n * ref_rollouts / dt
    rng = seed_state(1)
    legal = np.zeros(columns, dtype=np.int64)
    counters = new_counters()
    assert fits_bitboard(rows, columns)
    _rollouts_kernel(rows, columns, inarow, light, rng, legal, counters, 10)  # compile
    n, dt = _timed(lambda: _rollouts_kernel(rows, columns, inarow, light, rng, legal, counters,
                                            numba_rollouts), min_seconds)
    fast = n * numba_rollouts / dt
    return ref, fast


def _make_rollouts_kernel():
    from agents.board.jit import njit

    @njit
    def rollouts(rows, columns, inarow, light, rng, legal, counters, n):
        total = 0
        for _ in range(n):
            total += bb_rollout(0, 0, rows, columns, inarow, 1, light, rng, legal, counters)
        return total

    return rollouts


_rollouts_kernel = _make_rollouts_kernel()


def simulations_per_second(seconds=1.0):
    """The agent's search (defaults: light rollouts, c = DEFAULT_C) on the empty 7x6 board."""
    cfg = parse_config({})
    grid = np.zeros(42, dtype=np.int8)
    mcts.search(grid, 1, cfg, iterations=10)  # compile
    t0 = time.perf_counter()
    tree, counters = mcts.search(grid, 1, cfg, deadline=t0 + seconds, seed=0)
    dt = time.perf_counter() - t0
    return int(counters[mcts.S_ITERATIONS]) / dt, int(tree.count[0]), int(counters[mcts.S_MAX_DEPTH])


# the architecture of connectx learn's default network (scripts/learn/model.py, a room
# the benchmarks do not import): the forward pass timed is the one a trained net runs
BENCH_ARCHITECTURE = {"trunk": [32, 32, 32, 32], "kernel": 3, "value_hidden": 32}


def puct_rates(min_seconds=0.5):
    """(reference, kernel) PUCT simulations per second and (numpy, numba) evaluations per
    second on the empty 7x6 board, a seeded network of the default architecture."""
    from agents.board.grid import planes_of
    from agents.players.network import Network, shapes
    from agents.search.network_kernel import evaluate_grid, pack_network
    from agents.search.puct_reference import planes_of_position
    from agents.search.puct_reference import search as puct
    from agents.solver.position import Position
    rows, columns, inarow = SHAPE
    rng = np.random.default_rng(0)
    net = Network(rows, columns, inarow, BENCH_ARCHITECTURE,
                  {k: (0.1 * rng.standard_normal(s)).astype(np.float32)
                   for k, s in shapes(rows, columns, BENCH_ARCHITECTURE).items()})
    packed = pack_network(net.params, net.architecture, rows, columns)
    cfg = parse_config(dict(zip(("rows", "columns", "inarow"), SHAPE)))
    grid = np.zeros(rows * columns, dtype=np.int8)
    mcts.search(grid, 1, cfg, iterations=10, network=packed)  # compile

    def evaluate(p):
        logits, value = net.evaluate(planes_of_position(p))
        return logits[0], value[0]
    n, dt = _timed(lambda: puct(Position(rows, columns, inarow), evaluate, 50), min_seconds)
    ref = n * 50 / dt
    n, dt = _timed(lambda: mcts.search(grid, 1, cfg, iterations=500, network=packed),
                   min_seconds)
    fast = n * 500 / dt
    planes = planes_of(grid, 1, rows, columns)[None]
    n, dt = _timed(lambda: net.evaluate(planes), min_seconds)
    logits = np.empty(columns)
    m, dm = _timed(lambda: evaluate_grid(grid, rows, columns, 1, *packed, logits), min_seconds)
    return (ref, fast), (n / dt, m / dm)


def run(seconds=1.0):
    print("== MCTS (agents.search.mcts) vs pure-Python UCT (agents.search.uct_reference), empty 7x6 ==")
    print(f"{'':26}{'python /s':>12}{'numba /s':>12}{'ratio':>9}")
    for light in (True, False):
        name = "light" if light else "random"
        ref, fast = search_rates(light)
        print(f"{'UCT iterations, ' + name:26}{ref:12.0f}{fast:12.0f}{fast / ref:8.0f}x")
        ref, fast = rollout_rates(light)
        print(f"{'rollouts alone, ' + name:26}{ref:12.0f}{fast:12.0f}{fast / ref:8.0f}x")
    rate, nodes, depth = simulations_per_second(seconds)
    print(f"agent search, empty 7x6, {seconds:g} s: {rate:.0f} simulations/s, "
          f"{nodes} nodes, deepest path {depth} plies")
    (ref, fast), (numpy_rate, numba_rate) = puct_rates()
    print(f"{'PUCT simulations, network':26}{ref:12.0f}{fast:12.0f}{fast / ref:8.0f}x")
    print(f"{'network evaluations':26}{numpy_rate:12.0f}{numba_rate:12.0f}"
          f"{numba_rate / numpy_rate:8.1f}x   (numpy against numba, with the mirror image)")


# duplicates: each benchmark has a command line of its own (connectx bench NAME), built
# the same way as the others from scripts.args.
def main(argv=None, prog="python -m scripts.bench.mcts"):
    from scripts.args import ArgumentParser, add_seconds_argument
    p = ArgumentParser(prog=prog, description=__doc__.splitlines()[0])
    add_seconds_argument(p, 1.0, "search time for the simulations/s figure")
    args = p.parse_args(argv)
    run(args.seconds)


if __name__ == "__main__":
    main()
