"""Play, watch and replay Connect Four inside a notebook: the page of ``connectx serve`` as
a widget (anywidget: one front-end for JupyterLab, Notebook 7, VS Code, Colab and Kaggle
notebooks; the ``notebook`` extra)::

    from scripts.server.notebook import widget
    widget(agent="perfect:skill=10")              # you play red: click a column
    widget(watch=("alphabeta:depth=4", "mcts"))   # two agents: Next move / To the end
    widget(replay=env.toJSON())                   # a kaggle replay, every move judged

Why here, beside the server: the widget is the page in another frame. It calls, in the
kernel, the functions the server's endpoints call (:func:`scripts.server.app.agent_move`,
:func:`scripts.server.analysis.analyze` and :func:`~scripts.server.analysis.line`,
:func:`scripts.server.search_tree.tree_request`) on an :class:`~scripts.server.app.App`
of its own, and draws with the page's own ``web/board.js`` and ``web/board.css``. Replays
are read by :mod:`scripts.arena.records` (a kaggle ``env.toJSON()``, a match record, a
Game Arena replay, a TextArena log, move lists) and judged by
:func:`scripts.arena.judging.judge_game`, the judge of ``connectx blunders``, whose
``--json`` output it also shows as it is.

:class:`Session` is the widget's model, plain Python: the game, the replay and what the
front-end shows, as one JSON-ready dict (:meth:`Session.snapshot`);
:class:`scripts.server.view.BoardWidget` syncs that dict to the browser and hands its clicks to
:meth:`Session.handle`. Columns are 0-based here and shown 1-based; boards are Kaggle's
flat lists (row 0 at the top).
"""
import json
import os
from functools import lru_cache

from agents.board.bitboard import fits_bitboard
from agents.solver.labels import FULL
from scripts.server.analysis import analyze, line
from scripts.server.game import (AgentFailed, BadRequest, check_unclocked, game_state,
                                 notation, parse_agent, parse_game_config, parse_moves,
                                 play_moves, solver_outcome)
from scripts.server.search_tree import tree_request

# the widget's defaults (connectx serve's are scripts.server.game.SERVE_MOVE_TIME and
# scripts.server.app.SERVE_ANALYSIS_TIME): seconds of an agent's move (kaggle's
# actTimeout), of one analysis (and of one tree's exact values), and the solver's seconds
# on a replayed position before it is left unjudged
WIDGET_MOVE_TIME = 1.0
WIDGET_ANALYSIS_TIME = 3.0
WIDGET_JUDGE_TIME = 3.0
OUTCOME = {1: "win", 0: "draw", -1: "loss"}
MARK = {1: "red", 2: "yellow"}


@lru_cache(maxsize=4)
def app_of(move_time=WIDGET_MOVE_TIME, analysis_time=WIDGET_ANALYSIS_TIME, database=True):
    """The kernel's :class:`~scripts.server.app.App` for these limits (one search at a
    time; the opening database loaded once, about 5 s, where ``database``), shared by
    the widgets that ask for the same."""
    from scripts.server.app import App
    return App(searches=1, move_time=move_time, analysis_time=analysis_time,
               database=database, line_time=analysis_time)


def seconds(t):
    """Seconds as the page shows them (board.js's formatTime): milliseconds below 1 s."""
    return f"{1000 * t:.1f} ms" if t < 1 else f"{t:.2f} s"


def _sign(x):
    return (x > 0) - (x < 0)


def verdict_text(move):
    """A judged move (a :func:`scripts.arena.judging.judge_game` entry) in words: perfect,
    good (the result kept) or a mistake (the result lost), or unjudged."""
    if move.get("scores") is None:
        return "not judged (the solver did not finish in time)"
    legal = [s for s in move["scores"] if s != FULL]
    best, mine = max(legal), move["scores"][move["column"]]
    if move["perfect"]:
        return "perfect"
    if move["good"]:
        return f"good: keeps the {OUTCOME[_sign(best)]}, {best - mine} below the best score"
    return f"mistake: turns a {OUTCOME[_sign(best)]} into a {OUTCOME[_sign(mine)]}"


def _is_judged(doc):
    """True for a judged result (``connectx blunders --json``, or the Struct of
    :func:`scripts.arena.judging.judge_games`): games whose moves carry verdicts."""
    try:
        first = doc["games"][0]["moves"][0]
    except (KeyError, IndexError, TypeError):
        return False
    return isinstance(first, dict) and "perfect" in first


