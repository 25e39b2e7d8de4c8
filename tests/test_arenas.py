"""The package's players inside the language-model arenas (scripts.arena.game_arena,
scripts.arena.text_arena) and the text player (scripts.arena.textplayer).

Games in the arenas' own code: kaggle-environments' ``open_spiel_connect_four`` (Game
Arena) and TextArena's ``ConnectFour-v0``; every move of ``perfect`` in them is checked
against :meth:`agents.solver.solver.Solver.analyze` (7x6 through the 12-ply database), and
each game's own record (``env.toJSON()``, TextArena's ``game_record``) is judged by
``connectx blunders --json``: every move's scores and verdict are the ones worked out here
from the same analyses.
Text players are scripted: one reads the board off the prompt and answers with
``alphabeta:depth=2``, one answers garbage, one an illegal column.
"""
import importlib.util
import json
import os
import re
import sys
import types

import pytest

from agents.board.rules_reference import board_from_moves
from agents.board.rules import winner
from agents.solver.solver import Solver
from scripts.arena.judging import judge_games
from scripts.arena.match import match
from scripts.arena.records import parse_records
from scripts.arena.specs import config_struct, observation, parse_match_config, parse_spec
from scripts.arena.textplayer import (EMPTY, ERROR, FORMATS, ILLEGAL, UNPARSABLE, TextPlayer,
                                      move_order)
from scripts.commands import blunders

pytest.importorskip("kaggle_environments")
pyspiel = pytest.importorskip("pyspiel")
from scripts.arena import game_arena  # noqa: E402
from scripts.arena import text_arena  # noqa: E402

ENGINE = "alphabeta:depth=2"  # deterministic, quick: the scripted text player's brain
WEAK = "alphabeta:depth=3"
FULL = -1000  # Solver.analyze's score of a full column
# perfect's budget a move in the arenas' games: ample, so that it solves every position
# even on a loaded machine (it answers as soon as it has solved: the games stay cheap);
# the value checks test the adapters, not perfect's clock
PERFECT_TIME = 5.0
PERFECT = "perfect:traps=False"  # no trap search: the exact move at once, the games cheap
needs_textarena = pytest.mark.skipif(importlib.util.find_spec("textarena") is None,
                                     reason="textarena (the arenas extra) is not installed")
FORMAT_PARAMS = [pytest.param(f, marks=needs_textarena) if f == "textarena" else f
                 for f in FORMATS]


def sign(x):
    return (x > 0) - (x < 0)


def check_verdicts(moves, shape, perfect_mark, solver):
    """Every move of the player with ``perfect_mark`` keeps the position's value (its
    column's exact score has the sign of the best score), checked with Solver.analyze.
    Returns the game's winner (0: a draw) and the analyses (the scores of every column
    before each move)."""
    rows, columns, inarow = shape
    text, analyses = "", []
    for i, c in enumerate(moves):
        scores = solver.analyze(text)
        analyses.append(scores)
        assert scores[c] != FULL, f"move {i}: column {c} is full"
        if 1 + i % 2 == perfect_mark:
            best = max(s for s in scores if s != FULL)
            assert sign(scores[c]) == sign(best), f"move {i}: {scores} column {c}"
        text += str(c + 1)
    board = board_from_moves(moves, rows, columns)
    return winner(board, {"rows": rows, "columns": columns, "inarow": inarow}), analyses


def judge_record(record, tmp_path, capsys, solver=None):
    """An arena's own record (``env.toJSON()``, TextArena's ``game_record(env)``) judged:
    written as the arena gives it and judged by ``connectx blunders --json``, or, with
    ``solver`` (the test's, its table warm: 5x6 has no database), read by
    :func:`parse_records` and judged by :func:`judge_games` with it (the command's code
    without its solver)."""
    if solver is not None:
        kind, cfg, games = parse_records(json.loads(json.dumps(record)))
        result = judge_games(games, cfg, solver=solver)
        return json.loads(json.dumps({**blunders.as_json(result), "kind": kind}))
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    assert blunders.main([str(path), "--json", "--threads", "1"]) == 0
    return json.loads(capsys.readouterr().out)


