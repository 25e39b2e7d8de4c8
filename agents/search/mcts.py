"""Monte Carlo tree search with MCTS-Solver, entirely in numba, with one of two
evaluators: rollouts (UCT, :func:`_search`) or a policy/value network (PUCT, as
AlphaZero: :func:`_search_network`, the network's forward pass in
:mod:`agents.search.network_kernel`). Both share the tree, its expansion, the solver's
proofs, the backpropagation and tree reuse; :func:`search` picks the kernel.

The tree lives in preallocated arrays, one slot per node (no Python object per
node). The children of a node occupy consecutive slots
``first[n] .. first[n] + nchild[n] - 1``, created all at once, in centre-first
column order, when the node is expanded::

    slot     parent  first  nchild  move  visits  wins  proof
    0 root     -1      1      7      -     N0      W0    ?      <- side to move: the agent
    1..7        0     8..    ...     3,2,4,1,5,0,6              <- the agent's moves
    8..         1      -      0     ...                         <- replies to column 3

``wins[n]`` and ``proof[n]`` are from the point of view of the player who moved
*into* ``n`` (the classic lesson's convention): a rollout won by that player adds
1, a draw 1/2, a loss 0. UCT picks the child maximising
``wins/visits + c * sqrt(ln(parent visits) / visits)``; unvisited children come
first, in slot order; ties go to the lower slot.

One iteration: *selection* walks down the expanded nodes from the root, playing
the moves on a scratch copy of the board; *expansion* creates every child of the
leaf reached (if it was visited before and there are free slots) and steps into
the first one; *simulation* plays a rollout to the end of the game; and
*backpropagation* adds the result to every node on the path.

MCTS-Solver (Winands, Bjornsson & Saito 2008, with draws): a child whose move
wins at once is created ``WIN``, one that fills the board ``DRAW``. A node with a
``WIN`` child is a ``LOSS`` for the player who moved into it; a node whose
children are all proven is the best of them, negated. Proofs are propagated during
backpropagation, selection never enters a ``LOSS`` child, a proven node returns
its proven result instead of a rollout, and the search stops when the root is
proven. The move played is a proven win if there is one (an immediate win
first), else the most visited child that is not a proven loss.

Rollouts (``light``: win, else block, else random; or plain random) and the random
numbers: :mod:`agents.search.rollout`.
On boards that fit 64 bits (``columns * (rows + 1) <= 64``) the tree walk, the
expansions and the rollouts use the bitboard of :mod:`agents.board.bitboard`, elsewhere the
flat array: the same tree either way (the tests check both paths).
Random numbers come from a xorshift64 generator whose state is a one-element
uint64 array, so that :mod:`agents.search.uct_reference` can draw the very same numbers
and the tests can compare the two searches node for node.

With the network (``search(..., network=...)``) a leaf is expanded at its first visit
and the network is asked once there: the softmax of its logits over the children's
columns is their ``prior``, and its value ``v`` (-1..1 for the side to move) is backed
up as the reward ``(1 - v) / 2`` of the player who moved into the leaf. Selection takes
the child of highest ``Q + c * P * sqrt(N) / (1 + n)`` (:func:`_select_puct`; ``Q`` in
-1..1, 0 while unvisited). Proven nodes, the stops and the move played are as above.
The slow reference is :mod:`agents.search.puct_reference`: on trees with no proven node
the two make the same simulations (the tests compare them node for node).

Tree reuse: after a move the agent keeps its tree; on its next turn it finds
the grandchild of the old root that matches the board (its own move, then the
opponent's reply) and copies that subtree to the front of a second set of
arrays (breadth first, so children stay consecutive); otherwise it starts anew.
"""
import math

import numpy as np

from agents.board.jit import njit, now
from agents.board.bitboard import (bb_bottom, bb_column, bb_from_grid, bb_winning_cells,
                                   fits_bitboard)
from agents.board.grid import center_order, drop, wins_by_playing
from agents.search.network_kernel import evaluate_bb, evaluate_grid
from agents.search.rollout import bb_rollout, rollout, seed_state
from agents.search.counters import S_ITERATIONS, S_MAX_DEPTH, S_NODES, new_counters

# proof codes, from the point of view of the player who moved into the node
UNKNOWN, WIN, DRAW, LOSS = 0, 1, 2, 3


