"""The lessons' game protocol, its reference searches and its one game loop.

Every game of the lessons' wing (:mod:`agents.games.tictactoe`, :mod:`agents.games.coins`,
:mod:`agents.games.isolation`, ...) is a :class:`Game`; so is the Connect Four reference
:class:`agents.search.reference.ConnectX`. Nothing here is fast: the searches are the
plain recursions the lessons teach and the tests check faster code against.

* :class:`Game`: the protocol (``initial``, ``to_move``, ``actions``, ``result``,
  ``is_terminal``, ``utility``, ``evaluate``); a game with chance adds ``sample``.
* :func:`minimax_value`, :func:`alphabeta_value`, :func:`best_actions`: the reference
  searches, values from a named ``player``'s side (not negamax: the lessons' games
  include ones of three players and of chance, where a side's value is not the
  negation of the other's).
* :func:`play`: the one loop that plays a game between players, for every game of the
  wing (the matches of the lessons, the terminal game of ``connectx play --game``).
* :func:`random_playout`: uniformly random moves to the end.
"""
import random

# ---------------------------------------------------------------------------
# The protocol
# ---------------------------------------------------------------------------


class Game:
    """A two-player, zero-sum, perfect-information game.

    States are immutable values. Players are the values ``to_move`` returns.
    ``evaluate`` is the heuristic used by depth-limited searches at the horizon."""

    def initial(self):
        raise NotImplementedError

    def to_move(self, state):
        raise NotImplementedError

    def actions(self, state):
        """Legal actions in a fixed order."""
        raise NotImplementedError

    def result(self, state, action):
        raise NotImplementedError

    def is_terminal(self, state):
        raise NotImplementedError

    def utility(self, state, player):
        """Value of a terminal ``state`` for ``player``."""
        raise NotImplementedError

    def evaluate(self, state, player):
        """Heuristic value of a non-terminal ``state`` for ``player`` (default 0)."""
        return 0


class Counter:
    """Counts the positions a search visits (every child generated, not the root)."""

    def __init__(self):
        self.nodes = 0


def leaf_value(game, state, depth, player):
    """The value of a leaf for ``player``: ``game.utility`` of a terminal ``state``,
    ``game.evaluate`` at ``depth`` 0; None for a node to search further."""
    if game.is_terminal(state):
        return game.utility(state, player)
    if depth == 0:
        return game.evaluate(state, player)
    return None


def minimax_value(game, state, depth, player=None, counter=None):
    """Depth-limited minimax value of ``state`` for ``player`` (default: the side to move).

    Terminal states score ``game.utility``; states at depth 0 score ``game.evaluate``."""
    player = game.to_move(state) if player is None else player

    def value(s, d):
        leaf = leaf_value(game, s, d, player)
        if leaf is not None:
            return leaf
        children = []
        for a in game.actions(s):
            if counter is not None:
                counter.nodes += 1
            children.append(value(game.result(s, a), d - 1))
        return max(children) if game.to_move(s) == player else min(children)

    return value(state, depth)


def alphabeta_value(game, state, depth, player=None, counter=None):
    """Same value as :func:`minimax_value`, with alpha-beta pruning."""
    player = game.to_move(state) if player is None else player

    def value(s, d, alpha, beta):
        leaf = leaf_value(game, s, d, player)
        if leaf is not None:
            return leaf
        maximizing = game.to_move(s) == player
        best = -float("inf") if maximizing else float("inf")
        for a in game.actions(s):
            if counter is not None:
                counter.nodes += 1
            v = value(game.result(s, a), d - 1, alpha, beta)
            if maximizing:
                best = max(best, v)
                alpha = max(alpha, v)
            else:
                best = min(best, v)
                beta = min(beta, v)
            if alpha >= beta:
                break
        return best

    return value(state, depth, -float("inf"), float("inf"))


def best_actions(game, state, depth, search=minimax_value):
    """(value, actions achieving it) for the side to move, searching ``depth`` plies."""
    player = game.to_move(state)
    scored = [(search(game, game.result(state, a), depth - 1, player), a)
              for a in game.actions(state)]
    top = max(v for v, _ in scored)
    return top, [a for v, a in scored if v == top]


# ---------------------------------------------------------------------------
# Playing
# ---------------------------------------------------------------------------


def play(game, players, state=None, rng=None, watch=None):
    """Play ``players`` from ``state`` (default ``game.initial()``) to the end of the
    game; ``(final state, actions played)``.

    ``players[game.to_move(s)]`` (a sequence or a mapping) is called as
    ``player(game, s) -> action`` and must return one of ``game.actions(s)`` (not
    checked: the lessons' players are trusted). In a game with chance (a ``sample``
    method, :class:`agents.games.isolation.SloppyIsolation`) each move's outcome is drawn
    with ``rng`` (default ``random.Random(0)``). ``watch(state, action, next_state)``,
    when given, is called after every move (the terminal draws the board there). An
    exception raised by a player (a human who quits) ends the game and propagates."""
    rng = random.Random(0) if rng is None else rng
    state = game.initial() if state is None else state
    chance = getattr(game, "sample", None)
    actions = []
    while not game.is_terminal(state):
        action = players[game.to_move(state)](game, state)
        actions.append(action)
        after = chance(state, action, rng) if chance is not None else game.result(state, action)
        if watch is not None:
            watch(state, action, after)
        state = after
    return state, actions


def play_env(env, players):
    """Play ``players`` on a book-style environment (``reset()``, ``step(action)`` ->
    ``(state, reward, done, info)``, with its ``game`` and ``state``:
    :class:`agents.games.tictactoe.TicTacToeEnv`, :class:`agents.games.coins.CoinEnv`) from
    a reset to the end, as the book's game loops do; ``(last reward, actions played)``.
    ``players[env.game.to_move(env.state)]`` is called as ``player(env.game, env.state)``,
    the protocol's players, as in :func:`play`."""
    env.reset()
    actions, done, reward = [], False, 0
    while not done:
        action = players[env.game.to_move(env.state)](env.game, env.state)
        actions.append(action)
        _, reward, done, _ = env.step(action)
    return reward, actions


def random_playout(game, state, rng, plies=None):
    """Play uniformly random moves (``rng``: a ``random.Random``) from ``state`` (None:
    the start) to the end, or for at most ``plies`` moves; the state reached."""
    state = game.initial() if state is None else state
    done = 0
    while not game.is_terminal(state) and (plies is None or done < plies):
        actions = game.actions(state)
        state = game.result(state, actions[rng.randrange(len(actions))])
        done += 1
    return state
