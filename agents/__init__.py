"""ConnectX agents: ``agents.make(name, **options)`` returns an ``agent(obs, config) -> int``.

Names and options are listed in :data:`AGENTS` (and the README). The rules of the
game live in :mod:`agents.board.rules`; this module imports the agent classes lazily so
that ``import agents.board.rules`` stays light.
"""
import importlib

# name -> "module:Class"
AGENTS = {
    "random": "agents.players.baselines:RandomAgent",
    "onestep": "agents.players.baselines:OneStepAgent",
    "rules": "agents.players.baselines:RulesAgent",
    "minimax": "agents.players.lookahead:MinimaxAgent",
    "alphabeta": "agents.players.lookahead:AlphaBetaAgent",
    "tutorial": "agents.players.baselines:TutorialAgent",  # the Kaggle tutorial's agent, pure Python
    "mcts": "agents.players.uct:MCTSAgent",
    "perfect": "agents.players.perfect:PerfectAgent",  # exact solver + book, alphabeta fallback
    "policy": "agents.players.policy:PolicyAgent",  # a network of connectx learn (file=net.npz)
}

# Agents for the seed lessons' other games (not ConnectX players): make() builds them,
# names() and the ConnectX tools (matches, fuzz, bundler) do not list them.
OTHER_GAMES = {
    "tictactoe": "agents.games.tictactoe:TicTacToeAgent",  # see agents.games
}

# The default agent of submission.build and connectx lessons seed-matches: the strongest 7x6
# player, "perfect" (opening book + exact solver + traps; alphabeta on boards the solver
# does not fit). Its Kaggle file compiles its kernels in a background thread while the
# book answers (agents.players.warmup), so the first move costs well under a second.
BEST = "perfect"


def agent_class(name):
    """The class behind ``name``; ``ValueError`` lists the valid names."""
    if not isinstance(name, str) or (name not in AGENTS and name not in OTHER_GAMES):
        raise ValueError(f"unknown agent {name!r}; valid: {', '.join(sorted(AGENTS))} "
                         f"(other games: {', '.join(sorted(OTHER_GAMES))})")
    module, cls = (AGENTS.get(name) or OTHER_GAMES[name]).split(":")
    return getattr(importlib.import_module(module), cls)


def make(name, **options):
    """A new agent ``name`` with ``options``; ``ValueError`` names an unknown name or option."""
    return agent_class(name)(**options)


def names():
    """The ConnectX agents' names."""
    return sorted(AGENTS)
