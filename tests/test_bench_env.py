"""connectx bench env: a tiny run prints every environment's row (speed is the
benchmark's business, not the suite's: only the table's shape is checked)."""
import re

import numpy as np

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


def test_search_positions_wait_for_the_opponent():
    """The positions of --search are the ones the depth-4 opponent met: its turn (the
    side to move by the stones' count is not the learner's ``me``), no line on the board,
    ``heights`` and ``stones`` the grid's, and not all openings (the games go on)."""
    from agents.board.rules import heights_of, winner_of
    from scripts.bench.env import search_positions
    p = search_positions(300)
    rows, columns = p.cfg.rows, p.cfg.columns
    for i in range(300):
        grid = p.grid[i]
        n = int((grid != 0).sum())
        assert 3 - int(p.me[i]) == 1 + n % 2
        assert winner_of(grid, p.cfg) == 0
        assert p.heights[i].tolist() == heights_of(grid, p.cfg).tolist()
        for mark in (1, 2):
            cells = np.flatnonzero(grid == mark)
            bits = sum(1 << int(c % columns * (rows + 1) + rows - 1 - c // columns) for c in cells)
            assert int(p.stones[i, mark]) == bits
    assert max((p.grid != 0).sum(axis=1)) >= 10


def test_search_run_prints_each_spec_against_the_default(capsys):
    from scripts.bench import env as bench_env
    bench_env.main(["--search", "--tiny"])
    out = capsys.readouterr().out
    rows = [re.split(r"\s{2,}", line.strip()) for line in out.splitlines()]
    rows = {cells[0]: cells[1:] for cells in rows if len(cells) == 5 and cells[3].endswith("x")}
    assert list(rows) == list(bench_env.SEARCH_SPECS)
    assert rows["alphabeta:depth=4"][2:] == ["1.00x", "100.0%"]
    assert all(float(us) > 0 and int(nodes) > 0 for us, nodes, *_ in rows.values())
    assert out.startswith("connectx bench env --search --tiny\n")
