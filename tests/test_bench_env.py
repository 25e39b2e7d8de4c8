"""connectx bench env: a tiny run prints every environment's row (speed is the
benchmark's business, not the suite's: only the table's shape is checked)."""
import pytest

from tests.conftest import cli_error_line

pytest.importorskip("kaggle_environments")
pytest.importorskip("pyspiel")
pytest.importorskip("pygame")


def test_tiny_run_prints_every_row(capsys):
    from scripts.bench import env as bench_env
    bench_env.main(["--tiny"])
    out = capsys.readouterr().out
    rows = [line for line in out.splitlines() if line[47:56].strip().isdigit()]
    labels = {(line[:28].strip(), line[28:47].strip()) for line in rows}
    for opp in ("random", "alphabeta:depth=4", "perfect"):
        assert ("ConnectXEnv", opp) in labels
    assert {("kaggle env.train", "random"), ("kaggle env.train", "negamax"),
            ("PettingZoo connect_four_v3", "(both sides)"), ("agents.envs AEC", "(both sides)"),
            ("OpenSpiel connect_four", "(both sides)"), ("ConnectXVectorEnv x64", "random"),
            ("ConnectXVectorEnv x4", "perfect")} <= labels
    assert all(int(line[47:56]) > 0 for line in rows)  # steps played in each
    assert out.startswith("connectx bench env --tiny\n") and "load average" in out


def test_bad_arguments(capsys):
    assert "--seconds: expected a number > 0, got '0'" in cli_error_line(
        ["bench", "env", "--seconds", "0"], capsys)
    assert "--games must be >= 0" in cli_error_line(["bench", "env", "--games", "-1"], capsys)
