"""The package's agents as OpenSpiel bots (``pyspiel.Bot``) for ``connect_four``, with the
game's own ``rows``, ``columns`` and ``x_in_row`` parameters.

OpenSpiel's ``connect_four`` numbers its players 0 and 1 (0 moves first: Kaggle's mark
1) and its actions by column, as Kaggle does; the bot rebuilds Kaggle's flat board from
the state's history of columns with the board's kernel (``drop``), asks the agent, and
returns its column.
"""
import numpy as np
import pyspiel

from agents.board.grid import drop
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
