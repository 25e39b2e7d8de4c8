"""``submission.validate`` (``connectx validate``): the judge of a game's report, and real
games of built files.

Games run in fresh ``python -I`` processes (as ``submission.validate`` does), so
numba compiles once per game; the built agents use a fixed ``depth`` so the
games do not depend on the machine's speed. Overage is printed, never asserted
here (no wall-clock assertions): the >= 50 s check is exercised on synthetic
reports, and on real games by running ``python -m scripts.commands.validate``.
"""
import io

import pytest

from conftest import cli_error_line

from scripts.commands.validate import main as validate_main
from submission import build as bld
from submission import validate as val


# ---------------------------------------------------------------------------
# validate
# ---------------------------------------------------------------------------


def report(**changes):
    base = {"opponent": "negamax", "seats": [1], "statuses": ["DONE", "DONE"],
            "rewards": [-1, 1], "overage": [60.0, 55.0], "cpu_overage": [57.0],
            "steps": 20, "seconds": 9.0,
            "copies": [{"callable": "agent", "state": {
                "broken": None, "fallbacks": 0, "last_error": None, "numba": True}}]}
    base.update(changes)
    return base


def test_judge():
    assert val.judge(report(), must_beat=("negamax",)) == []
    assert "overage" in val.judge(report(overage=[60.0, 49.9]))[0]
    assert val.judge(report(overage=[60.0, 49.9]), min_overage=0) == []
    assert val.judge(report(overage=[60.0, 40.0]), by_cpu=True) == []
    assert "by CPU time" in val.judge(report(cpu_overage=[49.0]), by_cpu=True)[0]
    assert "DONE" in val.judge(report(statuses=["DONE", "ERROR"], rewards=[1, None]))[0]
    assert "did not beat" in val.judge(report(rewards=[0, 0]), must_beat=("negamax",))[0]
    assert val.judge(report(rewards=[0, 0]), must_beat=("random",)) == []
    bad = report(copies=[{"callable": "helper", "state": None}])
    assert "last callable" in val.judge(bad)[0]
    failed = report(copies=[{"callable": "agent", "state": {
        "broken": None, "fallbacks": 2, "last_error": "ZeroDivisionError()", "numba": True}}])
    assert "ZeroDivisionError" in val.judge(failed)[0]
    assert "numba" in val.judge(report(), expect_numba=False)[0]
    slow = report(copies=[{"callable": "agent", "state": {
        "broken": None, "fallbacks": 0, "last_error": None, "numba": False,
        "numba_error": "TypingError('x')"}}])
    assert "TypingError" in val.judge(slow)[0]
    text = val.describe(report())
    assert text.startswith("negamax vs file: DONE/DONE, file (second) wins")
    assert "overage left 55.0 s (57.0 s counting CPU time)" in text
    assert "draw" in val.describe(report(rewards=[0, 0]))
    assert val.episodes(["self", "negamax"]) == [("self", 0), ("negamax", 0), ("negamax", 1)]
    with pytest.raises(ValueError, match="chess"):
        val.episodes(["chess"])


def test_validate_plays_the_schedule_and_judges_each_episode(tmp_path, monkeypatch):
    """``validate``'s loop, on a stub's reports (the real episodes are the games below):
    each episode of the schedule with its own seed, ``no_numba`` and the configuration
    passed on, judged expecting no numba when it was blocked, and printed."""
    calls = []

    def episode(path, opponent, seat, seed=0, no_numba=False, configuration=None):
        calls.append((opponent, seat, seed, no_numba, configuration))
        return report(opponent=opponent, seats=[seat])

    monkeypatch.setattr(val, "run_episode", episode)
    path = tmp_path / "main.py"
    path.write_text("def agent(obs, config):\n    return 0\n")
    out = io.StringIO()
    cfg = {"rows": 5, "columns": 6, "inarow": 4, "actTimeout": 2}
    results = val.validate(str(path), ("self", "random"), min_overage=0, seed=7,
                           no_numba=True, out=out, configuration=cfg)
    assert calls == [("self", 0, 7, True, cfg), ("random", 0, 8, True, cfg),
                     ("random", 1, 9, True, cfg)]
    # the stub's copies say numba ran: with numba blocked, each episode fails for it
    assert [problems for _, problems in results] == [["numba in use: True, expected False"]] * 3
    assert out.getvalue().count("FAIL: numba in use") == 3


