"""The notebook widget's model, :class:`scripts.server.notebook.Session`, without a browser:
moves, the agent's replies, the analysis and its line, watching two agents, undo, bad
input, replays (a kaggle ``env.toJSON()`` judged move by move, a judged result shown as
it is) and the widget's sync (anywidget). Small boards (4x5, three in a row) and no
opening database, so the exact solver answers at once; tests/test_widget_browser.py
drives the widget in JupyterLab on 7x6."""
import json

import pytest

from agents.board.rules import drop_piece, legal_moves, parse_config, winner
from agents.solver.labels import FULL
from agents.solver.solver import Solver
from scripts.server.notebook import Session, verdict_text, widget

SMALL = {"rows": 4, "columns": 5, "inarow": 3}
CFG = parse_config(SMALL)


def session(**kwargs):
    return Session(**{**SMALL, "database": False, **kwargs})


def board_after(moves):
    board = [0] * (CFG.rows * CFG.columns)
    for i, c in enumerate(moves):
        board = drop_piece(board, c, 1 + i % 2, CFG)
    return board


def exact(moves):
    """The solver's scores of every column after ``moves`` (FULL for a full one)."""
    scores = Solver(*CFG).analyze("".join(str(c + 1) for c in moves))
    return [FULL if s is None else s for s in scores]


def shown(snapshot):
    return [FULL if s is None else s["score"] for s in snapshot["analysis"]["scores"]]


def told(snapshot):
    """``(outcome, in)`` of each column of the snapshot's analysis (None for a full one)."""
    return [None if s is None else (s["outcome"], s["in"])
            for s in snapshot["analysis"]["scores"]]


