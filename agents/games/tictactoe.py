"""Tic-tac-toe: the rules as a :class:`agents.games.protocol.Game`, an exact solver, and a
perfect agent for kaggle-environments' ``open_spiel_tic_tac_toe``.

Board layout: a tuple of 9 marks, row by row, ``cell = 3 * row + column``::

     0 | 1 | 2
    ---+---+---
     3 | 4 | 5
    ---+---+---
     6 | 7 | 8

Marks: ``EMPTY = 0``, ``X = 1`` (moves first; OpenSpiel player 0), ``O = 2``
(OpenSpiel player 1). OpenSpiel draws the same board as three lines of ``x``, ``o``
and ``.`` (``"x.o\\n...\\n..o"``), and its action for a cell is the cell index.

Scores (same convention as :class:`agents.search.reference.ConnectX`): a won game is worth
``+-(10 - stones on the board)`` to the winner and loser, so a sooner win scores
higher; a draw is 0. Every value in this module is from the point of view named
next to it (``player`` for the reference searches, the side to move for the solver).

:class:`TicTacToeEnv` is the book's environment interface (``reset``, ``step``,
``validinputs``) over the same rules.

The solver is a memoised negamax over the 5478 positions reachable from the empty
board (terminal ones included); the agent looks its moves up in that table. The
plain :func:`agents.games.protocol.minimax_value` and :func:`agents.games.protocol.alphabeta_value`
solve the same game without memory, and the tests check them against each other.
"""
import functools
import random
from collections.abc import Mapping, Sequence

from agents.games.protocol import Game, best_actions, minimax_value

EMPTY, X, O = 0, 1, 2
CELLS = 9
WIN_BASE = 10  # a win is worth WIN_BASE - stones: 5 (win on move 5) .. 1 (on move 9)
LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8),   # rows
         (0, 3, 6), (1, 4, 7), (2, 5, 8),   # columns
         (0, 4, 8), (2, 4, 6))              # diagonals
EMPTY_BOARD = (EMPTY,) * CELLS
SYMBOLS = {EMPTY: ".", X: "x", O: "o"}
MARK_OF_SYMBOL = {v: k for k, v in SYMBOLS.items()}

Board = tuple  # 9 marks, row by row
State = tuple  # (board, mark to move)


# ---------------------------------------------------------------------------
# Rules
# ---------------------------------------------------------------------------


@functools.lru_cache(maxsize=None)
def winner(board):
    """X or O if that mark fills a line, else EMPTY. Does not check that ``board``
    is reachable (see :func:`parse_board`). Cached, like the other rules: there are
    only 5478 reachable positions."""
    for a, b, c in LINES:
        mark = board[a]
        if mark != EMPTY and mark == board[b] == board[c]:
            return mark
    return EMPTY


def mark_to_move(board):
    """X when both sides have played equally often, else O."""
    return X if board.count(X) == board.count(O) else O


@functools.lru_cache(maxsize=None)
def is_over(board):
    return winner(board) != EMPTY or EMPTY not in board


@functools.lru_cache(maxsize=None)
def _legal(board):
    if winner(board) != EMPTY:
        return ()
    return tuple(i for i in range(CELLS) if board[i] == EMPTY)


def legal_cells(board):
    """Empty cells in increasing order (none once the game is over); a new list."""
    return list(_legal(board))


def place(board, cell, mark):
    """New board with ``mark`` in ``cell``; ``ValueError`` if the cell is taken or absent."""
    if not (isinstance(cell, int) and 0 <= cell < CELLS) or board[cell] != EMPTY:
        raise ValueError(f"cell {cell!r} is not an empty cell 0-8 of {render(board)!r}")
    return board[:cell] + (mark,) + board[cell + 1:]


def render(board):
    """OpenSpiel's observation string: three rows of ``x``, ``o``, ``.``."""
    return "\n".join("".join(SYMBOLS[m] for m in board[r * 3:r * 3 + 3]) for r in range(3))