DEFAULT_MAX_NODES = 1 << 20
# Exploration constant (rewards in [0, 1]): a coarse choice from short matches against
# alphabeta on 7x6 (the figures: docs/agents.md, MCTS).
DEFAULT_C = 0.5
# PUCT's constant with the network (rewards in [-1, 1] there, as AlphaZero's)
DEFAULT_PUCT_C = 1.5


# ---------------------------------------------------------------------------
# Kernels
# ---------------------------------------------------------------------------

@njit
def _update_proof(node, first, nchild, proof):
    """Set ``proof[node]`` from its children's proofs if they decide it; True if they did."""
    all_proven = True
    best = LOSS  # best proven child for the player to move at ``node``
    for k in range(first[node], first[node] + nchild[node]):
        p = proof[k]
        if p == WIN:
            proof[node] = LOSS
            return True
        if p == UNKNOWN:
            all_proven = False
        elif p == DRAW:
            best = DRAW
    if not all_proven or nchild[node] == 0:
        return False
    proof[node] = DRAW if best == DRAW else WIN
    return True


@njit
def _select(node, first, nchild, proof, visits, wins, c):
    """The UCT child of an unproven, expanded ``node`` (never a proven loss)."""
    best = -1
    best_score = -np.inf
    log_n = math.log(visits[node]) if visits[node] > 0 else 0.0
    for k in range(first[node], first[node] + nchild[node]):
        if proof[k] == LOSS:
            continue
        if visits[k] == 0:
            return k
        score = wins[k] / visits[k] + c * math.sqrt(log_n / visits[k])
        if score > best_score:
            best_score = score
            best = k
    return best


@njit
def _select_puct(node, first, nchild, proof, visits, wins, prior, c):
    """The PUCT child of an unproven, expanded ``node`` (never a proven loss): the
    highest ``Q + c * P * sqrt(N) / (1 + n)``, ``Q`` the child's mean result in -1..1
    for the side to move at ``node`` (0 while unvisited), ``P`` its prior, ``n`` its
    visits, ``N`` the node's; ties go to the lower slot."""
    best = -1
    best_score = -np.inf
    root_n = c * math.sqrt(visits[node])
    for k in range(first[node], first[node] + nchild[node]):
        if proof[k] == LOSS:
            continue
        q = 2.0 * wins[k] / visits[k] - 1.0 if visits[k] > 0 else 0.0
        score = q + prior[k] * root_n / (1.0 + visits[k])
        if score > best_score:
            best_score = score
            best = k
    return best


@njit
def _evaluate(node, first, nchild, move, prior, bitboard, current, mask, grid, rows, columns,
              mark, weights, layout, logits):
    """The network's value of ``node``'s position for ``mark``, the side to move there
    (-1..1); its children's priors set to the softmax of the network's logits over
    their moves (:mod:`agents.search.network_kernel`)."""
    if bitboard:
        value = evaluate_bb(current, mask, rows, columns, weights, layout, logits)
    else:
        value = evaluate_grid(grid, rows, columns, mark, weights, layout, logits)
    top = -np.inf
    for k in range(first[node], first[node] + nchild[node]):
        top = max(top, logits[move[k]])
    total = 0.0
    for k in range(first[node], first[node] + nchild[node]):
        total += math.exp(logits[move[k]] - top)
    for k in range(first[node], first[node] + nchild[node]):
        prior[k] = math.exp(logits[move[k]] - top) / total
    return value


@njit
def _new_child(ch, node, col, wins_now, fills_board, parent, first, nchild, move, proof,
               visits, wins):
    """Initialise slot ``ch`` as the child of ``node`` reached by ``col``; a move that wins
    at once is a proven win, one that fills the board a proven draw."""
    parent[ch] = node
    first[ch] = -1
    nchild[ch] = 0
    move[ch] = col
    visits[ch] = 0.0
    wins[ch] = 0.0
    if wins_now:
        proof[ch] = WIN
    elif fills_board:
        proof[ch] = DRAW
    else:
        proof[ch] = UNKNOWN


@njit
def _close_expansion(node, base, k, first, nchild, proof, count):
    """Attach the ``k`` children made from slot ``base`` to ``node``; prove ``node`` if
    they decide it."""
    first[node] = base
    nchild[node] = k
    count[0] = base + k
    _update_proof(node, first, nchild, proof)


