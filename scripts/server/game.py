"""The game side of ``connectx serve``: request parsing and checking (configuration,
move lists, agent specs), the game state a page draws, the outcome of a score, and the
replay of a ``connectx match --json`` file. No HTTP here: :mod:`scripts.server.app` routes
requests to these functions and turns ``BadRequest`` into a 400 answer.
"""
import os
from contextlib import contextmanager
from functools import lru_cache

import agents
from agents.board.rules import drop_piece, parse_config, winner
from agents.options import split_spec
from agents.players.policy import network_file
from scripts.arena.specs import Spec, load_submission, parse_spec

MAX_SIDE = 30               # rows and columns at most (the page draws every cell)
SERVE_MOVE_TIME = 2.0       # default seconds per agent move (kaggle's actTimeout)
MAX_FILES = 200             # files of the --files folder listed in the page's agent menu
FILES_RULE = ("agents that read files on the server are refused over HTTP unless it was "
              "started with --files DIR, and then only files inside DIR")
# Agents whose search has no clock: (depth option, work of one search, work per second).
# Measured on a busy 2-core machine: minimax 7x6 depth 8 (7**8 = 5.8e6 leaves) 0.8 s;
# tutorial (pure Python, each leaf scans the board) 7x6 nsteps 4 (7**4 leaves x 42 cells
# = 1.0e5) 1.5 s, 20x20 nsteps 2 (400 x 400 = 1.6e5) 4.9 s.
UNCLOCKED = {"minimax": ("depth", lambda d, cfg: cfg.columns ** d, 7e6),
             "tutorial": ("nsteps", lambda d, cfg: cfg.columns ** d * cfg.rows * cfg.columns, 3e4)}


class BadRequest(ValueError):
    """Bad input from a request: answered 400 with the message."""


@contextmanager
def bad_request(prefix=""):
    """Turn a ``ValueError`` (the rules' and the runner's validation) into
    :class:`BadRequest`, its message after ``prefix``."""
    try:
        yield
    except ValueError as e:
        raise BadRequest(prefix + str(e)) from None


def clip(value, width=60):
    """``repr(value)`` cut to about ``width`` characters: a request's text in a message."""
    text = repr(value) if not isinstance(value, str) or len(value) <= 2 * width \
        else repr(value[:width])
    return text if len(text) <= width else text[:width] + "..."


class AgentFailed(RuntimeError):
    """The agent raised or returned a bad column: answered 500 with the message."""


class Busy(RuntimeError):
    """No search slot for the request (the queue is full, or no slot freed within
    ``QUEUE_WAIT`` seconds): answered 503 with ``Retry-After: retry_after`` (whole seconds,
    at least 1)."""

    def __init__(self, message, retry_after=1):
        super().__init__(message)
        self.retry_after = max(1, int(retry_after))


# ---------------------------------------------------------------------------
# Games: validation and state (plain functions, no HTTP)
# ---------------------------------------------------------------------------


def parse_game_config(value):
    """``Config(rows, columns, inarow)`` from a request's ``config`` object (missing
    fields take 6, 7, 4); ``BadRequest`` for other fields, bad values, or a side
    longer than :data:`MAX_SIDE`."""
    if value is None:
        value = {}
    if not isinstance(value, dict):
        raise BadRequest(f"config must be an object like {{\"rows\": 6, \"columns\": 7, "
                         f"\"inarow\": 4}}, got {type(value).__name__}")
    unknown = sorted(set(value) - {"rows", "columns", "inarow"})
    if unknown:
        raise BadRequest(f"unknown config field(s) {', '.join(unknown)}; valid: rows, columns, "
                         "inarow")
    with bad_request():
        cfg = parse_config(value)
    for field in ("rows", "columns"):
        if getattr(cfg, field) > MAX_SIDE:
            raise BadRequest(f"config.{field} must be at most {MAX_SIDE} here, "
                             f"got {getattr(cfg, field)}")
    return cfg


