"""scripts.arena (specs, games, pools, match) and connectx match: specs, one game, failures, reproducibility, the CLI.

Small boards and fast agents keep this file to a few seconds of games; the commands run
in this process (their ``python -m`` entries are tests/test_entry_points.py's).
"""
import json
import math

import pytest

from agents.board.rules import drop_piece, winner
from scripts.arena import match as match_mod
from scripts.arena import replays
from scripts.arena.games import Fixture, game_seeds, play_game
from scripts.arena.pools import run_games
from scripts.arena.specs import parse_match_config, parse_spec
from scripts.arena.stats import elo as elo_difference
from scripts.arena.stats import score_interval
from scripts.args import parse_value
from scripts.commands.match import main as match_main

SMALL = "rows=5,columns=6,inarow=4"


def write_agent(tmp_path, name, body):
    """A submission file whose last callable is ``agent`` (a helper is defined first)."""
    path = tmp_path / name
    path.write_text("def helper():\n    return 0\n\n\ndef agent(obs, config):\n"
                    + "".join("    " + line + "\n" for line in body.splitlines()))
    return str(path)


def check_game(result, cfg):
    """Replays the recorded moves with the validated rules API and checks the result."""
    board = [0] * (cfg.rows * cfg.columns)
    for i, col in enumerate(result["moves"]):
        assert winner(board, cfg._asdict()) == 0, "a move was recorded after the game ended"
        board = drop_piece(board, col, 1 + i % 2, cfg._asdict())
    assert result["result"] == {0: "1/2-1/2", 1: "1-0", 2: "0-1"}[result["winner"]]
    if result["statuses"] == ["DONE", "DONE"]:
        w = winner(board, cfg._asdict())
        assert result["winner"] == w
        if w == 0:
            assert all(board), "a draw must fill the board"
    assert len(result["times"][0]) + len(result["times"][1]) >= len(result["moves"])


# ---------------------------------------------------------------------------
# Parsing
# ---------------------------------------------------------------------------


def test_parse_value_types():
    assert [parse_value(t) for t in ("3", "-2", "0.25", "true", "False", "none", "windows")] \
        == [3, -2, 0.25, True, False, None, "windows"]


def test_parse_spec_kinds(tmp_path):
    assert parse_spec("minimax:depth=2,seed=5") == ("minimax:depth=2,seed=5", "registry",
                                                     "minimax", {"depth": 2, "seed": 5})
    assert parse_spec("random").kind == "registry"  # the package's seeded random agent
    assert parse_spec("kaggle.random")[1:3] == ("kaggle", "random")
    assert parse_spec("negamax")[1:3] == ("kaggle", "negamax")
    path = write_agent(tmp_path, "sub.py", "return 0")
    assert parse_spec(path)[1] == "file"


@pytest.mark.parametrize("argv, words", [
    (["nope", "random"], ["unknown agent 'nope'", "minimax"]),
    (["minimax:depth=x", "random"], ["depth"]),
    (["minimax:dpth=3", "random"], ["dpth"]),
    (["minimax:depth", "random"], ["malformed option 'depth'"]),
    (["kaggle.negamax:depth=2", "random"], ["takes no options"]),
    (["random", "random", "--config", "rows=3,columns=3,inarow=2.5"], ["inarow"]),
    (["random", "random", "--config", "rows=0"], ["rows"]),
    (["random", "random", "--config", "rows=4,colums=4"], ["colums"]),
    (["random", "random", "--games", "0"], ["--games"]),
    (["random", "/nonexistent/sub.py"], ["cannot read submission file"]),
])
def test_bad_input_exits_2_with_one_line(argv, words, capsys):
    with pytest.raises(SystemExit) as exc:
        match_main(argv + ["--quiet"])
    assert exc.value.code == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1
    for w in words:
        assert w in err


def test_inarow_longer_than_the_board_is_a_legal_config(capsys):
    """The connectx spec accepts it: nobody can win, every game is a draw."""
    match_main(["random", "rules", "--games", "2", "--config", "rows=3,columns=3,inarow=5",
                    "--quiet"])
    assert "0-2-0" in capsys.readouterr().out


def test_submission_that_fails_to_load_is_bad_input(tmp_path, capsys):
    broken = tmp_path / "broken.py"
    broken.write_text("def agent(obs, config):\n    return 0\nraise ImportError('no such lib')\n")
    empty = tmp_path / "empty.py"
    empty.write_text("X = 1\n")
    for path, words in ((broken, "ImportError"), (empty, "no callable")):
        with pytest.raises(SystemExit) as exc:
            match_main([str(path), "random", "--quiet"])
        assert exc.value.code == 2
        assert words in capsys.readouterr().err


# ---------------------------------------------------------------------------
# Games
# ---------------------------------------------------------------------------


