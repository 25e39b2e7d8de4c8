"""Game records of five kinds, read into one form for the judge of games
(:func:`scripts.arena.judging.judge_games`, ``connectx blunders``).

=============  ==============================================================================
kind           what is read
=============  ==============================================================================
``match``      the package's own match records (``connectx match --out``): ``{"config",
               "games": [{"agents", "moves" (0-based), "opening" (its moves, not judged),
               "text"}]}``; ``text`` (one record a mark, for text players) names their
               invalid answers
``kaggle``     a kaggle-environments ``connectx`` replay (``env.toJSON()``): the moves are
               the differences between consecutive boards (row 0 at the top)
``gamearena``  a kaggle-environments ``open_spiel_connect_four`` replay (Kaggle Game
               Arena; ``env.toJSON()``): the OpenSpiel action history (``history=p:a,...``
               or ``history=a,...``) of the last state's ``serializedGameAndState`` (0-based
               columns; else ``info.actionHistory``), the board from
               ``openSpielGameParameters`` (rows, columns, x_in_row; OpenSpiel's
               defaults 6, 7, 4); a submission the environment did not apply (an
               illegal column: a forfeit) is an invalid answer
``textarena``  a TextArena ``ConnectFour-v0`` game log (``env.state.logs``: a JSON list of
               ``[player id, message]``, or ``{"logs": [...]}``): the moves are the game's
               own lines "Player P dropped their disk (X) into column C." (0-based); a
               player's answer followed by no such line is an invalid answer, counted and
               named, not a move; the board from "The game board has R rows and C columns"
               (inarow 4)
``moves``      plain move lists, one game a line: a 1-based move string (``4453``; on
               boards of more than 9 columns, comma-separated numbers), on the board given
               (default 7x6, four in a row)
=============  ==============================================================================

:func:`read_records` detects the kind (JSON shapes above; any other text is move
lists) unless it is given, and returns ``(kind, config, games)``: ``config`` the
``(rows, columns, inarow)`` of the board, each game a dict of ``agents`` (two names,
the first moved first), ``moves`` (0-based columns, the opening's included),
``opening`` (the number of first moves that are nobody's: a match's opening suite) and
``invalid`` (``[{"ply", "player", "answer"}]``: answers that were no legal move, where
the record keeps them; a match record's also have the ``category``, the text player's
name for the fault). Whether the moves are legal is the judge's business (it replays
them); a record that is not one of the kinds is a ``ValueError`` naming what is wrong.
"""
import json
import re

KINDS = ("match", "kaggle", "gamearena", "textarena", "moves")
DEFAULT_CONFIG = (6, 7, 4)

_TA_MOVE = re.compile(r"Player (\d+) dropped their disk \(\w\) into column (\d+)\.")
_TA_BOARD = re.compile(r"The game board has (\d+) rows and (\d+) columns")


def read_records(path, kind=None, config=None):
    """``(kind, config, games)`` of the record file ``path`` (see the module docstring).
    ``kind``: one of :data:`KINDS` (None: detect it); ``config``: ``(rows, columns,
    inarow)`` of plain move lists (the other kinds carry their board; None: 7x6, four in
    a row). ``ValueError`` (naming the file) for a missing, unreadable or malformed record."""
    if kind is not None and kind not in KINDS:
        raise ValueError(f"unknown record kind {kind!r}: one of {', '.join(KINDS)}")
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise ValueError(f"{path}: cannot read it ({e.strerror or e})") from None
    except UnicodeDecodeError:
        raise ValueError(f"{path}: not a text file") from None
    try:
        return parse_records(text, kind, config)
    except ValueError as e:
        raise ValueError(f"{path}: {e}") from None


def parse_records(text, kind=None, config=None):
    """:func:`read_records` of a record's text, or of its parsed JSON (a dict or list:
    ``parse_records(env.toJSON())``, ``parse_records(env.state.logs)``)."""
    data = None
    if isinstance(text, (dict, list)):
        data, text = text, ""
    elif text.lstrip()[:1] in ("{", "["):
        try:
            data = json.loads(text)
        except ValueError as e:
            if kind not in (None, "moves"):
                raise ValueError(f"not JSON ({e})") from None
            raise ValueError(f"looks like JSON but is not ({e})") from None
    detected = detect(data) if kind is None else kind
    if detected == "moves":
        if data is not None:  # JSON of no known kind
            raise ValueError("a JSON record of no known kind (match, kaggle, gamearena, "
                             "textarena); give --format to say which")
        return "moves", tuple(config or DEFAULT_CONFIG), _move_lists(text, config)
    if data is None:
        raise ValueError(f"a {detected} record is JSON")
    try:
        cfg, games = READERS[detected](data)
    except (KeyError, IndexError, TypeError, AttributeError) as e:
        raise ValueError(f"not a {detected} record ({type(e).__name__}: {e})") from None
    except ValueError as e:
        raise ValueError(f"not a {detected} record: {e}") from None
    return detected, cfg, games


def detect(data):
    """The kind of a record's parsed JSON (None: not JSON, so move lists)."""
    if data is None:
        return "moves"
    if isinstance(data, dict):
        if "games" in data and "config" in data:
            return "match"
        conf = data.get("configuration") or {}
        if data.get("name") == "connectx":
            return "kaggle"
        if data.get("name") == "open_spiel_connect_four" or (
                isinstance(conf, dict) and conf.get("openSpielGameName") == "connect_four"):
            return "gamearena"
        if isinstance(data.get("logs"), list):
            return "textarena"
    if isinstance(data, list) and data and all(isinstance(x, (list, tuple)) and len(x) == 2
                                               for x in data):
        return "textarena"
    return "moves"