def parse_moves(value, cfg):
    """0-based columns from a list of ints, or from a string in the 1-based notation of
    ``shared/positions`` ("4453"; with more than 9 columns, numbers separated by
    commas or spaces: "10,3,3"). Checks only the count (at most ``rows * columns``)
    and the column range, not the rules."""
    if value is None:
        return []
    cells = cfg.rows * cfg.columns
    if isinstance(value, str):
        text = value.strip()
        separated = any(ch in text for ch in ", ")
        tokens = text.replace(",", " ").split() if separated else list(text)
        if len(tokens) > cells:
            raise BadRequest(f"{len(tokens)} moves on a board of {cells} cells")
        if not separated and cfg.columns > 9 and text:
            raise BadRequest(f"with {cfg.columns} columns separate the moves with commas, "
                             f"e.g. \"10,3,3\"; got {value!r}")
        moves = []
        for i, token in enumerate(tokens):
            if not token.isdigit() or not 1 <= int(token) <= cfg.columns:
                raise BadRequest(f"move {i + 1} of {value!r} is {token!r}: columns are "
                                 f"1..{cfg.columns} in a move string")
            moves.append(int(token) - 1)
        return moves
    if not isinstance(value, list):
        raise BadRequest(f"moves must be a list of 0-based columns or a move string, "
                         f"got {type(value).__name__}")
    if len(value) > cells:
        raise BadRequest(f"{len(value)} moves on a board of {cells} cells")
    for i, c in enumerate(value):
        if isinstance(c, bool) or not isinstance(c, int) or not 0 <= c < cfg.columns:
            raise BadRequest(f"move {i + 1} is {c!r}: columns are integers 0..{cfg.columns - 1}")
    return list(value)


def play_moves(cfg, moves, frames=None):
    """``(board, winner)`` after ``moves`` from the empty board, by :mod:`agents.board.rules`;
    ``BadRequest`` names the first move into a full column or after the game ended.
    ``frames``: a list that receives the board before the first move and after each."""
    board = [0] * (cfg.rows * cfg.columns)
    won = 0
    if frames is not None:
        frames.append(board)
    for i, c in enumerate(moves):
        if won:
            raise BadRequest(f"move {i + 1} (0-based column {c}) comes after player {won} has won")
        with bad_request(f"move {i + 1} (0-based column {c}): "):
            board = drop_piece(board, c, 1 + i % 2, cfg)
        won = winner(board, cfg)
        if frames is not None:
            frames.append(board)
    return board, won


def notation(moves, cfg):
    """The 1-based move string of ``moves`` (comma-separated beyond 9 columns)."""
    if cfg.columns > 9:
        return ",".join(str(c + 1) for c in moves)
    return "".join(str(c + 1) for c in moves)


def game_state(cfg, moves):
    """The JSON state of the game after ``moves`` (validated):

    ``config``, ``moves`` (0-based), ``notation`` (1-based string), ``board`` (Kaggle's
    flat list, row 0 at the top), ``winner`` (0, 1 or 2), ``over`` (won or full),
    ``to_move`` (1 or 2; 0 when over), ``legal`` (columns with room; empty when over)."""
    board, won = play_moves(cfg, moves)
    full = len(moves) == cfg.rows * cfg.columns
    over = bool(won or full)
    legal = [] if over else [c for c in range(cfg.columns) if board[c] == 0]
    return {"config": cfg._asdict(), "moves": list(moves), "notation": notation(moves, cfg),
            "board": board, "winner": won, "over": over,
            "to_move": 0 if over else 1 + len(moves) % 2, "legal": legal}


def parse_game(request):
    """``(cfg, moves)`` of a request's ``config`` and ``moves`` (not yet played)."""
    cfg = parse_game_config(request.get("config"))
    return cfg, parse_moves(request.get("moves"), cfg)