def parse_board(cells):
    """A reachable board as a tuple, from 9 marks (0 empty, 1 x, 2 o), 3 rows of 3
    marks, or an observation string such as ``"x.o\\n...\\n..o"``.

    ``ValueError`` says what is wrong: bad length or symbols, impossible stone counts,
    two winners, or a winner who could not have moved last."""
    if isinstance(cells, str):
        rows = cells.strip().split("\n")
        if len(rows) != 3 or any(len(r) != 3 for r in rows) \
                or any(ch not in MARK_OF_SYMBOL for r in rows for ch in r):
            raise ValueError(f"observation string must be 3 rows of 3 of 'x', 'o', '.', "
                             f"got {cells!r}")
        board = tuple(MARK_OF_SYMBOL[ch] for r in rows for ch in r)
    elif isinstance(cells, Sequence) or hasattr(cells, "__array__"):
        values = list(cells)
        if len(values) == 3 and all(isinstance(r, Sequence) or hasattr(r, "__array__")
                                    for r in values):
            values = [v for r in values for v in r]  # 3 rows of 3
        if len(values) != CELLS or any(isinstance(v, bool) or v not in (EMPTY, X, O)
                                       for v in values):
            raise ValueError(f"a board is 9 marks, each 0 (empty), 1 (x) or 2 (o), "
                             f"got {cells!r}")
        board = tuple(int(v) for v in values)
    else:
        raise ValueError(f"a board is 9 marks or an observation string, got {cells!r}")
    xs, os_ = board.count(X), board.count(O)
    if xs - os_ not in (0, 1):
        raise ValueError(f"x moves first, so x has as many stones as o or one more; "
                         f"got {xs} x and {os_} o in {render(board)!r}")
    x_line = any(board[a] == board[b] == board[c] == X for a, b, c in LINES)
    o_line = any(board[a] == board[b] == board[c] == O for a, b, c in LINES)
    if x_line and o_line:
        raise ValueError(f"both players have a line in {render(board)!r}")
    if (x_line and xs != os_ + 1) or (o_line and xs != os_):
        raise ValueError(f"the game ended before this position: {render(board)!r}")
    return board


@functools.lru_cache(maxsize=None)
def _child(state, action):
    # The rules are cached (as winner, is_over and _legal are) because the reference
    # searches revisit the same few thousand positions hundreds of thousands of times;
    # the searches themselves stay plain, with no memory of values.
    board, mark = state
    return (place(board, action, mark), 3 - mark)


class TicTacToe(Game):
    """States are ``(board, mark to move)``; utility as in the module docstring."""

    def initial(self):
        return (EMPTY_BOARD, X)

    def to_move(self, state):
        return state[1]

    def actions(self, state):
        return legal_cells(state[0])

    def result(self, state, action):
        return _child(state, action)

    def is_terminal(self, state):
        return is_over(state[0])

    def utility(self, state, player):
        w = winner(state[0])
        if w == EMPTY:
            return 0
        score = WIN_BASE - (CELLS - state[0].count(EMPTY))
        return score if w == player else -score

    def winner(self, state):
        """The winning mark (X or O), None for a draw or a game going on."""
        return winner(state[0]) or None

    def transforms(self):
        """The board's 8 symmetries as cell permutations (tuples ``new[c]``: the cell
        where cell ``c`` goes), the identity first; a cell action maps as its cell does
        (as :meth:`agents.games.isolation.Isolation.transforms`)."""
        return SYMMETRIES

    def transform(self, state, perm):
        """``state``'s image under ``perm`` (one of :meth:`transforms`)."""
        board, mark = state
        image = [EMPTY] * CELLS
        for c, m in enumerate(board):
            image[perm[c]] = m
        return (tuple(image), mark)