def check_judged(result, kind, shape, moves, analyses):
    """The judged record is the game (``kind``, board, moves), and each move's judgement
    is worked out here from the scores Solver.analyze gave the position before it:
    perfect (the best score), good (the best score's sign: the value kept), loss (best
    less its score), accuracy ((score - worst + 1) / (best - worst + 1), 0 when not
    good); each player's counts add up over the moves."""
    assert (result["kind"], result["config"], result["unjudged"]) == (kind, list(shape), 0)
    (game,) = result["games"]
    assert [m["column"] for m in game["moves"]] == moves and game["invalid"] == []
    for m, scores in zip(game["moves"], analyses):
        legal = [s for s in scores if s != FULL]
        best, worst, mine = max(legal), min(legal), scores[m["column"]]
        good = sign(mine) == sign(best)
        assert m["scores"] == scores, m["ply"]
        assert (m["perfect"], m["good"], m["loss"]) == (mine == best, good, best - mine)
        share = (mine - worst + 1) / (best - worst + 1) if good else 0.0
        assert m["accuracy"] == pytest.approx(share)
    for name, p in result["players"].items():
        own = [m for m in game["moves"] if m["agent"] == name]
        assert p["moves"] == len(own) and p["value_lost"] == sum(not m["good"] for m in own)
        assert p["accuracy"] == pytest.approx(100 * sum(m["accuracy"] for m in own) / len(own))
        assert p["rows"][-1]["perfect"] == pytest.approx(
            sum(m["perfect"] for m in own) / len(own))
    return game


HARNESS = "kaggle_environments.envs.open_spiel_env.games.connect_four.harness"


@pytest.fixture(scope="module", autouse=True)
def litellm_stub():
    """kaggle's Game Arena harness imports its model client, litellm (3-5 s of CPU a
    process), at the top of ``core_harness``; the prompt, parser and legal-move functions
    the text player calls never touch it, and no test can reach a model. So this module
    imports the real harness over a stub ``litellm`` that has only what that import
    needs (the five exception classes): any call into litellm is an AttributeError, a
    failed test, not a silent stub. Afterwards the harness modules are forgotten, so
    that later imports get the real ones. Nothing is stubbed where litellm is already
    imported."""
    if "litellm" in sys.modules:
        yield
        return
    stub, exceptions = types.ModuleType("litellm"), types.ModuleType("litellm.exceptions")
    for name in ("APIConnectionError", "InternalServerError", "RateLimitError",
                 "ServiceUnavailableError", "Timeout"):
        setattr(exceptions, name, type(name, (Exception,), {}))
    stub.exceptions = exceptions
    sys.modules.update({"litellm": stub, "litellm.exceptions": exceptions})
    try:
        yield
    finally:
        for name in ("litellm", "litellm.exceptions", "kaggle_environments.core_harness",
                     HARNESS):
            module = sys.modules.pop(name, None)
            parent, _, child = name.rpartition(".")
            if module is not None and parent in sys.modules:
                if getattr(sys.modules[parent], child, None) is module:
                    delattr(sys.modules[parent], child)


@pytest.fixture(scope="module")
def solver_7x6():
    from agents.solver.database import default_database
    db = default_database()
    if db is None:
        pytest.skip("the 12-ply database (bitbully-databases) is not installed")
    s = Solver(6, 7, 4)
    s.use_database(db)
    return s


@pytest.mark.parametrize("shape", [(6, 7, 4), (5, 6, 4)])
def test_game_arena_games_in_both_seats_keep_the_value_and_are_judged(shape, solver_7x6,
                                                                       tmp_path, capsys):
    """perfect against alphabeta in kaggle's open_spiel_connect_four, as x and as o: the
    environment accepts every move, the game ends DONE, and every perfect move keeps
    the exact value; the replay's actionHistory is the game, and the replay judged by
    connectx blunders gives every move (both players') the solver's verdict."""
    solver = solver_7x6 if shape == (6, 7, 4) else Solver(*shape)
    for seat in (0, 1):
        specs = [PERFECT, WEAK] if seat == 0 else [WEAK, PERFECT]
        env = game_arena.make_env(*shape)
        env.run([game_arena.game_arena_agent(s, act_timeout=PERFECT_TIME) for s in specs])
        replay = env.toJSON()
        assert [s["status"] for s in env.state] == ["DONE", "DONE"]
        assert replay["info"]["openSpielGameStringResolved"].startswith("connect_four_proxy(")
        assert f"rows={shape[0]}" in replay["info"]["openSpielGameStringResolved"]
        moves = game_arena.replay_moves(replay)
        won, analyses = check_verdicts(moves, shape, seat + 1, solver)
        rewards = [s["reward"] for s in env.state]
        assert rewards == ([0, 0] if won == 0 else [1, -1] if won == 1 else [-1, 1])
        assert rewards[seat] >= 0  # perfect never loses a game it did not start lost
        judged = judge_record(replay, tmp_path, capsys,
                              None if shape == (6, 7, 4) else solver)
        check_judged(judged, "gamearena", shape, moves, analyses)
        assert judged["players"][f"player {seat}"]["value_lost"] == 0  # perfect's


