"""A player that speaks text (``prompt -> answer``, e.g. a language model) as an
``agent(obs, config)``, through the arenas' formats.

:class:`TextPlayer` turns the ConnectX position into an arena's prompt, asks, parses the
answer the arena's way and re-prompts the arena's way; it never raises for an answer: an
answer that gives no legal column is *invalid*, counted and named (``player.invalid``,
``player.counts()``), and when the re-prompts are spent it plays the legal column
nearest the centre and records that move (``player.fallbacks``). The formats
(:data:`FORMATS`):

``gamearena``  Kaggle Game Arena: the prompt and parser of kaggle-environments'
               ``open_spiel_env/games/connect_four/harness.py`` (imported, not copied):
               OpenSpiel's grid (row 0 at the top, ``x`` moves first), answer
               ``Final Answer: <column>`` (0-based; the parser falls back to the last
               legal column number in the text); one re-prompt with the rethink text
               (``create_agent_fn``'s ``max_retries=2`` attempts), then Game Arena
               forfeits.
``textarena``  TextArena's ``ConnectFour-v0``: its rules prompt and board text (``X``/``O``/
               ``.`` under the column numbers), rendered by TextArena's own
               ``ConnectFourEnv``; answer ``[col 3]`` (a bare answer is put in brackets,
               as its ``ActionFormattingWrapper`` does), validated by TextArena's own
               ``_validate_action``; one re-prompt with TextArena's invalid-move message
               (``error_allowance`` 1), then TextArena ends the game.
``spinbench``  SPIN-Bench's Connect Four: a grid of ``r0..`` rows (top first) and ``c0..``
               columns, ``X``/``O``/``-``, the legal columns listed, the answer a JSON
               object ``{"reason": "...", "action": "3"}`` (the last one in the text
               counts); up to 10 re-prompts (its ``illegal_tolerance``), then it ends the
               game. SPIN-Bench is not on PyPI: the prompt is the package's rendering of
               that format, not SPIN-Bench's text.

The invalid categories are Game Arena's: ``EMPTY`` (no text), ``UNPARSABLE`` (no
column found), ``ILLEGAL`` (a column, not a legal one), plus ``ERROR`` (``ask`` raised:
a model client's network error is an invalid answer, not a crash).

A spec string names a text player for ``connectx match``/``score``:
``text:ask=MODULE.FUNCTION[,format=gamearena|textarena|spinbench][,reprompts=N]``
(:func:`text_player_from_options`).
"""
import importlib
import json
import os
from collections import Counter, namedtuple

from agents.board.grid import center_order
from agents.board.rules import heights_of, parse_observation
from scripts.arena.extras import require

FORMATS = ("gamearena", "textarena", "spinbench")
EMPTY, UNPARSABLE, ILLEGAL, ERROR = "EMPTY", "UNPARSABLE", "ILLEGAL", "ERROR"
CATEGORIES = (EMPTY, UNPARSABLE, ILLEGAL, ERROR)

# one position as a format sees it: flat ConnectX board (row 0 at the top), the side to
# move (1 moves first: x / X), the legal columns
Position = namedtuple("Position", "board rows columns inarow mark legal")
# an answer that gave no legal column: the stones on the board, the attempt (0: the first
# prompt), its category and the answer's text
Invalid = namedtuple("Invalid", "stones attempt category answer")
# a move the player made for a text player whose re-prompts were all invalid
Fallback = namedtuple("Fallback", "stones column category")