def test_schedule_alternates_colours_and_seeds_depend_on_index_only():
    cfg = parse_match_config(SMALL)
    a, b = parse_spec("onestep"), parse_spec("random")
    games = match_mod.schedule(a, b, 5, 7, cfg)
    assert [g.specs[0].text for g in games] == ["onestep", "random"] * 2 + ["onestep"]
    assert [g.seed for g in games] == game_seeds(7, 8)[:5]
    assert len(set(g.seed for g in games)) == 5
    assert game_seeds(7, 5) != game_seeds(8, 5)


def test_games_follow_the_rules_and_the_stronger_agent_wins():
    """Eight seeded games of ``onestep`` against ``random`` on 6x5: at least 6 won.

    The margin: both players decide by integers and a seeded generator, so the games are
    the same on every machine; over seeds 0-9 ``onestep`` won 78 of 80 games, and at that
    rate (0.975) 3 games not won of 8 come once in about a thousand seeds."""
    cfg = parse_match_config(SMALL)
    results, summary = match_mod.match("onestep", "random", 8, cfg, seed=1, progress=False)
    for r in results:
        check_game(r, cfg)
    assert summary["wins"] + summary["draws"] + summary["losses"] == 8
    assert summary["wins"] >= 6  # one-step lookahead against random on 6x5
    assert summary["failures"]["A"] == {"INVALID": 0, "TIMEOUT": 0, "ERROR": 0}
    assert summary["times"]["A"]["moves"] > 0 and summary["times"]["A"]["max"] >= \
        summary["times"]["A"]["mean"] > 0


@pytest.mark.parametrize("body, status, words", [
    ("print('thinking')\nreturn 99", "INVALID", "99"),
    ("import numpy\nreturn numpy.int64(0)", "INVALID", "int64"),
    ("return 0.0", "INVALID", "float"),
    ("raise KeyError('boom')", "ERROR", "boom"),
])
def test_failing_agent_loses_with_its_status(tmp_path, body, status, words):
    bad = write_agent(tmp_path, "bad.py", body)
    cfg = parse_match_config(SMALL)
    results, summary = match_mod.match(bad, "random", 2, cfg, seed=0, progress=False)
    assert summary["losses"] == 2 and summary["failures"]["A"][status] == 2
    assert summary["failures"]["B"] == {"INVALID": 0, "TIMEOUT": 0, "ERROR": 0}
    for r in results:
        assert words in r["error"]
        bad_mark = 1 if r["agents"][0] == bad else 2
        assert r["output"][bad_mark - 1] == ("thinking\n" if "print" in body else "")
        assert r["statuses"][bad_mark - 1] == status and r["winner"] == 3 - bad_mark


def test_timeout_after_overage_is_spent():
    # no time per move and no overage: the first move of the game exceeds the budget
    cfg = parse_match_config(SMALL + ",actTimeout=0,remainingOverageTime=0")
    seeds = game_seeds(0, 1)
    r = play_game(Fixture(0, (parse_spec("random"), parse_spec("onestep")), seeds[0], cfg))
    assert r["statuses"] == ["TIMEOUT", "DONE"] and r["winner"] == 2 and r["moves"] == []
    # a generous overage absorbs the same overruns
    cfg = parse_match_config(SMALL + ",actTimeout=0,remainingOverageTime=60")
    r = play_game(Fixture(0, (parse_spec("random"), parse_spec("onestep")), seeds[0], cfg))
    assert r["statuses"] == ["DONE", "DONE"]


def test_same_seed_same_games_whatever_the_workers():
    cfg = parse_match_config(SMALL)
    a, b = parse_spec("random"), parse_spec("kaggle.random")
    games = match_mod.schedule(a, b, 6, 3, cfg)

    def key(results):
        return [(r["moves"], r["winner"], r["statuses"]) for r in results]

    one = key(run_games(games, workers=1))
    assert key(run_games(games, workers=2)) == one
    other = key(run_games(match_mod.schedule(a, b, 6, 4, cfg), workers=1))
    assert other != one  # the seed matters: random games differ


# ---------------------------------------------------------------------------
# Statistics
# ---------------------------------------------------------------------------


def test_elo_and_score_interval_known_values():
    assert elo_difference(0.5) == 0
    assert elo_difference(0.75) == pytest.approx(400 * math.log10(3))
    assert elo_difference(1.0) == math.inf and elo_difference(0.0) == -math.inf
    low, high = score_interval(0.5, 100)
    assert low == pytest.approx(0.4038, abs=1e-3) and high == pytest.approx(0.5962, abs=1e-3)
    low, high = score_interval(1.0, 10)  # all wins: the lower bound stays below 1
    assert high == 1.0 and 0.6 < low < 0.8
    assert score_interval(0.7, 1000)[1] - score_interval(0.7, 1000)[0] < \
        score_interval(0.7, 100)[1] - score_interval(0.7, 100)[0]


