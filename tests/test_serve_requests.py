"""``connectx serve`` (``scripts.server``): the game functions, every endpoint's bad input,
the page's own files, the command line.

The server (``tests/conftest.py``'s ``server``) runs in this process on a free loopback
port (``port=0``)."""
import http.client
import json
import urllib.request
from pathlib import Path

import pytest

from agents.board.rules import legal_moves
from conftest import api_call, board_after, match_doc
from scripts.server import app as serve
from scripts.server import game as serve_game
from scripts.commands.serve import main as serve_main


# ---------------------------------------------------------------------------
# Game state
# ---------------------------------------------------------------------------


def test_state_follows_the_rules_for_lists_and_move_strings(server):
    cfg = {"rows": 6, "columns": 7, "inarow": 4}
    status, s = api_call(server, "/api/state", {"config": cfg, "moves": "4453"})
    assert status == 200
    assert s["moves"] == [3, 3, 4, 2] and s["notation"] == "4453"
    assert s["board"] == board_after([3, 3, 4, 2], cfg)
    assert (s["to_move"], s["winner"], s["over"]) == (1, 0, False)
    assert s["legal"] == legal_moves(s["board"], cfg)
    assert api_call(server, "/api/state", {"config": cfg, "moves": [3, 3, 4, 2]})[1] == s


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


@pytest.mark.parametrize("path", ["/api/state", "/api/move", "/api/analyze"])
@pytest.mark.parametrize("body,words", GAME_ERRORS)
def test_bad_games_are_400_on_every_game_endpoint(server, path, body, words):
    status, reply = api_call(server, path, {**({"agent": "random"} if path == "/api/move" else {}),
                                        **body})
    assert status == 400, reply
    assert words in reply["error"]


@pytest.mark.parametrize("agent,words", [
    (None, "agent must be a spec"),
    ("", "agent must be a spec"),
    ("nosuch", "unknown agent 'nosuch'"),
    ("negamax", "unknown agent 'negamax'"),
    ("kaggle.random", "unknown agent"),
    ("/tmp/submission.py", "is a submission file: agents that read files on the server are refused"),
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
    status, reply = api_call(server, "/api/move", {"agent": agent, "moves": [3]})
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
    for path, extra in (("/api/move", {"agent": "random"}), ("/api/analyze", {})):
        status, reply = api_call(server, path, {**body, **extra})
        assert status == 400 and "game is over" in reply["error"]


@pytest.mark.parametrize("path,field", [("/api/state", "agent"), ("/api/move", "time_limit"),
                                        ("/api/analyze", "game"), ("/api/replay", "moves")])
def test_fields_of_another_endpoint_are_400(server, path, field):
    status, reply = api_call(server, path, {field: 1})
    assert status == 400 and f"unknown field(s) {field}" in reply["error"]


@pytest.mark.parametrize("limit", [0, -1, 5.5, "1", True, None])
def test_bad_analysis_time_limits_are_400(server, limit):
    status, reply = api_call(server, "/api/analyze", {"moves": "4", "time_limit": limit})
    assert status == 400 and "time_limit must be a number of seconds in (0, 5]" in reply["error"]


def test_bad_replays_are_400(server, tmp_path):
    doc = match_doc(tmp_path)
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
        status, reply = api_call(server, "/api/replay", body)
        assert status == 400 and words in reply["error"], (body, reply)


def test_malformed_requests(server):
    ok = {"Content-Type": "application/json"}
    assert api_call(server, "/api/state", raw=b"{not json", headers=ok)[0] == 400
    status, reply = api_call(server, "/api/state", raw=b"[1, 2]", headers=ok)
    assert status == 400 and "JSON object" in reply["error"]
    status, reply = api_call(server, "/api/state", raw=b"\xff\xfe", headers=ok)
    assert status == 400 and "not JSON" in reply["error"]
    status, reply = api_call(server, "/api/state", raw=b"{}", headers={"Content-Type": "text/plain"})
    assert status == 415 and "application/json" in reply["error"]
    assert api_call(server, "/api/state")[0] == 405          # GET on a POST endpoint
    assert api_call(server, "/", raw=b"{}", headers=ok)[0] == 405
    assert api_call(server, "/api/nothing", {})[0] == 404
    for path in ("/nothing", "/../pyproject.toml", "/web/index.html", "/serve.py", "/%2e%2e/"):
        status, reply = api_call(server, path)
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
    assert api_call(server, "/api/state", {"moves": "4"})[0] == 200  # still serving


def test_only_the_pages_own_files_are_served_and_they_load_nothing_remote(server):
    for path, kind in (("/", "text/html"), ("/app.js", "text/javascript"),
                       ("/style.css", "text/css")):
        req = urllib.request.urlopen(serve.url_of(server).rstrip("/") + path, timeout=10)
        assert req.headers["Content-Type"].startswith(kind)
        assert req.headers["Content-Security-Policy"] == "default-src 'self'"
        text = req.read().decode()
        assert "http://" not in text and "https://" not in text and "//cdn" not in text


# ---------------------------------------------------------------------------
# Command line
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("argv,words", [
    (["--port", "http"], "--port: expected a port"),
    (["--port", "70000"], "--port: expected a port"),
    (["--searches", "0"], "--searches: expected an integer >= 1"),
    (["--move-time", "0"], "--move-time: expected a number > 0"),
    (["--analysis-time", "nan"], "--analysis-time: expected a number > 0"),
    (["--line-time", "-0.1"], "--line-time: expected a number >= 0"),
    (["--line-time", "inf"], "--line-time: expected a number >= 0"),
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