@njit
def _expand(node, grid, heights, rows, columns, inarow, mark, order, parent, first, nchild,
            move, proof, visits, wins, count):
    """Create every child of ``node`` (``mark`` to move there) in ``order``; prove
    the terminal ones and, if they decide it, ``node`` itself."""
    base = count[0]
    stones = 0
    for c in range(columns):
        stones += heights[c]
    k = 0
    for i in range(columns):
        col = order[i]
        if heights[col] >= rows:
            continue
        wins_now = wins_by_playing(grid, heights, rows, columns, inarow, col, mark)
        _new_child(base + k, node, col, wins_now, stones + 1 == rows * columns, parent, first,
                   nchild, move, proof, visits, wins)
        k += 1
    _close_expansion(node, base, k, first, nchild, proof, count)


@njit
def _expand_bb(node, current, mask, rows, columns, inarow, stones, order, parent, first,
               nchild, move, proof, visits, wins, count):
    """:func:`_expand` on a bitboard (``current``: stones of the side to move, ``mask``:
    all stones, ``stones`` of them): the same children and proofs."""
    H = rows + 1
    winning = bb_winning_cells(current, H, inarow)
    base = count[0]
    k = 0
    for i in range(columns):
        col = order[i]
        colmask = bb_column(col, H, rows)
        cell = (mask + bb_bottom(col, H)) & colmask
        if cell == np.uint64(0):
            continue  # full column
        _new_child(base + k, node, col, (winning & cell) != np.uint64(0),
                   stones + 1 == rows * columns, parent, first, nchild, move, proof, visits, wins)
        k += 1
    _close_expansion(node, base, k, first, nchild, proof, count)


@njit
def _root_position(root_grid, root_mark, rows, columns, bitboard):
    """``(heights, stones, current, mask)`` of the root: its column heights, its number
    of stones and, with ``bitboard``, its bitboard (else zeros)."""
    heights = np.zeros(columns, dtype=np.int64)
    for col in range(columns):
        n = 0
        for r in range(rows - 1, -1, -1):
            if root_grid[col + r * columns] == 0:
                break
            n += 1
        heights[col] = n
    stones = 0
    for col in range(columns):
        stones += heights[col]
    current, mask = bb_from_grid(root_grid, rows, columns, root_mark) if bitboard \
        else (np.uint64(0), np.uint64(0))
    return heights, stones, current, mask


@njit
def _expand_at(node, bitboard, current, mask, grid, heights, stones, rows, columns, inarow,
               mark, order, parent, first, nchild, move, proof, visits, wins, count):
    """:func:`_expand_bb` on the bitboard or :func:`_expand` on the grid."""
    if bitboard:
        _expand_bb(node, current, mask, rows, columns, inarow, stones, order, parent, first,
                   nchild, move, proof, visits, wins, count)
    else:
        _expand(node, grid, heights, rows, columns, inarow, mark, order, parent, first, nchild,
                move, proof, visits, wins, count)


@njit
def _play(bitboard, current, mask, grid, heights, rows, columns, col, mark):
    """Play ``col`` for ``mark``: the new ``(current, mask)`` with ``bitboard``, else
    dropped on ``grid``."""
    if bitboard:
        return current ^ mask, mask | (mask + (np.uint64(1) << np.uint64(col * (rows + 1))))
    drop(grid, heights, rows, columns, col, mark)
    return current, mask


@njit
def _proof_reward(p):
    """The result of a proven node for the player who moved into it (-1: unproven)."""
    if p == WIN:
        return 1.0
    if p == LOSS:
        return 0.0
    if p == DRAW:
        return 0.5
    return -1.0


@njit
def _backpropagate(node, root, reward, parent, first, nchild, proof, visits, wins):
    """Add ``reward`` (for the player who moved into ``node``) to the path up to
    ``root``, negated at each ply, with the solver's proofs."""
    while True:
        visits[node] += 1.0
        wins[node] += reward
        up = parent[node]
        if node == root or up < 0:
            break
        if proof[node] != UNKNOWN and proof[up] == UNKNOWN:
            _update_proof(up, first, nchild, proof)
        node = up
        reward = 1.0 - reward