def test_summary_counts_from_a_point_of_view():
    results = [  # A is mark 1 in even games
        {"index": 0, "agents": ["a", "b"], "winner": 1, "statuses": ["DONE", "DONE"],
         "times": [[0.1], [0.2]]},
        {"index": 1, "agents": ["b", "a"], "winner": 1, "statuses": ["DONE", "DONE"],
         "times": [[0.2], [0.3]]},
        {"index": 2, "agents": ["a", "b"], "winner": 0, "statuses": ["DONE", "DONE"],
         "times": [[0.1], [0.2]]},
        {"index": 3, "agents": ["b", "a"], "winner": 1, "statuses": ["DONE", "TIMEOUT"],
         "times": [[0.2], [9.0]]},
    ]
    s = match_mod.summarize(results, "a", "b")
    assert (s["wins"], s["draws"], s["losses"]) == (1, 1, 2)
    assert s["score"] == pytest.approx(0.375)
    assert s["failures"]["A"]["TIMEOUT"] == 1 and s["failures"]["B"]["TIMEOUT"] == 0
    assert s["times"]["A"]["max"] == 9.0
    assert s["times"]["B"]["mean"] == pytest.approx(0.2)


def test_agent_against_itself_counts_each_game_once():
    cfg = parse_match_config(SMALL)
    results, s = match_mod.match("random", "random", 6, cfg, seed=3, progress=False)
    assert s["wins"] + s["draws"] + s["losses"] == 6
    # A is mark 1 in even games: A's wins are the even games won by mark 1 and the odd
    # games won by mark 2
    expected = sum(r["winner"] == (1 if r["index"] % 2 == 0 else 2) for r in results)
    assert s["wins"] == expected


# ---------------------------------------------------------------------------
# Command line
# ---------------------------------------------------------------------------


def test_cli_prints_wdl_and_writes_json_and_replay(tmp_path, capsys):
    """``connectx match`` in this process (its ``python -m`` entry is
    tests/test_entry_points.py's): the W-D-L line, the JSON of every game, the replay."""
    out, html = tmp_path / "games.json", tmp_path / "replay.html"
    assert match_main(["random", "kaggle.random", "--games", "4", "--config", SMALL, "--seed",
                       "2", "--json", str(out), "--replay", str(html), "--replay-game", "1"]) == 0
    stdout = capsys.readouterr().out
    line = next(l for l in stdout.splitlines() if l.startswith("W-D-L for random: "))
    w, d, l = (int(x) for x in line.split(": ")[1].split("-"))
    assert w + d + l == 4
    data = json.loads(out.read_text())
    assert len(data["games"]) == 4 and data["config"]["columns"] == 6
    assert [g["agents"][0] for g in data["games"]] == ["random", "kaggle.random"] * 2
    assert data["summary"]["wins"] == w
    text = html.read_text()
    assert "<html" in text.lower() and "connectx" in text.lower()
    cfg = parse_match_config(SMALL)
    for g in data["games"]:
        check_game(g, cfg)


def test_replay_reproduces_the_recorded_game(tmp_path):
    """kaggle's own interpreter, fed the recorded moves, reaches the same end."""
    cfg = parse_match_config(SMALL)
    bad = write_agent(tmp_path, "bad.py", "return 99 if obs.step >= 4 else 2")
    results, _ = match_mod.match("onestep", "random", 1, cfg, seed=5, progress=False)
    failed, _ = match_mod.match("random", bad, 1, cfg, seed=5, progress=False)
    for r in (results[0], failed[0]):
        env = replays.replay_env(r, cfg)
        final = env.steps[-1]
        board = [0] * (cfg.rows * cfg.columns)
        for i, col in enumerate(r["moves"]):
            board = drop_piece(board, col, 1 + i % 2, cfg._asdict())
        assert final[0]["observation"]["board"] == board
        rewards = [s["reward"] for s in final]
        if r["statuses"] == ["DONE", "DONE"]:
            assert rewards == {1: [1, -1], 2: [-1, 1], 0: [0, 0]}[r["winner"]]
        else:
            assert [s["status"] for s in final] == r["statuses"] == ["DONE", "INVALID"]


@pytest.mark.slow
def test_dask_local_cluster_plays_the_same_games():
    distributed = pytest.importorskip(
        "distributed", reason="the optional extra 'cluster' (dask[distributed]) is not installed")
    cfg = parse_match_config(SMALL)
    games = match_mod.schedule(parse_spec("random"), parse_spec("kaggle.random"), 4, 9, cfg)
    local = run_games(games, workers=1)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        remote = run_games(games, dask=client)
    assert [r["index"] for r in remote] == [0, 1, 2, 3]
    assert [(r["moves"], r["winner"]) for r in remote] == [(r["moves"], r["winner"]) for r in local]


