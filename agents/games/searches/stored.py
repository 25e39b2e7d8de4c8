"""A game's whole tree built once and kept, then searched by reading the kept nodes: the
tic-tac-toe article's way (it stores every node of tic-tac-toe's tree, 549,946 from the
empty board, and answers a move by a minimax over the stored nodes).

Nodes are numbered in the order they are built, breadth first from the root (node 0),
so a node's children are consecutive: node ``i`` has ``count[i]`` children, numbered
``first[i]`` to ``first[i] + count[i] - 1``, reached by ``action[child]``; ``state[i]``
is its state (the game's own objects; :class:`agents.games.tictactoe.TicTacToe` shares
equal states, so the tree keeps its 5,478 positions, not a board a node). A terminal
node has no children. Values are from the root's player's side, the game's
``utility`` at the terminal nodes; the search generates no move and tests no line.
"""
from array import array


class StoredTree:
    """The whole tree of ``game`` below ``state`` (default ``game.initial()``), built
    and kept. ``len(tree)`` is its number of nodes."""

    def __init__(self, game, state=None):
        self.game = game
        root = game.initial() if state is None else state
        self.player = game.to_move(root)
        self.state = [root]
        self.first = array("l", [0])
        self.count = array("l", [0])
        self.action = array("l", [-1])
        i = 0
        while i < len(self.state):  # breadth first: each node's children in one run
            s = self.state[i]
            if not game.is_terminal(s):
                self.first[i] = len(self.state)
                acts = game.actions(s)
                self.count[i] = len(acts)
                for a in acts:
                    self.state.append(game.result(s, a))
                    self.first.append(0)
                    self.count.append(0)
                    self.action.append(a)
            i += 1

    def __len__(self):
        return len(self.state)

    def children(self, i):
        return range(self.first[i], self.first[i] + self.count[i])

    def node(self, actions):
        """The node reached from the root by ``actions``; ``ValueError`` for an action
        the tree does not hold there."""
        i = 0
        for a in actions:
            for c in self.children(i):
                if self.action[c] == a:
                    i = c
                    break
            else:
                raise ValueError(f"no child {a!r} of node {i} (its actions: "
                                 f"{[self.action[c] for c in self.children(i)]})")
        return i

    def value(self, i):
        """The minimax value of node ``i`` for the root's player, read from the stored
        nodes (the root's player maximises, the other minimises)."""
        if not self.count[i]:
            return self.game.utility(self.state[i], self.player)
        values = [self.value(c) for c in self.children(i)]
        return max(values) if self.game.to_move(self.state[i]) == self.player else min(values)

    def best_actions(self, i):
        """(value for the root's player, the actions of node ``i`` that achieve it for
        its side to move), as the article's move choice reads its tree."""
        scored = [(self.value(c), self.action[c]) for c in self.children(i)]
        pick = max if self.game.to_move(self.state[i]) == self.player else min
        top = pick(v for v, _ in scored)
        return top, [a for v, a in scored if v == top]
