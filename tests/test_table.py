"""The table of outcomes (agents/solver/outcomes.py, ``connectx table``): the small corner
rebuilt against docs/table.md and published outcomes, the end move's arithmetic, the
resume, the stop on a disagreement, and each bad input's one line."""
import json
import os

import pytest

from agents.solver import outcomes as O
from scripts.commands import table as T

from conftest import ROOT, cli_error_line

DOCS = os.path.join(ROOT, "docs", "table.md")

# Published outcomes of small boards, "WxH/K": outcome (no end moves are given there).
# Source: P. Kirlin, "Project 2: Connect Four: Part A Details" (Rhodes College, CS AI
# course, fall 2014), https://cs.rhodes.edu/~kirlinp/courses/ai/f14/projects/proj2/parta.html,
# its tables of "guaranteed wins" for Connect-Three (columns 3-6 by rows 3-6) and
# Connect-Four (boards of 4 or 5 columns and 4-6 rows), found by full minimax.
PUBLISHED = {
    "3x3/3": "draw", "4x3/3": "first", "5x3/3": "first", "6x3/3": "first",
    "3x4/3": "draw", "4x4/3": "first", "5x4/3": "first",
    "3x5/3": "draw", "4x5/3": "first",
    "3x6/3": "draw", "4x6/3": "first",
    "4x4/4": "draw", "5x4/4": "draw", "4x5/4": "draw", "4x6/4": "draw",
}
# V. Allis, "A Knowledge-based Approach of Connect-Four" (master's thesis, Vrije
# Universiteit Amsterdam, 1988), abstract: the second player at least draws "on any
# 6 x (2n) board" (six columns, an even number of rows).
NOT_FIRST = ("6x4/4", "6x6/4")

# Connect Four (4 in a row): the outcome ("+" first player, "-" second, "=" draw) and the
# move on which the perfect game ends, widths 4, 5, 6, ... across, a row per height.
# Source: Christophe Steininger's c4, readme.md, tables "Outcome" and "Last Move"
# (https://github.com/ChristopheSteininger/c4, commit 0e1df1ce4258935f236406ad0e9430a8039ff359);
# its outcomes of boards with width + height <= 15 are John Tromp's of 2006
# (https://tromp.github.io/c4/c4.html), found again by c4.
C4_OUTCOME = {4: "==-=-----", 5: "====++++", 6: "==-+--+", 7: "==+=++", 8: "==-+-",
              9: "==+=+", 10: "==-+", 11: "==+", 12: "==-", 13: "=="}
C4_END_MOVE = {4: [16, 20, 24, 28, 32, 36, 40, 44, 48], 5: [20, 25, 30, 35, 39, 41, 47, 51],
               6: [24, 30, 36, 41, 48, 52, 59], 7: [28, 35, 41, 49, 53, 55],
               8: [32, 40, 48, 55, 62], 9: [36, 45, 53, 63], 10: [40, 50, 60, 69],
               11: [44, 55, 63], 12: [48, 60, 72], 13: [52, 65]}

# John Tromp, "John's Connect Four Playground" (https://tromp.github.io/c4/c4.html; its
# source in github.com/tromp/tromp.github.io, c4/c4.html at commit
# 1b718ca2ff8cdb75271f1cec7c2ab0dc164d419d): the outcome of each board, widths 4, 5, 6, ...
# across, a row per height ("+" first player, "=" tie, "-" second player; no end moves).
TROMP_OUTCOME = {4: "==-=----", 5: "====+++", 6: "==-+--", 7: "==+=+", 8: "==-+-",
                 9: "==+", 10: "==", 11: "="}
FOUR_MAX_SUM = 13  # docs/table.md's table of 4 in a row: every board with width + height <= 13


def tromp_published():
    """``{board: sign}`` of Tromp's table."""
    return {O.board_name(4 + i, h, 4): sign
            for h, signs in TROMP_OUTCOME.items() for i, sign in enumerate(signs)}


def c4_published():
    """``{board: cell text}`` of c4's tables (``+41``, ``-24``, ``=16``; the outcome alone
    where the last-move table has no entry: 8x9)."""
    return {O.board_name(4 + i, h, 4): sign + (str(C4_END_MOVE[h][i]) if i < len(C4_END_MOVE[h])
                                                else "")
            for h, signs in C4_OUTCOME.items() for i, sign in enumerate(signs)}


def small_corner():
    """Every cell of inarow 3, 4 and 5 with both sides <= 5."""
    return [cell for k in O.INAROWS for cell in O.boards(k, 5)]