@njit
def _descend(puct, root, root_mark, root_current, root_mask, root_grid, root_heights, grid,
             heights, bitboard, rows, columns, first, nchild, move, proof, visits, wins, prior,
             c):
    """An iteration's selection: from the root's position (``grid`` and ``heights`` reset
    to ``root_grid``, ``root_heights`` unless ``bitboard``) down the expanded, unproven
    nodes by :func:`_select_puct` (``puct``) or :func:`_select`, playing their moves.
    Returns ``(node, mark, depth, current, mask)``: the node reached, the side to move
    there, its depth below the root and, with ``bitboard``, its position."""
    current = root_current
    mask = root_mask
    if not bitboard:
        grid[:] = root_grid
        heights[:] = root_heights
    node = root
    mark = root_mark  # side to move at ``node``
    depth = 0
    while nchild[node] > 0 and proof[node] == UNKNOWN:
        if puct:
            node = _select_puct(node, first, nchild, proof, visits, wins, prior, c)
        else:
            node = _select(node, first, nchild, proof, visits, wins, c)
        current, mask = _play(bitboard, current, mask, grid, heights, rows, columns,
                              move[node], mark)
        mark = 3 - mark
        depth += 1
    return node, mark, depth, current, mask


@njit
def _tally(counters, done, count):
    """Add a search's ``done`` iterations and its tree's size to ``counters``; ``done``."""
    counters[S_ITERATIONS] += done
    counters[S_NODES] = count[0]
    return done


@njit
def _search(root_grid, root_mark, rows, columns, inarow, order, root, parent, first, nchild,
            move, proof, visits, wins, prior, count, c, iterations, deadline, light, bitboard,
            rng, counters):
    """Run UCT iterations from ``root`` until ``iterations`` (0: no limit) are done, the
    clock passes ``deadline`` (0: none), or the root is proven. Returns the number done.
    The evaluator: a rollout (``light`` or random); ``prior`` is not used.

    With ``bitboard`` (the board must fit 64 bits) the tree walk, the expansions and the
    rollouts use the bitboard, else the flat array: the same tree either way.
    ``count[0]`` is the number of slots in use; the node arrays' length is the capacity:
    when it is reached leaves are no longer expanded and rollouts start from them."""
    capacity = parent.shape[0]
    grid = root_grid.copy()
    root_heights, root_stones, root_current, root_mask = _root_position(
        root_grid, root_mark, rows, columns, bitboard)
    heights = root_heights.copy()
    legal = np.zeros(columns, dtype=np.int64)
    # with ``bitboard`` the tree walk keeps (current, mask) and leaves ``grid`` alone
    if nchild[root] == 0 and proof[root] == UNKNOWN and count[0] + columns <= capacity:
        _expand_at(root, bitboard, root_current, root_mask, grid, heights, root_stones, rows,
                   columns, inarow, root_mark, order, parent, first, nchild, move, proof,
                   visits, wins, count)
    # look at the clock less often on small boards, where iterations are short
    check_mask = 15 if rows * columns <= 64 else (3 if rows * columns <= 256 else 0)
    done = 0
    while proof[root] == UNKNOWN and (iterations == 0 or done < iterations):
        if deadline > 0 and (done & check_mask) == 0 and now() >= deadline:
            break
        node, mark, depth, current, mask = _descend(
            False, root, root_mark, root_current, root_mask, root_grid, root_heights, grid,
            heights, bitboard, rows, columns, first, nchild, move, proof, visits, wins, prior, c)
        # expansion
        if proof[node] == UNKNOWN and visits[node] > 0 and count[0] + columns <= capacity:
            _expand_at(node, bitboard, current, mask, grid, heights, root_stones + depth, rows,
                       columns, inarow, mark, order, parent, first, nchild, move, proof,
                       visits, wins, count)
            if proof[node] == UNKNOWN:
                node = _select(node, first, nchild, proof, visits, wins, c)
                current, mask = _play(bitboard, current, mask, grid, heights, rows, columns,
                                      move[node], mark)
                mark = 3 - mark
                depth += 1
        if depth > counters[S_MAX_DEPTH]:
            counters[S_MAX_DEPTH] = depth
        # simulation: reward for the player who moved into ``node`` (3 - mark)
        reward = _proof_reward(proof[node])
        if reward < 0:
            if bitboard:
                w = bb_rollout(current, mask, rows, columns, inarow, mark, light, rng, legal,
                                counters)
            else:
                w = rollout(grid, heights, rows, columns, inarow, mark, light, rng, legal,
                             counters, deadline)
                if w < 0:
                    break  # out of time: this iteration is not counted
            reward = 0.5 if w == 0 else (1.0 if w != mark else 0.0)
        _backpropagate(node, root, reward, parent, first, nchild, proof, visits, wins)
        done += 1
    return _tally(counters, done, count)


