"""The paranoid search (Sturtevant and Korf 2000): a multiplayer game searched as if
every other player had ganged up against ``player``, which turns it into a
two-player zero-sum game that alpha-beta prunes deeply (max^n's shallow pruning
cannot).

:class:`ParanoidGame` is that reduction as an :class:`agents.games.protocol.Game`:
two sides, ``player`` and :data:`COALITION`; the state and moves are the original
game's, a state's value is ``player``'s utility (or evaluation) in the original game
and the coalition's is its negation. :func:`paranoid_value` is the reference
alpha-beta on the reduction. Its slow reference needs no code of its own: the plain
:func:`agents.games.protocol.minimax_value` on the n-player game already takes the
best child where ``player`` moves and the worst for ``player`` everywhere else, which
is the paranoid value; the tests check that the two agree.
"""
from agents.games.protocol import Game, alphabeta_value

COALITION = "coalition"


class ParanoidGame(Game):
    """``game`` reduced to ``player`` against the coalition of all the others."""

    def __init__(self, game, player):
        if player not in game.players:
            raise ValueError(f"player {player!r} is not one of {game.players}")
        self.game, self.player = game, player
        self.players = (player, COALITION)

    def initial(self):
        return self.game.initial()

    def to_move(self, state):
        return self.player if self.game.to_move(state) == self.player else COALITION

    def actions(self, state):
        return self.game.actions(state)

    def result(self, state, action):
        return self.game.result(state, action)

    def is_terminal(self, state):
        return self.game.is_terminal(state)

    def utility(self, state, side):
        v = self.game.utility(state, self.player)
        return v if side == self.player else -v

    def evaluate(self, state, side):
        v = self.game.evaluate(state, self.player)
        return v if side == self.player else -v


def paranoid_value(game, state, depth, player=None, counter=None):
    """``player``'s paranoid value of ``state`` (default: the player to move), searched
    ``depth`` plies by alpha-beta on :class:`ParanoidGame`."""
    player = game.to_move(state) if player is None else player
    return alphabeta_value(ParanoidGame(game, player), state, depth, player, counter)


def paranoid_best(game, state, depth, counter=None):
    """``(value, action)`` for the player to move: the first action of best paranoid value."""
    player = game.to_move(state)
    best, move = None, None
    for a in game.actions(state):
        if counter is not None:
            counter.nodes += 1
        v = paranoid_value(game, game.result(state, a), depth - 1, player, counter)
        if best is None or v > best:
            best, move = v, a
    return best, move
