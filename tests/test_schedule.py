"""The suite's own schedule (tests/conftest.py): pytest-xdist's ``worksteal`` workers
each start on a slice of the collection, so the heaviest tests are dealt out first."""
import ast
import os

from conftest import HEAVY, ROOT, SLOW_SECONDS, expected_seconds, schedule, function_id, worker_shares


def test_every_heavy_name_is_a_test():
    """A renamed test would silently lose its place at the front."""
    for name in HEAVY:
        path, _, function = name.partition("::")
        tree = ast.parse(open(os.path.join(ROOT, "tests", path), encoding="utf-8").read())
        assert function in {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}, name


def test_weights_of_listed_slow_and_light_tests():
    """A listed function's figure is shared by its parametrisations."""
    name = next(iter(HEAVY))
    assert function_id(f"tests/{name}[a/b-1]") == name
    names = [name, name, "test_x.py::test_slow", "test_x.py::test_light"]
    assert expected_seconds(names, [False, False, True, False]) == \
        [HEAVY[name] / 2, HEAVY[name] / 2, SLOW_SECONDS, 0]


def test_worker_shares_are_worksteals_slices():
    assert worker_shares(11, 2) == [5, 6]
    assert worker_shares(10, 3) == [3, 3, 4]
    assert sum(worker_shares(1565, 4)) == 1565


def test_each_worker_opens_with_its_heaviest_and_the_loads_are_balanced():
    """Two workers: the 86 s test opens one slice, the next two open the other's; each
    test goes where the load is least (86 + 28 + 22 against 47 + 38 + 31 + 5); within a
    slice the heavy tests run longest first, the light ones in collection order."""
    weights = [0, 5, 0, 86, 0, 47, 0, 38, 31, 0, 28, 0, 0, 22, 0, 0]
    order = schedule(weights, 2)
    assert sorted(order) == list(range(len(weights)))
    first, second = order[:8], order[8:]
    assert first[0] == 3 and second[:2] == [5, 7]
    loads = [sum(weights[i] for i in s) for s in (first, second)]
    assert loads == [136, 121], loads
    for part in (first, second):
        heavy = [weights[i] for i in part if weights[i]]
        assert heavy == sorted(heavy, reverse=True)
        light = [i for i in part if not weights[i]]
        assert light == sorted(light)
    assert schedule(weights, 1)[:3] == [3, 5, 7]


class _Report:
    """The fields of a pytest report that the skip guard reads."""

    def __init__(self, reason):
        self.outcome = "skipped" if reason is not None else "passed"
        self.longrepr = ("tests/test_x.py", 3, f"Skipped: {reason}") if reason else None

    @property
    def skipped(self):
        return self.outcome == "skipped"


def test_an_unlisted_skip_fails_under_no_skip_and_a_listed_one_stays(monkeypatch):
    """``CONNECTX_NO_SKIP=1`` (.ci/run): a skip whose reason has no phrase of
    ``ALLOWED_SKIPS`` becomes a failure naming the reason; a listed one stays a skip;
    without the variable every skip stays one."""
    import conftest
    from conftest import NO_SKIP_ENV, fail_unexpected_skip
    monkeypatch.setattr(conftest, "ALLOWED_SKIPS", (("machine overloaded", "a reason"),))
    allowed = "the busy thread got 10% of a core (machine overloaded)"
    monkeypatch.delenv(NO_SKIP_ENV, raising=False)
    report = _Report("could not import 'jax'")
    fail_unexpected_skip(report)
    assert report.skipped
    monkeypatch.setenv(NO_SKIP_ENV, "1")
    fail_unexpected_skip(report)
    assert report.outcome == "failed" and "could not import 'jax'" in report.longrepr
    report = _Report(allowed)
    fail_unexpected_skip(report)
    assert report.skipped
    passed = _Report(None)
    fail_unexpected_skip(passed)
    assert passed.outcome == "passed"


def test_the_allowed_skips_are_few_and_reasoned():
    from conftest import ALLOWED_SKIPS
    assert len(ALLOWED_SKIPS) <= 5
    assert all(len(why) > 40 for _, why in ALLOWED_SKIPS)
