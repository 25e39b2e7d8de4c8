"""The lessons' small games in the terminal: ``connectx play --game tictactoe|coins|
isolation AGENT``. Every game is an :class:`agents.games.protocol.Game` played by the one
loop :func:`agents.games.protocol.play` (the human is one more player, who reads the
keyboard); the games differ only in how a move is typed and drawn.

Agents, per game (``NAME[:key=value]``):

* tictactoe: ``minimax`` (perfect, the solved table), ``think1``, ``think2``,
  ``think3`` (the book's rule-based players), ``random``;
* coins (21 coins, take 1 or 2, the last coin wins): ``minimax``, ``rules``, ``random``;
* isolation (5x5; ``mini`` for the lesson's 3x2): ``alphabeta[:depth=3]`` (the
  lesson's ``my_moves - opponent_moves`` at the horizon), ``random``.

Bad input -- a word, a cell off the board, an illegal move -- is answered by one
line and the same prompt again; ``q`` quits.
"""
import random

from agents.options import split_spec

GAMES = ("tictactoe", "coins", "isolation")


class Quit(BaseException):
    """The human quit (``q``, or the end of input). Not an ``Exception``, so that no game
    loop takes it for a player's error: :func:`play` here and the Connect Four game of
    :mod:`scripts.commands.play` both end the game on it."""


def _options(spec, allowed):
    name, options = split_spec(spec)
    unknown = sorted(set(options) - set(allowed))
    if unknown:
        raise ValueError(f"agent {name!r} takes no option {unknown[0]!r}"
                         + (f" (options: {', '.join(allowed)})" if allowed else ""))
    return name, options


def typed_ints(text, n, what):
    """The ``n`` integers typed in ``text`` (apart by spaces or commas); else a
    ``ValueError``: ``text`` is not ``what``."""
    try:
        values = [int(v) for v in text.replace(",", " ").split()]
    except ValueError:
        values = []
    if len(values) != n:
        raise ValueError(f"{text!r} is not {what}")
    return values


def pick_agent(game, spec, seed, makers):
    """The player ``spec`` names (no options) among ``makers`` (name -> maker) and
    ``random``; ``ValueError`` naming the choices for another name."""
    name, _ = _options(spec, ())
    if name == "random":
        return random_agent(random.Random(seed))
    if name not in makers:
        raise ValueError(f"unknown {game} agent {name!r} (choose from "
                         f"{', '.join(list(makers) + ['random'])})")
    return makers[name]()


def random_agent(rng):
    def agent(game, state):
        actions = game.actions(state)
        return actions[rng.randrange(len(actions))]
    return agent


# ---------------------------------------------------------------------------
# Tic-tac-toe
# ---------------------------------------------------------------------------


# duplicates: each game's terminal answers the same small protocol (prompt, parse,
# describe, outcome), so their methods share a shape, not code.
class TicTacToeTerminal:
    def __init__(self, board=None):
        from agents.games.tictactoe import TicTacToe
        self.game = TicTacToe()

    def agent(self, spec, seed):
        from agents.games.tictactoe import PerfectPlayer, ThinkPlayer
        return pick_agent("tictactoe", spec, seed, {
            "minimax": lambda: PerfectPlayer(seed=seed),
            **{f"think{n}": (lambda n=n: ThinkPlayer(n, seed=seed)) for n in (1, 2, 3)}})

    def render(self, state):
        from agents.games.tictactoe import SYMBOLS
        board = state[0]
        rows = [" ".join(SYMBOLS[board[3 * r + c]] if board[3 * r + c] else str(3 * r + c + 1)
                         for c in range(3)) for r in range(3)]
        return "\n".join(rows)

    def seat_name(self, seat):
        return "x" if seat == 1 else "o"

    def seats(self):
        return (1, 2)

    def prompt(self, state):
        return "your cell (1-9, q to quit): "

    def parse(self, text, state):
        cell = typed_ints(text, 1, "a cell number; type a number from 1 to 9")[0] - 1
        if not 0 <= cell < 9:
            raise ValueError(f"there is no cell {text}; type a number from 1 to 9")
        if cell not in self.game.actions(state):
            raise ValueError(f"cell {cell + 1} is taken; choose an empty one")
        return cell

    def describe(self, action):
        return f"cell {action + 1}"

    def outcome(self, state):
        from agents.games.tictactoe import winner
        return winner(state[0]) or None


# ---------------------------------------------------------------------------
# The coin game
# ---------------------------------------------------------------------------


