"""``scripts.server`` (app, analysis, game): the game functions, every endpoint's bad input, a bounded load test.

The server runs in this process on a free loopback port (``port=0``)."""
import http.client
import json
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import numpy as np
import pytest

import agents
from agents.players.base import Agent
from agents.board.rules import drop_piece, legal_moves, winner
from agents.search.solver import Solver
from scripts.server import analysis as serve_analysis
from scripts.server import app as serve
from scripts.server import game as serve_game
from scripts.commands.match import main as match_main
from scripts.commands.serve import main as serve_main

# Known analyses (shared/positions/analysis.txt, exact solver labels; -1000 = full column)
KNOWN = [
    ("22563167133127733314", [-10, 0, -1000, 2, 0, -10, -10]),
    ("27366731672116452563", [11, 11, -11, -11, -11, -11, 10]),
    ("15676771516522251153377373", [7, 7, 7, 8, 7, 8, -1000]),
]


@pytest.fixture(scope="module")
def server():
    app = serve.App(searches=2, move_time=1.0, analysis_time=5.0)
    srv = serve.make_server(app, "127.0.0.1", 0)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    yield srv
    srv.shutdown()
    srv.server_close()


def call(srv, path, body=None, method=None, headers=None, raw=None):
    """(status, decoded JSON or bytes) of one request to the test server."""
    data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
    req = urllib.request.Request(serve.url_of(srv).rstrip("/") + path, data=data,
                                 method=method or ("POST" if data is not None else "GET"),
                                 headers=headers or {"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            status, ctype, payload = r.status, r.headers["Content-Type"], r.read()
    except urllib.error.HTTPError as e:
        status, ctype, payload = e.code, e.headers["Content-Type"], e.read()
    return status, (json.loads(payload) if ctype == "application/json" else payload)


def board_after(moves, cfg):
    board = [0] * (cfg["rows"] * cfg["columns"])
    for i, c in enumerate(moves):
        board = drop_piece(board, c, 1 + i % 2, cfg)
    return board


# ---------------------------------------------------------------------------
# Game state
# ---------------------------------------------------------------------------


def test_state_follows_the_rules_for_lists_and_move_strings(server):
    cfg = {"rows": 6, "columns": 7, "inarow": 4}
    status, s = call(server, "/api/state", {"config": cfg, "moves": "4453"})
    assert status == 200
    assert s["moves"] == [3, 3, 4, 2] and s["notation"] == "4453"
    assert s["board"] == board_after([3, 3, 4, 2], cfg)
    assert (s["to_move"], s["winner"], s["over"]) == (1, 0, False)
    assert s["legal"] == legal_moves(s["board"], cfg)
    assert call(server, "/api/state", {"config": cfg, "moves": [3, 3, 4, 2]})[1] == s


def test_state_of_a_won_and_of_a_full_game():
    """Four in a row across the bottom (mark 1), and a full 2x2 board with inarow 3:

        . . . . . . .
        2 2 2 . . . .
        1 1 1 1 . . .
    """
    cfg = serve_game.parse_game_config({})
    s = serve_game.game_state(cfg, [0, 0, 1, 1, 2, 2, 3])
    assert (s["winner"], s["over"], s["to_move"], s["legal"]) == (1, True, 0, [])
    full = serve_game.game_state(serve_game.parse_game_config({"rows": 2, "columns": 2, "inarow": 3}),
                            [0, 0, 1, 1])
    assert (full["winner"], full["over"], full["legal"]) == (0, True, [])


def test_wide_boards_use_comma_separated_move_strings():
    cfg = serve_game.parse_game_config({"rows": 5, "columns": 12, "inarow": 4})
    assert serve_game.parse_moves("12,1, 10", cfg) == [11, 0, 9]
    assert serve_game.game_state(cfg, [11, 0, 9])["notation"] == "12,1,10"
    with pytest.raises(serve_game.BadRequest, match="commas"):
        serve_game.parse_moves("121", cfg)


# ---------------------------------------------------------------------------
# Bad input: every endpoint answers 400 (or 404/405/413/415) with a message
# ---------------------------------------------------------------------------

GAME_ERRORS = [
    ({"config": [6, 7]}, "config must be an object"),
    ({"config": {"rows": 6, "cols": 7}}, "unknown config field"),
    ({"config": {"rows": 0}}, "config.rows"),
    ({"config": {"columns": 31}}, "at most 30"),
    ({"config": {"inarow": "four"}}, "config.inarow"),
    ({"moves": 4453}, "moves must be a list"),
    ({"moves": [3, 7]}, "move 2 is 7"),
    ({"moves": [True]}, "move 1 is True"),
    ({"moves": [3.0]}, "move 1 is 3.0"),
    ({"moves": "44a"}, "move 3 of '44a' is 'a'"),
    ({"moves": "48"}, "columns are 1..7"),
    ({"moves": "4444444"}, "move 7 (0-based column 3): column 3 is full"),
    ({"moves": "12121212"}, "move 8 (0-based column 1) comes after player 1 has won"),
    ({"moves": [], "colour": 1}, "unknown field(s) colour"),
    ({"moves": "1" * 43}, "43 moves on a board of 42 cells"),
    ({"moves": [0] * 10**5}, "100000 moves on a board of 42 cells"),
]


@pytest.mark.parametrize("path", ["/api/state", "/api/move", "/api/analyse"])
@pytest.mark.parametrize("body,words", GAME_ERRORS)
def test_bad_games_are_400_on_every_game_endpoint(server, path, body, words):
    status, reply = call(server, path, {**({"agent": "random"} if path == "/api/move" else {}),
                                        **body})
    assert status == 400, reply
    assert words in reply["error"]


@pytest.mark.parametrize("agent,words", [
    (None, "agent must be a spec"),
    ("", "agent must be a spec"),
    ("nosuch", "unknown agent 'nosuch'"),
    ("negamax", "unknown agent 'negamax'"),
    ("kaggle.random", "unknown agent"),
    ("/tmp/submission.py", "unknown agent"),
    ("alphabeta:depth", "malformed option"),
    ("alphabeta:deep=3", "unknown option(s) deep"),
    ("alphabeta:depth=0", "depth"),
    ("alphabeta:time_limit=-1", "time_limit"),
    ("minimax:depth=9", "minimax searches without a clock: depth=9 on a 6x7 board would take "
                        "about 5.76 s, over the 1 s move time here"),
    ("tutorial:nsteps=4", "tutorial searches without a clock: nsteps=4"),
    (["alphabeta"], "agent must be a spec"),
])
def test_bad_agents_are_400(server, agent, words):
    status, reply = call(server, "/api/move", {"agent": agent, "moves": [3]})
    assert status == 400 and words in reply["error"], reply


def test_unclocked_agents_are_refused_by_the_size_of_their_search():
    small, big = serve_game.parse_game_config({}), serve_game.parse_game_config({"rows": 20, "columns": 20})
    serve_game.check_unclocked(serve_game.parse_agent("minimax:depth=8"), small, 1.0)  # 5.8e6 leaves
    serve_game.check_unclocked(serve_game.parse_agent("tutorial"), small, 1.0)          # nsteps 3
    serve_game.check_unclocked(serve_game.parse_agent("alphabeta:depth=40"), big, 0.1)  # has a clock
    serve_game.check_unclocked(serve_game.parse_agent("minimax:depth=5"), big, 1.0)    # 3.2e6 leaves
    with pytest.raises(serve_game.BadRequest, match="depth=6 on a 20x20 board"):
        serve_game.check_unclocked(serve_game.parse_agent("minimax:depth=6"), big, 1.0)
    with pytest.raises(serve_game.BadRequest, match="nsteps=2 on a 20x20 board"):
        serve_game.check_unclocked(serve_game.parse_agent("tutorial:nsteps=2"), big, 2.0)


def test_move_and_analysis_of_a_finished_game_are_400(server):
    body = {"moves": "1212121"}  # mark 1 connects four in column 1
    for path, extra in (("/api/move", {"agent": "random"}), ("/api/analyse", {})):
        status, reply = call(server, path, {**body, **extra})
        assert status == 400 and "game is over" in reply["error"]


@pytest.mark.parametrize("path,field", [("/api/state", "agent"), ("/api/move", "time_limit"),
                                        ("/api/analyse", "game"), ("/api/replay", "moves")])
def test_fields_of_another_endpoint_are_400(server, path, field):
    status, reply = call(server, path, {field: 1})
    assert status == 400 and f"unknown field(s) {field}" in reply["error"]


@pytest.mark.parametrize("limit", [0, -1, 5.5, "1", True, None])
def test_bad_analysis_time_limits_are_400(server, limit):
    status, reply = call(server, "/api/analyse", {"moves": "4", "time_limit": limit})
    assert status == 400 and "time_limit must be a number of seconds in (0, 5]" in reply["error"]


def _match_doc(tmp_path, games=2):
    path = tmp_path / "games.json"
    assert match_main(["rules", "random", "--games", str(games), "--json", str(path),
                       "--quiet"]) == 0
    return json.loads(path.read_text())


def test_bad_replays_are_400(server, tmp_path):
    doc = _match_doc(tmp_path)
    illegal = json.loads(json.dumps(doc))
    illegal["games"][1]["moves"] = [0] * 7
    cases = [
        ({}, "match must be the object"),
        ({"match": []}, "match must be the object"),
        ({"match": {"games": []}}, "non-empty 'games'"),
        ({"match": {**doc, "config": {"rows": "six"}}}, "config.rows"),
        ({"match": {**doc, "config": 7}}, "match.config must be an object"),
        ({"match": doc, "game": 2}, "game must be an integer in 0..1"),
        ({"match": doc, "game": "1"}, "game must be an integer"),
        ({"match": {"games": [{"moves": "44"}]}}, "match game 0 has no 'moves' list"),
        ({"match": illegal, "game": 1},
         "match game 1: move 7 (0-based column 0): column 0 is full"),
    ]
    for body, words in cases:
        status, reply = call(server, "/api/replay", body)
        assert status == 400 and words in reply["error"], (body, reply)


def test_malformed_requests(server):
    ok = {"Content-Type": "application/json"}
    assert call(server, "/api/state", raw=b"{not json", headers=ok)[0] == 400
    status, reply = call(server, "/api/state", raw=b"[1, 2]", headers=ok)
    assert status == 400 and "JSON object" in reply["error"]
    status, reply = call(server, "/api/state", raw=b"\xff\xfe", headers=ok)
    assert status == 400 and "not JSON" in reply["error"]
    status, reply = call(server, "/api/state", raw=b"{}", headers={"Content-Type": "text/plain"})
    assert status == 415 and "application/json" in reply["error"]
    assert call(server, "/api/state")[0] == 405          # GET on a POST endpoint
    assert call(server, "/", raw=b"{}", headers=ok)[0] == 405
    assert call(server, "/api/nothing", {})[0] == 404
    for path in ("/nothing", "/../pyproject.toml", "/web/index.html", "/serve.py", "/%2e%2e/"):
        status, reply = call(server, path)
        assert status == 404 and "no such page" in reply["error"], path
    # a body larger than the limit is refused before it is read
    conn = http.client.HTTPConnection(*server.server_address[:2], timeout=10)
    conn.putrequest("POST", "/api/state")
    conn.putheader("Content-Type", "application/json")
    conn.putheader("Content-Length", str(serve.MAX_BODY + 1))
    conn.endheaders()
    r = conn.getresponse()
    assert r.status == 413 and "at most" in json.loads(r.read())["error"]
    conn.close()
    assert call(server, "/api/state", {"moves": "4"})[0] == 200  # still serving


def test_only_the_pages_own_files_are_served_and_they_load_nothing_remote(server):
    for path, kind in (("/", "text/html"), ("/app.js", "text/javascript"),
                       ("/style.css", "text/css")):
        req = urllib.request.urlopen(serve.url_of(server).rstrip("/") + path, timeout=10)
        assert req.headers["Content-Type"].startswith(kind)
        assert req.headers["Content-Security-Policy"] == "default-src 'self'"
        text = req.read().decode()
        assert "http://" not in text and "https://" not in text and "//cdn" not in text


# ---------------------------------------------------------------------------
# Agents: moves, failures, the search slots
# ---------------------------------------------------------------------------


def test_agent_moves_follow_the_rules(server):
    cfg = {"rows": 5, "columns": 6, "inarow": 4}
    for spec in ("alphabeta:depth=4", "rules", "mcts:iterations=200,seed=1", "random:seed=3"):
        status, reply = call(server, "/api/move", {"config": cfg, "moves": [2, 2], "agent": spec})
        assert status == 200, reply
        assert reply["column"] in legal_moves(board_after([2, 2], cfg), cfg)
        assert reply["state"]["moves"] == [2, 2, reply["column"]]
        assert reply["state"]["board"] == board_after([2, 2, reply["column"]], cfg)
        assert reply["time"] >= 0 and reply["agent"] == spec


def test_agent_takes_the_win_and_blocks(server):
    """Mark 1 to move with three in the bottom row (columns 0-2): alphabeta wins at 3.

        . . . . . . .
        2 2 2 . . . .
        1 1 1 . . . .
    """
    status, reply = call(server, "/api/move", {"moves": [0, 0, 1, 1, 2, 2],
                                               "agent": "alphabeta:depth=2"})
    assert status == 200 and reply["column"] == 3
    assert reply["state"]["winner"] == 1 and reply["state"]["over"]


class BrokenAgent(Agent):
    """Raises, or returns a full column, or a numpy int (kaggle rejects those)."""

    name = "broken"
    OPTIONS = {"mode": (str, "raise")}

    def __call__(self, obs, config):
        if self.mode == "raise":
            raise RuntimeError("kaboom")
        return 3 if self.mode == "full" else np.int64(0)


@pytest.mark.parametrize("mode,words", [("raise", "failed: RuntimeError: kaboom"),
                                        ("full", "invalid column 3 (int)"),
                                        ("numpy", "(int64)")])
def test_failing_agent_is_500_with_a_message_and_the_server_goes_on(server, monkeypatch,
                                                                     mode, words):
    monkeypatch.setitem(agents.AGENTS, "broken", f"{__name__}:BrokenAgent")
    status, reply = call(server, "/api/move", {"moves": "444444", "agent": f"broken:mode={mode}"})
    assert status == 500 and words in reply["error"], reply
    assert call(server, "/api/move", {"moves": "4", "agent": "random"})[0] == 200


def test_busy_slots_answer_503(server, monkeypatch):
    monkeypatch.setattr(serve, "QUEUE_WAIT", 0.05)
    app = server.app
    held = [app.slots.acquire(timeout=10) for _ in range(app.searches)]
    try:
        assert all(held)
        for path, extra in (("/api/move", {"agent": "random"}), ("/api/analyse", {})):
            status, reply = call(server, path, {"moves": "4", **extra})
            assert status == 503 and "busy" in reply["error"]
        assert call(server, "/api/state", {"moves": "4"})[0] == 200  # no slot needed
    finally:
        for _ in held:
            app.slots.release()
    assert call(server, "/api/move", {"moves": "4", "agent": "random"})[0] == 200


# ---------------------------------------------------------------------------
# Analysis
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("moves,expected", KNOWN)
def test_solver_analysis_matches_the_solver_and_the_labels(server, moves, expected):
    status, reply = call(server, "/api/analyse", {"moves": moves, "time_limit": 5})
    assert status == 200 and reply["method"] == "solver" and reply["complete"], reply
    solver = Solver(tt_bits=20)
    assert solver.analyze(moves) == expected
    shown = [s["score"] if s else -1000 for s in reply["scores"]]
    assert shown == expected
    n = len(moves)
    for s in reply["scores"]:
        if s is None:
            continue
        # 7x6: a win scores 22 minus the winner's stones at the end (positions README)
        if s["score"] > 0:
            assert (s["outcome"], s["in"]) == ("win", 22 - s["score"] - n // 2)
        elif s["score"] < 0:
            assert (s["outcome"], s["in"]) == ("loss", 22 + s["score"] - (n + 1) // 2)
        else:
            assert (s["outcome"], s["in"]) == ("draw", None)


def test_immediate_wins_and_losses_are_in_one():
    """On 7x6 a column that wins at once with 6 stones on the board scores (43 - 6) // 2
    = 18 and is a win in 1; a column after which the opponent wins at once (5 stones
    on the board when it does) scores -(43 - 5) // 2 = -19 and is a loss in 1."""
    assert serve_game.solver_outcome(18, 6, 42) == {"score": 18, "outcome": "win", "in": 1}
    assert serve_game.solver_outcome(-19, 4, 42) == {"score": -19, "outcome": "loss", "in": 1}
    assert serve_game.solver_outcome(0, 4, 42) == {"score": 0, "outcome": "draw", "in": None}
    # alphabeta's form: the game ends with 7 (our win) or 8 stones (their win)
    assert serve_game.outcome(1, 7, 6)["in"] == 1 and serve_game.outcome(-1, 8, 6)["in"] == 1


def _reference(board, mark, cfg, memo):
    """(score, stones when the game ends) with the side to move choosing the best score,
    by plain recursion over agents.board.rules boards: the solver's convention, from scratch."""
    key = (tuple(board), mark)
    if key not in memo:
        n, moves = len(board), sum(1 for v in board if v)
        best = None
        for c in legal_moves(board, cfg):
            child = drop_piece(board, c, mark, cfg)
            if winner(child, cfg):
                result = ((n + 1 - moves) // 2, moves + 1)
            elif moves + 1 == n:
                result = (0, n)
            else:
                s, end = _reference(child, 3 - mark, cfg, memo)
                result = (-s, end)
            if best is None or result[0] > best[0]:
                best = result
        memo[key] = best
    return memo[key]


@pytest.mark.parametrize("rows,columns,inarow", [(3, 4, 3), (3, 3, 3), (1, 7, 3), (4, 3, 3)])
def test_win_and_loss_counts_match_a_reference_on_small_boards(rows, columns, inarow):
    """``in`` (the winner's moves from now) from the solver's score, against the game
    length a plain recursion finds, on every column of random positions (even and odd
    numbers of cells)."""
    cfg = serve_game.parse_game_config({"rows": rows, "columns": columns, "inarow": inarow})
    app, memo, rng = serve.App(searches=1), {}, np.random.default_rng(rows * columns)
    checked = 0
    for _ in range(12):
        moves = []
        for _ in range(int(rng.integers(0, rows * columns - 2))):
            state = serve_game.game_state(cfg, moves)
            if state["over"]:
                break
            moves.append(int(rng.choice(state["legal"])))
        state = serve_game.game_state(cfg, moves)
        if state["over"]:
            continue
        reply = serve_analysis.analyse(app, {"config": cfg._asdict(), "moves": moves})
        assert reply["method"] == "solver" and reply["complete"]
        mark, n = state["to_move"], len(moves)
        for c in state["legal"]:
            child = drop_piece(state["board"], c, mark, cfg)
            if winner(child, cfg):
                score, end = (rows * columns + 1 - n) // 2, n + 1
            elif n + 1 == rows * columns:
                score, end = 0, n + 1
            else:
                s, end = _reference(child, 3 - mark, cfg, memo)
                score = -s
            got = reply["scores"][c]
            assert got["score"] == score
            if score > 0:
                assert (got["outcome"], got["in"]) == ("win", (end - n + 1) // 2)
            elif score < 0:
                assert (got["outcome"], got["in"]) == ("loss", (end - n) // 2)
            checked += 1
    assert checked > 20


def test_solver_analysis_is_cut_short_by_its_time_limit():
    app = serve.App(searches=1, analysis_time=5.0, database=False)
    reply = serve_analysis.analyse(app, {"moves": "", "time_limit": 0.05})
    assert reply["method"] == "solver"
    # without the database the solver needs far longer than 0.05 s for any column of
    # the empty board
    assert reply["complete"] is False and reply["scores"][3] is None and reply["line"] is None


def play_line(moves, line, cfg=None):
    """(winner or 0, stones at the end, the board is full) of ``moves`` then ``line``; the
    line must end the game with its last move and not before."""
    cfg = cfg or {"rows": 6, "columns": 7, "inarow": 4}
    if isinstance(moves, str):
        moves = [int(ch) - 1 for ch in moves]
    board = board_after(moves, cfg)
    n = len(moves)
    for i, c in enumerate(line):
        assert c in legal_moves(board, cfg) and not winner(board, cfg)
        board = drop_piece(board, c, 1 + (n + i) % 2, cfg)
    return winner(board, cfg), n + len(line), all(board)


def assert_line_keeps(moves, line, score):
    """The line ends the game with ``score`` for the side to move after ``moves``."""
    who, end, full = play_line(moves, line)
    n = len(moves)
    if score == 0:
        assert who == 0 and full
    else:
        assert who == (1 + n % 2 if score > 0 else 2 - n % 2)
        assert abs(score) == (43 - (end - 1)) // 2  # the winning stone dropped on end-1


@pytest.mark.parametrize("moves,expected", KNOWN)
def test_analysis_gives_the_best_columns_line(server, moves, expected):
    status, reply = call(server, "/api/analyse", {"moves": moves, "time_limit": 5})
    assert status == 200 and reply["complete"]
    line = reply["line"]
    assert line["complete"] and line["moves"][0] == line["column"]
    assert expected[line["column"]] == max(expected)
    assert_line_keeps(moves, line["moves"], max(expected))


def test_line_of_each_column_keeps_its_score(server):
    moves, expected = KNOWN[0]
    for c, score in enumerate(expected):
        if score == -1000:
            continue
        status, reply = call(server, "/api/line", {"moves": moves, "column": c, "time_limit": 5})
        assert status == 200 and reply["complete"] and reply["score"] == score, reply
        assert reply["moves"][0] == c
        assert_line_keeps(moves, reply["moves"], score)


@pytest.mark.parametrize("body,words", [
    ({"moves": "4", "column": 7}, "column must be one of the legal columns"),
    ({"moves": "444444", "column": 3}, "column must be one of the legal columns [0, 1, 2, 4, 5, 6]"),
    ({"moves": "4", "column": "3"}, "got '3'"),
    ({"moves": "4", "column": True}, "got True"),
    ({"moves": "4"}, "got None"),
    ({"moves": "1212121", "column": 3}, "the game is over"),
    ({"moves": [3], "column": 3, "config": {"rows": 8, "columns": 8}}, "exact solver"),
    ({"moves": "4", "column": 3, "time_limit": 0}, "time_limit must be"),
    ({"moves": "4", "column": 3, "agent": "random"}, "unknown field(s) agent"),
])
def test_bad_line_requests_are_400(server, body, words):
    status, reply = call(server, "/api/line", body)
    assert status == 400 and words in reply["error"], reply


def test_opening_database_answers_the_empty_board():
    """With the books extra: every column of the empty board and its line, exact."""
    app = serve.App(searches=1, analysis_time=5.0)
    if app.database is None:
        pytest.skip("the books extra is not installed")
    reply = serve_analysis.analyse(app, {"moves": "", "time_limit": 5})
    assert reply["complete"] and [s["score"] for s in reply["scores"]] == [-2, -1, 0, 1, 0, -1, -2]
    assert reply["line"]["column"] == 3 and reply["line"]["complete"]
    assert_line_keeps([], reply["line"]["moves"], 1)
    assert app.limits()["database_note"] is None


def test_alphabeta_analysis_where_the_solver_does_not_fit(server):
    """8x8 (72 bits > 64): mark 2 to move must stop the open two growing into an open three::

        . . . . . . . .
        . . . 2 . . . .
        . . . 1 1 . . .      columns 2 and 5 (0-based) hold; every other column loses in 2

    The array kernels that boards over 64 bits use are not in numba's disk cache: a
    process that has not run them compiles them in its first such request (3.5-4 s,
    inside that request's time: the first column searched then reaches depth 2), as
    ``connectx serve`` does at start (``App.warm_up``); this test server does not warm
    up, so a short request compiles them first."""
    game = {"config": {"rows": 8, "columns": 8}, "moves": [3, 3, 4]}
    assert call(server, "/api/analyse", dict(game, time_limit=0.05))[0] == 200
    status, reply = call(server, "/api/analyse", dict(game, time_limit=5))
    assert status == 200 and reply["method"] == "alphabeta"
    config = {"rows": 8, "columns": 8, "inarow": 4}
    for c, s in enumerate(reply["scores"]):
        if c in (2, 5):
            assert s["outcome"] != "loss"
        else:
            assert (s["outcome"], s["in"]) == ("loss", 2), (c, s)
            # alphabeta's line from the column: played out, the opponent wins
            board, mark = [0] * 64, 1
            for move in game["moves"] + s["pv"]:
                board = drop_piece(board, move, mark, config)
                mark = 3 - mark
            assert winner(board, config) == 1, (c, s)  # mark 2 is to move at the start
        assert s["depth"] >= 1 and s["pv"][0] == c


# ---------------------------------------------------------------------------
# Replay
# ---------------------------------------------------------------------------


def test_replay_gives_every_board_and_move_time(server, tmp_path):
    doc = _match_doc(tmp_path, games=2)
    cfg = doc["config"]
    for i, game in enumerate(doc["games"]):
        status, reply = call(server, "/api/replay", {"match": doc, "game": i})
        assert status == 200
        assert [g["moves"] for g in reply["games"]] == [len(g["moves"]) for g in doc["games"]]
        r = reply["game"]
        assert r["moves"] == game["moves"] and r["agents"] == game["agents"]
        assert len(r["frames"]) == len(game["moves"]) + 1
        for k in range(len(game["moves"]) + 1):
            assert r["frames"][k] == board_after(game["moves"][:k], cfg)
        n = len(game["opening"])  # the opening's moves (a balanced suite on 7x6) have no time
        assert r["times"][:n] == [None] * n
        assert r["times"][n:] == [game["times"][(n + k) % 2][k // 2]
                                  for k in range(len(game["moves"]) - n)]
        assert winner(r["frames"][-1], cfg) == game["winner"]


# ---------------------------------------------------------------------------
# Load (loopback only; latency is printed, not asserted)
# ---------------------------------------------------------------------------


def test_load_200_requests_from_8_clients(server):
    rng = np.random.default_rng(17)
    bodies = []
    for _ in range(200):
        moves = []
        for _ in range(int(rng.integers(0, 12))):
            legal = serve_game.game_state(serve_game.parse_game_config({}), moves)["legal"]
            if not legal:
                break
            moves.append(int(rng.choice(legal)))
        bodies.append(moves)
    latencies, failures = [], []
    lock = threading.Lock()

    def client(mine):
        for moves in mine:
            t0 = time.perf_counter()
            status, reply = call(server, "/api/state", {"moves": moves})
            dt = time.perf_counter() - t0
            with lock:
                latencies.append(dt)
                if status != 200 or reply["moves"] != moves:
                    failures.append((status, reply))

    threads = [threading.Thread(target=client, args=(bodies[i::8],)) for i in range(8)]
    t0 = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.perf_counter() - t0
    assert not failures and len(latencies) == 200
    p50, p95, p99 = (1000 * np.percentile(latencies, q) for q in (50, 95, 99))
    print(f"\nload: 200 POST /api/state from 8 clients in {wall:.2f} s "
          f"({200 / wall:.0f} req/s); latency p50 {p50:.1f} ms, p95 {p95:.1f} ms, "
          f"p99 {p99:.1f} ms")


# ---------------------------------------------------------------------------
# Command line
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("argv,words", [
    (["--port", "http"], "--port: expected a port"),
    (["--port", "70000"], "--port: expected a port"),
    (["--searches", "0"], "--searches: expected an integer >= 1"),
    (["--move-time", "0"], "--move-time: expected a number > 0"),
    (["--analysis-time", "nan"], "--analysis-time: expected a number > 0"),
    (["extra"], "unrecognized arguments"),
])
def test_bad_arguments_exit_2_with_one_line(argv, words, capsys):
    with pytest.raises(SystemExit) as e:
        serve_main(argv)
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1 and err.startswith("python -m scripts.commands.serve: error")


def test_port_in_use_exits_2(server, capsys):
    port = server.server_address[1]
    with pytest.raises(SystemExit) as e:
        serve_main(["--port", str(port), "--no-warm-up"])
    assert e.value.code == 2
    assert f"cannot listen on 127.0.0.1:{port}" in capsys.readouterr().err


def test_command_line_prints_the_url_and_serves():
    import subprocess
    import sys
    proc = subprocess.Popen([sys.executable, "-m", "scripts.commands.serve", "--port", "0", "--no-warm-up"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            cwd=str(Path(serve.__file__).parent.parent.parent))
    try:
        line = proc.stdout.readline()
        assert line.startswith("connectx serve: http://127.0.0.1:"), line
        url = line.split()[2]
        with urllib.request.urlopen(url, timeout=30) as r:
            assert b"<title>connectx-search" in r.read()
    finally:
        proc.terminate()
        proc.wait(timeout=30)