@njit
def _search_network(root_grid, root_mark, rows, columns, inarow, order, root, parent, first,
                    nchild, move, proof, visits, wins, prior, count, c, iterations, deadline,
                    bitboard, counters, weights, layout, noise, noise_weight):
    """:func:`_search` with the network as the evaluator (PUCT, module docstring): a
    leaf is expanded at its first visit, the network (``weights``, ``layout`` of
    :func:`agents.search.network_kernel.pack_network`) gives its children their priors
    and its value replaces the rollout. The same stops, proofs and capacity rule.

    ``noise_weight`` > 0 (self-play's exploration, as AlphaZero's Dirichlet noise): the
    root's children's priors become ``(1 - noise_weight) * prior + noise_weight *
    noise[i]`` for the root's ``i``-th child (``noise`` at least as long as the root has
    children), once, before the first simulation; no other node's prior changes."""
    capacity = parent.shape[0]
    grid = root_grid.copy()
    root_heights, root_stones, root_current, root_mask = _root_position(
        root_grid, root_mark, rows, columns, bitboard)
    heights = root_heights.copy()
    logits = np.zeros(columns)
    if nchild[root] == 0 and proof[root] == UNKNOWN and count[0] + columns <= capacity:
        _expand_at(root, bitboard, root_current, root_mask, grid, heights, root_stones, rows,
                   columns, inarow, root_mark, order, parent, first, nchild, move, proof,
                   visits, wins, count)
        if proof[root] == UNKNOWN:
            # the root's priors, and its value as its first visit (as any expanded node)
            v = _evaluate(root, first, nchild, move, prior, bitboard, root_current, root_mask,
                          grid, rows, columns, root_mark, weights, layout, logits)
            visits[root] += 1.0
            wins[root] += (1.0 - v) / 2.0
    if noise_weight > 0.0:
        for i in range(nchild[root]):
            k = first[root] + i
            prior[k] = (1.0 - noise_weight) * prior[k] + noise_weight * noise[i]
    done = 0
    while proof[root] == UNKNOWN and (iterations == 0 or done < iterations):
        if deadline > 0 and now() >= deadline:  # an evaluation is long: every iteration
            break
        node, mark, depth, current, mask = _descend(
            True, root, root_mark, root_current, root_mask, root_grid, root_heights, grid,
            heights, bitboard, rows, columns, first, nchild, move, proof, visits, wins, prior, c)
        if proof[node] == UNKNOWN and count[0] + columns <= capacity:
            _expand_at(node, bitboard, current, mask, grid, heights, root_stones + depth, rows,
                       columns, inarow, mark, order, parent, first, nchild, move, proof,
                       visits, wins, count)
        if depth > counters[S_MAX_DEPTH]:
            counters[S_MAX_DEPTH] = depth
        reward = _proof_reward(proof[node])
        if reward < 0:  # the network's value for ``mark``, to the player who moved here
            reward = (1.0 - _evaluate(node, first, nchild, move, prior, bitboard, current, mask,
                                      grid, rows, columns, mark, weights, layout, logits)) / 2.0
        _backpropagate(node, root, reward, parent, first, nchild, proof, visits, wins)
        done += 1
    return _tally(counters, done, count)


@njit
def best_child(root, first, nchild, proof, visits, wins):
    """The slot of the move to play: an immediate win, else a proven win, else the most
    visited child that is not a proven loss (ties: better mean, then lower slot);
    if every child is a proven loss, the most visited one."""
    best = -1
    for k in range(first[root], first[root] + nchild[root]):
        if proof[k] == WIN:
            if nchild[k] == 0:
                return k  # wins on the spot
            if best < 0 or visits[k] > visits[best]:
                best = k
    if best >= 0:
        return best
    for avoid_losses in (True, False):
        for k in range(first[root], first[root] + nchild[root]):
            if avoid_losses and proof[k] == LOSS:
                continue
            if best < 0 or visits[k] > visits[best] or (
                    visits[k] == visits[best] and visits[k] > 0
                    and wins[k] / visits[k] > wins[best] / visits[best]):
                best = k
        if best >= 0:
            return best
    return best