class CoinsTerminal:
    def __init__(self, board=None):
        from agents.games.coins import CoinGame
        self.game = CoinGame(21, 2)

    def agent(self, spec, seed):
        from agents.games.coins import MinimaxPlayer, RulePlayer
        return pick_agent("coins", spec, seed, {"minimax": lambda: MinimaxPlayer(2, seed=seed),
                                                "rules": lambda: RulePlayer(2, seed=seed)})

    def render(self, state):
        return f"{state[0]} coins left: " + "o" * state[0]

    def seat_name(self, seat):
        return f"player {seat}"

    def seats(self):
        return (1, 2)

    def prompt(self, state):
        return f"coins to take (1-{min(2, state[0])}, q to quit): "

    def parse(self, text, state):
        take, = typed_ints(text, 1, "a number; take 1 or 2 coins")
        if take not in self.game.actions(state):
            raise ValueError(f"you cannot take {take}; take 1 to {min(2, state[0])} coins")
        return take

    def describe(self, action):
        return f"takes {action}"

    def outcome(self, state):
        return 3 - state[1]  # the player who took the last coin


# ---------------------------------------------------------------------------
# Isolation
# ---------------------------------------------------------------------------


class IsolationTerminal:
    AGENTS = ("alphabeta", "random")

    def __init__(self, board=None):
        from agents.games.isolation import Isolation, mini_isolation
        if board in (None, "5x5"):
            self.game = Isolation(5, 5)
        elif board == "mini":
            self.game = mini_isolation()
        else:
            raise ValueError(f"isolation boards: 5x5 (default) or mini, got {board!r}")

    def agent(self, spec, seed):
        from agents.games.protocol import alphabeta_value, best_actions
        name, options = _options(spec, ("depth",))
        if name == "random":
            if options:
                raise ValueError("agent 'random' takes no options")
            return random_agent(random.Random(seed))
        if name != "alphabeta":
            raise ValueError(f"unknown isolation agent {name!r} (choose from "
                             f"{', '.join(self.AGENTS)})")
        depth = options.get("depth", 3)
        if isinstance(depth, bool) or not isinstance(depth, int) or not 1 <= depth <= 8:
            raise ValueError(f"option depth must be an integer in 1..8, got {depth!r}")
        rng = random.Random(seed)

        def agent(game, state):
            _, actions = best_actions(game, state, depth, alphabeta_value)
            return actions[rng.randrange(len(actions))]
        return agent

    def render(self, state):
        g = self.game
        lines = g.render(state).splitlines()
        head = "  " + " ".join(str(x) for x in range(g.width))
        body = [f"{y} {line}" for y, line in enumerate(lines[:-1])]
        return "\n".join([head] + body)

    def seat_name(self, seat):
        return f"player {seat + 1}"

    def seats(self):
        return (0, 1)

    def prompt(self, state):
        return "your cell: column row, e.g. 2 3 (q to quit): "

    def parse(self, text, state):
        x, y = typed_ints(text, 2, "a cell; type its column and row, e.g. 2 3")
        g = self.game
        if not (0 <= x < g.width and 0 <= y < g.height):
            raise ValueError(f"there is no cell ({x}, {y}) on the {g.width}x{g.height} board")
        if (x, y) not in g.actions(state):
            raise ValueError(f"({x}, {y}) is not one of your moves (a queen move through "
                             f"open cells)")
        return (x, y)

    def describe(self, action):
        return f"moves to {action[0]} {action[1]}"

    def outcome(self, state):
        return self.game.winner(state)


TERMINALS = {"tictactoe": TicTacToeTerminal, "coins": CoinsTerminal,
             "isolation": IsolationTerminal}


def terminal(name, board=None):
    """The terminal adapter of game ``name``; ``ValueError`` for an unknown one."""
    if name not in TERMINALS:
        raise ValueError(f"unknown game {name!r} (choose from connectx, {', '.join(GAMES)})")
    return TERMINALS[name](board)


def read_action(term, state, ask, say):
    while True:
        try:
            text = ask(term.prompt(state)).strip()
        except EOFError:
            raise Quit from None
        if text.lower() in ("q", "quit", "exit"):
            raise Quit
        try:
            return term.parse(text, state)
        except ValueError as e:
            say(str(e))


def play(term, agent, spec, human_second=False, ask=input, say=print):
    """One game in the terminal; the winning seat, None for a draw or a quit."""
    from agents.games.protocol import play as play_game
    game = term.game
    seats = term.seats()
    human = seats[1 if human_second else 0]
    say(f"you are {term.seat_name(human)}, {spec} is the other player")

    def person(game, state):
        return read_action(term, state, ask, say)

    def watch(state, action, after):
        if game.to_move(state) != human:
            say(f"{spec} {term.describe(action)}")
        say(term.render(after))

    state = game.initial()
    say(term.render(state))
    try:
        state, _ = play_game(game, {seat: person if seat == human else agent for seat in seats},
                             state, watch=watch)
    except Quit:
        say("game abandoned")
        return None
    w = term.outcome(state)
    say("draw" if w is None else ("you win!" if w == human else f"{spec} wins"))
    return w