def test_game_arena_agent_submits_a_dict_and_skips_the_setup_step():
    agent = game_arena.game_arena_agent(ENGINE)
    assert agent({}, {}) == {"submission": game_arena.FORFEIT}
    game = pyspiel.load_game("connect_four", game_arena.spiel_parameters(5, 6, 4))
    state = game.new_initial_state()
    for c in (2, 2, 3, 3, 4, 4):  # x threatens to win at column 1 or 5
        state.apply_action(c)
    obs = {"serializedGameAndState": pyspiel.serialize_game_and_state(game, state),
           "playerId": 0, "currentPlayer": 0, "isTerminal": False}
    assert agent(obs, {}) in ({"submission": 1}, {"submission": 5})
    cfg, moves = game_arena.spiel_game(obs)
    assert (cfg.rows, cfg.columns, cfg.inarow, moves) == (5, 6, 4, [2, 2, 3, 3, 4, 4])


@pytest.mark.parametrize("legal_actions", [None, False])
def test_kaggles_random_plays_out_a_game_in_make_env(legal_actions):
    """The environment's built-in ``random`` in both seats against ENGINE on 4x5, three
    in a row: make_env's environment hands it the legal actions, so every game ends on
    the board (a line or a full board), random's moves in it. Made with
    ``includeLegalActions=False`` (kaggle's default) random submits nothing and the game
    ends at its first move (what docs/arenas.md says)."""
    given = {} if legal_actions is None else {"includeLegalActions": legal_actions}
    for seat in (0, 1):
        env = game_arena.make_env(4, 5, 3, seed=seat, **given)
        agents = [game_arena.game_arena_agent(ENGINE)] * 2
        agents[seat] = "random"
        env.run(agents)
        moves = game_arena.replay_moves(env.toJSON())
        game = pyspiel.load_game("connect_four", game_arena.spiel_parameters(4, 5, 3))
        state = game.new_initial_state()
        for c in moves:
            state.apply_action(c)
        if legal_actions is None:
            assert state.is_terminal() and len(moves[seat::2]) >= 1, moves
        else:
            assert not state.is_terminal() and len(moves) == seat, moves
            assert [s["reward"] for s in env.state][seat] == -1


LEFTMOST = '''
def agent(obs, config):
    return next(c for c in range(config.columns) if obs.board[c] == 0)
'''


def leftmost_moves_hold(moves, rows, columns, seat):
    """Each move of ``seat`` (0: first) is the leftmost column with room."""
    heights = [0] * columns
    for i, c in enumerate(moves):
        if i % 2 == seat:
            assert c == next(k for k in range(columns) if heights[k] < rows), (i, c)
        heights[c] += 1


def leftmost_network(path, rows, columns, inarow):
    """A policy network file (numpy arrays, no training) whose policy prefers the
    leftmost column by far: ``policy:file=...`` plays the leftmost column with room."""
    import numpy as np

    from agents.players.network import Network, save_network, shapes
    arch = {"trunk": [4], "kernel": 3, "value_hidden": 0}
    params = {k: np.zeros(shape, dtype=np.float32) for k, shape in
              shapes(rows, columns, arch).items()}
    params["policy_b"][:] = -100.0 * np.arange(columns)
    save_network(path, Network(rows, columns, inarow, arch, params))
    return f"policy:file={path}"