def docs_cells():
    """``{board: cell text}`` of the three tables of docs/table.md."""
    with open(DOCS) as f:
        text = f.read()
    out = {}
    for k in O.INAROWS:
        block = text.split(f"<!-- table {k} -->")[1].split("<!-- end -->")[0]
        out.update(O.parse_markdown_table(block, k))
    return out


@pytest.fixture(scope="module")
def corner():
    """The small corner rebuilt: ``{board: record}``, each checked by the probes (the
    reference negamax within 20k nodes, to keep the test short)."""
    def check(c, r, k, score, seconds, tt_bits):
        return O.check_cell(c, r, k, score, seconds, reference_nodes=20_000, tt_bits=tt_bits)
    return {O.board_name(*cell): O.run_cell(*cell, 30.0, check=check, tt_bits=16)
            for cell in small_corner()}


def test_small_corner_matches_the_docs(corner):
    documented = docs_cells()
    for board, rec in corner.items():
        assert "probes" in rec["checked_by"], rec
        assert documented[board] == O.cell_text(rec), board


def test_the_two_published_tables_agree_where_both_give_a_board():
    c4, tromp = c4_published(), tromp_published()
    assert len(tromp) == 37 and len(c4) == 52
    for board, sign in tromp.items():
        assert c4[board][0] == sign, board


def test_every_documented_four_in_a_row_cell_is_c4s_and_tromps(corner):
    """Every board of 4 in a row with width + height <= 13 is in docs/table.md, solved, and
    its outcome and end move equal c4's published ones, its outcome Tromp's (and the
    rebuilt corner's are c4's too)."""
    published, tromp = c4_published(), tromp_published()
    documented = {b: v for b, v in docs_cells().items() if b.endswith("/4")}
    wanted = {O.board_name(*cell) for cell in O.boards(4, max_sum=FOUR_MAX_SUM)}
    assert set(documented) == wanted and len(wanted) == 21
    for board, text in documented.items():
        assert published[board] == text, board
        assert tromp[board] == text[0], board
    for board, rec in corner.items():
        if board.endswith("/4"):
            assert O.cell_text(rec) == published[board], board


def test_the_docs_tables_are_the_documented_results_files():
    """docs/table.md's three tables are those of docs/table.jsonl, the results file of the
    run the page names."""
    results = O.read_results(os.path.join(ROOT, "docs", "table.jsonl"))
    documented = docs_cells()
    for board, text in documented.items():
        assert O.cell_text(results.get(board)) == text, board
    solved = {b for b, r in results.items() if r["outcome"] != O.OPEN}
    assert solved <= set(documented)
    with open(DOCS) as f:
        text = f.read()
    for board, rec in results.items():  # each board's cost row is the file's
        assert f"| {board} | " in text and f" | {rec['nodes']:,} | " in text, board
        if board in solved:
            assert rec["checked_by"][0] == "solver" and len(rec["checked_by"]) >= 2, board
            assert (f"| {board} | {rec['outcome']} | {rec['end_move']} | {rec['nodes']:,} | "
                    in text), board


def test_small_corner_matches_the_published_outcomes(corner):
    documented = docs_cells()
    for board, outcome in PUBLISHED.items():
        if board in corner:
            assert corner[board]["outcome"] == outcome, board
        sign = {"first": "+", "second": "-", "draw": "="}[outcome]
        assert documented[board].startswith(sign), board
    for board in NOT_FIRST:
        assert not documented[board].startswith("+"), board


@pytest.mark.parametrize("score,cells,want", [
    (1, 42, 41),    # 7x6: the first player's 21st stone
    (0, 16, 16),    # a draw ends on the last cell
    (-1, 24, 24),   # 6x4/4: the second player's 12th stone
    (2, 9, 7),      # on 9 cells: the first player's 4th stone
    (4, 15, 9),     # 5x3/3
    (-2, 9, 6),     # the second player's 3rd stone
])
def test_end_move_inverts_the_score(score, cells, want):
    assert O.end_move(score, cells) == want
    if score:  # the solver's scale: (N + 1 - m) // 2 with m stones before the winning one
        assert (cells + 1 - (want - 1)) // 2 == abs(score)
        assert (want % 2 == 1) == (score > 0)  # odd moves are the first player's


def test_reference_agrees_with_the_solver_on_tiny_boards():
    for cell in [(3, 3, 3), (4, 3, 3), (4, 4, 3), (4, 4, 4), (5, 3, 3)]:
        score, _, _ = O.solve_cell(*cell, 30.0, tt_bits=12)
        assert O.reference_score(*cell) == score, cell


