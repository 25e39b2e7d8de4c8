"""Slow, obviously-correct pure-Python UCT with MCTS-Solver: the reference for
:mod:`agents.search.mcts`.

One :class:`UCTNode` object per tree node and a plain-list board (:class:`Board`,
Kaggle's layout: flat, row 0 at the top). The algorithm is the same as the numba
kernel's, step for step -- children created all at once in centre-first order,
unvisited children first, UCT ties to the earlier child, the light rollout scanning
columns left to right, the same xorshift64 random numbers -- so that with the
same seed and iteration count both build the same tree. The tests check that; the
benchmark times the two.

Rewards and proofs are from the point of view of the player who moved into the
node: 1 for a win, 1/2 for a draw, 0 for a loss.
"""
import math

UNKNOWN, WIN, DRAW, LOSS = 0, 1, 2, 3

MASK64 = (1 << 64) - 1


class XorShift:
    """xorshift64; ``below(n)`` draws the same numbers as ``agents.search.rollout.rand_below``."""

    def __init__(self, state):
        self.state = int(state) & MASK64

    def below(self, n):
        x = self.state
        x ^= x >> 12
        x ^= (x << 25) & MASK64
        x ^= x >> 27
        self.state = x
        return (x >> 33) % n


class Board:
    """A ConnectX position on a list: ``cells[col + row * columns]``, 0 empty, 1/2 stones."""

    def __init__(self, rows, columns, inarow, cells=None):
        self.rows, self.columns, self.inarow = rows, columns, inarow
        self.cells = list(cells) if cells is not None else [0] * (rows * columns)
        self.heights = [sum(1 for r in range(rows) if self.cells[c + r * columns])
                        for c in range(columns)]

    def copy(self):
        b = Board.__new__(Board)
        b.rows, b.columns, b.inarow = self.rows, self.columns, self.inarow
        b.cells, b.heights = list(self.cells), list(self.heights)
        return b

    def legal(self):
        return [c for c in range(self.columns) if self.heights[c] < self.rows]

    def stones(self):
        return sum(self.heights)

    def drop(self, col, mark):
        """Put ``mark`` on top of ``col``; the flat index it lands on."""
        idx = col + (self.rows - 1 - self.heights[col]) * self.columns
        self.cells[idx] = mark
        self.heights[col] += 1
        return idx

    def is_win_at(self, idx):
        """Does the stone at ``idx`` lie on ``inarow`` stones of its colour in a line?"""
        mark = self.cells[idx]
        row, col = divmod(idx, self.columns)
        for dr, dc in ((1, 0), (0, 1), (1, 1), (1, -1)):
            count = 1
            for sign in (1, -1):
                r, c = row + sign * dr, col + sign * dc
                while 0 <= r < self.rows and 0 <= c < self.columns \
                        and self.cells[c + r * self.columns] == mark:
                    count += 1
                    r, c = r + sign * dr, c + sign * dc
            if count >= self.inarow:
                return True
        return False

    def wins_by_playing(self, col, mark):
        idx = self.drop(col, mark)
        win = self.is_win_at(idx)
        self.cells[idx] = 0
        self.heights[col] -= 1
        return win


def centre_order(columns):
    mid = (columns - 1) / 2.0
    return sorted(range(columns), key=lambda c: (abs(c - mid), c))


def rollout(board, mark, light, rng):
    """Play ``board`` out with ``mark`` to move; the winner's mark, 0 for a draw."""
    while True:
        legal = board.legal()
        if not legal:
            return 0
        if light:
            block = -1
            for c in legal:
                if board.wins_by_playing(c, mark):
                    return mark
                if block < 0 and board.wins_by_playing(c, 3 - mark):
                    block = c
            col = block if block >= 0 else legal[rng.below(len(legal))]
            board.drop(col, mark)
        else:
            col = legal[rng.below(len(legal))]
            if board.is_win_at(board.drop(col, mark)):
                return mark
        mark = 3 - mark


