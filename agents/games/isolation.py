"""Isolation, the adversarial-search lesson's running example, as an
:class:`agents.games.protocol.Game`, with its variants.

Board layout: ``width`` columns by ``height`` rows; a cell is an action ``(x, y)``
(the lesson's coordinates: ``x`` the column, ``y`` the row, ``(0, 0)`` top left) and
internally an index ``x + y * width``. The lesson's mini-Isolation is 3x2 with the
bottom-right cell blocked::

     (0,0) (1,0) (2,0)
     (0,1) (1,1)  ###

Rules: each player has one piece. A player's first move puts the piece on any open
cell; after that it moves like a chess queen (any distance along a row, column or
diagonal, never onto or across a closed cell or off the board). Every cell a piece
has stood on is closed for good: a move blocks the cell left behind, and the cells
the pieces stand on are closed too. The player to move who has no move loses.

State: ``(closed, locations, mover, alive)`` -- ``closed`` a bit mask of closed cells,
``locations`` a tuple with each player's cell (None before its first move), ``mover``
the index of the player to move (0 moves first) and ``alive`` a bit mask of the
players still in the game. With two players the game ends when the player to move
is stuck. With more (:class:`MultiIsolation`, Korf 1991's setting), a stuck player is
out (its piece stays, a closed cell) and the others play on; the last player
standing wins.

Values: two players, the lesson's ``+inf`` (win) and ``-inf`` (loss); at the horizon
of a depth-limited search the evaluation named by ``evaluation`` (the lesson's
:func:`my_moves` or :func:`my_moves_minus_opponent_moves`). Three players: 1 to the
winner and 0 to the others; the evaluation shares 1 between the players in
proportion to their moves (the sum is always 1: max^n's shallow pruning needs it).
:class:`SloppyIsolation` lands a move on a random open cell next to the one aimed
at with probability ``slip``: its :meth:`~SloppyIsolation.outcomes` feed expectimax,
and its values are finite (+-100, beyond any evaluation) so that an outcome's
average of a win and a loss is a number.
"""
import functools
import math
import random

from agents.games.protocol import Game

INF = math.inf
DIRECTIONS = ((-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1))

Action = tuple  # (x, y)
State = tuple   # (closed mask, locations, mover, alive mask)


def _positive(name, value, low=1):
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise ValueError(f"{name} must be an integer >= {low}, got {value!r}")
    return value


@functools.lru_cache(maxsize=None)
def _rays(width, height):
    """For each cell, the cells along each of the 8 queen directions, nearest first."""
    rays = []
    for cell in range(width * height):
        x, y = cell % width, cell // width
        cell_rays = []
        for dx, dy in DIRECTIONS:
            ray, cx, cy = [], x + dx, y + dy
            while 0 <= cx < width and 0 <= cy < height:
                ray.append(cx + cy * width)
                cx, cy = cx + dx, cy + dy
            if ray:
                cell_rays.append(tuple(ray))
        rays.append(tuple(cell_rays))
    return tuple(rays)


@functools.lru_cache(maxsize=1 << 20)
def _reach(width, height, closed, cell):
    """Open cells a queen on ``cell`` reaches through open cells (ascending index);
    with ``cell`` None (the piece not placed yet), every open cell."""
    if cell is None:
        return tuple(c for c in range(width * height) if not closed >> c & 1)
    out = []
    for ray in _rays(width, height)[cell]:
        for c in ray:
            if closed >> c & 1:
                break
            out.append(c)
    return tuple(sorted(out))