def move_order(board, rows, columns):
    """0-based columns, the first by mark 1, that build the flat ConnectX ``board`` (row 0
    at the top) from the empty board; ``ValueError`` if no order of alternating moves
    does. The stones' order is not on a board: this is one order (a depth-first search
    on the columns' heights, memoised), enough for a prompt that shows the board."""
    stacks = [[board[(rows - 1 - r) * columns + c] for r in range(rows)
               if board[(rows - 1 - r) * columns + c]] for c in range(columns)]
    failed, undone = set(), []

    def undo(heights):
        stones = sum(heights)
        if stones == 0:
            return True
        if heights in failed:
            return False
        last = 1 if stones % 2 else 2  # the mark of the stone placed last
        for c in range(columns):
            if heights[c] and stacks[c][heights[c] - 1] == last:
                undone.append(c)
                if undo(heights[:c] + (heights[c] - 1,) + heights[c + 1:]):
                    return True
                undone.pop()
        failed.add(heights)
        return False

    if not undo(tuple(len(s) for s in stacks)):
        raise ValueError("no order of alternating moves (mark 1 first) builds this board")
    return undone[::-1]


class GameArenaFormat:
    """Kaggle Game Arena's prompt, parser and re-prompt (kaggle-environments' harness)."""
    name = "gamearena"
    reprompts = 1

    def __init__(self):
        require("kaggle_environments", "the Game Arena text format")
        # the harness imports litellm, which would fetch its model price list from the
        # network first (seconds without one); its local copy is enough for prompts
        os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
        from kaggle_environments.envs.open_spiel_env.games.connect_four import harness
        self.harness = harness

    def context(self, pos):
        """Game Arena's observation of ``pos``: OpenSpiel's serialized state and seat."""
        import pyspiel
        game = pyspiel.load_game("connect_four", {"rows": pos.rows, "columns": pos.columns,
                                                  "x_in_row": pos.inarow})
        state = game.new_initial_state()
        for c in move_order(pos.board, pos.rows, pos.columns):
            state.apply_action(c)
        seat = pos.mark - 1
        obs = {"serializedGameAndState": pyspiel.serialize_game_and_state(game, state),
               "playerId": seat, "currentPlayer": seat, "isTerminal": False}
        return obs, self.harness.get_legal_moves(obs)

    def prompt(self, ctx, previous):
        obs, _ = ctx
        return self.harness.generate_prompt(obs, [], previous_response=previous)

    def parse(self, ctx, answer):
        _, legal = ctx
        result = self.harness.parse_response(answer, list(legal.values()))
        for action, text in legal.items():
            if text == result.legal_action:
                return int(action), result.raw_action
        return None, result.raw_action


class TextArenaFormat:
    """TextArena's ConnectFour prompt, board text, validation and invalid-move message,
    from TextArena's own environment class."""
    name = "textarena"
    reprompts = 1

    def __init__(self):
        require("textarena", "the TextArena text format")
        from textarena.envs.ConnectFour.env import ConnectFourEnv
        from textarena.wrappers import ActionFormattingWrapper
        self.env_class, self.brackets = ConnectFourEnv, ActionFormattingWrapper.action

    def context(self, pos):
        if pos.inarow != 4:
            raise ValueError(f"TextArena's ConnectFour needs four in a row, not {pos.inarow}")
        env = self.env_class(num_rows=pos.rows, num_cols=pos.columns)
        env.reset(num_players=2)
        symbols = {0: ".", 1: "X", 2: "O"}
        env.state.game_state["board"] = [
            [symbols[int(pos.board[r * pos.columns + c])] for c in range(pos.columns)]
            for r in range(pos.rows)]
        env.state.current_player_id = pos.mark - 1
        env.state.error_allowance = 1 << 30  # the player counts its own re-prompts
        return env

    def prompt(self, env, previous):
        seat = env.state.current_player_id
        text = (f"[GAME] {env._generate_player_prompt(seat, env.state.game_state)}\n"
                f"[GAME] Board state:\n{env._render_board()}")
        if previous is not None:
            _, _, reason = env._validate_action(self.brackets(None, previous))
            env.state.set_invalid_move(reason=reason)
            text += f"\n[GAME] {env.state.observations[seat][-1][1]}"
        return text

    def parse(self, env, answer):
        ok, column, reason = env._validate_action(self.brackets(None, answer))
        if ok:
            return int(column), str(column)
        return None, (None if "format" in reason else answer)