@pytest.mark.parametrize("arena", ["gamearena", pytest.param("textarena", marks=needs_textarena)])
@pytest.mark.parametrize("kind", ["file", "network"])
def test_a_kaggle_file_and_a_network_play_in_the_arenas_on_other_boards(tmp_path, arena, kind):
    """A submission file and a policy network are specs like any other: in Game Arena on
    4x5 with three in a row, in TextArena on 5x6; each plays its own moves (the leftmost
    column with room)."""
    shape = (4, 5, 3) if arena == "gamearena" else (5, 6, 4)
    if kind == "file":
        (tmp_path / "main.py").write_text(LEFTMOST)
        spec = str(tmp_path / "main.py")
    else:
        spec = leftmost_network(tmp_path / "net.npz", *shape)
    if arena == "gamearena":
        env = game_arena.make_env(*shape, strictMode=True)  # {"submission": int} only
        env.run([game_arena.game_arena_agent(spec), game_arena.game_arena_agent(ENGINE)])
        assert [s["status"] for s in env.state] == ["DONE", "DONE"]
        moves = game_arena.replay_moves(env.toJSON())
    else:
        env = text_arena.play([text_arena.text_arena_agent(ENGINE),
                               text_arena.text_arena_agent(spec)], num_rows=5, num_cols=6)
        moves = text_arena.game_record(env)["moves"]
        assert not any(info.get("invalid_move") for info in env.state.game_info.values())
    assert len(moves) >= 5
    leftmost_moves_hold(moves, shape[0], shape[1], 0 if arena == "gamearena" else 1)


@needs_textarena
def test_text_arena_game_through_textarena_loop_is_judged(solver_7x6, tmp_path, capsys):
    """perfect (player 1, O) against alphabeta in TextArena's ConnectFour-v0, TextArena's
    loop; the record's drops are the game, every perfect move keeps the value, and the
    record judged by connectx blunders gives every move the solver's verdict."""
    env = text_arena.play({0: text_arena.text_arena_agent(WEAK),
                           1: text_arena.text_arena_agent(PERFECT, act_timeout=PERFECT_TIME)})
    record = text_arena.game_record(env)
    assert (record["rows"], record["columns"]) == (6, 7)
    moves = record["moves"]
    assert [m for s, m in record["logs"] if s in (0, 1)] == [f"[col {c}]" for c in moves]
    won, analyses = check_verdicts(moves, (6, 7, 4), 2, solver_7x6)
    assert record["rewards"] == ({"0": 0, "1": 0} if won == 0 else
                                 {"0": 1, "1": -1} if won == 1 else {"0": -1, "1": 1})
    assert record["rewards"]["1"] >= 0
    judged = judge_record(record, tmp_path, capsys)
    check_judged(judged, "textarena", (6, 7, 4), moves, analyses)
    assert list(judged["players"]) == ["Player 0", "Player 1"]
    assert judged["players"]["Player 1"]["value_lost"] == 0  # perfect's


@needs_textarena
def test_text_arena_blind_variant_reads_the_drops():
    """ConnectFour-v0-blind shows no board: the agent replays the drops announced."""
    seen = []

    def spy(obs, config):
        seen.append(list(obs["board"]))
        return next(c for c in range(7) if obs["board"][c] == 0)

    env = text_arena.play({0: text_arena.text_arena_agent(spy),
                           1: text_arena.text_arena_agent(ENGINE)},
                          env_id="ConnectFour-v0-blind")
    moves = text_arena.game_record(env)["moves"]
    mine = [board_from_moves(moves[:i], 6, 7) for i in range(0, len(moves), 2)]
    assert seen == mine[:len(seen)] and len(seen) == (len(moves) + 1) // 2


# ---------------------------------------------------------------------------
# Text players
# ---------------------------------------------------------------------------

_CELLS = {".": 0, "-": 0, "x": 1, "X": 1, "o": 2, "O": 2}


def board_in(prompt, rows, columns):
    """The last ``rows`` grid lines of ``prompt`` (any of the three formats: cells of
    ``.-xXoO``, maybe spaced, maybe after ``rN``) as a flat board."""
    lines = []
    for line in prompt.split("\n"):
        cells = re.sub(r"^r\d+ ", "", line.strip()).replace(" ", "")
        if len(cells) == columns and all(ch in _CELLS for ch in cells):
            lines.append([_CELLS[ch] for ch in cells])
    return [v for row in lines[-rows:] for v in row]