# ---------------------------------------------------------------------------
# Playing in the terminal
# ---------------------------------------------------------------------------


def scripted(lines):
    """``ask`` for scripts.commands.play: answers from ``lines``, then EOF."""
    queue = list(lines)

    def ask(prompt):
        if not queue:
            raise EOFError
        return queue.pop(0)
    return ask


def test_play_asks_again_on_bad_input_and_detects_the_win(tmp_path):
    """4 rows x 5 columns; the agent always takes the leftmost legal column.

    Column 1 fills up (X O X O), "1" is then refused; X stacks four in column 5:

        |  O  .  .  .  X |
        |  X  O  .  .  X |
        |  O  O  .  .  X |
        |  X  O  .  .  X |
    """
    from scripts.commands import play as play_mod
    leftmost = write_agent(tmp_path, "leftmost.py",
                           "return next(c for c in range(config.columns) if obs.board[c] == 0)")
    cfg = parse_match_config("rows=4,columns=5,inarow=4")
    said = []
    result = play_mod.play(parse_spec(leftmost), cfg, 1, 0,
                           ask=scripted(["abc", "0", "9", "1", "1", "1", "5", "5", "5", "5"]),
                           say=said.append)
    text = "\n".join(said)
    assert result == 1 and said[-1] == "you win!"
    for words in ("'abc' is not a column number", "there is no column 0", "there is no column 9",
                  "column 1 is full"):
        assert words in text
    assert said[-2].splitlines()[-1].split() == ["1", "2", "3", "4", "5"]
    assert said[-2].splitlines()[0].split() == ["|", "O", ".", ".", ".", "X", "|"]


def test_play_quits_on_q_and_rejects_bad_agent(tmp_path, capsys):
    from scripts.commands import play as play_mod
    said = []
    assert play_mod.play(parse_spec("random"), parse_match_config(SMALL), 2, 0,
                         ask=scripted(["q"]), say=said.append) is None
    assert said[-1] == "game abandoned"
    with pytest.raises(SystemExit) as exc:
        play_mod.main(["nope"])
    assert exc.value.code == 2 and "unknown agent 'nope'" in capsys.readouterr().err


def test_kaggle_builtins_play_the_same_moves_with_the_tabled_helpers():
    """The built-ins' stand-ins for kaggle's ``is_win`` and ``play``
    (scripts.arena.loading) answer as kaggle's own on seeded random boards (floating
    stones and full columns included), and ``negamax`` plays the same columns with them
    (the same seed: the same draws)."""
    import random
    import types
    kaggle = pytest.importorskip("kaggle_environments.envs.connectx.connectx")
    from agents.players.base import Struct
    from scripts.arena.loading import _play, _seeded_builtin, _tabled_is_win
    is_win = _tabled_is_win(kaggle.is_win)
    rng = random.Random(4)
    checked = 0
    for _ in range(400):
        rows, columns, inarow = rng.choice([(6, 7, 4), (5, 6, 4), (4, 5, 3), (7, 8, 5), (3, 3, 3)])
        config = Struct(rows=rows, columns=columns, inarow=inarow)
        board = [rng.choice([0, 0, 1, 2]) for _ in range(rows * columns)]
        for col in range(columns):
            for mark in (1, 2):
                if not any(board[col + r * columns] == 0 for r in range(rows)):
                    with pytest.raises(ValueError):
                        kaggle.is_win(board, col, mark, config, False)
                    with pytest.raises(ValueError):
                        is_win(board, col, mark, config, False)
                    continue
                assert is_win(board, col, mark, config, False) == \
                    kaggle.is_win(board, col, mark, config, False)
                mine, theirs = list(board), list(board)
                _play(mine, col, mark, config)
                kaggle.play(theirs, col, mark, config)
                assert mine == theirs
                checked += 1
    assert checked > 3000
    fn = kaggle.agents["negamax"]
    namespace = dict(fn.__globals__, choice=random.Random(9).choice)
    original = types.FunctionType(fn.__code__, namespace, fn.__name__, fn.__defaults__,
                                  fn.__closure__)
    tabled = _seeded_builtin("negamax", 9)
    config = Struct(rows=6, columns=7, inarow=4)
    for moves in ("", "4", "4453", "445362", "1234567", "44444433"):
        board = [0] * 42
        for i, ch in enumerate(moves):
            kaggle.play(board, int(ch) - 1, 1 + i % 2, config)
        obs = Struct(board=board, mark=1 + len(moves) % 2)
        assert tabled(obs, config) == original(obs, config), moves