class SpinBenchFormat:
    """SPIN-Bench's Connect Four format: its grid, its legal-move list, its JSON answer."""
    name = "spinbench"
    reprompts = 10
    symbols = {0: "-", 1: "X", 2: "O"}

    def context(self, pos):
        return pos

    def prompt(self, pos, previous):
        me, other = ("X", "O") if pos.mark == 1 else ("O", "X")
        rows = [f"r{r} " + " ".join(self.symbols[int(pos.board[r * pos.columns + c])]
                                    for c in range(pos.columns)) for r in range(pos.rows)]
        header = "   " + " ".join(f"c{c}" for c in range(pos.columns))
        places = {m: [(r, c) for r in range(pos.rows) for c in range(pos.columns)
                      if pos.board[r * pos.columns + c] == m] for m in (1, 2)}
        legal = " ".join(str(c) for c in pos.legal)
        text = (f"You are playing Connect Four as '{me}' against '{other}' ('X' moves first) "
                f"on a {pos.rows}x{pos.columns} grid; {pos.inarow} in a row wins. Tokens "
                f"fall to the lowest empty row; an illegal move loses.\n"
                "Current game state:\n" + "\n".join(rows) + "\n" + header + "\n"
                "r0 is the top row, c0 the leftmost column.\n"
                f"Token places (row index, column index):\nX tokens are at places: {places[1]}\n"
                f"O tokens are at places: {places[2]}\n"
                f"Legal actions (columns where you can drop a token):\n{legal}\n"
                'Answer with a JSON object {"reason": "your reason", "action": "column"}, '
                "the column one of the legal actions.")
        if previous is not None:
            text += (f"\nYour previous answer did not give a legal action: {previous[-300:]!r}. "
                     "Answer again.")
        return text

    def parse(self, pos, answer):
        raw = None
        decoder = json.JSONDecoder()
        at = answer.find("{")
        while at >= 0:
            try:
                value, end = decoder.raw_decode(answer, at)
            except json.JSONDecodeError:
                at = answer.find("{", at + 1)
                continue
            if isinstance(value, dict) and "action" in value:
                raw = str(value["action"])
            at = answer.find("{", end)
        try:
            column = int(raw) if raw is not None else None
        except ValueError:
            return None, raw
        return (column, raw) if column in pos.legal else (None, raw)


_FORMAT_CLASSES = {f.name: f for f in (GameArenaFormat, TextArenaFormat, SpinBenchFormat)}


def text_format(name):
    """The format named ``name`` (one of :data:`FORMATS`); ``ValueError`` otherwise."""
    if name not in _FORMAT_CLASSES:
        raise ValueError(f"unknown text format {name!r}; valid: {', '.join(FORMATS)}")
    return _FORMAT_CLASSES[name]()