ANSWER = {"gamearena": "I think hard.\nFinal Answer: {}", "textarena": "My move: [col {}]",
          "spinbench": 'Thinking {{"draft": 1}} {{"reason": "centre", "action": "{}"}}'}


def engine_reader(fmt, rows=6, columns=7, inarow=4):
    """A scripted text player that answers well: reads the board off the prompt and
    answers ENGINE's column in the format's syntax."""
    engine = parse_spec(ENGINE)
    from scripts.arena.loading import build_agent
    play = build_agent(engine, 0)
    cfg = config_struct(parse_match_config(f"rows={rows},columns={columns},inarow={inarow}"))

    def ask(prompt):
        board = board_in(prompt, rows, columns)
        return ANSWER[fmt].format(play(observation(board), cfg))
    return ask


@pytest.mark.parametrize("fmt", FORMAT_PARAMS)
def test_text_player_that_reads_the_prompt_plays_the_engine_game(fmt):
    """A text player reading its prompt's board plays exactly ENGINE's moves: the prompt
    shows the true board (orientation, marks) and the answer parses to its column."""
    cfg = "rows=6,columns=7,inarow=4"
    player = TextPlayer(engine_reader(fmt), fmt)
    text = match(player, "random", games=2, cfg=cfg, seed=3, progress=False)
    plain = match(ENGINE, "random", games=2, cfg=cfg, seed=3, progress=False)
    assert [g["moves"] for g in text.games] == [g["moves"] for g in plain.games]
    assert player.invalid == [] and player.fallbacks == []
    marks = [1 if g["agents"][1] == "random" else 2 for g in text.games]
    assert player.prompts == sum(len(g["moves"][m - 1::2]) for g, m in zip(text.games, marks))


def test_a_text_player_in_game_arena_plays_the_engine_game_and_never_forfeits():
    """A gamearena text player inside kaggle's open_spiel_connect_four (5x6): one reading
    its prompt plays ENGINE's game; one answering garbage is re-prompted once a move,
    then plays its fallback: the environment never sees an invalid action."""
    def game(first):
        env = game_arena.make_env(5, 6, 4)
        env.run([game_arena.game_arena_agent(first), game_arena.game_arena_agent(ENGINE)])
        assert [s["status"] for s in env.state] == ["DONE", "DONE"]
        return game_arena.replay_moves(env.toJSON())

    reader = TextPlayer(engine_reader("gamearena", 5, 6, 4), "gamearena")
    assert game(reader) == game(ENGINE) and reader.invalid == []
    garbage = TextPlayer(lambda prompt: "No idea, sorry.", "gamearena")
    moves = game(garbage)
    assert [f.column for f in garbage.fallbacks] == moves[0::2]
    assert garbage.counts() == {UNPARSABLE: 2 * len(moves[0::2])}


def test_game_arena_prompt_is_kaggles_harness_prompt():
    harness = importlib.import_module(HARNESS)
    moves = [3, 3, 2, 4, 4]
    game = pyspiel.load_game("connect_four", game_arena.spiel_parameters(6, 7, 4))
    state = game.new_initial_state()
    for c in moves:
        state.apply_action(c)
    obs = {"serializedGameAndState": pyspiel.serialize_game_and_state(game, state),
           "playerId": 1}
    prompts = []
    player = TextPlayer(lambda p: prompts.append(p) or "Final Answer: 0", "gamearena")
    cfg = config_struct(parse_match_config())
    assert player(observation(board_from_moves(moves)), cfg) == 0
    assert prompts == [harness.generate_prompt(obs, [])]


@needs_textarena
def test_text_arena_prompt_board_is_textarenas():
    """The board in the textarena prompt is the text TextArena shows after the same moves."""
    moves = [3, 3, 2, 4]
    env = text_arena.make_env()
    env.reset(num_players=2)
    for c in moves:
        env.step(action=f"[col {c}]")
    _, shown = env.get_observation()
    prompts = []
    player = TextPlayer(lambda p: prompts.append(p) or "[col 0]", "textarena")
    player(observation(board_from_moves(moves)), config_struct(parse_match_config()))
    board_text = shown[shown.rfind("Board state:"):]
    assert prompts[0].endswith(board_text.strip())
    assert "You are Player 0 in Connect Four." in prompts[0]


