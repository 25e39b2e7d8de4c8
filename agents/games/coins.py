"""The coin game of the seed lessons: 21 coins on the table, the players take turns
removing 1 or 2 of them, and whoever takes the last coin wins.

Generalised to ``coins`` coins and takes of 1..``max_take``. Theory: the side to move
loses, against perfect play, exactly when ``coins % (max_take + 1) == 0`` (whatever it
takes, the opponent takes the rest of ``max_take + 1`` and keeps the count a multiple).
With 21 coins and takes of 1 or 2 the first player is lost, so a perfect second
player wins every game.

* :class:`CoinGame` (an :class:`agents.games.protocol.Game`) for the reference searches.
  States are ``(coins left, player to move)`` with players 1 and 2; a finished game
  is worth +1 to the player who took the last coin and -1 to the other.
* :class:`CoinEnv`: a tiny gym-style environment (``reset``, ``step``, ``validinputs``).
* Players, each ``player(game, state) -> coins to take`` (the protocol's players:
  :func:`agents.games.protocol.play` plays them): :class:`RandomPlayer`,
  :class:`RulePlayer` (rule-based: leave the opponent a multiple of
  ``max_take + 1``, random when that is impossible) and :class:`MinimaxPlayer`
  (the reference minimax or alpha-beta, searched to the end of the game).
"""
import random

from agents.games.protocol import Game, alphabeta_value, best_actions, minimax_value

FIRST, SECOND = 1, 2


def _positive_int(name, value):
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"{name} must be an integer >= 1, got {value!r}")
    return value


def _seed(value):
    if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
        raise ValueError(f"seed must be an integer or None, got {value!r}")
    return value


def mover_loses(coins, max_take=2):
    """Closed form: the side to move with ``coins`` left loses against perfect play."""
    return coins % (max_take + 1) == 0


class CoinGame(Game):
    """Take 1..``max_take`` coins; taking the last coin wins. Utility +-1."""

    def __init__(self, coins=21, max_take=2):
        self.coins = _positive_int("coins", coins)
        self.max_take = _positive_int("max_take", max_take)

    def initial(self):
        return (self.coins, FIRST)

    def to_move(self, state):
        return state[1]

    def actions(self, state):
        return list(range(1, min(self.max_take, state[0]) + 1))

    def result(self, state, action):
        coins, player = state
        if isinstance(action, bool) or not isinstance(action, int) \
                or not 1 <= action <= min(self.max_take, coins):
            raise ValueError(f"with {coins} coins left a player takes 1 to "
                             f"{min(self.max_take, coins)}, got {action!r}")
        return (coins - action, 3 - player)

    def is_terminal(self, state):
        return state[0] == 0

    def utility(self, state, player):
        # the game ended on the last move, made by the player not to move now
        return 1 if player != state[1] else -1

    def winner(self, state):
        """The player who took the last coin (None while coins are left)."""
        return 3 - state[1] if state[0] == 0 else None


class CoinEnv:
    """Gym-style environment, the book's interface. ``reset()`` -> state;
    ``validinputs``, the legal takes; ``step(take)`` -> ``(state, reward, done, info)``
    where ``reward`` is +1 for the player who just took the last coin, else 0, and
    ``info`` holds ``{"player": who moved, "take": take}``. An illegal take raises
    ``ValueError``."""

    def __init__(self, coins=21, max_take=2):
        self.game = CoinGame(coins, max_take)
        self.state = None

    def reset(self):
        self.state = self.game.initial()
        return self.state

    @property
    def validinputs(self):
        """The takes the side to move may make (the book's name; none before ``reset``
        or after the end)."""
        return [] if self.state is None else self.game.actions(self.state)

    def step(self, take):
        if self.state is None or self.game.is_terminal(self.state):
            raise ValueError("call reset() before step(): no game in progress")
        player = self.game.to_move(self.state)
        self.state = self.game.result(self.state, take)
        done = self.game.is_terminal(self.state)
        return self.state, (1 if done else 0), done, {"player": player, "take": take}


class RandomPlayer:
    """A uniformly random legal take."""

    def __init__(self, max_take=2, seed=None):
        self.max_take = _positive_int("max_take", max_take)
        self.rng = random.Random(_seed(seed))

    def __call__(self, game, state):
        return self.rng.randint(1, min(self.max_take, state[0]))


class RulePlayer:
    """Rule-based player: take ``coins % (max_take + 1)`` coins when that is not 0 (it
    leaves the opponent a losing multiple), else a random take. It plays perfectly
    from a won position, so minimax beats it only from a start that is lost for it."""

    def __init__(self, max_take=2, seed=None):
        self.max_take = _positive_int("max_take", max_take)
        self.rng = random.Random(_seed(seed))

    def __call__(self, game, state):
        take = state[0] % (self.max_take + 1)
        if take:
            return take
        return self.rng.randint(1, min(self.max_take, state[0]))


SEARCHES = {"minimax": minimax_value, "alphabeta": alphabeta_value}


class MinimaxPlayer:
    """Plays a take the reference ``search`` ("minimax" or "alphabeta") rates best,
    searching to the end of the game (``coins`` plies is always enough), random among
    equal ones. Each position is searched once and the answer kept in ``decisions``."""

    def __init__(self, max_take=2, search="minimax", seed=None):
        if search not in SEARCHES:
            raise ValueError(f"search must be one of {', '.join(SEARCHES)}, got {search!r}")
        self.max_take = _positive_int("max_take", max_take)
        self.search = SEARCHES[search]
        self.rng = random.Random(_seed(seed))
        self.game = CoinGame(max_take=self.max_take)  # its start count is never used
        self.decisions = {}  # state -> (value for the mover, best takes)

    def best(self, state):
        """(value for the side to move, takes achieving it) in ``state``."""
        if state not in self.decisions:
            coins, player = state
            if isinstance(coins, bool) or not isinstance(coins, int) or coins < 1 \
                    or player not in (FIRST, SECOND):
                raise ValueError(f"expected (coins >= 1, player 1 or 2), got {state!r}")
            value, takes = best_actions(self.game, state, coins, search=self.search)
            self.decisions[state] = (value, tuple(takes))
        return self.decisions[state]

    def __call__(self, game, state):
        _, takes = self.best(state)
        return takes[self.rng.randrange(len(takes))]