@njit
def copy_subtree(new_root, parent, first, nchild, move, proof, visits, wins, prior,
                 d_parent, d_first, d_nchild, d_move, d_proof, d_visits, d_wins, d_prior, queue):
    """Copy the subtree under ``new_root`` into the ``d_`` arrays, breadth first, with
    ``new_root`` in slot 0; returns the number of slots used."""
    queue[0] = new_root
    d_parent[0] = -1
    head = 0
    tail = 1
    while head < tail:
        s = queue[head]
        d_move[head] = move[s]
        d_proof[head] = proof[s]
        d_visits[head] = visits[s]
        d_wins[head] = wins[s]
        d_prior[head] = prior[s]
        d_nchild[head] = nchild[s]
        if nchild[s] > 0:
            d_first[head] = tail
            for k in range(first[s], first[s] + nchild[s]):
                queue[tail] = k
                d_parent[tail] = head
                tail += 1
        else:
            d_first[head] = -1
        head += 1
    return tail


# ---------------------------------------------------------------------------
# The tree and the agent
# ---------------------------------------------------------------------------


class Tree:
    """Node arrays of ``capacity`` slots (``count[0]`` in use; the root is slot 0)."""

    def __init__(self, capacity):
        self.capacity = capacity
        self.parent = np.empty(capacity, dtype=np.int32)
        self.first = np.empty(capacity, dtype=np.int32)
        self.nchild = np.empty(capacity, dtype=np.int32)
        self.move = np.empty(capacity, dtype=np.int32)
        self.proof = np.empty(capacity, dtype=np.int8)
        self.visits = np.empty(capacity, dtype=np.float64)
        self.wins = np.empty(capacity, dtype=np.float64)
        # set by the network only, when it evaluates the node's parent: the children of a
        # node proven at its expansion keep 0 in a fresh tree (stale values in a reused
        # one); nothing reads them, since the search never descends into a proven node
        self.prior = np.zeros(capacity, dtype=np.float32)
        self.count = np.zeros(1, dtype=np.int64)

    def arrays(self):
        return (self.parent, self.first, self.nchild, self.move, self.proof, self.visits,
                self.wins, self.prior)

    def reset(self):
        """Just the root, unexpanded."""
        self.parent[0] = -1
        self.first[0] = -1
        self.nchild[0] = 0
        self.move[0] = -1
        self.proof[0] = UNKNOWN
        self.visits[0] = 0.0
        self.wins[0] = 0.0
        self.prior[0] = 1.0
        self.count[0] = 1

    def root_value(self):
        """The root's mean result for its side to move, in -1..1 (None before its first
        visit): ``wins`` counts results for the player who moved into a node."""
        visits = float(self.visits[0])
        return 1.0 - 2.0 * float(self.wins[0]) / visits if visits > 0 else None

    def children(self, node=0):
        """``[(column, slot)]`` of ``node``'s children."""
        f, n = int(self.first[node]), int(self.nchild[node])
        return [(int(self.move[k]), k) for k in range(f, f + n)]

    def best_slot(self, node=0):
        """The slot of the move to play from ``node`` (:func:`best_child`)."""
        return int(best_child(node, self.first, self.nchild, self.proof, self.visits,
                              self.wins))

    def best_move(self):
        """The column to play from the root (:func:`best_child`)."""
        return int(self.move[self.best_slot()])

    def proof_at(self, slot=0):
        """MCTS-Solver's proof of ``slot`` (:data:`UNKNOWN`, :data:`WIN`, :data:`DRAW`,
        :data:`LOSS`, for the player who moved into it)."""
        return int(self.proof[slot])

    def visits_at(self, slot=0):
        """The simulations that went through ``slot``."""
        return int(self.visits[slot])

    def proven_value(self, node=0):
        """``node``'s exact value for its side to move by MCTS-Solver's proof: +1 won,
        0 drawn, -1 lost; None when it is not proven."""
        reward = _proof_reward(self.proof[node])  # for the player who moved into it
        return None if reward < 0 else 1.0 - 2.0 * reward

    def searched_value(self):
        """The root's value for its side to move, in -1..1: :meth:`proven_value` when
        MCTS-Solver proved the root, else :meth:`root_value` (the mean of its
        simulations: the network's values and the proven game ends below it), 0 before
        any visit."""
        value = self.proven_value()
        if value is None:
            value = self.root_value()
        return 0.0 if value is None else value

    def root_visits(self):
        """``{column: visits}`` of the root's children."""
        return {column: int(self.visits[k]) for column, k in self.children()}

    def visit_targets(self, columns):
        """The root's visits by column, normalised (float32 ``(columns,)``, zero on full
        columns, sums to 1), leaving out the children proven lost for the side to move
        (MCTS-Solver's ``LOSS``) while another is not; a one-hot on :meth:`best_move`
        when the root is proven (MCTS-Solver then stops visiting) or no such child was
        visited. AlphaZero's policy target."""
        target = np.zeros(columns, dtype=np.float32)
        kids = [k for _, k in self.children()]
        lost = all(self.proof[k] == LOSS for k in kids)
        counted = [k for k in kids if lost or self.proof[k] != LOSS]
        total = sum(float(self.visits[k]) for k in counted)
        if self.proof[0] != UNKNOWN or total <= 0:
            target[self.best_move()] = 1.0
            return target
        for k in counted:
            target[self.move[k]] = self.visits[k] / total
        return target