def _game(agents, moves, opening=0, invalid=()):
    return {"agents": [str(a) for a in agents], "moves": [int(c) for c in moves],
            "opening": int(opening), "invalid": list(invalid)}


def _match(data):
    cfg = data["config"]
    config = (int(cfg["rows"]), int(cfg["columns"]), int(cfg["inarow"]))
    games = []
    for g in data["games"]:
        moves = g["moves"]
        if not all(isinstance(c, int) for c in moves):
            raise ValueError("a game's moves must be 0-based column numbers")
        names = g.get("agents") or ["first", "second"]
        games.append(_game(names, moves, len(g.get("opening") or ""),
                           _text_invalid(g.get("text"))))
    return config, games


def _text_invalid(text):
    """The invalid answers of a match game's text players, in the order asked: ``text`` is
    one record a mark (None for an agent that is no text player), each ``{"invalid":
    [[stones, attempt, category, answer], ...]}``
    (:func:`scripts.arena.textplayer.game_answers`)."""
    out = []
    for player, record in enumerate(text or ()):
        for stones, _, category, answer in (record or {}).get("invalid", ()):
            out.append({"ply": int(stones), "player": player, "answer": str(answer),
                        "category": str(category)})
    return sorted(out, key=lambda bad: bad["ply"])


def _names(data):
    """The two players' names of a kaggle replay (its TeamNames, else "player 0/1")."""
    names = (data.get("info") or {}).get("TeamNames")
    return names if isinstance(names, list) and len(names) == 2 else ["player 0", "player 1"]


def _kaggle(data):
    conf = data["configuration"]
    rows, columns, inarow = int(conf["rows"]), int(conf["columns"]), int(conf["inarow"])
    moves, before = [], [0] * (rows * columns)
    for n, step in enumerate(data["steps"]):
        board = step[0]["observation"]["board"]
        if len(board) != rows * columns:
            raise ValueError(f"step {n}: a board of {len(board)} cells, not {rows}x{columns}")
        new = [i for i in range(len(board)) if board[i] != before[i]]
        if len(new) > 1 or any(before[i] for i in new):
            raise ValueError(f"step {n}: the board changed in more than one stone")
        if new:
            moves.append(new[0] % columns)
        before = board
    return (rows, columns, inarow), [_game(_names(data), moves)]


def _gamearena(data):
    conf = data["configuration"]
    params = conf.get("openSpielGameParameters") or {}
    config = (int(params.get("rows", 6)), int(params.get("columns", 7)),
              int(params.get("x_in_row", 4)))
    state = data["steps"][-1][0]["observation"].get("serializedGameAndState") or ""
    found = re.search(r"^history=(.*)$", state, re.MULTILINE)
    if found is not None:
        history = found.group(1).strip().split(",")
    elif isinstance((data.get("info") or {}).get("actionHistory"), list):
        history = [str(a) for a in data["info"]["actionHistory"]]
    else:
        raise ValueError("no 'history=' line in the last state and no info.actionHistory")
    moves = []
    for item in filter(None, history):
        player, _, action = item.rpartition(":")
        if player and int(player) != len(moves) % 2:
            raise ValueError(f"history item {item!r}: player {player} out of turn")
        moves.append(int(action))
    invalid = []  # a submission the environment refused (the game ends there: a forfeit)
    for step in data["steps"]:
        for p, s in enumerate(step):
            info = s.get("info") or {}
            refused = "actionApplied" in info and info["actionApplied"] is None \
                and info.get("actionSubmitted") is not None
            if refused or s.get("status") == "INVALID":
                sub = info.get("actionSubmitted", (s.get("action") or {}).get("submission"))
                invalid.append({"ply": len(moves), "player": p, "answer": str(sub)})
    return config, [_game(_names(data), moves, invalid=invalid)]


def _textarena(data):
    logs = data["logs"] if isinstance(data, dict) else data
    rows = columns = None
    moves, invalid, pending = [], [], None
    for who, message in logs:
        message = str(message)
        size = _TA_BOARD.search(message)
        if size and rows is None:
            rows, columns = int(size.group(1)), int(size.group(2))
        if int(who) >= 0:  # a player's answer
            if pending is not None:
                invalid.append(pending)
            pending = {"ply": len(moves), "player": int(who), "answer": message}
            continue
        move = _TA_MOVE.search(message)
        if move:
            player, col = int(move.group(1)), int(move.group(2))
            if player != len(moves) % 2:
                raise ValueError(f"player {player} moves out of turn at move {len(moves) + 1}")
            moves.append(col)
            pending = None
    if pending is not None:
        invalid.append(pending)
    if rows is None:
        raise ValueError("no 'The game board has R rows and C columns' line")
    return (rows, columns, 4), [_game(["Player 0", "Player 1"], moves, invalid=invalid)]


def _move_lists(text, config):
    columns = (config or DEFAULT_CONFIG)[1]
    games = []
    for n, line in enumerate(text.splitlines(), 1):
        line = line.split("#")[0].strip()
        if not line:
            continue
        token = line.split()[0]
        try:
            if "," in token or columns > 9:
                moves = [int(x) - 1 for x in token.split(",") if x]
            else:
                moves = [int(ch) - 1 for ch in token]
        except ValueError:
            raise ValueError(f"line {n}: {token!r} is not a move list (1-based columns: "
                             "'4453', or '4,4,10' on wide boards)") from None
        games.append(_game(["first", "second"], moves))
    if not games:
        raise ValueError("no games in it")
    return games


READERS = {"match": _match, "kaggle": _kaggle, "gamearena": _gamearena, "textarena": _textarena}
