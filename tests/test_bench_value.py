"""scripts.bench.value: value kept on labelled positions, and labelling a match's games."""
import json

import pytest

from agents.solver.solver import Solver
from scripts.bench import value as bench_value
from agents.solver.labels import read_lines

ANALYSIS = "scripts/data/positions/analysis.txt"  # 7x6, exact scores of every column


def oracle(lines, pick):
    """An agent that plays ``pick(scores)`` for the position it is shown."""
    by_board = {}
    for moves, scores in lines:
        board, _ = bench_value.board_of(moves)
        by_board[tuple(board)] = scores

    def agent(obs, config):
        scores = by_board[tuple(obs["board"])]
        return pick([s if s != bench_value.FULL else None for s in scores])
    return agent


def test_kept_compares_signs_with_the_best_column():
    assert bench_value.kept(0, [3, 5, -1000])  # win stays win, however slow
    assert not bench_value.kept(1, [0, -2, 1])  # a draw where a win was there
    assert bench_value.kept(0, [1, 0, 2])
    assert bench_value.kept(2, [-3, -1000, -1])  # lost anyway
    assert not bench_value.kept(1, [0, -1000, 0])  # a full column is never kept


def test_run_counts_the_positions_whose_value_the_agent_keeps():
    lines = [ln for ln in read_lines(ANALYSIS) if len({(s > 0) - (s < 0) for s in ln[1]
                                                      if s != -1000}) > 1][:40]
    assert len(lines) == 40
    best = oracle(lines, lambda s: max((v, c) for c, v in enumerate(s) if v is not None)[1])
    worst = oracle(lines, lambda s: min((v, c) for c, v in enumerate(s) if v is not None)[1])
    assert bench_value.run(best, lines) == [True] * 40
    assert bench_value.run(worst, lines) == [False] * 40
    with pytest.raises(RuntimeError, match="not a legal column"):
        bench_value.run(lambda obs, config: 7, lines[:1])


def test_sign_test():
    assert bench_value.sign_test(0, 0) == 1.0
    assert bench_value.sign_test(3, 3) == 1.0
    assert bench_value.sign_test(0, 5) == pytest.approx(2 / 32)
    assert bench_value.sign_test(9, 1) == pytest.approx(2 * 11 / 1024)


def test_label_keeps_the_critical_positions_in_the_stone_range(tmp_path):
    # a game from the end of the labelled set: 26+ stones, every position solves at once
    moves, _ = read_lines(ANALYSIS)[0]
    game = {"agents": ["a", "b"], "opening": moves[:2], "moves": [int(ch) - 1 for ch in moves]}
    solver = Solver()
    lo, hi = len(moves) - 8, len(moves) - 1
    out = bench_value.label([game, game], solver, (lo, hi), 5.0)
    expected = []
    for n in range(lo, hi + 1):
        scores = solver.analyze(moves[:n], weak=True)
        if len({s for s in scores if s != -1000}) > 1:
            expected.append((moves[:n], scores))
    assert out == expected  # the duplicate game adds nothing
    assert all(s in (-1, 0, 1, -1000) for _, scores in out for s in scores)
    path = tmp_path / "games.json"
    path.write_text(json.dumps({"config": {"rows": 6, "columns": 7, "inarow": 4},
                                "games": [game]}))
    target = tmp_path / "pos.txt"
    assert bench_value.main(["--label", str(path), "--out", str(target),
                             "--stones", f"{lo}-{hi}", "--no-progress"]) == 0
    assert read_lines(str(target)) == expected


@pytest.mark.parametrize("argv, message", [
    ([], "at least one agent"),
    (["--label", "x.json"], "--label takes --out"),
    (["--label", "/nonexistent.json", "--out", "o.txt"], "not a match --out file"),
    (["--label", "x.json", "--out", "o.txt", "--stones", "9-3"], "--stones must be"),
    (["nosuchagent"], "unknown agent"),
    (["random", "--file", "BAD5"], "7 scores a line"),
])
def test_bad_input_is_one_line(argv, message, capsys, tmp_path):
    bad = tmp_path / "five.txt"
    bad.write_text("4455 0 1 -1 0 0\n")
    argv = [str(bad) if a == "BAD5" else a for a in argv]
    with pytest.raises(SystemExit) as e:
        bench_value.main(argv)
    assert e.value.code == 2
    assert message in capsys.readouterr().err