class Isolation(Game):
    """Isolation on a ``width`` x ``height`` board with ``blocked`` cells closed from
    the start, for ``players`` players (2 here; see :class:`MultiIsolation`).

    ``evaluation(game, state, player) -> number`` scores unfinished states at a
    search's horizon (default :func:`my_moves_minus_opponent_moves`)."""

    WIN, LOSS = INF, -INF

    def __init__(self, width=5, height=5, blocked=(), players=2, evaluation=None):
        self.width = _positive("width", width)
        self.height = _positive("height", height)
        self.n_players = _positive("players", players, 2)
        if self.n_players > 2 and type(self) is Isolation:
            raise ValueError("Isolation is the two-player game; use MultiIsolation for more")
        self.blocked = tuple(sorted({self.index(a) for a in blocked}))
        if self.width * self.height - len(self.blocked) < self.n_players:
            raise ValueError(f"a {width}x{height} board with {len(self.blocked)} blocked "
                             f"cells has no room for {players} players")
        self.players = tuple(range(self.n_players))
        self.evaluation = evaluation or my_moves_minus_opponent_moves

    def __repr__(self):
        return (f"{type(self).__name__}({self.width}x{self.height}, blocked="
                f"{[self.xy(c) for c in self.blocked]}, players={self.n_players})")

    # -- cells ---------------------------------------------------------------

    def index(self, action):
        """Cell index of ``(x, y)``; ``ValueError`` if it is not a cell of the board."""
        if not (isinstance(action, tuple) and len(action) == 2
                and all(isinstance(v, int) and not isinstance(v, bool) for v in action)
                and 0 <= action[0] < self.width and 0 <= action[1] < self.height):
            raise ValueError(f"a cell is (x, y) with 0 <= x < {self.width} and "
                             f"0 <= y < {self.height}, got {action!r}")
        return action[0] + action[1] * self.width

    def xy(self, cell):
        return (cell % self.width, cell // self.width)

    # -- the Game protocol ----------------------------------------------------

    def initial(self):
        closed = 0
        for c in self.blocked:
            closed |= 1 << c
        return (closed, (None,) * self.n_players, 0, (1 << self.n_players) - 1)

    def to_move(self, state):
        return state[2]

    def liberties(self, state, player):
        """Cells ``player`` could move to now (whoever is to move), as cell indices."""
        return _reach(self.width, self.height, state[0], state[1][player])

    def actions(self, state):
        if self.is_terminal(state):
            return []
        return [self.xy(c) for c in self.liberties(state, state[2])]

    def result(self, state, action):
        """The state after the player to move goes to ``action``; ``ValueError`` if
        that is not one of its moves."""
        cell = self.index(action)
        if self.is_terminal(state) or cell not in self.liberties(state, state[2]):
            raise ValueError(f"{action!r} is not a move of player {state[2]} in\n"
                             f"{self.render(state)}")
        return self._land(state, cell)

    def _land(self, state, cell):
        """The state after the mover's piece lands on open ``cell`` (no legality check)."""
        closed, locations, mover, alive = state
        locations = locations[:mover] + (cell,) + locations[mover + 1:]
        return self._next_mover((closed | 1 << cell, locations, mover, alive))

    def _next_mover(self, state):
        """Pass the turn to the next player in the game; a stuck player is out (with two
        players that ends the game, the stuck player to move)."""
        closed, locations, mover, alive = state
        n = self.n_players
        while True:
            mover = (mover + 1) % n
            while not alive >> mover & 1:
                mover = (mover + 1) % n
            if _reach(self.width, self.height, closed, locations[mover]) \
                    or bin(alive).count("1") == 1:
                return (closed, locations, mover, alive)
            if n == 2:
                return (closed, locations, mover, alive & ~(1 << mover))
            alive &= ~(1 << mover)

    def is_terminal(self, state):
        return bin(state[3]).count("1") <= 1

    def winner(self, state):
        """The last player standing of a finished game (None while it goes on)."""
        if not self.is_terminal(state):
            return None
        return state[3].bit_length() - 1

    def utility(self, state, player):
        return self.WIN if self.winner(state) == player else self.LOSS

    def evaluate(self, state, player):
        return self.evaluation(self, state, player)

    # -- symmetries ------------------------------------------------------------

    def transforms(self):
        """The board's symmetries as cell permutations (tuples ``new[c]``): the 8 of a
        square board, the 4 of a rectangle, keeping only those that map the blocked
        cells onto themselves."""
        w, h = self.width, self.height
        maps = [lambda x, y: (x, y), lambda x, y: (w - 1 - x, y),
                lambda x, y: (x, h - 1 - y), lambda x, y: (w - 1 - x, h - 1 - y)]
        if w == h:
            maps += [lambda x, y: (y, x), lambda x, y: (h - 1 - y, x),
                     lambda x, y: (y, w - 1 - x), lambda x, y: (h - 1 - y, w - 1 - x)]
        out = []
        for f in maps:
            perm = tuple(self.index(f(*self.xy(c))) for c in range(w * h))
            if sorted(perm[c] for c in self.blocked) == list(self.blocked) and perm not in out:
                out.append(perm)
        return out

    def transform(self, state, perm):
        closed, locations, mover, alive = state
        new_closed = 0
        for c in range(self.width * self.height):
            if closed >> c & 1:
                new_closed |= 1 << perm[c]
        return (new_closed, tuple(None if c is None else perm[c] for c in locations),
                mover, alive)

    def symmetric_states(self, state):
        """The distinct images of ``state`` under :meth:`transforms`: states of equal value."""
        return list(dict.fromkeys(self.transform(state, p) for p in self.transforms()))

    def canonical(self, state):
        """One representative of ``state``'s symmetry class (the smallest image)."""
        return min(self.symmetric_states(state), key=lambda s: (s[0], tuple(
            -1 if c is None else c for c in s[1]), s[2], s[3]))

    # -- display -----------------------------------------------------------------

    def parse(self, picture, mover=0):
        """A state from a drawing in :meth:`render`'s symbols (rows top to bottom,
        spaces ignored), every player in the game, ``mover`` to move. Cells under the
        pieces are closed. ``ValueError`` for a wrong size, symbol or player."""
        rows = ["".join(line.split()) for line in picture.strip().splitlines()]
        rows = [r for r in rows if r]
        if len(rows) != self.height or any(len(r) != self.width for r in rows):
            raise ValueError(f"a {self.width}x{self.height} picture is {self.height} rows "
                             f"of {self.width} symbols, got {picture!r}")
        closed, locations = 0, [None] * self.n_players
        digits = {str(p + 1): p for p in self.players}
        for y, row in enumerate(rows):
            for x, ch in enumerate(row):
                c = x + y * self.width
                if ch in digits:
                    locations[digits[ch]] = c
                elif ch not in ".#":
                    raise ValueError(f"symbol {ch!r} is not '.', '#' or a player 1-"
                                     f"{self.n_players}")
                if ch != ".":
                    closed |= 1 << c
        if mover not in self.players:
            raise ValueError(f"mover must be one of {self.players}, got {mover!r}")
        return (closed, tuple(locations), mover, (1 << self.n_players) - 1)

    def render(self, state):
        """Rows of ``.`` (open), ``#`` (closed) and the players' digits ``1``, ``2``, ...
        (``1`` moves first); the player to move is named under the board."""
        closed, locations, mover, alive = state
        rows = []
        for y in range(self.height):
            row = []
            for x in range(self.width):
                c = x + y * self.width
                mark = "#" if closed >> c & 1 else "."
                for p, loc in enumerate(locations):
                    if loc == c:
                        mark = str(p + 1)
                row.append(mark)
            rows.append(" ".join(row))
        if self.is_terminal(state):
            rows.append(f"player {self.winner(state) + 1} wins")
        else:
            rows.append(f"player {mover + 1} to move")
        return "\n".join(rows)


def mini_isolation(evaluation=None):
    """The lesson's mini-Isolation: 3x2, the bottom-right cell ``(2, 1)`` blocked."""
    return Isolation(3, 2, blocked=[(2, 1)], evaluation=evaluation)


# ---------------------------------------------------------------------------
# The lesson's evaluation functions (for two players)
# ---------------------------------------------------------------------------


def my_moves(game, state, player):
    """The lesson's first evaluation: how many moves ``player`` has."""
    return len(game.liberties(state, player))


def my_moves_minus_opponent_moves(game, state, player):
    """The lesson's better evaluation: ``player``'s moves minus its opponent's."""
    return len(game.liberties(state, player)) - len(game.liberties(state, 1 - player))


# ---------------------------------------------------------------------------
# Variants
# ---------------------------------------------------------------------------


def mobility_share(game, state, player):
    """Multiplayer evaluation: ``player``'s share of the moves of the players still in
    (0 for a player out; shares sum to 1, equal when nobody can move)."""
    alive = [p for p in game.players if state[3] >> p & 1]
    if player not in alive:
        return 0.0
    moves = {p: len(game.liberties(state, p)) for p in alive}
    total = sum(moves.values())
    return moves[player] / total if total else 1.0 / len(alive)


class MultiIsolation(Isolation):
    """Isolation for ``players`` >= 3: a stuck player is out, the last one standing
    wins. Utilities are 1 (winner) and 0, so they sum to :attr:`total` = 1 in every
    state, as max^n's shallow pruning needs; evaluation :func:`mobility_share`."""

    WIN, LOSS = 1.0, 0.0
    total = 1.0

    def __init__(self, width=4, height=4, blocked=(), players=3, evaluation=None):
        super().__init__(width, height, blocked, players, evaluation or mobility_share)


class SloppyIsolation(Isolation):
    """Two-player Isolation where a move goes astray: with probability ``slip`` the
    piece lands on an open cell next to (one king step from) the cell aimed at, each
    as likely, instead of that cell; when no such cell is open it lands where aimed.
    A player's first move (placing the piece) is never sloppy.

    :meth:`result` is the move as aimed (what a search that ignores chance sees);
    :meth:`outcomes` lists ``(probability, state)`` for expectimax and :meth:`sample`
    draws one for real play."""

    WIN, LOSS = 100.0, -100.0  # finite: a chance node averages a win with a loss

    def __init__(self, width=5, height=5, blocked=(), slip=0.1, evaluation=None):
        super().__init__(width, height, blocked, 2, evaluation)
        if isinstance(slip, bool) or not isinstance(slip, (int, float)) or not 0 <= slip <= 1:
            raise ValueError(f"slip must be a probability in [0, 1], got {slip!r}")
        self.slip = float(slip)

    def __repr__(self):
        return super().__repr__()[:-1] + f", slip={self.slip})"

    def _astray(self, state, cell):
        """Open cells next to ``cell`` a slipped move may land on."""
        closed = state[0] | 1 << cell
        x, y = self.xy(cell)
        out = []
        for dx, dy in DIRECTIONS:
            cx, cy = x + dx, y + dy
            if 0 <= cx < self.width and 0 <= cy < self.height \
                    and not closed >> (cx + cy * self.width) & 1:
                out.append(cx + cy * self.width)
        return out

    def outcomes(self, state, action):
        """``[(probability, next state), ...]`` of the mover aiming at ``action``;
        the probabilities sum to 1."""
        aimed = self.result(state, action)
        cell = self.index(action)
        astray = self._astray(state, cell)
        if state[1][state[2]] is None or not astray or self.slip == 0:
            return [(1.0, aimed)]
        share = self.slip / len(astray)
        return [(1.0 - self.slip, aimed)] + [(share, self._land(state, c)) for c in astray]

    def sample(self, state, action, rng):
        """One outcome of aiming at ``action``, drawn with ``rng`` (a ``random.Random``)."""
        outs = self.outcomes(state, action)
        r = rng.random()
        for p, s in outs:
            r -= p
            if r < 0:
                return s
        return outs[-1][1]
