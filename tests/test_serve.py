"""``connectx serve`` (``scripts.server``): the analysis (solver scores against the labels
and a reference, win and loss counts, the time limit, the best line of each column, the
opening database, alphabeta on boards the solver does not fit).

The server (``tests/conftest.py``'s ``server``) runs in this process on a free loopback
port (``port=0``)."""
import numpy as np
import pytest

from agents.board.rules import drop_piece, legal_moves, parse_config, winner
from agents.solver.database import attach
from agents.solver.solver import Solver, warm_up
from conftest import api_call, board_after
from scripts.server import analysis as serve_analysis
from scripts.server import app as serve
from scripts.server import game as serve_game

# Known analyses (shared/positions/analysis.txt, exact solver labels; -1000 = full column)
KNOWN = [
    ("22563167133127733314", [-10, 0, -1000, 2, 0, -10, -10]),
    ("27366731672116452563", [11, 11, -11, -11, -11, -11, 10]),
    ("15676771516522251153377373", [7, 7, 7, 8, 7, 8, -1000]),
]


@pytest.fixture(scope="module", autouse=True)
def compiled_solver(server):
    """Every 7x6 solver kernel compiled (or loaded from numba's disk cache) in this process
    before the first analysis, as ``connectx serve`` does at start (``App.warm_up``): the
    analyses below get seconds, and with a cold cache compiling alone took 16 s of the
    first request's wall time on the shared 2-core machine (it came back incomplete)."""
    with server.app.solver(parse_config({})) as solver:
        warm_up(solver)
        solver.reset()


# ---------------------------------------------------------------------------
# Analysis
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("moves,expected", KNOWN)
def test_solver_analysis_matches_the_solver_and_the_labels(server, moves, expected):
    status, reply = api_call(server, "/api/analyze", {"moves": moves, "time_limit": 5})
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
        reply = serve_analysis.analyze(app, {"config": cfg._asdict(), "moves": moves})
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
    reply = serve_analysis.analyze(app, {"moves": "", "time_limit": 0.05})
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
    """The best column's line, or its start when cut at the server's line time: then
    ``/api/line`` gives the whole line, which the start begins."""
    status, reply = api_call(server, "/api/analyze", {"moves": moves, "time_limit": 5})
    assert status == 200 and reply["complete"]
    line = reply["line"]
    assert line["moves"][0] == line["column"]
    assert expected[line["column"]] == max(expected)
    whole = line["moves"]
    if not line["complete"]:
        status, rest = api_call(server, "/api/line", {"moves": moves, "column": line["column"],
                                                     "time_limit": 5})
        assert status == 200 and rest["complete"]
        whole = rest["moves"]
        assert whole[:len(line["moves"])] == line["moves"]
    assert_line_keeps(moves, whole, max(expected))


# 12 stones: with the database, the columns' searches are of 13 stones, the line's too
TWELVE = "445142263442"


@pytest.mark.parametrize("moves", [KNOWN[0][0], TWELVE, "4"])
def test_analysis_answers_first_and_leaves_the_rest_of_the_line_to_api_line(moves):
    """``line_time`` 0: every score (as the solver's) and the line's first column alone,
    ``complete`` False; ``/api/line`` of that column gives the whole line, the one an
    analysis with time for it returns, and it keeps the score to the end."""
    cut = serve.App(searches=1, analysis_time=5.0, line_time=0.0)
    whole = serve.App(searches=1, analysis_time=5.0, line_time=5.0)
    got = serve_analysis.analyze(cut, {"moves": moves})
    full = serve_analysis.analyze(whole, {"moves": moves})
    assert got["complete"] and full["complete"] and full["line"]["complete"]
    assert [s and s["score"] for s in got["scores"]] == [s and s["score"] for s in full["scores"]]
    # the reference solver with the installed database, if any: the plain solver's
    # analysis of "4" alone took 42 s of CPU (the database's entries against the plain
    # solver: tests/test_database.py, test_bitbully_sample_equals_the_plain_solver)
    solver = Solver()
    attach(solver)
    expected = solver.analyze(moves)
    assert [s["score"] if s else -1000 for s in got["scores"]] == expected
    line = got["line"]
    assert not line["complete"] and line["column"] == full["line"]["column"]
    assert line["moves"] == [line["column"]] and len(full["line"]["moves"]) > 1
    rest = serve_analysis.line(cut, {"moves": moves, "column": line["column"]})
    assert rest["complete"] and rest["moves"] == full["line"]["moves"]
    assert_line_keeps(moves, rest["moves"], max(expected))


def test_line_of_each_column_keeps_its_score(server):
    moves, expected = KNOWN[0]
    for c, score in enumerate(expected):
        if score == -1000:
            continue
        status, reply = api_call(server, "/api/line", {"moves": moves, "column": c, "time_limit": 5})
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
    status, reply = api_call(server, "/api/line", body)
    assert status == 400 and words in reply["error"], reply


def test_opening_database_answers_the_empty_board():
    """With the books extra: every column of the empty board and its line, exact."""
    app = serve.App(searches=1, analysis_time=5.0, line_time=5.0)
    if app.database is None:
        pytest.skip("the books extra is not installed")
    reply = serve_analysis.analyze(app, {"moves": "", "time_limit": 5})
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
    assert api_call(server, "/api/analyze", dict(game, time_limit=0.05))[0] == 200
    status, reply = api_call(server, "/api/analyze", dict(game, time_limit=5))
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