BAD = {"garbage": {f: "I would rather talk about turtles." for f in FORMATS},
       "off_board": {"gamearena": "Final Answer: 9", "textarena": "[col 9]",
                     "spinbench": '{"reason": "x", "action": "9"}'},
       "full": {"gamearena": "Final Answer: 3", "textarena": "[col 3]",
                "spinbench": '{"reason": "x", "action": 3}'}}


@pytest.mark.parametrize("fmt", FORMAT_PARAMS)
@pytest.mark.parametrize("kind", sorted(BAD))
def test_text_player_bad_answers_are_counted_named_and_never_crash(fmt, kind):
    """Garbage is UNPARSABLE, a column off the board or full is ILLEGAL; the arena's
    re-prompts are spent, then the player plays the legal column nearest the centre."""
    moves = [3] * 6 + [2]  # column 3 full, o to move
    prompts = []
    player = TextPlayer(lambda p: prompts.append(p) or BAD[kind][fmt], fmt)
    column = player(observation(board_from_moves(moves)), config_struct(parse_match_config()))
    assert column == 2 and isinstance(column, int)  # 3 is full: 2 is the nearest legal
    expected = UNPARSABLE if kind == "garbage" else ILLEGAL
    tries = player.reprompts + 1
    assert player.counts() == {expected: tries} and len(prompts) == tries
    assert [(i.stones, i.attempt, i.answer) for i in player.invalid] == \
        [(7, a, BAD[kind][fmt]) for a in range(tries)]
    assert [(f.stones, f.column, f.category) for f in player.fallbacks] == [(7, 2, expected)]
    assert player.reprompts == {"gamearena": 1, "textarena": 1, "spinbench": 10}[fmt]
    if fmt == "textarena":  # TextArena's own message names the reason, not the answer
        assert "attempted an invalid move" in prompts[1]
    else:
        assert BAD[kind][fmt][-30:] in prompts[1]  # the re-prompt quotes the answer


def test_text_player_empty_answers_and_errors_are_invalid_not_crashes():
    def broken(prompt):
        raise ConnectionError("no network here")

    cfg = config_struct(parse_match_config())
    for ask, category in ((lambda p: "   ", EMPTY), (lambda p: None, EMPTY), (broken, ERROR)):
        player = TextPlayer(ask, "gamearena", reprompts=0)
        assert player(observation([0] * 42), cfg) == 3
        assert player.counts() == {category: 1}


def test_text_player_spec_plays_a_match(monkeypatch):
    """``text:ask=MODULE.FUNCTION,format=...`` is an agent spec like any other."""
    import sys
    import types
    module = types.ModuleType("scripted_text_players")
    module.garbage = lambda prompt: "no idea"
    monkeypatch.setitem(sys.modules, "scripted_text_players", module)
    spec = "text:ask=scripted_text_players.garbage,format=spinbench"
    one = TextPlayer(module.garbage, "spinbench", name="one")  # one object, two games
    for player, label in ((spec, spec), (one, "one")):
        result = match(player, ENGINE, games=2, cfg="rows=5,columns=6,inarow=4",
                       progress=False)
        for g in result.games:  # the text player's invalid answers of that game, recorded
            assert g["statuses"] == ["DONE", "DONE"]
            mark = g["agents"].index(label)
            record, other = g["text"][mark], g["text"][1 - mark]
            mine = g["moves"][mark::2]
            assert other is None and [f[1] for f in record["fallbacks"]] == mine
            assert len(record["invalid"]) == 11 * len(mine)
            assert {tuple(i[2:]) for i in record["invalid"]} == {("UNPARSABLE", "no idea")}
        moves = sum(len(g["moves"][g["agents"].index(label)::2]) for g in result.games)
        assert result.summary["text"] == {  # A (the text player) was x, then o
            "A": {"invalid": {UNPARSABLE: 11 * moves}, "fallbacks": moves, "forfeits": 2,
                  "games": 2}, "B": None}
    assert len(one.fallbacks) == sum(len(g["moves"][g["agents"].index("one")::2])
                                     for g in result.games)
    for bad, message in (("text", "needs ask="), ("text:ask=nomodule", "MODULE.FUNCTION"),
                         ("text:ask=scripted_text_players.nothing", "has no 'nothing'"),
                         ("text:ask=scripted_text_players.garbage,format=chess",
                          "unknown text format"),
                         ("text:ask=scripted_text_players.garbage,colour=1", "unknown text")):
        with pytest.raises(ValueError, match=message):
            parse_spec(bad)