def _symmetries():
    maps = [lambda r, c: (r, c), lambda r, c: (r, 2 - c), lambda r, c: (2 - r, c),
            lambda r, c: (2 - r, 2 - c), lambda r, c: (c, r), lambda r, c: (2 - c, r),
            lambda r, c: (c, 2 - r), lambda r, c: (2 - c, 2 - r)]
    return [tuple(3 * f(i // 3, i % 3)[0] + f(i // 3, i % 3)[1] for i in range(CELLS))
            for f in maps]


SYMMETRIES = _symmetries()


# ---------------------------------------------------------------------------
# Exact solver
# ---------------------------------------------------------------------------


@functools.lru_cache(maxsize=1)
def solve():
    """``{state: value for the side to move}`` for every position reachable from the
    empty board (5478 of them), by memoised negamax. Computed once, then shared."""
    game = TicTacToe()
    table = {}

    def value(state):
        if state in table:
            return table[state]
        if game.is_terminal(state):
            v = game.utility(state, game.to_move(state))
        else:
            v = max(-value(game.result(state, a)) for a in game.actions(state))
        table[state] = v
        return v

    value(game.initial())
    return table


@functools.lru_cache(maxsize=None)
def best_cells(board):
    """(value for the side to move, cells that keep it), from the solved table.
    ``board`` must be a reachable, unfinished position (see :func:`parse_board`)."""
    table = solve()
    mark = mark_to_move(board)
    if (board, mark) not in table or is_over(board):
        raise ValueError(f"no move: the game is over or unreachable in {render(board)!r}")
    scored = [(-table[(place(board, c, mark), 3 - mark)], c) for c in legal_cells(board)]
    top = max(v for v, _ in scored)
    return top, tuple(c for v, c in scored if v == top)


# ---------------------------------------------------------------------------
# Agents
# ---------------------------------------------------------------------------


def _seed(value):
    if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
        raise ValueError(f"option seed must be an integer or None, got {value!r}")
    return value


_seed.accepts = "an integer or none"  # what the generated reference prints


def field_of(obs, name, default=None):
    return obs.get(name, default) if isinstance(obs, Mapping) else getattr(obs, name, default)


class TicTacToeAgent:
    """Perfect tic-tac-toe: plays a move of the solved table, ties broken at random.

    ``agent(obs, config)`` with a kaggle-environments observation (``observationString``,
    ``playerId``) returns ``{"submission": cell}``; the env's first call (step 0, before
    the game starts) carries no board and gets the empty board's move, which the env
    ignores. ``agent(board)`` with 9 marks (0 empty, 1 x, 2 o), 3 rows of 3 marks or an
    observation string
    returns the cell as a plain ``int``; the side to move follows from the stone counts.

    Options: ``seed`` (int or None) for the tie-break among equally good cells."""

    name = "tictactoe"
    env = "open_spiel_tic_tac_toe"  # not a ConnectX agent: match tools can filter on this
    OPTIONS = {"seed": (_seed, None)}

    def __init__(self, **options):
        unknown = sorted(set(options) - set(self.OPTIONS))
        if unknown:
            raise ValueError(f"unknown option(s) {', '.join(unknown)} for agent {self.name!r}; "
                             f"valid: {', '.join(sorted(self.OPTIONS))}")
        for key, (check, default) in self.OPTIONS.items():
            setattr(self, key, check(options[key]) if key in options else default)
        self.options = {k: getattr(self, k) for k in self.OPTIONS}
        self.rng = random.Random(self.seed)
        solve()  # the one-off solve (tens of ms) happens here, not in the first move

    def __repr__(self):
        return f"TicTacToeAgent(seed={self.seed!r})"

    def choose(self, board):
        """A cell keeping the game-theoretic value of reachable, unfinished ``board``."""
        _, cells = best_cells(board)
        return cells[self.rng.randrange(len(cells))]

    def __call__(self, obs, config=None):
        if isinstance(obs, (str, Sequence)) or hasattr(obs, "__array__"):
            return int(self.choose(parse_board(obs)))
        if not (isinstance(obs, Mapping) or hasattr(obs, "observationString")
                or hasattr(obs, "step")):
            raise ValueError(f"expected a kaggle observation or a 9-cell board, got {obs!r}")
        text = field_of(obs, "observationString")
        if text is None:
            if field_of(obs, "step", 0) != 0:
                raise ValueError("observation has no observationString after step 0")
            return {"submission": int(self.choose(EMPTY_BOARD))}
        board = parse_board(text)
        player = field_of(obs, "playerId")
        if player not in (0, 1) or isinstance(player, bool):
            raise ValueError(f"playerId must be 0 (x) or 1 (o), got {player!r}")
        if mark_to_move(board) != X + player:
            raise ValueError(f"player {player} ({SYMBOLS[X + player]}) is not to move in "
                             f"{text!r}")
        return {"submission": int(self.choose(board))}


class ReferencePlayer:
    """A kaggle agent that plays the reference search's best cells (``minimax_value``
    by default, searching to the end of the game), ties broken at random.

    Each position is searched once by the plain reference search and the answer kept
    in ``self.decisions``, so a 100-game match costs one search per distinct position."""

    def __init__(self, search=minimax_value, seed=None):
        self.search = search
        self.rng = random.Random(_seed(seed))
        self.game = TicTacToe()
        self.decisions = {}  # board -> cells the reference search rates best

    def best(self, board):
        if board not in self.decisions:
            state = (board, mark_to_move(board))
            _, cells = best_actions(self.game, state, CELLS, search=self.search)
            self.decisions[board] = tuple(cells)
        return self.decisions[board]

    def __call__(self, obs, config=None):
        text = field_of(obs, "observationString")
        board = EMPTY_BOARD if text is None else parse_board(text)
        cells = self.best(board)
        return {"submission": int(cells[self.rng.randrange(len(cells))])}


# ---------------------------------------------------------------------------
# The book chapter's rule-based players
# ---------------------------------------------------------------------------


def winning_cells(board, mark):
    """Empty cells where ``mark`` completes a line now."""
    return [c for c in legal_cells(board) if winner(place(board, c, mark)) == mark]


class ThinkPlayer:
    """The chapter's rule-based player that "thinks" ``steps`` (1, 2 or 3) moves ahead,
    random among the cells its rules leave:

    * think-1: take a winning cell when there is one;
    * think-2: else block the opponent's winning cell;
    * think-3: else make a fork -- a cell after which it has two winning cells, so the
      opponent cannot block both.

    ``player(game, state) -> cell`` for a reachable, unfinished state ``(board, mark)``
    of :class:`TicTacToe` (the protocol's players: :func:`agents.games.protocol.play`)."""

    def __init__(self, steps=3, seed=None):
        if steps not in (1, 2, 3):
            raise ValueError(f"steps must be 1, 2 or 3, got {steps!r}")
        self.steps = steps
        self.rng = random.Random(_seed(seed))

    def __repr__(self):
        return f"think-{self.steps}"

    def candidates(self, board):
        mark = mark_to_move(board)
        wins = winning_cells(board, mark)
        if wins:
            return wins
        if self.steps >= 2:
            blocks = winning_cells(board, 3 - mark)
            if blocks:
                return blocks
        if self.steps >= 3:
            forks = [c for c in legal_cells(board)
                     if len(winning_cells(place(board, c, mark), mark)) >= 2]
            if forks:
                return forks
        return legal_cells(board)

    def __call__(self, game, state):
        cells = self.candidates(state[0])
        return cells[self.rng.randrange(len(cells))]


class PerfectPlayer:
    """``player(game, state) -> cell`` keeping the solved value, random among such cells
    (the solved table, the same moves the reference minimax rates best)."""

    def __init__(self, seed=None):
        self.rng = random.Random(_seed(seed))
        solve()

    def __repr__(self):
        return "minimax"

    def __call__(self, game, state):
        _, cells = best_cells(state[0])
        return cells[self.rng.randrange(len(cells))]


class TicTacToeEnv:
    """Tic-tac-toe with the book's environment interface, as
    :class:`agents.games.coins.CoinEnv` is the coin game's: ``reset()`` -> board;
    ``step(cell)`` -> ``(board, reward, done, info)``; ``validinputs``, the cells the
    side to move may take. ``reward`` is from x's side, as the book's: +1 when x's move
    completes a line, -1 when o's does, else 0 (a draw ends with ``done`` and 0); ``info``
    holds ``{"player": who moved, "cell": cell}``. Cells are the package's 0-8 (the book
    numbers them 1-9). ``game`` and ``state`` are the :class:`TicTacToe` game and its
    state, so the lessons' players (``player(game, state) -> cell``) play on it
    (:func:`agents.games.protocol.play_env`). An illegal cell, or a step with no game in
    progress, raises ``ValueError``."""

    def __init__(self):
        self.game = TicTacToe()
        self.state = None

    def reset(self):
        self.state = self.game.initial()
        return self.state[0]

    @property
    def validinputs(self):
        return [] if self.state is None else list(legal_cells(self.state[0]))

    def step(self, cell):
        if self.state is None or self.game.is_terminal(self.state):
            raise ValueError("call reset() before step(): no game in progress")
        if cell not in self.validinputs:
            raise ValueError(f"cell {cell!r} is not one of the valid inputs {self.validinputs}")
        player = self.state[1]
        self.state = self.game.result(self.state, cell)
        board = self.state[0]
        won = winner(board)
        reward = 0 if won == EMPTY else (1 if won == X else -1)
        return board, reward, is_over(board), {"player": player, "cell": cell}