@pytest.mark.e2e
@pytest.mark.slow
@pytest.mark.parametrize("agent,seat,options", [("alphabeta", 0, {"depth": 7}),
                                                ("mcts", 1, {"iterations": 4000, "seed": 1})])
def test_a_file_answers_its_first_move_at_once_and_beats_negamax(tmp_path, agent, seat, options):
    """The file built from ``agent`` at its submission defaults (``warmup=background``:
    its kernels compile in a thread) but a fixed depth or number of iterations (at the
    defaults each move searches for its time: the game's CPU grows with the machine's
    speed, and the moves depend on it; the warm-up lends the same plain budget), loaded by kaggle-environments' own loader in a
    fresh ``python -I`` process (``submission.worker``), plays one game against
    kaggle's ``negamax`` (in the file's process, as kaggle-environments runs it): its
    first move needs no kernel (the warm-up's fallback answers, or perfect's book) and
    its CPU time, loading the file included, is within ``actTimeout`` (2 s: by kaggle's
    rule no TIMEOUT even without overage, the check issue 43 asks for; CPU rather than
    wall time so that a loaded machine does not fail it: 0.25-0.45 s of CPU, 0.4-2.9 s
    wall on the team's machine at load 2-10), and the file wins. One game each, seats alternating, to
    keep the suite short: two agents whose kernels differ (a bitboard alpha-beta, a
    Monte Carlo search); ``minimax`` (14 s of CPU here) takes the same path, the base
    class's warm-up and fallback, whose per-agent parts (the fallback's first move, no
    compile after the warm-up, the same moves once compiled) ``tests/test_warmup.py``
    and ``tests/test_warmup_kernels.py`` check for every agent in one process each.
    The fallback's cost in strength is measured by
    ``connectx bench warmup --section strength``. The perfect file (the default) has
    these checks in its self-play below, where it must beat a perfect opponent as first
    player (its game against negamax cost 14-20 s of CPU more, the same file's compile
    paid once more)."""
    path = tmp_path / f"{agent}.py"
    bundle = bld.build(agent, options)
    assert bundle.options["warmup"] == "background"
    path.write_text(bundle.text)
    rep = val.run_episode(str(path), "negamax", seat)
    print(val.describe(rep))
    assert val.judge(rep, min_overage=0, must_beat=("negamax",)) == []
    assert rep["statuses"] == ["DONE", "DONE"] and rep["act_timeout"] == 2
    state = rep["copies"][0]["state"]
    assert state["numba"] is True and state["fallbacks"] == 0 and not state["warmup"]["errors"]
    assert state["first_move_source"] in ("warm-up", "book")
    assert rep["first_call_cpu_seconds"][0] <= rep["act_timeout"]
    print("first call, wall:", rep["first_call_seconds"][0])


@pytest.mark.slow
def test_file_without_numba_still_plays_sensibly(tmp_path):
    """Without numba (a host where it cannot import) the file plays its plain-Python
    path: one game against random, as second player, won (the other seat would add
    nothing the path does not already show and cost as much again: each episode process
    imports kaggle-environments, 3.5-4 s of CPU)."""
    path = tmp_path / "alphabeta.py"
    path.write_text(bld.build("alphabeta", {"depth": 3}).text)
    rep = val.run_episode(str(path), "random", 1, no_numba=True)
    print(val.describe(rep))
    assert val.judge(rep, min_overage=0, must_beat=("random",)) == []
    assert rep["statuses"] == ["DONE", "DONE"] and rep["rewards"] == [-1, 1]
    assert all(c["state"]["numba"] is False for c in rep["copies"])


def test_the_report_line_survives_a_closed_redirect(monkeypatch, capfd):
    """The worker prints its report on the process's own stdout even when the game left
    ``sys.stdout``/``sys.stderr`` pointing at closed buffers (kaggle's redirect of an
    agent's output, overlapped by a background compile thread)."""
    from submission import worker
    closed = io.StringIO()
    closed.close()
    monkeypatch.setattr("sys.stdout", closed)
    monkeypatch.setattr("sys.stderr", closed)
    worker.print_report({"steps": 3})
    assert capfd.readouterr().out == worker.MARKER + '{"steps": 3}\n'