def search(grid, mark, cfg, iterations=0, deadline=0.0, c=None, light=True, seed=0,
           tree=None, max_nodes=DEFAULT_MAX_NODES, bitboard=None, network=None, noise=None,
           noise_weight=0.0):
    """Run MCTS from a validated ``grid`` with ``mark`` to move; returns ``(tree, counters)``.

    ``tree`` (a :class:`Tree` whose slot 0 is this position) continues a search;
    without it a fresh tree of ``max_nodes`` slots is used. ``bitboard`` (default: when
    the board fits 64 bits) chooses the kernels. ``network``: the
    :class:`~agents.search.network_kernel.PackedNetwork` of
    :func:`~agents.search.network_kernel.pack_network` for ``cfg``'s board, the evaluator
    (PUCT, ``c`` default :data:`DEFAULT_PUCT_C`); None: rollouts (UCT, ``c`` default
    :data:`DEFAULT_C`). With the network, ``noise`` (one weight a legal column, in the
    root's child order: :func:`agents.board.grid.center_order` less the full columns) is
    mixed into the root's priors with ``noise_weight`` (:func:`_search_network`)."""
    if bitboard is None:
        bitboard = fits_bitboard(cfg.rows, cfg.columns)
    if tree is None:
        tree = Tree(max(max_nodes, cfg.columns + 1))
        tree.reset()
    if network is None:
        c = DEFAULT_C if c is None else c
    else:
        c = DEFAULT_PUCT_C if c is None else c
        if network.rows != cfg.rows or network.columns != cfg.columns:
            raise ValueError(f"the network plays {network.columns}x{network.rows} boards, not "
                             f"{cfg.columns}x{cfg.rows}")
    counters = new_counters()
    if network is None:
        _search(grid, mark, cfg.rows, cfg.columns, cfg.inarow, center_order(cfg.columns), 0,
                *tree.arrays(), tree.count, float(c), int(iterations), float(deadline),
                bool(light), bool(bitboard), seed_state(seed), counters)
    else:
        if noise is None or noise_weight <= 0.0:
            noise, noise_weight = np.zeros(cfg.columns), 0.0
        elif len(noise) < int((np.asarray(grid)[:cfg.columns] == 0).sum()):
            raise ValueError(f"noise has {len(noise)} weights, fewer than the legal columns")
        _search_network(grid, mark, cfg.rows, cfg.columns, cfg.inarow, center_order(cfg.columns),
                        0, *tree.arrays(), tree.count, float(c), int(iterations),
                        float(deadline), bool(bitboard), counters, *network,
                        np.asarray(noise, dtype=np.float64), float(noise_weight))
    return tree, counters