def test_resume_skips_done_cells_and_retries_open_ones(tmp_path, monkeypatch):
    path = str(tmp_path / "r.jsonl")
    calls = []

    def fake_run(c, r, k, seconds, tt_bits=20):
        calls.append((O.board_name(c, r, k), seconds))
        return {"board": O.board_name(c, r, k), "outcome": "draw", "end_move": c * r,
                "score": 0, "nodes": 1, "seconds": 0.0, "solver": "x",
                "checked_by": ["solver", "probes"], "budget": seconds}
    monkeypatch.setattr(O, "run_cell", fake_run)
    open_line = {"board": "4x3/3", "outcome": "open", "nodes": 5, "seconds": 1.0,
                 "solver": "x", "checked_by": [], "budget": 1.0}
    done_line = dict(open_line, board="3x3/3", outcome="draw", end_move=9, budget=1.0)
    with open(path, "w") as f:
        f.write(json.dumps(done_line) + "\n" + json.dumps(open_line))  # no final newline
    assert T.main(["--inarow", "3", "--max-side", "4", "--results", path, "--seconds", "2",
                   "--quiet"]) == 0
    assert sorted(b for b, _ in calls) == ["3x4/3", "4x3/3", "4x4/3"]
    results = O.read_results(path)
    assert results["4x3/3"]["outcome"] == "draw" and results["3x3/3"]["budget"] == 1.0
    calls.clear()
    assert T.main(["--inarow", "3", "--max-side", "4", "--results", path, "--seconds", "2",
                   "--quiet"]) == 0
    assert calls == []


def test_max_sum_keeps_the_boards_of_width_plus_height_up_to_it(tmp_path, monkeypatch):
    four = O.boards(4, max_sum=13)
    assert len(four) == 21 and (7, 6, 4) in four and (6, 7, 4) in four and (9, 4, 4) in four
    assert all(c + r <= 13 for c, r, _ in four) and (8, 6, 4) not in four
    assert O.boards(5, max_side=6, max_sum=11) == [(5, 5, 5), (5, 6, 5), (6, 5, 5)]
    path = str(tmp_path / "r.jsonl")
    monkeypatch.setattr(O, "run_cell", lambda c, r, k, seconds, tt_bits=20: {
        "board": O.board_name(c, r, k), "outcome": "open", "nodes": 0, "seconds": 0.0,
        "solver": "x", "checked_by": [], "budget": seconds})
    assert T.main(["--inarow", "3", "--max-sum", "7", "--results", path, "--quiet"]) == 0
    assert sorted(O.read_results(path)) == ["3x3/3", "3x4/3", "4x3/3"]


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_disagreement_stops_the_run_with_both_figures(tmp_path, monkeypatch, capsys, workers):
    """In one process or in forked workers (which inherit the stub: the pool forks here
    even where JAX has started in this test process, which would make it spawn fresh
    interpreters without the stub)."""
    from scripts.arena import pools
    monkeypatch.setattr(pools, "start_method", lambda: "fork")
    path = str(tmp_path / "r.jsonl")

    def stub(c, r, k, score, seconds, tt_bits):
        if (c, r, k) == (4, 4, 3):
            raise O.Disagreement(f"board 4x4/3: the solver scores {score}, the stub {-score}")
        return ["stub"]
    real = O.run_cell
    monkeypatch.setattr(O, "run_cell", lambda *a, **kw: real(*a, check=stub, **kw))
    status = T.main(["--inarow", "3", "--max-side", "4", "--results", path, "--quiet",
                     "--workers", workers])
    assert status == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["connectx table: disagreement: board 4x4/3: the solver scores 4, the stub -4"]
    done = O.read_results(path)
    assert "4x4/3" not in done  # the cells done before it are kept: all three in one process
    assert len(done) == 3 if workers == "1" else set(done) <= {"3x3/3", "3x4/3", "4x3/3"}


def test_each_check_catches_a_wrong_score():
    """4x3/3 scores 2 (the first player wins on move 9): 1 and 3 are caught by the probes
    alone and by the reference alone."""
    assert O.check_cell(4, 3, 3, 2, 10.0) == ["probes", "reference"]
    for wrong in (1, 3):
        with pytest.raises(O.Disagreement, match=f"4x3/3: the solver scores {wrong}, the probes"):
            O.check_cell(4, 3, 3, wrong, 10.0, reference_nodes=0)
        assert O.probe_score(4, 3, 3, wrong, 10.0) is False
        assert O.reference_score(4, 3, 3) == 2