class Files:
    """The folder whose files agent specs may name over HTTP (``connectx serve --files
    DIR``): networks for the options that take one (``policy:file=``, ``mcts:prior=``)
    and submission ``.py`` files. Paths are read relative to the folder; a path that
    leaves it, by ``..``, an absolute path or a symbolic link, is refused before any
    file is opened. ``ValueError`` if ``folder`` is not a folder."""

    def __init__(self, folder):
        if not os.path.isdir(folder):
            raise ValueError(f"--files: {folder!r} is not a folder")
        self.root = os.path.realpath(folder)

    def resolve(self, path, what):
        """The real path of ``path`` (relative to the folder, or absolute); ``BadRequest``
        (naming ``what``) when it is not a file inside the folder."""
        try:
            full = os.path.realpath(os.path.join(self.root, path))
        except (ValueError, OSError) as e:  # a NUL byte, a loop of links
            raise BadRequest(f"{what} {clip(path)}: {e}") from None
        if os.path.commonpath([full, self.root]) != self.root:
            raise BadRequest(f"{what} {clip(path)} is outside the server's --files folder")
        if not os.path.isfile(full):
            raise BadRequest(f"{what} {clip(path)}: no such file in the server's --files folder")
        return full

    def catalogue(self):
        """``[{"file", "specs"}]``: the networks (``.npz``) and submissions (``.py``) in
        the folder and below (at most :data:`MAX_FILES`, hidden folders skipped, links
        that leave the folder left out), each with the agent specs that play it."""
        out = []
        for folder, dirs, names in os.walk(self.root):
            dirs[:] = sorted(d for d in dirs if not d.startswith("."))
            for name in sorted(names):
                path = os.path.join(folder, name)
                rel = os.path.relpath(path, self.root).replace(os.sep, "/")
                if "," in rel or not name.endswith((".npz", ".py")) or \
                        os.path.commonpath([os.path.realpath(path), self.root]) != self.root:
                    continue
                specs = [rel] if name.endswith(".py") else \
                    [f"{agent}:{option}={rel}" for agent in agents.names()
                     for option in file_options(agent)]
                out.append({"file": rel, "specs": specs})
                if len(out) == MAX_FILES:
                    return out
        return out


def file_options(name):
    """The options of the registry agent ``name`` that name a file on the server: those
    checked by :func:`agents.players.policy.network_file`, directly or through
    ``optional`` (policy's ``file``, mcts's ``prior``)."""
    def names_file(check):
        inner = [c.cell_contents for c in getattr(check, "__closure__", None) or ()]
        return check is network_file or network_file in inner
    return [k for k, (check, _) in agents.agent_class(name).OPTIONS.items() if names_file(check)]


def parse_agent(text, files=None):
    """The :class:`scripts.arena.specs.Spec` of a registry agent spec ``name[:k=v,...]``,
    or of a submission ``.py`` file in ``files`` (a :class:`Files`).

    An option that names a file (:func:`file_options`) and a submission file are
    refused without ``files`` (:data:`FILES_RULE`), and outside it; inside, the Spec
    holds the file's real path. ``BadRequest`` for anything else (a kaggle built-in, an
    unknown name or option)."""
    if not isinstance(text, str) or not text.strip():
        raise BadRequest("agent must be a spec such as \"alphabeta:time_limit=0.5\"")
    return _parse_agent(text.strip(), files)


@lru_cache(maxsize=64)
def _parse_agent(text, files):
    """:func:`parse_agent` of a string, cached: ``parse_spec`` builds the agent once to
    check its options (alphabeta allocates its tables, perfect reads its book)."""
    if text.endswith(".py"):
        if files is None:
            raise BadRequest(f"agent {text!r} is a submission file: {FILES_RULE}")
        return Spec(text, "file", files.resolve(text, "submission file"), {})
    with bad_request():
        name, options = split_spec(text)
    if name not in agents.AGENTS:
        raise BadRequest(f"unknown agent {name!r}; valid: {', '.join(agents.names())} "
                         "(with options name:key=value,...)")
    named = [k for k in file_options(name) if isinstance(options.get(k), str)]
    if not named:
        with bad_request():
            return parse_spec(text)
    if files is None:
        raise BadRequest(f"agent {text!r}: option {named[0]} names a file: {FILES_RULE}")
    for k in named:
        options[k] = files.resolve(options[k], f"option {k}")
    with bad_request(f"agent {text!r}: "):
        agents.make(name, **options)
    return Spec(text, "registry", name, options)


def make_agent(spec):
    """A fresh agent of a :func:`parse_agent` Spec (a registry agent, or the last callable
    of a submission file); ``BadRequest`` if it cannot be built (its file went away
    since the spec was checked, a submission that fails to load)."""
    with bad_request():
        if spec.kind == "file":
            return load_submission(spec.name)
        return agents.make(spec.name, **spec.options)


def check_unclocked(spec, cfg, move_time):
    """``BadRequest`` if ``spec`` is an agent without a clock (:data:`UNCLOCKED`) whose
    search on this board is estimated to take longer than ``move_time`` seconds."""
    if spec.name not in UNCLOCKED:
        return
    option, work, rate = UNCLOCKED[spec.name]
    depth = spec.options.get(option, agents.agent_class(spec.name).OPTIONS[option][1])
    seconds = work(depth, cfg) / rate
    if seconds > move_time:
        raise BadRequest(f"{spec.name} searches without a clock: {option}={depth} on a "
                         f"{cfg.rows}x{cfg.columns} board would take about {seconds:.3g} s, "
                         f"over the {move_time:g} s move time here; use a smaller {option}")