class UCTNode:
    """``move`` led here from ``parent``; ``wins``/``proof`` for the player who played it."""

    __slots__ = ("parent", "move", "children", "visits", "wins", "proof")

    def __init__(self, parent, move, proof=UNKNOWN):
        self.parent, self.move, self.proof = parent, move, proof
        self.children = []
        self.visits = 0.0
        self.wins = 0.0

    def update_proof(self):
        """Prove this node from its children if they decide it."""
        if any(ch.proof == WIN for ch in self.children):
            self.proof = LOSS
        elif self.children and all(ch.proof != UNKNOWN for ch in self.children):
            self.proof = DRAW if any(ch.proof == DRAW for ch in self.children) else WIN

    def select(self, c):
        best, best_score = None, -math.inf
        log_n = math.log(self.visits) if self.visits > 0 else 0.0
        for ch in self.children:
            if ch.proof == LOSS:
                continue
            if ch.visits == 0:
                return ch
            score = ch.wins / ch.visits + c * math.sqrt(log_n / ch.visits)
            if score > best_score:
                best, best_score = ch, score
        return best

    def expand(self, board, mark):
        full = board.stones() + 1 == board.rows * board.columns
        for col in centre_order(board.columns):
            if board.heights[col] >= board.rows:
                continue
            if board.wins_by_playing(col, mark):
                proof = WIN
            elif full:
                proof = DRAW
            else:
                proof = UNKNOWN
            self.children.append(UCTNode(self, col, proof))
        self.update_proof()


def uct_search(board, mark, iterations, c=1.0, light=True, rng_state=1, max_nodes=1 << 62):
    """Run ``iterations`` UCT iterations (fewer if the root gets proven) from ``board``
    with ``mark`` to move; returns ``(root, iterations done)``."""
    rng = XorShift(rng_state)
    root = UCTNode(None, -1)
    nodes = 1
    if nodes + board.columns <= max_nodes:
        root.expand(board, mark)
        nodes += len(root.children)
    done = 0
    while root.proof == UNKNOWN and done < iterations:
        b = board.copy()
        node, to_move = root, mark
        while node.children and node.proof == UNKNOWN:
            node = node.select(c)
            b.drop(node.move, to_move)
            to_move = 3 - to_move
        if node.proof == UNKNOWN and node.visits > 0 and nodes + board.columns <= max_nodes:
            node.expand(b, to_move)
            nodes += len(node.children)
            if node.proof == UNKNOWN:
                node = node.select(c)
                b.drop(node.move, to_move)
                to_move = 3 - to_move
        if node.proof == WIN:
            reward = 1.0
        elif node.proof == LOSS:
            reward = 0.0
        elif node.proof == DRAW:
            reward = 0.5
        else:
            w = rollout(b, to_move, light, rng)
            reward = 0.5 if w == 0 else (1.0 if w != to_move else 0.0)
        while node is not None:
            node.visits += 1
            node.wins += reward
            up = node.parent
            if up is not None and node.proof != UNKNOWN and up.proof == UNKNOWN:
                up.update_proof()
            node = up
            reward = 1.0 - reward
        done += 1
    return root, done


def best_move(root):
    """Immediate win, else proven win, else most visited non-losing child (as the kernel)."""
    wins = [ch for ch in root.children if ch.proof == WIN]
    for ch in wins:
        if not ch.children:
            return ch.move
    if wins:
        return max(wins, key=lambda ch: ch.visits).move  # first of the most visited
    for candidates in ([ch for ch in root.children if ch.proof != LOSS], root.children):
        best = None
        for ch in candidates:
            if best is None or ch.visits > best.visits or (
                    ch.visits == best.visits and ch.visits > 0
                    and ch.wins / ch.visits > best.wins / best.visits):
                best = ch
        if best is not None:
            return best.move
    return None