def test_the_reference_alone_stops_a_score_the_probes_let_pass(monkeypatch):
    monkeypatch.setattr(O, "probe_score", lambda *a: True)
    with pytest.raises(O.Disagreement, match=r"scores 3 \(first on move 7\), the reference "
                                             r"negamax 2 \(first on move 9\)"):
        O.check_cell(4, 3, 3, 3, 10.0)


@pytest.mark.parametrize("argv,words", [
    (["--board", "8x8/4"], "72 bits"),
    (["--board", "3x3/4"], "above both sides"),
    (["--board", "0x4/3"], ">= 1"),
    (["--board=-2x4/3"], ">= 1"),
    (["--board", "4x4"], "WIDTHxHEIGHT/INAROW"),
    (["--max-side", "-1"], "--max-side"),
    (["--inarow", "0"], "inarow"),
    (["--inarow", "9"], "inarow 9"),
    (["--max-sum", "0"], "--max-sum must be >= 1"),
    (["--inarow", "4", "--max-sum", "7"], "inarow 4: no board with both sides >= 4 fits the "
                                          "solver's 64 bits and --max-sum 7"),
    (["--workers", "0"], "--workers"),
    (["--workers", "2", "--dask", "tcp://127.0.0.1:1"], "not allowed with"),
])
def test_bad_input_is_one_line_and_exit_2(tmp_path, capsys, argv, words):
    path = tmp_path / "r.jsonl"
    line = cli_error_line(["table", *argv, "--results", str(path)], capsys)
    assert line.startswith("connectx table: error:") and words in line
    assert not path.exists()


def test_a_results_file_that_cannot_be_written_is_one_line(tmp_path, capsys):
    for path, words in ((tmp_path / "no" / "r.jsonl", "No such file or directory"),
                        (tmp_path, "Is a directory")):
        line = cli_error_line(["table", "--inarow", "3", "--max-side", "3", "--results",
                               str(path)], capsys)
        assert line == f"connectx table: error: results file {path}: {words}"


@pytest.mark.parametrize("bad", ['{"board": "5x', '[1, 2]\n', '{"board": "4x4/4"}\n',
                                 '{"board": "9x9/4", "outcome": "draw", "nodes": 1, '
                                 '"seconds": 0, "solver": "x", "checked_by": []}\n'])
def test_a_corrupt_results_file_is_one_line_and_left_whole(tmp_path, capsys, bad):
    path = tmp_path / "r.jsonl"
    good = json.dumps({"board": "3x3/3", "outcome": "draw", "end_move": 9, "nodes": 1,
                       "seconds": 0, "solver": "x", "checked_by": ["solver"]}) + "\n"
    path.write_text(good + bad)
    line = cli_error_line(["table", "--inarow", "3", "--max-side", "3", "--results",
                           str(path)], capsys)
    assert "line 2 is corrupt" in line
    assert path.read_text() == good + bad


SAME = ("board", "outcome", "end_move", "score", "nodes", "solver", "checked_by", "budget")


def spread_run(tmp_path, name, *where):
    """The records of ``connectx table`` on 3 and 4 in a row up to 4x4 run ``where``."""
    path = str(tmp_path / f"{name}.jsonl")
    assert T.main(["--inarow", "3", "--inarow", "4", "--max-side", "4", "--seconds", "30",
                   "--tt-bits", "16", "--results", path, "--quiet", *where]) == 0
    records = O.read_results(path)
    assert sorted(records) == sorted(O.board_name(*c) for k in (3, 4) for c in O.boards(k, 4))
    assert all("probes" in r["checked_by"] for r in records.values())
    return {b: {k: r.get(k) for k in SAME} for b, r in records.items()}


@pytest.mark.slow
def test_dask_and_a_process_pool_give_the_local_runs_records(tmp_path):
    """Two Dask workers on a scheduler over loopback TCP (given by address, as a user
    would) and two forked processes solve the same cells as one process, node for node."""
    import distributed
    here = spread_run(tmp_path, "here")
    assert spread_run(tmp_path, "pool", "--workers", "2") == here
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  protocol="tcp://", host="127.0.0.1",
                                  dashboard_address=None) as cluster:
        address = cluster.scheduler_address
        assert address.startswith("tcp://127.0.0.1:")
        with distributed.Client(address) as client:
            assert len(client.scheduler_info()["workers"]) == 2
        assert spread_run(tmp_path, "dask", "--dask", address) == here