class Session:
    """A game against an agent (``agent``, you playing mark ``you``), between two agents
    (``watch``: two specs, the first moves first), or a replay (``replay``: a record of
    :mod:`scripts.arena.records`, parsed JSON or a file name, or a judged result; game
    ``game`` of it), on the board ``rows`` x ``columns``, ``inarow`` (a replay brings its
    own), starting from ``moves`` (a move string, ``"4453"``, or 0-based columns).

    Agent specs are those of the CLI and the page (``perfect:skill=10``,
    ``alphabeta:depth=4``, ``mcts:time_limit=1``); ``move_time`` is each agent move's
    ``actTimeout``; ``analyze`` shows every column's score after each move (exact where
    the solver takes the board), within ``analysis_time`` seconds; a replay's moves are
    judged with ``judge_time`` solver seconds each. ``ValueError`` says what is wrong
    with any of them. ``on_change()``, when set, is called whenever the snapshot changed
    (the widget sends it then: the human's move shows before the agent's reply)."""

    def __init__(self, agent=None, you=1, watch=None, rows=6, columns=7, inarow=4, moves="",
                 analyze=True, replay=None, game=0, move_time=WIDGET_MOVE_TIME,
                 analysis_time=WIDGET_ANALYSIS_TIME, judge_time=WIDGET_JUDGE_TIME, database=True):
        self.on_change = None
        self.app = app_of(float(move_time), float(analysis_time), bool(database))
        self.analyzing = bool(analyze)
        self.judge_time = float(judge_time)
        self.busy, self.status, self.error = False, "", False
        self.analysis = self.line = self.tree = self.record = None
        self.times = []
        if replay is not None:
            if agent is not None or watch is not None:
                raise ValueError("give a replay, or an agent to play or two to watch, not both")
            self.mode, self.players = "replay", {1: None, 2: None}
            self.load(replay, game, (rows, columns, inarow))
            return
        self.cfg = self._config(rows, columns, inarow)
        if watch is not None:
            if agent is not None or isinstance(watch, str) or len(watch) != 2:
                raise ValueError("watch takes two agent specs, e.g. watch=(\"alphabeta\", "
                                 "\"mcts\"), and no agent")
            self.mode, self.players = "watch", {1: self._spec(watch[0]), 2: self._spec(watch[1])}
        else:
            if you not in (1, 2):
                raise ValueError(f"you must be 1 (you move first, red) or 2, not {you!r}")
            other = self._spec("alphabeta:time_limit=0.5" if agent is None else agent)
            self.mode, self.players = "play", {you: None, 3 - you: other}
        self.new_game(moves)

    # -- checks ------------------------------------------------------------------------

    @staticmethod
    def _config(rows, columns, inarow):
        try:
            return parse_game_config({"rows": rows, "columns": columns, "inarow": inarow})
        except BadRequest as e:
            raise ValueError(str(e)) from None

    def _spec(self, text):
        """The spec text of an agent the server would play (``ValueError`` naming what is
        wrong: an unknown agent or option, a file, a fixed-depth search too slow)."""
        try:
            spec = parse_agent(text, self.app.files)
            check_unclocked(spec, self.cfg, self.app.move_time)
        except BadRequest as e:
            raise ValueError(str(e)) from None
        return spec.text

    # -- the game ------------------------------------------------------------------------

    @property
    def human(self):
        """The mark the user plays (0 when watching or replaying)."""
        return next((m for m, p in self.players.items() if p is None), 0) \
            if self.mode == "play" else 0

    def position(self):
        """The 0-based moves of the position shown (a replay's: up to its step)."""
        if self.mode == "replay":
            return self.record["moves"][:self.pos]
        return list(self.moves)

    def new_game(self, moves=""):
        """Start again from ``moves`` (a move string or 0-based columns); the agent moves
        if it is its turn."""
        self._live("new game")
        try:
            start = parse_moves(moves, self.cfg)
            game_state(self.cfg, start)
        except BadRequest as e:
            raise ValueError(f"moves: {e}") from None
        self.moves, self.times = start, [None] * len(start)
        self._moved("New game." if not start else f"Started from {notation(start, self.cfg)}.")
        if self.mode == "play":
            self._reply()

    def _live(self, what):
        if self.mode == "replay":
            raise ValueError(f"a replay has no {what}: step through it")

    def play(self, column):
        """Your move in ``column`` (0-based), then the agent's reply and the analysis.
        ``ValueError`` when it is not your turn or the column is full or off the board."""
        if self.mode != "play":
            raise ValueError(f"no move to click in {self.mode} mode")
        s = game_state(self.cfg, self.moves)
        if s["over"]:
            raise ValueError("the game is over: start a new one")
        if s["to_move"] != self.human:
            raise ValueError("it is the agent's turn")
        if type(column) is not int or not 0 <= column < self.cfg.columns:
            raise ValueError(f"column must be an integer 0..{self.cfg.columns - 1}, "
                             f"got {column!r}")
        if column not in s["legal"]:
            raise ValueError(f"column {column + 1} is full; choose another")
        self.moves.append(column)
        self.times.append(None)
        self._moved(f"You played column {column + 1}.", analyze=False)
        self._reply()

    def step(self):
        """One agent move (watching: the side to move; playing: the agent, if its turn)."""
        self._live("step")
        s = game_state(self.cfg, self.moves)
        spec = self.players.get(s["to_move"])
        if s["over"] or spec is None:
            raise ValueError("the game is over" if s["over"] else "it is your turn")
        try:
            reply = _agent_move(self.app, self.cfg, self.moves, spec)
        except (BadRequest, AgentFailed) as e:
            raise ValueError(str(e)) from None
        self.moves.append(reply["column"])
        self.times.append(reply["time"])
        self._moved(f"{spec} played column {reply['column'] + 1} in {seconds(reply['time'])}.")

    def run(self):
        """Agent moves until the game is over (watching) or it is your turn."""
        self._live("run")
        while True:
            s = game_state(self.cfg, self.moves)
            if s["over"] or self.players.get(s["to_move"]) is None:
                return
            self.step()

    def _reply(self):
        """The agent's move if it is its turn; else the analysis, if not done yet (your
        move was shown without one: the reply comes first)."""
        s = game_state(self.cfg, self.moves)
        if not s["over"] and self.players[s["to_move"]] is not None:
            self.step()
        elif self.analyzing and self.analysis is None:
            self._analyze()
            self._changed()

    def undo(self):
        """Take back your last move (and the agent's reply); watching, the last move."""
        self._live("undo")
        keep = len(self.moves) - 1
        if self.mode == "play":
            while keep >= 0 and 1 + keep % 2 != self.human:
                keep -= 1
        if keep < 0:
            raise ValueError("no move to take back")
        del self.moves[keep:], self.times[keep:]
        self._moved(f"Took back to move {keep}.")

    def _moved(self, text, analyze=True):
        """After the position changed: the old analysis, line and tree go."""
        self.analysis = self.line = self.tree = None
        self.status, self.error = text, False
        s = game_state(self.cfg, self.position())
        if s["over"]:
            self.status += " " + self._result(s)
        elif analyze and self.analyzing:
            self._changed()  # the move shows before the analysis runs
            self._analyze()
        self._changed()

    def _result(self, s):
        if not s["winner"]:
            return "Draw: the board is full."
        who = self.players.get(s["winner"])
        name = "You" if self.mode == "play" and who is None else (who or MARK[s["winner"]])
        return f"{name} win{'' if name == 'You' else 's'} ({MARK[s['winner']]})."

    # -- analysis, lines, trees ----------------------------------------------------------

    def set_analyze(self, on):
        """Turn the analysis after each move on or off (on: the position now is analysed)."""
        self.analyzing = bool(on)
        if self.analyzing and self.analysis is None and self.mode != "replay":
            self._analyze()
        elif not self.analyzing:
            self.analysis = self.line = None
        self._changed()

    def _analyze(self):
        """Every column's score of the position, by the server's analysis, and the best
        column's line to the end (finished by the server's line when the analysis cut it)."""
        moves = self.position()
        if game_state(self.cfg, moves)["over"]:
            return
        request = {"config": self.cfg._asdict(), "moves": moves,
                   "time_limit": self.app.analysis_time}
        reply = analyze(self.app, request)
        reply.pop("state")
        self.analysis = reply
        found = reply["line"]
        if found and not found["complete"] and reply["complete"]:
            self.show_line(found["column"])
        elif found:
            self.line = self._with_frames(found, reply["scores"][found["column"]])

    def show_line(self, column):
        """The line of ``column`` (0-based; exact solver boards), stepped on the board by
        the front-end: its moves, each board along it, and the column's outcome."""
        moves = self.position()
        request = {"config": self.cfg._asdict(), "moves": moves, "column": column,
                   "time_limit": self.app.analysis_time}
        try:
            found = line(self.app, request)
        except BadRequest as e:
            raise ValueError(str(e)) from None
        self.line = self._with_frames(found, {k: found[k] for k in ("score", "outcome", "in")})
        self._changed()

    def _with_frames(self, found, score):
        frames = []
        moves = self.position()
        play_moves(self.cfg, moves + found["moves"], frames)
        return {"column": found["column"], "moves": found["moves"],
                "complete": found["complete"], "score": score,
                "frames": frames[len(moves) + 1:]}

    def draw_tree(self, depth=2):
        """The search-tree picture of the position shown (alpha-beta to ``depth`` plies,
        each node's exact value beside; the page's "Search tree")."""
        request = {"config": self.cfg._asdict(), "moves": self.position(), "depth": depth}
        try:
            self.tree = tree_request(self.app, request)
        except BadRequest as e:
            raise ValueError(str(e)) from None
        self._changed()

    # -- replays -------------------------------------------------------------------------

    def load(self, record, game=0, config=None):
        """Show game ``game`` (0-based) of ``record``: a file name, parsed JSON (a kaggle
        ``env.toJSON()``, a match record, ...), move lists (on the board ``config``,
        ``(rows, columns, inarow)``; the other kinds bring their own) or a judged result
        (``connectx blunders --json``), every move with its verdict (judged here unless
        the record has them)."""
        from scripts.arena.records import parse_records
        if isinstance(record, (str, os.PathLike)) and os.path.isfile(record):
            try:
                with open(record, encoding="utf-8") as f:
                    text = f.read()
            except (OSError, UnicodeDecodeError) as e:
                raise ValueError(f"{os.fspath(record)}: cannot read it ({e})") from None
            try:
                record = json.loads(text)
            except ValueError:
                record = text  # move lists
        if _is_judged(record):
            config = tuple(record["config"])
            self.cfg = self._config(*config)
            games = [self._judged_game(g) for g in record["games"]]
        elif isinstance(record, (dict, list, str)):
            # a string that names no file: move lists
            _, config, games = parse_records(record, config=config)
        else:
            raise ValueError(f"replay takes a record (parsed JSON such as env.toJSON(), a "
                             f"file name or move lists), not {type(record).__name__}")
        self.cfg = self._config(*config)
        self.games = games
        self._show_game(game)

    def _judged_game(self, g):
        """A game of a judged result as a record's game with its verdicts (``judged``):
        the opening's moves, which the judge left out, from the first judged move's
        ``line``."""
        first = g["moves"][0] if g["moves"] else {"line": ""}
        try:
            opening = parse_moves(first.get("line", ""), self.cfg)
        except BadRequest as e:
            raise ValueError(f"a judged game's line: {e}") from None
        return {"agents": g["agents"], "moves": opening + [m["column"] for m in g["moves"]],
                "judged": [None] * len(opening) + list(g["moves"])}

    def _show_game(self, index):
        games = self.games
        if isinstance(index, bool) or not isinstance(index, int) \
                or not 0 <= index < len(games):
            raise ValueError(f"game must be 0..{len(games) - 1} (the record has "
                             f"{len(games)}), not {index!r}")
        g = games[index]
        judged = g.get("judged") or self._judge(g)
        self.game, self.pos, self.tree = index, 0, None
        self.record = {"agents": list(g["agents"]), "moves": list(g["moves"]), "judged": judged}
        self._changed()

    def _judge(self, g):
        """:func:`scripts.arena.judging.judge_game` of the game ``g`` (its opening's moves
        left unjudged), or None where the solver does not take the board. ``ValueError``
        for an illegal move."""
        from scripts.arena.judging import check_games, judge_game
        check_games([g], tuple(self.cfg))
        if not fits_bitboard(self.cfg.rows, self.cfg.columns):
            return None
        with self.app.solver(self.cfg) as solver:
            judged = judge_game(g["moves"], solver, g.get("opening", 0), self.judge_time)
        for m in judged:
            m.pop("board")
            if m["scores"] is not None:
                m["scores"] = [int(x) for x in m["scores"]]
        return [None] * g.get("opening", 0) + judged

    def seek(self, pos):
        """Show the replay after its first ``pos`` moves (clipped to the game)."""
        if self.mode != "replay":
            raise ValueError("seek steps through a replay; this widget plays a game")
        if isinstance(pos, bool) or not isinstance(pos, int):
            raise ValueError(f"pos must be an integer, not {pos!r}")
        self.pos = max(0, min(len(self.record["moves"]), pos))
        self.tree = None
        self._changed()

    def choose_game(self, index):
        """Show game ``index`` (0-based) of the replay's record."""
        if self.mode != "replay":
            raise ValueError("choose_game picks a replay's game; this widget plays a game")
        self._show_game(index)

    # -- the front-end -------------------------------------------------------------------

    ACTIONS = {"play": ("column",), "new": ("moves",), "undo": (), "step": (), "run": (),
               "analyze": ("on",), "line": ("column",), "tree": ("depth",), "seek": ("pos",),
               "game": ("index",)}

    def handle(self, message):
        """Carry out a front-end message ``{"action": ..., arguments}`` (:data:`ACTIONS`):
        ``play`` a column, ``new`` game from ``moves``, ``undo``, ``step`` one agent move,
        ``run`` to the end, ``analyze`` on or off, the ``line`` of a column, the ``tree``
        to ``depth``, ``seek`` a replay's step, a replay's ``game``. A bad message or a
        refused action (a full column, a bad spec) becomes the status line, in red."""
        methods = {"play": self.play, "new": self.new_game, "undo": self.undo,
                   "step": self.step, "run": self.run, "analyze": self.set_analyze,
                   "line": self.show_line, "tree": self.draw_tree, "seek": self.seek,
                   "game": self.choose_game}
        self.busy = True
        self._changed()
        try:
            action = message.get("action") if isinstance(message, dict) else None
            if action not in self.ACTIONS:
                raise ValueError(f"unknown action {action!r}; valid: "
                                 f"{', '.join(self.ACTIONS)}")
            unknown = sorted(set(message) - {"action", *self.ACTIONS[action]})
            if unknown:
                raise ValueError(f"{action}: unknown field(s) {', '.join(unknown)}")
            methods[action](**{k: message[k] for k in self.ACTIONS[action] if k in message})
        except (ValueError, AgentFailed) as e:
            self.status, self.error = str(e), True
        finally:
            self.busy = False
            self._changed()

    def _changed(self):
        if self.on_change is not None:
            self.on_change()

    def snapshot(self):
        """What the front-end draws, JSON-ready: ``mode`` (play, watch, replay), the
        game state of :func:`scripts.server.game.game_state` of the position shown
        (``config``, ``moves``, ``board``, ``winner``, ``over``, ``to_move``, ``legal``,
        ``notation``), ``last`` (the flat index of the last stone, -1 at the start),
        ``players`` (names by mark, "you" for yours), ``human``, ``history`` (one line a
        move: who, the column, the time or the verdict), ``status``, ``error``, ``busy``,
        ``analyzing``, ``analysis`` (the server's analysis, or a replay's judged scores
        of the position), ``line`` (a column's line: ``moves``, ``frames`` the board
        after each), ``tree`` (the search-tree picture: ``svg``, ``title``, ``pv``) and
        ``replay`` (``pos``, ``length``, ``game``, ``games``, ``verdict`` of the last
        move, ``next`` the column played next)."""
        moves = self.position()
        state = game_state(self.cfg, moves)
        last = -1
        if moves:
            c = moves[-1]
            last = next(i for i in range(c, len(state["board"]), self.cfg.columns)
                        if state["board"][i])
        names = {str(m): p or "you" for m, p in self.players.items()}
        out = {**state, "config": self.cfg._asdict(), "mode": self.mode, "last": last,
               "players": names, "human": self.human, "status": self.status,
               "error": self.error, "busy": self.busy, "analyzing": self.analyzing,
               "analysis": self.analysis, "line": self.line, "tree": self.tree,
               "replay": None}
        if self.mode == "replay":
            self._replay_view(out)
        else:
            out["history"] = [f"{MARK[1 + i % 2]} ({names[str(1 + i % 2)]}): column {c + 1}"
                              + ("" if t is None else f" in {seconds(t)}")
                              for i, (c, t) in enumerate(zip(self.moves, self.times))]
        return out

    def text(self):
        """The snapshot as text (the widget's ``repr``: what a notebook shows where
        widgets are not drawn, as on a repository's page): who plays, the board
        (:func:`agents.envs.render.board_text`, ``X`` red), the status and, in a replay,
        the last move's verdict."""
        from agents.envs.render import board_text
        snap = self.snapshot()
        who = ", ".join(f"{MARK[int(m)]} {p}" for m, p in snap["players"].items())
        lines = [f"Connect Four ({self.mode}: {who}), "
                 f"{self.cfg.rows}x{self.cfg.columns}, {self.cfg.inarow} in a row; "
                 f"moves {snap['notation'] or '-'}",
                 *board_text(snap["board"], self.cfg.rows, self.cfg.columns).splitlines()[:-1],
                 " ".join(str((c + 1) % 10) for c in range(self.cfg.columns)),  # 1-based
                 snap["status"]]
        if snap["replay"] and snap["replay"]["verdict"]:
            lines.append(f"move {self.pos}: {snap['replay']['verdict']}")
        return "\n".join(line for line in lines if line)

    def _replay_view(self, out):
        rec, judged, n = self.record, self.record["judged"], self.cfg.rows * self.cfg.columns
        agents = rec["agents"]
        history = []
        for i, c in enumerate(rec["moves"]):
            m = judged[i] if judged else None
            history.append(f"{MARK[1 + i % 2]} ({agents[i % 2]}): column {c + 1}" +
                           (f": {verdict_text(m)}" if m else ""))
        out["history"] = history
        out["players"] = {"1": agents[0], "2": agents[1]}
        verdict = None
        if self.pos:
            m = judged[self.pos - 1] if judged else None
            verdict = history[self.pos - 1] if m else history[self.pos - 1] + \
                (": no verdict (an opening move)" if judged else
                 ": no verdict (the solver does not take this board)")
        nxt = judged[self.pos] if judged and self.pos < len(judged) else None
        if nxt and nxt["scores"] is not None:
            scores = [None if s == FULL else solver_outcome(s, self.pos, n)
                      for s in nxt["scores"]]
            out["analysis"] = {"method": "solver", "scores": scores, "complete": True,
                               "judged": True}
        out["replay"] = {"pos": self.pos, "length": len(rec["moves"]), "game": self.game,
                         "games": [f"{i}: {' vs '.join(g['agents'])} ({len(g['moves'])} moves)"
                                   for i, g in enumerate(self.games)],
                         "verdict": verdict,
                         "next": rec["moves"][self.pos] if self.pos < len(rec["moves"]) else None}
        if not self.pos:
            out["status"] = (f"{MARK[1]} {agents[0]}, {MARK[2]} {agents[1]}: "
                             f"{len(rec['moves'])} moves" +
                             ("" if judged else "; no verdicts (the solver does not take "
                              f"a {self.cfg.columns}x{self.cfg.rows} board)") +
                             ". Step with the arrows.")


def _agent_move(app, cfg, moves, spec):
    """The server's agent move (:func:`scripts.server.app.agent_move`) in this game."""
    from scripts.server.app import agent_move
    return agent_move(app, {"config": cfg._asdict(), "moves": list(moves), "agent": spec})


def widget(agent=None, you=1, watch=None, rows=6, columns=7, inarow=4, moves="", analyze=True,
           replay=None, game=0, move_time=WIDGET_MOVE_TIME, analysis_time=WIDGET_ANALYSIS_TIME,
           judge_time=WIDGET_JUDGE_TIME, database=True):
    """The Connect Four widget of a :class:`Session` of these arguments (see there):
    play ``agent`` (default ``alphabeta:time_limit=0.5``), watch two (``watch``), or
    step through a ``replay``. Show it as a cell's last value. ``ValueError`` for bad
    arguments, and naming the extra to install when anywidget is missing."""
    from scripts.arena.extras import require
    require("anywidget", "notebook")
    from scripts.server.view import BoardWidget
    return BoardWidget(Session(agent, you, watch, rows, columns, inarow, moves, analyze, replay,
                               game, move_time, analysis_time, judge_time, database))
