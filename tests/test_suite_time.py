"""``python -m scripts.tools.suite_time``: the pieces of the back-to-back measure (the
runs themselves take minutes: the tool is run by hand, its figures are in the notes)."""
from types import SimpleNamespace

import pytest

from scripts.tools import suite_time as st

BASE = ["tests/test_a.py::test_x", "tests/test_a.py::test_p[1]", "tests/test_a.py::test_p[2]",
        "tests/test_b.py::test_gone"]
HEAD = ["tests/test_a.py::test_x", "tests/test_a.py::test_p[1-new]", "tests/test_a.py::test_new",
        "tests/test_c.py::test_x", "tests/test_b.py::test_gone"]


def test_base_tests_are_heads_tests_of_the_bases_functions_any_parametrisation():
    assert st.base_tests(BASE, HEAD) == ["tests/test_a.py::test_x",
                                         "tests/test_a.py::test_p[1-new]",
                                         "tests/test_b.py::test_gone"]
    assert st.base_tests([], HEAD) == []


@pytest.mark.parametrize("line, want", [
    ("1587 passed, 34 warnings in 284.32s (0:04:44)", (1587, 284.32)),
    ("12 passed in 3.10s", (12, 3.1)),
    ("1 failed, 11 passed in 3.10s", None),
    ("11 passed, 1 error in 3.10s", None),
    ("Interrupted: 1 error during collection", None),
    ("", None)])
def test_summary_reads_only_a_passing_run(line, want):
    assert st.summary("....\nslowest durations\n" + line + "\n") == want


def test_report_gives_each_kinds_mean_and_its_ratio_to_base():
    runs = [{"kind": "base", "tests": 10, "seconds": 100.0},
            {"kind": "head", "tests": 12, "seconds": 110.0},
            {"kind": "base", "tests": 10, "seconds": 120.0},
            {"kind": "head", "tests": 12, "seconds": 130.0},
            {"kind": "head, base's tests", "tests": 9, "seconds": 55.0}]
    lines = st.report(runs)
    assert lines[0] == "base: 2 run(s), 10 tests, 100.0 120.0 s, mean 110.0 s, 1.00x base"
    assert lines[1] == "head: 2 run(s), 12 tests, 110.0 130.0 s, mean 120.0 s, 1.09x base"
    assert lines[2] == "head, base's tests: 1 run(s), 9 tests, 55.0 s, mean 55.0 s, 0.50x base"


def test_the_plugin_keeps_the_listed_ids_and_reports_the_others_deselected(tmp_path, monkeypatch):
    ids = tmp_path / "ids.txt"
    ids.write_text("a::x\nb::y[1]\n")
    items = [SimpleNamespace(nodeid=n) for n in ("a::x", "a::z", "b::y[1]", "b::y[2]")]
    dropped = []
    config = SimpleNamespace(hook=SimpleNamespace(pytest_deselected=lambda items: dropped.extend(items)))
    monkeypatch.setenv(st.IDS_ENV, str(ids))
    st.pytest_collection_modifyitems(None, config, items)
    assert [i.nodeid for i in items] == ["a::x", "b::y[1]"]
    assert [i.nodeid for i in dropped] == ["a::z", "b::y[2]"]
    monkeypatch.delenv(st.IDS_ENV)  # not asked for: every test stays
    items = [SimpleNamespace(nodeid="a::z")]
    st.pytest_collection_modifyitems(None, config, items)
    assert len(items) == 1


def test_an_unknown_commit_is_one_line_and_exit_2(capsys):
    with pytest.raises(SystemExit) as exc:
        st.main(["no-such-revision-here"])
    assert exc.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "unknown commit 'no-such-revision-here'" in err[0]
