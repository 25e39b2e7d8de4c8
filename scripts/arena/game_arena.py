"""The package's agents in Kaggle Game Arena: kaggle-environments' ``open_spiel_connect_four``.

Game Arena runs OpenSpiel's ``connect_four`` (any ``rows``/``columns``/``x_in_row``) inside
kaggle-environments (1.33 ships it). Its agents differ from ConnectX's:

* the observation carries no board list: the state is ``serializedGameAndState`` (the
  game string and the action history; OpenSpiel's actions are 0-based columns), with
  ``playerId`` (0 moves first, ``x``; 1 is ``o``) and ``currentPlayer``;
* an agent returns a dict ``{"submission": column}``, not an int; anything not legal
  (``-1`` included) forfeits the game (status INVALID, reward -1);
* the first step is a setup step where the observation is still empty: the agent is
  called and its answer ignored;
* the clock is an hour a move (``actTimeout`` 3600 s): a package agent is given its own
  budget instead (``ACT_TIMEOUT``, kaggle ConnectX's 2 s, no overage) so a graded
  opponent plays at the strength it was calibrated at.

One line puts any agent spec in it::

    from scripts.arena.game_arena import game_arena_agent, make_env
    env = make_env(rows=6, columns=7, inarow=4)
    env.run([game_arena_agent("perfect:elo=1500"), game_arena_agent("alphabeta")])
    replay = env.toJSON()   # Game Arena's replay: info.actionHistory is the move list
"""
from agents.board.rules_reference import board_from_moves
from scripts.arena.extras import require
from scripts.arena.loading import build_agent
from scripts.arena.specs import ACT_TIMEOUT, MatchConfig, config_struct, observation, parse_spec

ENV_NAME = "open_spiel_connect_four"
GAME = "connect_four"
FORFEIT = -1  # pyspiel.INVALID_ACTION: what a seat submits at the setup step


def spiel_parameters(rows=6, columns=7, inarow=4):
    """OpenSpiel's ``connect_four`` parameters for a board (``x_in_row`` is ``inarow``)."""
    return {"rows": int(rows), "columns": int(columns), "x_in_row": int(inarow)}


def make_env(rows=6, columns=7, inarow=4, **configuration):
    """kaggle-environments' ``open_spiel_connect_four`` on a ``rows`` x ``columns`` board,
    ``inarow`` to win; ``configuration`` adds the environment's own fields (``seed``,
    ``strictMode``, ``initialActions``, ...). ``ValueError`` without kaggle-environments.

    ``includeLegalActions`` is true unless given: the environment's built-in ``random``
    agent picks from the observation's ``legalActions``, which the environment leaves
    out by default, and without them it submits nothing and forfeits its first move."""
    require("kaggle_environments", "Kaggle Game Arena's open_spiel_connect_four")
    from kaggle_environments import make
    from kaggle_environments.envs.open_spiel_env import open_spiel_env  # registers the env
    del open_spiel_env
    configuration = {"includeLegalActions": True, **configuration,
                     "openSpielGameParameters": spiel_parameters(rows, columns, inarow)}
    return make(ENV_NAME, configuration=configuration)


def spiel_game(obs):
    """``(MatchConfig, moves)`` of a Game Arena observation: the board's shape and the
    0-based columns played so far; None at the setup step (no state yet). The state
    is read with OpenSpiel's own ``deserialize_game_and_state``."""
    serialized = _get(obs, "serializedGameAndState")
    if not serialized:
        return None
    import pyspiel
    game, state = pyspiel.deserialize_game_and_state(serialized)
    params = game.get_parameters()
    cfg = MatchConfig(int(params.get("rows", 6)), int(params.get("columns", 7)),
                      int(params.get("x_in_row", 4)), ACT_TIMEOUT, 0.0)
    return cfg, [int(a) for a in state.history()]


def resolve_agent(agent, seed=0):
    """An ``agent(obs, config)`` callable for an agent spec (text or callable, as
    :func:`scripts.arena.specs.parse_spec` takes it), built as a match builds it."""
    return build_agent(parse_spec(agent), seed)


def game_arena_agent(agent, seed=0, act_timeout=ACT_TIMEOUT):
    """A Game Arena agent (``obs, config -> {"submission": column}``) that plays
    ``agent`` (any spec: ``perfect:elo=1500``, ``alphabeta``, ``policy:file=...``,
    ``main.py``, or an ``agent(obs, config)`` callable) on the board the environment
    was made with. The agent sees the ConnectX observation of the same position (flat
    board, row 0 at the top, ``mark`` 1 for ``x``) and a config with ``act_timeout``
    seconds a move and no overage. At the setup step and after the game it submits
    ``-1`` (ignored by the environment)."""
    play = resolve_agent(agent, seed)
    act_timeout = float(act_timeout)

    def act(obs, config=None):
        game = spiel_game(obs)
        if game is None or _get(obs, "isTerminal"):
            return {"submission": FORFEIT}
        cfg, moves = game
        cfg = cfg._replace(actTimeout=act_timeout)
        board = board_from_moves(moves, cfg.rows, cfg.columns)
        column = play(observation(board, remaining_overage=0.0), config_struct(cfg))
        return {"submission": int(column)}

    act.__name__ = f"game_arena({getattr(play, '__name__', None) or type(play).__name__})"
    return act


def replay_moves(replay):
    """The 0-based columns of a Game Arena replay (``env.toJSON()``): its
    ``info.actionHistory`` (strings of OpenSpiel actions)."""
    return [int(a) for a in replay["info"]["actionHistory"]]


def _get(obs, key):
    """``obs[key]`` of a dict or a kaggle Struct; None when absent."""
    try:
        return obs[key]
    except (KeyError, TypeError):
        return getattr(obs, key, None)
