"""The ``mcts`` agent: options, clock and tree reuse over :mod:`agents.search.mcts`."""
import numpy as np

from agents.players.base import (Agent, accepting, boolean, optional, positive_int,
                                 positive_number, seed_value, warmup_option)
from agents.players.network import check_board, load_network, network_file
from agents.search.counters import S_ITERATIONS, S_MAX_DEPTH
from agents.search.mcts import DEFAULT_MAX_NODES, Tree, copy_subtree, search
from agents.search.network_kernel import pack_network


@accepting("light or random")
def rollout_policy(value):
    if value not in ("light", "random"):
        raise ValueError(f"option rollout must be 'light' or 'random', got {value!r}")
    return value


class MCTSAgent(Agent):
    """UCT with MCTS-Solver in numba (:mod:`agents.search.mcts`).

    Options: ``time_limit`` seconds a move (never more than ``config.actTimeout``
    less a safety margin; ``use_overage`` adds a share of the overage reserve),
    ``iterations`` a move (a cap; with ``seed`` the play is reproducible),
    exploration constant ``c``, ``rollout`` policy ``"light"`` (win, block, else
    random) or ``"random"``, ``max_nodes`` tree slots (default 2**20 at 37 bytes a
    slot, 39 MB a tree, at most 2**24; the agent keeps two trees for reuse; a move of
    2 s on 7x6 fills about 400k slots), ``reuse`` the tree between moves.

    ``prior``: the path of a network of ``connectx learn`` (``.npz``): the same kernel
    then runs PUCT with the network as its evaluator: the network's policy is each
    node's prior and its value replaces the rollout; ``c`` is PUCT's constant (default
    :data:`~agents.search.mcts.DEFAULT_PUCT_C`), ``rollout`` does not apply, and
    ``last`` also holds the root's ``visits`` by column and its ``value`` (-1..1 for the
    side to move). Until the kernel is compiled (a Kaggle file's first moves) the
    moves come from the plain-Python :mod:`agents.search.puct_reference` on the numpy
    network. A Kaggle file embeds the network, as ``policy`` does.

    ``last`` describes the latest move: ``iterations`` run, tree ``nodes``,
    ``reused_visits`` (visits of the reused subtree, 0 for a new tree), the proofs of the
    root and of the chosen child (``UNKNOWN``/``WIN``/``DRAW``/``LOSS``, each for the
    player who moved into that node) and the deepest selection path."""

    name = "mcts"
    OPTIONS = {"time_limit": (optional(positive_number("time_limit")), None),
               "iterations": (optional(positive_int("iterations")), None),
               "c": (optional(positive_number("c")), None),
               "prior": (optional(network_file), None),
               "seed": (seed_value, None),
               "rollout": (rollout_policy, "light"),
               "max_nodes": (positive_int("max_nodes", 1 << 24), DEFAULT_MAX_NODES),
               "reuse": (boolean("reuse"), True),
               "use_overage": (boolean("use_overage"), False),
               "warmup": warmup_option()}
    PRIVATE_OPTIONS = {"iterations": 64, "max_nodes": 1024}
    MOVE_COMPILE_SECONDS = 12.0

    def __init__(self, **options):
        super().__init__(**options)
        self._trees = None      # two Trees: the current one and the spare for reuse
        self._key = None        # (rows, columns, inarow, mark) of the stored tree
        self._grid = None       # board at the stored tree's root
        self.last = {}
        self.net = None
        self._packed = None     # the network as the kernel takes it
        if self.prior is not None:
            self.net = load_network(self, self.prior, "mcts")
            self._packed = pack_network(self.net.params, self.net.architecture,
                                        self.net.rows, self.net.columns)

    def ready_to_move(self, grid, heights, mark, cfg):
        # with a network the plain-Python PUCT plays while the kernel compiles
        return self.prior is not None

    def _find_reused_root(self, grid, mark, cfg):
        """Slot of the old tree's grandchild matching ``grid``, or -1."""
        old = self._grid
        if old is None or not self.reuse or self._key != (*cfg, mark):
            return -1
        changed = np.flatnonzero(old != grid)
        if len(changed) != 2 or np.any(old[changed] != 0):
            return -1
        columns = cfg.columns
        mine = [i for i in changed if grid[i] == mark]
        theirs = [i for i in changed if grid[i] == 3 - mark]
        if len(mine) != 1 or len(theirs) != 1:
            return -1
        mine, theirs = int(mine[0]), int(theirs[0])
        if mine % columns == theirs % columns and mine < theirs:
            return -1  # the opponent's stone lies under ours: not this order of moves
        tree = self._trees[0]
        node = 0
        for col in (mine % columns, theirs % columns):
            nxt = [k for c, k in tree.children(node) if c == col]
            if not nxt:
                return -1
            node = nxt[0]
        return node

    def choose(self, grid, heights, mark, cfg, clock):
        if self.net is not None:
            check_board(self.net, self.prior, cfg)
            if not self._kernel_ready():
                # half the plain budget to the reference, the rest lent to the compiler
                # (not on the first move, which also pays for loading the file)
                half = clock.start + (clock.plain_deadline - clock.start) / 2
                col = self._choose_reference(grid, mark, cfg, half)
                if self._calls > 1:
                    self.warm.lend(clock.plain_deadline)
                return col
        capacity = max(self.max_nodes, cfg.columns + 1)
        if self._trees is None or self._trees[0].capacity != capacity:
            self._trees = [Tree(capacity), Tree(capacity)]
            self._grid = None
            # compile the subtree copy now rather than in the middle of the next move
            self._trees[0].reset()
            copy_subtree(0, *self._trees[0].arrays(), *self._trees[1].arrays(),
                          np.empty(1, dtype=np.int32))
        node = self._find_reused_root(grid, mark, cfg)
        if node > 0:
            old, spare = self._trees
            queue = np.empty(capacity, dtype=np.int32)
            n = copy_subtree(int(node), *old.arrays(), *spare.arrays(), queue)
            spare.count[0] = n
            self._trees = [spare, old]
            reused = spare.visits_at()
        else:
            self._trees[0].reset()
            reused = 0
        tree = self._trees[0]
        seed = int(self.rng.integers(0, 1 << 62))
        _, counters = search(grid, mark, cfg, self.iterations or 0, clock.deadline, self.c,
                             self.rollout == "light", seed, tree, network=self._packed)
        best, col = tree.best_slot(), tree.best_move()
        self._grid = grid.copy()
        self._key = (*cfg, mark)
        self.last = {"column": col, "iterations": int(counters[S_ITERATIONS]),
                     "nodes": int(tree.count[0]), "reused_visits": reused,
                     "root_proof": tree.proof_at(), "move_proof": tree.proof_at(best),
                     "max_depth": int(counters[S_MAX_DEPTH])}
        if self.net is not None:
            self.last["visits"] = tree.root_visits()
            # the root's mean value for the mover; None when it has no visit (its move was
            # proven when the root was expanded, or no simulation fitted the time)
            self.last["value"] = tree.root_value()
        return col

    def _kernel_ready(self):
        """True once the warm-up compiled the search kernel (always without a background
        warm-up: the first move compiles it)."""
        return getattr(self, "warmup", "lazy") != "background" or self.warm is None \
            or self.warm.done()

    def _choose_reference(self, grid, mark, cfg, deadline):
        """The move of :mod:`agents.search.puct_reference` (plain Python, the numpy
        network) searched until ``deadline``, for the moves before the kernel is
        compiled."""
        from agents.search.mcts import DEFAULT_PUCT_C
        from agents.search.puct_reference import planes_of_position, search as puct
        from agents.solver.position import Position
        net = self.net

        def evaluate(p):
            logits, value = net.evaluate(planes_of_position(p))
            return logits[0], value[0]
        position = Position.from_grid(grid, cfg.rows, cfg.columns, cfg.inarow, mark)
        c = DEFAULT_PUCT_C if self.c is None else self.c
        col, root = puct(position, evaluate, self.iterations or 0, deadline, c)
        visits = {m: (0 if ch is None else ch.visits)
                  for m, ch in zip(root.moves, root.children or ())}
        self.last = {"column": int(col), "iterations": root.visits - 1, "visits": visits,
                     "value": root.total / root.visits, "source": "reference"}
        return int(col)


__all__ = ["MCTSAgent", "rollout_policy"]