class TextPlayer:
    """``agent(obs, config)`` asking ``ask(prompt) -> answer`` in the format ``fmt``.

    Each move: the prompt, then up to ``reprompts`` re-prompts (default: the format's
    arena's rule) while the answer gives no legal column. Every such answer is appended
    to :attr:`invalid` (an :class:`Invalid`); if all fail the move is the legal column
    nearest the centre, appended to :attr:`fallbacks`. :attr:`prompts` counts the
    prompts sent, :attr:`transcript` holds ``(prompt, answer)`` pairs when ``keep`` is
    true. Returns a plain ``int``; never raises for an answer (a bad position or
    config is a ``ValueError``, as for any agent)."""

    asks_text = True  # no warm-up calls (scripts.arena.loading.warm_up): each is a question

    def __init__(self, ask, fmt="gamearena", reprompts=None, name=None, keep=False):
        if not callable(ask):
            raise ValueError(f"a text player needs a callable prompt -> answer, got {ask!r}")
        self.ask, self.format = ask, text_format(fmt)
        self.reprompts = self.format.reprompts if reprompts is None else int(reprompts)
        if self.reprompts < 0:
            raise ValueError(f"reprompts must be >= 0, got {reprompts!r}")
        self.__name__ = name or f"text({getattr(ask, '__name__', type(ask).__name__)})"
        self.keep = keep
        self.invalid, self.fallbacks, self.transcript = [], [], []
        self.prompts = 0

    def counts(self):
        """Invalid answers by category (a ``Counter`` over :data:`CATEGORIES`)."""
        return Counter(i.category for i in self.invalid)

    def __call__(self, obs, config):
        grid, mark, cfg = parse_observation(obs, config)
        heights = heights_of(grid, cfg)
        legal = [c for c in range(cfg.columns) if heights[c] < cfg.rows]
        pos = Position([int(v) for v in grid], cfg.rows, cfg.columns, cfg.inarow, mark, legal)
        stones = int(sum(heights))
        ctx = self.format.context(pos)
        previous, category = None, None
        for attempt in range(self.reprompts + 1):
            prompt = self.format.prompt(ctx, previous)
            self.prompts += 1
            try:
                answer = self.ask(prompt)
            except Exception as e:  # noqa: BLE001 - a failing model is an invalid answer
                answer, category = f"{type(e).__name__}: {e}", ERROR
            else:
                answer = "" if answer is None else str(answer)
                category = None
            if self.keep:
                self.transcript.append((prompt, answer))
            if category is None:
                column, raw = self.format.parse(ctx, answer) if answer.strip() else (None, None)
                if column is not None:
                    return int(column)
                category = EMPTY if not answer.strip() else (UNPARSABLE if raw is None else ILLEGAL)
            self.invalid.append(Invalid(stones, attempt, category, answer))
            previous = answer
        column = next(int(c) for c in center_order(cfg.columns) if c in legal)
        self.fallbacks.append(Fallback(stones, column, category))
        return column


def answers_so_far(player):
    """``(invalid, fallbacks)`` counts of a :class:`TextPlayer` so far; None for any
    other agent."""
    if not isinstance(player, TextPlayer):
        return None
    return len(player.invalid), len(player.fallbacks)


def game_answers(player, before):
    """A text player's record of one game for a match's games JSON: ``{"invalid":
    [[stones, attempt, category, answer], ...], "fallbacks": [[stones, column,
    category], ...]}`` since ``before`` (:func:`answers_so_far` at the game's start;
    answers cut to 200 characters); None for any other agent."""
    if before is None:
        return None
    invalid, fallbacks = before
    return {"invalid": [[i.stones, i.attempt, i.category, i.answer[:200]]
                        for i in player.invalid[invalid:]],
            "fallbacks": [list(f) for f in player.fallbacks[fallbacks:]]}


def load_callable(path):
    """The callable ``MODULE.NAME`` (imported); ``ValueError`` naming what is missing."""
    module, _, attr = str(path).rpartition(".")
    if not module:
        raise ValueError(f"text player ask={path!r}: give MODULE.FUNCTION")
    try:
        fn = getattr(importlib.import_module(module), attr)
    except ImportError as e:
        raise ValueError(f"text player ask={path!r}: cannot import {module!r}: {e}") from None
    except AttributeError:
        raise ValueError(f"text player ask={path!r}: {module!r} has no {attr!r}") from None
    if not callable(fn):
        raise ValueError(f"text player ask={path!r} is not callable")
    return fn


TEXT_OPTIONS = ("ask", "format", "reprompts")


def text_player_from_options(options):
    """A :class:`TextPlayer` from a spec's options (``ask=MODULE.FUNCTION``,
    ``format=``, ``reprompts=``); ``ValueError`` for a missing or unknown option."""
    unknown = sorted(set(options) - set(TEXT_OPTIONS))
    if unknown:
        raise ValueError(f"unknown text player option(s) {', '.join(unknown)}; "
                         f"valid: {', '.join(TEXT_OPTIONS)}")
    if "ask" not in options:
        raise ValueError("a text player needs ask=MODULE.FUNCTION (prompt -> answer)")
    return TextPlayer(load_callable(options["ask"]), options.get("format", "gamearena"),
                      options.get("reprompts"), name=f"text:{options['ask']}")