def words(scores, stones):
    """``(outcome, in)`` of each column scored ``scores`` by the solver (FULL: None) with
    ``stones`` on the board, from the scale in agents/solver/solver.py: a win whose last
    stone is dropped with ``m`` stones on the board scores ``(N + 1 - m) // 2``, which on
    a board of an even number ``N`` of cells (here 20) is ``N / 2 + 1`` minus the
    winner's stones at the end. ``in`` counts the winner's moves from now: the side to
    move has ``stones // 2`` stones, the other side ``(stones + 1) // 2``."""
    n = CFG.rows * CFG.columns
    assert n % 2 == 0
    out = []
    for s in scores:
        if s == FULL:
            out.append(None)
        elif s == 0:
            out.append(("draw", None))
        elif s > 0:
            out.append(("win", n // 2 + 1 - s - stones // 2))
        else:
            out.append(("loss", n // 2 + 1 + s - (stones + 1) // 2))
    return out


def test_a_click_plays_the_agent_replies_and_the_analysis_follows():
    s = session(agent="alphabeta:depth=2")
    first = s.snapshot()
    assert first["mode"] == "play" and first["human"] == 1 and first["moves"] == []
    assert shown(first) == exact([])
    changes = []
    s.on_change = lambda: changes.append(s.snapshot()["moves"])
    s.handle({"action": "play", "column": 2})
    snap = s.snapshot()
    moves = snap["moves"]
    assert moves[0] == 2 and moves[1] in legal_moves(board_after([2]), CFG) and len(moves) == 2
    assert snap["board"] == board_after(moves) and not snap["error"]
    assert [2] in changes  # your move was sent before the agent's reply
    assert snap["last"] == next(i for i in range(moves[1], 20, 5) if snap["board"][i])
    assert shown(snap) == exact(moves)
    assert told(snap) == words(exact(moves), len(moves))
    assert snap["history"][0] == "red (you): column 3"
    assert snap["history"][1].startswith("yellow (alphabeta:depth=2): column ")
    # the best column's line, to the end of the game, each board along it
    line = snap["line"]
    assert line["complete"] and shown(snap)[line["column"]] == max(shown(snap))
    board = board_after(moves)
    for k, c in enumerate(line["moves"]):
        assert not winner(board, CFG) and c in legal_moves(board, CFG)
        board = drop_piece(board, c, 1 + (len(moves) + k) % 2, CFG)
        assert line["frames"][k] == board
    # another column's line
    s.handle({"action": "line", "column": 0})
    assert s.line["column"] == 0 and s.line["moves"][0] == 0
    assert s.line["score"]["score"] == exact(moves)[0]
    said = s.line["score"]
    assert (said["outcome"], said["in"]) == words(exact(moves), len(moves))[0]
    json.dumps(s.snapshot())  # what the widget sends is JSON


# "5152", red (X) to move: column 5 wins at once; columns 1, 2 and 4 leave yellow's
# column 3 to complete the bottom row at once (column 3 blocks it).
#     . . . . .
#     . . . . .
#     . . . . X
#     O O . . X
#     1 2 3 4 5
WIN_IN_ONE = "5152"
# "22", red (X) to move: no column wins at once; column 3 makes two in the bottom row
# with both ends open, yellow blocks one end and red's second stone from now takes the
# other.
#     . . . . .
#     . . . . .
#     . O . . .
#     . X . . .
#     1 2 3 4 5
WIN_IN_TWO = "22"
BY_HAND = [(WIN_IN_ONE, {4: ("win", 1), 0: ("loss", 1), 1: ("loss", 1), 3: ("loss", 1)}),
           (WIN_IN_TWO, {2: ("win", 2)})]


@pytest.mark.parametrize("moves,known", BY_HAND)
def test_wins_and_losses_count_the_winners_moves(moves, known):
    """The outcome and its count on positions whose ends are known by hand (the boards
    above), in the analysis of a game, in each column's line (whose length agrees) and in
    a replay stopped at the same position."""
    s = session(agent="rules", moves=moves)
    assert s.human == 1 and len(s.moves) == len(moves)
    for c, want in known.items():
        assert told(s.snapshot())[c] == want, (c, s.snapshot()["analysis"]["scores"][c])
        s.handle({"action": "line", "column": c})
        assert (s.line["score"]["outcome"], s.line["score"]["in"]) == want
        winner_moves = (len(s.line["moves"]) + (want[0] == "win")) // 2
        assert s.line["complete"] and winner_moves == want[1], s.line
    assert max(n for o, n in known.values() if o == "win") == min(
        n for o, n in filter(None, told(s.snapshot())) if o == "win")  # none faster
    r = session(replay=moves + "1")
    r.seek(len(moves))
    assert r.pos == len(moves) and told(r.snapshot()) == told(s.snapshot())
    for c, want in known.items():
        assert told(r.snapshot())[c] == want


def test_undo_takes_back_your_move_and_the_reply():
    s = session(agent="rules", you=2, analyze=False)
    assert len(s.moves) == 1  # the agent moved first
    s.play(0)
    assert len(s.moves) == 3
    s.undo()
    assert len(s.moves) == 1
    with pytest.raises(ValueError, match="no move to take back"):
        s.undo()


def test_watching_two_agents_to_the_end():
    s = session(watch=("rules", "alphabeta:depth=1"), analyze=False)
    snap = s.snapshot()
    assert snap["mode"] == "watch" and snap["human"] == 0 and snap["moves"] == []
    assert snap["players"] == {"1": "rules", "2": "alphabeta:depth=1"}
    s.handle({"action": "step"})
    assert len(s.moves) == 1
    s.handle({"action": "run"})
    snap = s.snapshot()
    assert snap["over"] and snap["board"] == board_after(snap["moves"])
    assert len(snap["history"]) == len(snap["moves"])
    assert ("Draw" in snap["status"]) == (snap["winner"] == 0)
    s.handle({"action": "step"})
    assert s.error and s.status == "the game is over"


@pytest.mark.parametrize("kwargs, message", [
    ({"agent": "alphabeta:deep=3"}, "unknown option"),
    ({"agent": "nobody"}, "unknown agent 'nobody'"),
    ({"agent": "minimax:depth=12"}, "searches without a clock"),
    ({"you": 3}, "you must be 1"),
    ({"watch": "rules"}, "watch takes two agent specs"),
    ({"watch": ("rules", "random"), "agent": "rules"}, "watch takes two"),
    ({"replay": "1", "agent": "rules"}, "not both"),
    ({"moves": "116"}, "columns are 1..5"),
    ({"moves": "11111"}, "full"),
    ({"rows": 40}, "rows must be at most 30"),
    ({"replay": 3}, "replay takes a record"),
    ({"replay": "1", "game": 1}, "game must be 0..0 .the record has 1."),
])
def test_bad_arguments_say_what_is_wrong(kwargs, message):
    with pytest.raises(ValueError, match=message):
        session(**kwargs)


def test_refused_clicks_become_the_status_line():
    s = session(agent="rules", analyze=False)
    for message, text in [({"action": "play", "column": 7}, "column must be an integer 0..4"),
                          ({"action": "fly"}, "unknown action 'fly'"),
                          ({"action": "play", "column": 1, "x": 1}, "unknown field(s) x"),
                          ({"action": "seek", "pos": 1}, "steps through a replay")]:
        s.handle(message)
        assert s.error and text in s.status and not s.busy, (message, s.status)
    s.handle({"action": "new", "moves": "1111"})  # column 1 full, red (you) to move
    s.handle({"action": "play", "column": 0})
    assert s.error and "column 1 is full; choose another" in s.status and len(s.moves) == 4


def test_the_search_tree_of_the_position():
    s = session(agent="rules", analyze=False, moves="33")
    s.handle({"action": "tree", "depth": 1})
    assert not s.error and 'class="node' in s.tree["svg"] and "after 33" in s.tree["title"]
    s.handle({"action": "tree", "depth": 9})
    assert s.error and "depth must be an integer from 1 to 4" in s.status


def kaggle_replay(moves, config=SMALL):
    """A kaggle-environments ``connectx`` replay (``env.toJSON()``'s fields that
    :mod:`scripts.arena.records` reads) of ``moves``, made here by the rules."""
    cfg = parse_config(config)
    board, steps = [0] * (cfg.rows * cfg.columns), []
    steps.append([{"observation": {"board": board, "mark": 1}}, {"observation": {}}])
    for i, c in enumerate(moves):
        board = drop_piece(board, c, 1 + i % 2, cfg)
        steps.append([{"observation": {"board": board, "mark": 1}}, {"observation": {}}])
    return {"name": "connectx", "configuration": dict(config), "steps": steps,
            "info": {"TeamNames": ["Alice", "Bob"]}}


GAME = [0, 2, 0, 3, 4, 1]  # yellow's three in the bottom row (0-based 1..3) after red's mistakes


def test_a_kaggle_replay_is_judged_move_by_move(tmp_path):
    assert winner(board_after(GAME), CFG) == 2
    for record in (kaggle_replay(GAME), tmp_path / "replay.json"):
        (tmp_path / "replay.json").write_text(json.dumps(kaggle_replay(GAME)))
        s = session(replay=record)
        snap = s.snapshot()
        assert snap["mode"] == "replay" and snap["moves"] == [] and snap["board"] == [0] * 20
        assert snap["players"] == {"1": "Alice", "2": "Bob"}
        assert snap["replay"]["length"] == len(GAME) and snap["replay"]["next"] == GAME[0]
    kinds = []
    for k in range(len(GAME)):
        scores = exact(GAME[:k])
        assert shown(s.snapshot()) == scores  # the position's scores before move k + 1
        assert told(s.snapshot()) == words(scores, k)
        s.handle({"action": "seek", "pos": k + 1})
        snap = s.snapshot()
        assert snap["moves"] == GAME[:k + 1] and snap["board"] == board_after(GAME[:k + 1])
        best, mine = max(x for x in scores if x != FULL), scores[GAME[k]]
        want = "perfect" if mine == best else "good" if (mine > 0) == (best > 0) and \
            (mine < 0) == (best < 0) else "mistake"
        assert f": {want}" in snap["replay"]["verdict"], (k, scores, snap["replay"]["verdict"])
        assert snap["history"][k] == snap["replay"]["verdict"]
        kinds.append(want)
    assert {"perfect", "mistake"} <= set(kinds)
    assert snap["analysis"] is None and snap["over"] and "Alice" in snap["history"][0]
    s.handle({"action": "seek", "pos": 99})
    assert s.pos == len(GAME)
    s.handle({"action": "play", "column": 1})
    assert s.error and "no move to click in replay mode" in s.status


def test_a_judged_result_is_shown_as_it_is_and_games_are_chosen():
    """A judged result (``connectx blunders --json``'s shape) keeps its own verdicts."""
    moves = [{"ply": i, "seat": i % 2, "column": c, "scores": [1, 1, 1, 1, 1],
              "perfect": i == 0, "good": True, "loss": 0, "accuracy": 1.0, "line": line}
             for i, (c, line) in enumerate([(2, ""), (2, "3")])]
    doc = {"config": [4, 5, 3], "games": [{"agents": ["a", "b"], "moves": moves},
                                          {"agents": ["c", "d"], "moves": moves[1:]}]}
    s = session(replay=doc)
    assert s.snapshot()["replay"]["games"] == ["0: a vs b (2 moves)", "1: c vs d (2 moves)"]
    s.seek(2)
    assert s.snapshot()["history"] == ["red (a): column 3: perfect",
                                       "yellow (b): column 3: good: keeps the win, 0 below "
                                       "the best score"]
    s.handle({"action": "game", "index": 1})  # its first move an opening's: not judged
    assert s.snapshot()["players"] == {"1": "c", "2": "d"} and s.pos == 0
    s.seek(1)
    assert s.snapshot()["replay"]["verdict"] == "red (c): column 3: no verdict (an opening move)"
    s.handle({"action": "game", "index": 2})
    assert s.error and "game must be 0..1" in s.status


def test_verdict_words():
    move = {"column": 0, "scores": [-2, FULL, 3], "perfect": False, "good": False}
    assert verdict_text(move) == "mistake: turns a win into a loss"
    assert verdict_text({**move, "scores": None}).startswith("not judged")


def test_the_widget_syncs_the_session_and_draws_with_the_pages_board():
    pytest.importorskip("anywidget")
    from scripts.server.view import WEB
    w = widget(agent="rules", analyze=False, **SMALL, database=False)
    assert w.state == w.session.snapshot()
    w._message(w, {"action": "play", "column": 1}, [])
    assert len(w.state["moves"]) == 2 and w.state["moves"][0] == 1
    # one board: the widget's module starts with the page's board.js, as it is
    assert w._esm.startswith((WEB / "board.js").read_text(encoding="utf-8"))
    assert "export default" in w._esm and (WEB / "board.css").read_text() in w._css


def test_the_widget_names_its_extra_when_anywidget_is_missing(monkeypatch):
    import importlib.util
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "anywidget" else real(name, *a))
    with pytest.raises(ValueError, match=r"connectx-search\[notebook\]"):
        widget(agent="rules")


def test_move_lists_replay_on_the_board_given_and_the_text():
    s = session(replay="123")
    s.seek(2)
    assert s.cfg == CFG and s.record["moves"] == [0, 1, 2]
    assert s.text().splitlines() == [
        "Connect Four (replay: red first, yellow second), 4x5, 3 in a row; moves 12",
        ". . . . .", ". . . . .", ". . . . .", "X O . . .", "1 2 3 4 5",
        "move 2: yellow (second): column 2: " + verdict_text(s.record["judged"][1])]


def test_the_widget_notebook_calls_what_exists():
    """docs/notebooks/widget.ipynb (stored executed, not re-run by the suite: a random
    kaggle game, the opening database): its ``widget(...)`` calls name only the function's
    arguments and its ``.session.X`` only what a Session has, and it ran clean."""
    import ast
    import inspect
    import os
    path = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "docs",
                        "notebooks", "widget.ipynb")
    with open(path, encoding="utf-8") as f:
        nb = json.load(f)  # nbformat's import alone took 5 s on a loaded machine
    arguments = set(inspect.signature(widget).parameters)
    names = set(dir(Session)) | set(vars(session(agent="rules", analyze=False)))
    calls = methods = 0
    for cell in nb["cells"]:
        if cell["cell_type"] != "code":
            continue
        assert cell["execution_count"] and not [o for o in cell["outputs"]
                                                if o["output_type"] == "error"]
        source = "".join(cell["source"])
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "widget":
                assert {k.arg for k in node.keywords} <= arguments, source
                calls += 1
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Attribute) \
                    and node.value.attr == "session":
                assert node.attr in names, node.attr
                methods += 1
    assert calls >= 4 and methods >= 3


def test_each_position_is_analysed_once(monkeypatch):
    """The start, then only the position after the agent's reply (yours is passed over:
    the reply comes first)."""
    import scripts.server.notebook as notebook
    seen = []
    real = notebook.analyze
    monkeypatch.setattr(notebook, "analyze",
                        lambda app, request: seen.append(list(request["moves"])) or
                        real(app, request))
    s = session(agent="rules")
    s.play(2)
    assert seen == [[], s.moves] and len(s.moves) == 2