def agent_catalogue():
    """``[{"name", "options": {option: default}}]`` of the registry agents."""
    out = []
    for name in agents.names():
        options = {k: default for k, (_, default) in agents.agent_class(name).OPTIONS.items()}
        out.append({"name": name, "options": options})
    return out


# ---------------------------------------------------------------------------
# Outcome of a proven score
# ---------------------------------------------------------------------------


def outcome(score, stones_at_end, moves):
    """``{"score", "outcome", "in"}`` for a proven result: the side to move (``moves``
    stones on the board) wins if ``score > 0``, and the game ends with
    ``stones_at_end`` stones; ``in`` counts the winner's moves from now (1 = at once)."""
    if score == 0:
        return {"score": score, "outcome": "draw", "in": None}
    played = stones_at_end - moves
    if score > 0:
        return {"score": score, "outcome": "win", "in": (played + 1) // 2}
    return {"score": score, "outcome": "loss", "in": played // 2}


def solver_outcome(score, moves, n):
    """:func:`outcome` of the solver score of a column played with ``moves`` stones on
    a board of ``n`` cells: the winning stone is dropped with ``m`` stones on the board,
    ``score = (n + 1 - m) // 2`` from the winner's side, ``m`` of the winner's parity."""
    if score == 0:
        return outcome(0, 0, moves)
    parity = moves % 2 if score > 0 else (moves + 1) % 2
    m = n - 2 * abs(score)
    if m % 2 != parity:
        m += 1
    return outcome(score, m + 1, moves)


# ---------------------------------------------------------------------------
# Replay of a match's --json file
# ---------------------------------------------------------------------------


def replay(request):
    """One game of a ``connectx match --json`` document, checked move by move:

    ``{"config", "games": [{"index", "agents", "result", "moves"}], "game": {"index",
    "agents", "result", "statuses", "error", "moves", "times" (seconds per move, None
    where the file has none and for the moves of the game's opening), "frames" (the board before the first move and after
    each one)}}``."""
    doc = request.get("match")
    if not isinstance(doc, dict) or not isinstance(doc.get("games"), list) or not doc["games"]:
        raise BadRequest("match must be the object of a connectx match --json file, with a "
                         "non-empty 'games' list")
    config = doc.get("config") or {}
    if not isinstance(config, dict):
        raise BadRequest("match.config must be an object")
    cfg = parse_game_config({k: config[k] for k in ("rows", "columns", "inarow") if k in config})
    index = request.get("game", 0)
    if isinstance(index, bool) or not isinstance(index, int) \
            or not 0 <= index < len(doc["games"]):
        raise BadRequest(f"game must be an integer in 0..{len(doc['games']) - 1}, got {index!r}")
    summaries = []
    for i, g in enumerate(doc["games"]):
        if not isinstance(g, dict) or not isinstance(g.get("moves"), list):
            raise BadRequest(f"match game {i} has no 'moves' list")
        summaries.append({"index": g.get("index", i), "agents": g.get("agents"),
                          "result": g.get("result"), "moves": len(g["moves"])})
    g = doc["games"][index]
    frames = []
    with bad_request(f"match game {index}: "):
        moves = parse_moves(g["moves"], cfg)
        play_moves(cfg, moves, frames)
    times = g.get("times")
    per_move = []
    opening = g.get("opening") or ""  # its moves were not played by the agents: no time
    if not isinstance(opening, (str, list)):
        raise BadRequest(f"match game {index}: opening must be a move string, "
                         f"got {type(opening).__name__}")
    for i in range(len(moves)):
        first = len(opening) + (len(opening) % 2 != i % 2)  # this mark's first timed move
        try:
            t = times[i % 2][(i - first) // 2] if i >= first else None
            per_move.append(float(t) if isinstance(t, (int, float)) else None)
        except (TypeError, IndexError, KeyError):
            per_move.append(None)
    return {"config": cfg._asdict(), "games": summaries,
            "game": {"index": g.get("index", index), "agents": g.get("agents"),
                     "result": g.get("result"), "statuses": g.get("statuses"),
                     "error": g.get("error"), "moves": moves, "times": per_move,
                     "frames": frames}}