def test_connectx_score_judges_a_text_player_spec(monkeypatch):
    """``connectx score``'s library takes a text player spec: one reading its prompt
    plays ENGINE's columns on every position of a labelled set."""
    import sys
    import types

    from agents.solver.labels import load_labels
    from scripts.arena.judging import DEFAULT_SET, score
    module = types.ModuleType("scripted_readers")
    module.spinbench = engine_reader("spinbench")
    monkeypatch.setitem(sys.modules, "scripted_readers", module)
    labelled = load_labels(DEFAULT_SET).subset(range(0, 1000, 50))
    text = score("text:ask=scripted_readers.spinbench,format=spinbench", labelled)
    assert text.columns == score(ENGINE, labelled).columns and text.failures == {}


def test_move_order_builds_the_board_and_rejects_impossible_ones():
    for moves in ([], [3], [3, 3, 2, 4, 4, 2, 2, 5], [0] * 6 + [1] * 6):
        board = board_from_moves(moves)
        assert board_from_moves(move_order(board, 6, 7)) == board
    x_on_o = [0] * 42
    x_on_o[35], x_on_o[28] = 2, 1  # column 0: o at the bottom, x on it; x moved first
    with pytest.raises(ValueError, match="no order"):
        move_order(x_on_o, 6, 7)


# ---------------------------------------------------------------------------
# The worked example of docs/arenas.md, through the real commands
# ---------------------------------------------------------------------------

DOC = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "docs",
                   "arenas.md")


def doc_block(text, first_line):
    """The lines of the docs' block that starts with ``first_line`` (a fenced block's
    code, or an indented block's lines, unindented)."""
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if line.strip() == first_line)
    if lines[at].startswith("# "):  # a fenced python block
        return lines[at:lines.index("```", at)]
    block = []
    for line in lines[at:]:
        if not line.startswith("    "):
            break
        block.append(line[4:])
    return block


def test_worked_example_is_judged_move_by_move_as_the_docs_show(monkeypatch, tmp_path, capsys):
    """docs/arenas.md's two scripted text players (its mytext.py, run as written) play
    with connectx match --out; connectx blunders of that record prints the judgement the
    page shows, line for line (but the time), o's 13 invalid answers named from the
    record."""
    from scripts.commands import match as match_command
    text = open(DOC, encoding="utf-8").read()
    mytext = types.ModuleType("mytext")
    exec("\n".join(doc_block(text, "# mytext.py")), mytext.__dict__)
    monkeypatch.setitem(sys.modules, "mytext", mytext)
    out = tmp_path / "game.json"
    assert match_command.main(["text:ask=mytext.centre_first,format=textarena",
                               "text:ask=mytext.stubborn,format=textarena", "--games", "1",
                               "--openings", "none", "--out", str(out), "--quiet"]) == 0
    said = capsys.readouterr().out.splitlines()
    invalid = [line for line in said if "invalid answer" in line]
    assert invalid == [
        "A text:ask=mytext.centre_first,format=textarena: no invalid answers in 1 game(s)",
        "B text:ask=mytext.stubborn,format=textarena: 13 invalid answer(s) (UNPARSABLE 1, "
        "ILLEGAL 12); 6 fallback move(s), in 1 of 1 game(s) (the arena's forfeits)"]
    shown = doc_block(text, "$ PYTHONPATH=. connectx match "
                            "text:ask=mytext.centre_first,format=textarena \\")
    assert all(line in shown for line in invalid + [said[2]])  # and W-D-L
    assert json.loads(out.read_text())["summary"]["text"] == {
        "A": {"invalid": {}, "fallbacks": 0, "forfeits": 0, "games": 1},
        "B": {"invalid": {"UNPARSABLE": 1, "ILLEGAL": 12}, "fallbacks": 6, "forfeits": 1,
              "games": 1}}
    assert blunders.main([str(out), "--threads", "1"]) == 0
    printed = capsys.readouterr().out.splitlines()
    shown = doc_block(text, "$ connectx blunders game.json")[1:]
    assert printed[0].split(" judged in ")[0] == shown[0].split(" judged in ")[0]
    assert printed[1:] == shown[1:]
