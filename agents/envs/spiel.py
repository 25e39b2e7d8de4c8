"""The package's agents as OpenSpiel bots (``pyspiel.Bot``) for ``connect_four``, with the
game's own ``rows``, ``columns`` and ``x_in_row`` parameters.

OpenSpiel's ``connect_four`` numbers its players 0 and 1 (0 moves first: Kaggle's mark
1) and its actions by column, as Kaggle does; the bot rebuilds Kaggle's flat board from
the state's history of columns with the board's kernel (``drop``), asks the agent, and
returns its column. The other way round, :func:`bot_agent` makes an OpenSpiel bot a Kaggle
agent, for the package's matches.
"""
import numpy as np
import pyspiel

from agents.board.grid import drop
from agents.board.rules_reference import ref_winner
from agents.board.rules import parse_board
from agents.envs.boards import board_config
from agents.envs.opponents import Opponent

GAME = "connect_four"


def game_config(game):
    """The board ``Config`` of an OpenSpiel ``connect_four`` game; ``ValueError`` for any
    other game."""
    name = game.get_type().short_name
    if name != GAME:
        raise ValueError(f"the package's agents play {GAME!r}, not {name!r}")
    p = game.get_parameters()
    return board_config(p["rows"], p["columns"], p["x_in_row"])


def kaggle_board(state, cfg):
    """Kaggle's flat board (a list, row 0 the top) of an OpenSpiel ``connect_four`` state."""
    grid = np.zeros(cfg.rows * cfg.columns, dtype=np.int8)
    heights = np.zeros(cfg.columns, dtype=np.int64)
    for i, col in enumerate(state.history()):
        drop(grid, heights, cfg.rows, cfg.columns, col, 1 + i % 2)
    return [int(v) for v in grid]


class AgentBot(pyspiel.Bot):
    """A bot of ``game`` (``pyspiel.load_game("connect_four(rows=5,columns=6,x_in_row=3)")``
    and the like) that plays ``agent``: an agent spec of the package
    (``"alphabeta:depth=4"``, ``"perfect"``, ...) or a callable ``agent(obs, config)``.
    The agent sees Kaggle's ``obs`` (``board``, ``mark``) and ``config`` (its clock:
    ``actTimeout`` 2 s). Bad specs and boards raise ``ValueError`` naming them."""

    def __init__(self, game, agent):
        pyspiel.Bot.__init__(self)
        if agent is None:
            raise ValueError("AgentBot needs an agent: a spec of the package or a callable")
        self.cfg = game_config(game)
        self.player = Opponent(agent, self.cfg)

    def step(self, state):
        return self.player.move(kaggle_board(state, self.cfg), state.current_player() + 1)

    def restart_at(self, state):
        pass

    def inform_action(self, state, player_id, action):
        pass

    def provides_policy(self):
        return False


def history_of(board, cfg):
    """0-based columns that reach ``board`` (Kaggle's flat list, a position still to be
    played) from the empty board, mark 1 first, no line on the way: found by taking
    stones back, the last mover's top stones first, depth first. ``ValueError`` if the
    board cannot be reached (checked by :func:`agents.board.rules.parse_board`, then the
    stone counts)."""
    rows, columns, inarow = cfg
    grid = [int(v) for v in parse_board(board, cfg)]  # ValueError: floating stones, a line...
    ones, twos = grid.count(1), grid.count(2)
    if ones - twos not in (0, 1):
        raise ValueError(f"the board cannot be reached: {ones} stones of mark 1 and {twos} "
                         "of mark 2 (mark 1 moves first, then they alternate)")
    moves = []

    def top(c):
        for r in range(rows):
            if grid[c + r * columns]:
                return c + r * columns
        return -1

    def back(stones):
        if stones == 0:
            return True
        mark = 1 if stones % 2 else 2
        for c in range(columns):
            i = top(c)
            if i >= 0 and grid[i] == mark:
                grid[i] = 0
                if not ref_winner(grid, rows, columns, inarow) and back(stones - 1):
                    moves.append(c)
                    return True
                grid[i] = mark
        return False
    if not back(ones + twos):
        raise ValueError("the board cannot be reached by a game of the rules")
    return moves


def bot_agent(bot, game):
    """A Kaggle agent ``agent(obs, config) -> int`` that plays OpenSpiel ``bot`` (of the
    ``connect_four`` ``game``): the state is rebuilt from the board (:func:`history_of`),
    the bot told to restart there, its action returned. For the package's matches
    (``scripts.arena.match.match(bot_agent(bot, game), "alphabeta:depth=4")``, in one
    process) and any Kaggle-style loop whose board is the game's."""
    cfg = game_config(game)

    def agent(obs, config):
        board = obs["board"] if isinstance(obs, dict) else obs.board
        state = game.new_initial_state()
        for col in history_of([int(v) for v in board], cfg):
            state.apply_action(col)
        bot.restart_at(state)
        return int(bot.step(state))
    agent.__name__ = f"openspiel.{type(bot).__name__}"
    return agent
