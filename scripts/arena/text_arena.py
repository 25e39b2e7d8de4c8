"""The package's agents as TextArena agents (``textarena`` on PyPI, ``ConnectFour-v0``).

A TextArena agent is a callable ``observation (str) -> action (str)``. ConnectFour-v0's
observation is the game's messages for that player: the rules prompt, then after each
move ``[GAME] Player 0 dropped their disk (X) into column 3.`` and the board::

    [GAME] Board state:
    0 1 2 3 4 5 6
    -------------
    . . . . . . .
    . . . X O . .

(row 0 at the top, ``X`` is player 0 and moves first); an action is ``[col 3]``. An
invalid action (no ``[col x]``, a column off the board or full) gets one re-prompt
(``error_allowance`` 1), the second loses the game. The variants: ``ConnectFour-v0-blind``
(no board: the position is the list of drops), ``ConnectFour-v0-large`` (12 x 15);
``ta.make("ConnectFour-v0", num_rows=R, num_cols=C)`` takes any board; four in a row
always wins (TextArena's rule).

One line puts any agent spec in it::

    from scripts.arena.text_arena import text_arena_agent
    agents = {0: text_arena_agent("perfect:skill=5"), 1: my_llm_agent}

and :func:`play` runs TextArena's own loop (``env.get_observation`` / ``env.step`` /
``env.close``) between two agents; :func:`game_record` is the game's record (the
state's message log, rewards and game info) as JSON-ready data.
"""
import re

from agents.board.rules_reference import board_from_moves
from scripts.arena.extras import require
from scripts.arena.game_arena import ACT_TIMEOUT, resolve_agent
from scripts.arena.specs import MatchConfig, config_struct, observation

ENV_ID = "ConnectFour-v0"
INAROW = 4  # TextArena's ConnectFour always needs four in a row

_DROP = re.compile(r"Player (\d+) dropped their disk \((?:X|O)\) into column (\d+)\.")
_SHAPE = re.compile(r"The game board has (\d+) rows and (\d+) columns\.")
_BOARD = "Board state:\n"
_MARKS = {".": 0, "X": 1, "O": 2}


def parse_board_text(text):
    """``(rows, columns, board)`` of the last TextArena board in ``text`` (a flat ConnectX
    board, row 0 at the top, 1 for ``X``), or None if ``text`` holds no board."""
    at = text.rfind(_BOARD)
    if at < 0:
        return None
    lines = text[at + len(_BOARD):].split("\n")
    columns = len(lines[0].split())
    if columns == 0 or len(lines) < 3:
        return None
    cells = []
    for line in lines[2:]:  # after the column numbers and the dashes
        tokens = line.split()
        if len(tokens) != columns or any(t not in _MARKS for t in tokens):
            break
        cells.extend(_MARKS[t] for t in tokens)
    if not cells:
        return None
    return len(cells) // columns, columns, cells


def parse_observation_text(text):
    """``(rows, columns, board)`` of a ConnectFour observation: its last board, else
    (the blind variant) its drops replayed on the board its rules prompt names.
    ``ValueError`` if it has neither."""
    found = parse_board_text(text)
    if found is not None:
        return found
    shape = _SHAPE.search(text)
    if shape is None:
        raise ValueError("a TextArena ConnectFour observation names its board: "
                         f"no 'Board state' and no board size in {text[:80]!r}")
    rows, columns = int(shape.group(1)), int(shape.group(2))
    return rows, columns, board_from_moves(log_moves(text), rows, columns)


def log_moves(text):
    """The 0-based columns of the drops announced in ``text`` (an observation or a log's
    messages joined), in order."""
    return [int(m.group(2)) for m in _DROP.finditer(text)]


class TextArenaAgent:
    """A TextArena agent playing a package agent: ``agent(observation) -> "[col c]"``.
    ``ta.Agent`` is only an interface (``__call__(observation) -> str``), so any
    callable is one; this class subclasses nothing to keep textarena optional."""

    def __init__(self, agent, seed=0, act_timeout=ACT_TIMEOUT):
        self.play = resolve_agent(agent, seed)
        self.act_timeout = float(act_timeout)

    def __call__(self, observation_text):
        rows, columns, board = parse_observation_text(observation_text)
        cfg = MatchConfig(rows, columns, INAROW, self.act_timeout, 0.0)
        column = self.play(observation(board, remaining_overage=0.0), config_struct(cfg))
        return f"[col {int(column)}]"


def text_arena_agent(agent, seed=0, act_timeout=ACT_TIMEOUT):
    """A TextArena agent for ``ConnectFour-v0`` (and its variants, any board) playing
    ``agent`` (any spec or ``agent(obs, config)`` callable) with ``act_timeout``
    seconds a move."""
    return TextArenaAgent(agent, seed, act_timeout)


def make_env(env_id=ENV_ID, **kwargs):
    """``ta.make(env_id, **kwargs)`` (``num_rows``, ``num_cols``); ``ValueError`` without
    textarena."""
    require("textarena", "TextArena's ConnectFour-v0")
    import textarena as ta
    return ta.make(env_id, **kwargs)


def play(agents, env_id=ENV_ID, seed=0, **kwargs):
    """One game between ``agents`` (``{0: agent, 1: agent}`` or a pair; TextArena agents)
    with TextArena's own loop; the finished env (its :func:`game_record`)."""
    env = make_env(env_id, **kwargs)
    env.reset(num_players=2, seed=seed)
    done = False
    while not done:
        player, text = env.get_observation()
        done, _ = env.step(action=agents[player](text))
    env.close()
    return env


def game_record(env):
    """A finished TextArena game as JSON-ready data: ``env_id``, the board's ``rows`` and
    ``columns``, ``logs`` (TextArena's message log ``[from_id, message]``, -1 the game),
    ``rewards`` and ``game_info`` (keys as strings) and the ``moves`` (0-based columns)."""
    state, game = env.state, env.unwrapped if hasattr(env, "unwrapped") else env
    while hasattr(game, "env"):
        game = game.env
    logs = [[int(sender), str(message)] for sender, message in state.logs]
    return {"env_id": getattr(game, "env_id", ENV_ID), "rows": game.num_rows,
            "columns": game.num_cols, "logs": logs,
            "moves": log_moves("\n".join(m for _, m in logs)),
            "rewards": {str(k): v for k, v in (state.rewards or {}).items()},
            "game_info": {str(k): v for k, v in state.game_info.items()}}