def test_validate_command_line(tmp_path, capsys):
    assert validate_main([str(tmp_path / "missing.py")]) == 2
    bad = tmp_path / "bad.py"
    bad.write_text("def agent(obs, config):\n    return 0\nhelper = len\n")
    assert validate_main([str(bad), "--games", "self"]) == 2
    assert "def agent" in capsys.readouterr().err
    good = tmp_path / "good.py"
    good.write_text("def agent(obs, config):\n    return 0\n")
    assert validate_main([str(good), "--games", "chess"]) == 2
    assert "chess" in capsys.readouterr().err


@pytest.mark.e2e
@pytest.mark.slow
def test_default_file_is_perfect_and_passes_kaggles_upload_check(tmp_path):
    """``connectx build`` with no options writes the perfect file (its
    kernels compile in the background: the first move costs no compile), and that
    file passes what Kaggle runs on upload: self-play, the file loaded the way
    Kaggle loads it in a process that cannot see ``agents/data`` (the opening book
    must come from the file). Both seats play perfectly, so the first player wins
    (7x6 Connect Four is a first-player win): a seat that lost the value would
    show as a draw or a loss. (The file against the package's own agents, each in
    a process of its own, is ``submission.validate``'s default schedule; its
    package-opponent path is tested on the configured board below.)"""
    bundle = bld.build()
    assert bundle.agent_name == "perfect" and bundle.options == {"warmup": "background", "database": False}
    path = tmp_path / "main.py"
    path.write_text(bundle.text)
    rep = val.run_episode(str(path), "self", 0)
    print(val.describe(rep))
    # overage judged by CPU time: the suite shares the machine with whatever else
    # runs (submission.validate reports both); the first move outside the book may
    # wait for the solver's kernels (seconds of CPU, paid from the overage). 44 s: the
    # prefetching kernel (2026-11-26) compiles in 17.2 s against 15.5 s, and the file
    # kept 46.2 s of overage against 47.2 s on a quiet machine, 44.8 s in a loaded CI run
    assert val.judge(rep, min_overage=44.0, by_cpu=True) == []
    assert rep["opponent"] == "self" and rep["rewards"] == [1, -1]
    assert rep["statuses"] == ["DONE", "DONE"] and rep["act_timeout"] == 2
    # each copy's first call, loading the file included, within actTimeout by CPU time
    assert all(cpu <= rep["act_timeout"] for cpu in rep["first_call_cpu_seconds"])
    first = rep["copies"][0]["state"]
    # within actTimeout, no compile in it: CPU time (2.1 s wall for 0.27 s of CPU in a
    # suite run at load 12, 2026-11-26)
    assert first["first_move_cpu_seconds"] < 2.0 and first["first_move_source"] == "book"
    for copy in rep["copies"]:
        state = copy["state"]
        assert state["numba"] is True and state["fallbacks"] == 0
        assert not state["warmup"]["errors"]
    assert first["warmup"]["units"] > 0


@pytest.mark.slow
def test_validate_plays_the_configured_board(tmp_path, capsys):
    """``--config`` reaches kaggle's environment: on 5 rows x 6 columns the file's moves
    are columns 0-5 of a 30-cell board, against a package opponent with options in a
    process of its own (``submission.opponent``, the path of validate's default
    ``alphabeta`` and ``mcts`` games), which wins; a bad config exits 2 with one line."""
    path = tmp_path / "main.py"
    path.write_text(bld.build("random", {"seed": 3}).text)  # the least to compile
    configuration = {"rows": 5, "columns": 6, "inarow": 4, "actTimeout": 2}
    opponent = "alphabeta:depth=4"
    rep = val.run_episode(str(path), opponent, 1, configuration=configuration)
    print(val.describe(rep))
    assert val.judge(rep, min_overage=0) == []
    assert rep["configuration"] == {"rows": 5, "columns": 6, "inarow": 4}
    assert rep["steps"] <= 30 and rep["statuses"] == ["DONE", "DONE"]
    assert rep["opponent"] == opponent and rep["rewards"] == [1, -1]  # alphabeta moves first
    # in this process: the command's one-line error (its `python -m` entry is
    # tests/test_entry_points.py's)
    assert "rows" in cli_error_line(["validate", str(path), "--config", "rows=0"], capsys)
