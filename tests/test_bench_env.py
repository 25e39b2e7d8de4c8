"""connectx bench env: a tiny run prints every environment's row (speed is the
benchmark's business, not the suite's: only the table's shape is checked)."""
import re

import pytest

from tests.conftest import cli_error_line

pytest.importorskip("kaggle_environments")
pytest.importorskip("pyspiel")
pytest.importorskip("pygame")


def test_tiny_run_prints_every_row(capsys):
    from scripts.bench import env as bench_env
    bench_env.main(["--tiny"])
    out = capsys.readouterr().out
    # environment, opponent, steps, ...: columns two spaces apart at least
    rows = [re.split(r"\s{2,}", line) for line in out.splitlines()]
    rows = [cells for cells in rows if len(cells) > 2 and cells[2].isdigit()]
    labels = {(cells[0], cells[1]) for cells in rows}
    for opp in ("random", "alphabeta:depth=4", "alphabeta:depth=4,deepening=false,quiescence=false",
                "perfect"):
        assert ("ConnectXEnv", opp) in labels
    assert {("kaggle env.train", "random"), ("kaggle env.train", "negamax"),
            ("PettingZoo connect_four_v3", "(both sides)"), ("agents.envs AEC", "(both sides)"),
            ("OpenSpiel connect_four", "(both sides)"), ("ConnectXVectorEnv x64", "random"),
            ("ConnectXVectorEnv x4", "perfect")} <= labels
    assert all(int(cells[2]) > 0 for cells in rows)  # steps played in each
    assert out.startswith("connectx bench env --tiny\n") and "load average" in out


def test_bad_arguments(capsys):
    assert "--seconds: expected a number > 0, got '0'" in cli_error_line(
        ["bench", "env", "--seconds", "0"], capsys)
    assert "--games must be >= 0" in cli_error_line(["bench", "env", "--games", "-1"], capsys)
