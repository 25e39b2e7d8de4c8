import json
import os
import sys
import textwrap

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

# every test process imports kaggle-environments: 3 s of CPU less each (see the function)
from scripts.arena.extras import skip_iri_grammar  # noqa: E402

skip_iri_grammar()

# labelled 7x6 positions, notation and provenance in scripts/data/positions/README.md
POSITIONS = os.path.join(ROOT, "scripts", "data", "positions")


def cli_error_line(argv, capsys):
    """``connectx ARGV`` run in this process: the one line it writes to stderr. Fails
    unless the status is 2 and stderr is one line (an exception other than
    ``SystemExit`` fails the test: it would be a traceback)."""
    from scripts import cli
    try:
        status = cli.main(argv)
    except SystemExit as exc:
        status = exc.code
    out, err = capsys.readouterr()
    assert status == 2, (out, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    return lines[0]


def shuffled_multi_isolation(seed, width, height):
    """:class:`agents.games.isolation.MultiIsolation` with each state's children in a
    random order fixed by the state and ``seed`` (tuples of ints hash the same in every
    run), so that two searches see the same order at a node: the tie-break is the
    first best child."""
    import random

    from agents.games.isolation import MultiIsolation

    class Shuffled(MultiIsolation):
        def actions(self, state):
            actions = super().actions(state)
            random.Random(hash((seed, state))).shuffle(actions)
            return actions

    return Shuffled(width, height)


def write_package(root, files):
    """Create ``files`` ({relative path: source}, dedented) under ``root``: the small
    packages the submission bundler's tests build."""
    for rel, source in files.items():
        path = os.path.join(root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(textwrap.dedent(source))


# ---------------------------------------------------------------------------
# connectx serve (test_serve.py, test_serve_requests.py, test_serve_play.py)
# ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def server():
    """The browser app (2 search slots, 1 s moves, 5 s analyses, the opening database
    when the books extra is installed, no warm-up) on a free loopback port, served by a
    thread of this process; one server per test module."""
    import threading

    from scripts.server import app as serve
    app = serve.App(searches=2, move_time=1.0, analysis_time=5.0)
    srv = serve.make_server(app, "127.0.0.1", 0)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    yield srv
    srv.shutdown()
    srv.server_close()


def api_call(srv, path, body=None, method=None, headers=None, raw=None):
    """(status, decoded JSON or bytes) of one request to the test server ``srv``: ``body``
    is sent as JSON (POST), ``raw`` as is; GET without either."""
    import urllib.error
    import urllib.request

    from scripts.server.app import url_of
    data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
    req = urllib.request.Request(url_of(srv).rstrip("/") + path, data=data,
                                 method=method or ("POST" if data is not None else "GET"),
                                 headers=headers or {"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            status, ctype, payload = r.status, r.headers["Content-Type"], r.read()
    except urllib.error.HTTPError as e:
        status, ctype, payload = e.code, e.headers["Content-Type"], e.read()
    return status, (json.loads(payload) if ctype == "application/json" else payload)


def board_after(moves, cfg):
    """Kaggle flat board of ``cfg`` after 0-based ``moves`` (first player = mark 1),
    through :func:`agents.board.rules.drop_piece`."""
    from agents.board.rules import drop_piece
    board = [0] * (cfg["rows"] * cfg["columns"])
    for i, c in enumerate(moves):
        board = drop_piece(board, c, 1 + i % 2, cfg)
    return board


def match_doc(tmp_path, games=2):
    """The ``--json`` document of a real ``connectx match rules random --games N``."""
    from scripts.commands.match import main as match_main
    path = tmp_path / "games.json"
    assert match_main(["rules", "random", "--games", str(games), "--json", str(path),
                       "--quiet"]) == 0
    return json.loads(path.read_text())


# ---------------------------------------------------------------------------
# Learning tests: their seeds, shifted by a seed family to see a lucky pass early
# ---------------------------------------------------------------------------

SEED_FAMILY_ENV = "CONNECTX_SEED_FAMILY"


def family_seed(seed):
    """``seed`` in the seed family ``CONNECTX_SEED_FAMILY=K`` (``seed + 1000 * K``; K = 0
    by default). The tests that assert an outcome of learning take their seeds from here,
    so the same tests run on other seeds (docs/development.md): another machine's float
    sums give another run, and a margin that only one family of runs clears is seen here
    before a user sees it."""
    return seed + 1000 * int(os.environ.get(SEED_FAMILY_ENV, "0"))


def score_of(wdl):
    """The score of ``(wins, draws, losses)``: a win 1, a draw 1/2."""
    w, d, l = wdl
    return (w + d / 2) / (w + d + l)


def learned_margin(params, cfg, architecture, seed, games=1000, baselines=8):
    """``(trained, own start, untrained mean)``: the scores against ``random`` over the
    same ``games`` seeded games (:func:`scripts.learn.evaluate.win_rate`) of ``params``,
    of the untrained network of ``seed`` (where the run started) and the mean of the
    untrained networks of ``baselines`` seeds from ``seed`` on: the baseline a learning
    test asserts its effect against. An untrained network's greedy policy is a fixed
    strategy that may beat ``random`` by luck (0.29 to 0.64 over 12 seeds on 4x4/3, 0.44
    to 0.68 on 5x4/3), so one untrained network is a poor yardstick and the mean of 8 a
    steady one (standard deviation 0.08 a network: 0.03 for the mean)."""
    from scripts.learn.evaluate import win_rate
    from scripts.learn.model import init_params
    rows, columns, _ = cfg

    def score(p):
        return score_of(win_rate(p, cfg, "random", games, 7, architecture))
    untrained = [score(init_params(rows, columns, architecture, seed + k))
                 for k in range(baselines)]
    return score(params), untrained[0], sum(untrained) / baselines


# ---------------------------------------------------------------------------
# Skips: allowed locally, a failure under CONNECTX_NO_SKIP=1 (set by .ci/run)
# ---------------------------------------------------------------------------

NO_SKIP_ENV = "CONNECTX_NO_SKIP"
# The only skips CI accepts: (a phrase of the skip's reason, why a skip there is no broken
# install). CI installs every extra and Chromium, so any skip there means something a user
# was promised did not run; none is accepted today.
ALLOWED_SKIPS = ()


def skip_reason(report):
    """The reason of a skipped test or collection ``report`` (``longrepr`` is
    ``(path, line, "Skipped: reason")`` for skips), else None."""
    if not report.skipped or hasattr(report, "wasxfail"):
        return None
    longrepr = report.longrepr
    reason = longrepr[2] if isinstance(longrepr, tuple) and len(longrepr) == 3 else str(longrepr)
    return reason.removeprefix("Skipped: ")


def unexpected_skip(report):
    """The reason of ``report``'s skip when no phrase of :data:`ALLOWED_SKIPS` is in it,
    else None (no skip, or an allowed one)."""
    reason = skip_reason(report)
    if reason is None or any(phrase in reason for phrase, _ in ALLOWED_SKIPS):
        return None
    return reason


def fail_unexpected_skip(report):
    """Under ``CONNECTX_NO_SKIP=1``, turn an unexpected skip into a failure that says so."""
    if os.environ.get(NO_SKIP_ENV) != "1":
        return
    reason = unexpected_skip(report)
    if reason is not None:
        report.outcome = "failed"
        report.longrepr = (f"{NO_SKIP_ENV}=1 and this skip is not allowed "
                           f"(tests/conftest.py ALLOWED_SKIPS): {reason}")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    fail_unexpected_skip(outcome.get_result())


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector):
    outcome = yield
    fail_unexpected_skip(outcome.get_result())


def pytest_terminal_summary(terminalreporter):
    """Locally: how many skips CI (``CONNECTX_NO_SKIP=1``) would fail, and the switch."""
    reports = terminalreporter.stats.get("skipped", [])
    unexpected = [r for r in reports if unexpected_skip(r) is not None]
    if unexpected and os.environ.get(NO_SKIP_ENV) != "1":
        terminalreporter.write_line(
            f"{len(unexpected)} skipped test(s) would fail under {NO_SKIP_ENV}=1 as CI runs "
            f"(an extra, the database or Chromium missing: see the reasons above)")


# ---------------------------------------------------------------------------
# Scheduling: the heaviest tests first, shared out between pytest-xdist's workers
# ---------------------------------------------------------------------------

# Expected seconds of the heaviest tests ("file::function", all its parametrisations
# together, shared out equally among those collected),
# CPU of pytest and its children where measured (2026-11-27), else the wall
# of a loaded 2-worker run. Only the order depends on them: a
# wrong or missing figure costs balance, never a test. A test marked ``slow`` that is not
# listed counts SLOW_SECONDS; tests/test_schedule.py checks that every name exists.
HEAVY = {
    "test_notebooks_outside.py::test_every_notebook_runs_outside_the_checkout": 94,
    "test_validate.py::test_default_file_is_perfect_and_passes_kaggles_upload_check": 60,
    "test_widget_browser.py::test_a_notebook_cell_plays_analyses_and_replays_with_verdicts": 40,
    "test_offbook.py::test_off_the_book_first_calls_keep_the_value_and_the_overage_lasts": 35,
    "test_learn.py::test_learn_on_a_small_board": 28,
    "test_validate.py::test_a_file_answers_its_first_move_at_once_and_beats_negamax": 30,
    "test_jit_cache.py::test_concurrent_fill_then_load_gives_the_same_results": 9,
    "test_agents.py::test_alphabeta_beats_negamax_and_tutorial_in_both_colours": 20,
    "test_zero.py::test_zero_learns_a_small_board": 18,
    "test_levels.py::test_bench_levels_fits_ratings_anchored_on_negamax": 16,
    "test_perfect.py::test_large_board_is_alphabeta": 12,
    "test_database.py::test_bitbully_sample_equals_the_plain_solver": 11,
    "test_database_build.py::test_7x6_opening_databases_on_the_published_12_ply_database": 11,
    "test_cleanrl_ppo.py::test_ppo_example_learns_to_beat_random": 10,
    "test_opening_scores.py::test_a_seeded_sample_of_entries_equals_the_solver": 10,
    "test_reinforce.py::test_tiny_reinforce_run_beats_random": 9,
    "test_validate.py::test_validate_plays_the_configured_board": 8,
    "test_labels.py::test_perfect_plays_only_best_columns": 8,
    "test_fuzz.py::test_short_seeded_fuzz_run_has_no_failures": 8,
    "test_lessons.py::test_the_books_depth_3_is_the_packages_depth_4": 7,
    "test_perfect.py::test_lost_position_sets_a_trap_among_the_optimal_columns": 7,
    "test_zero.py::test_resume_continues_from_the_saved_iteration": 7,
    "test_match.py::test_dask_local_cluster_plays_the_same_games": 7,
    "test_pools.py::test_teacher_labels_on_dask_as_here": 12,
    "test_entry_points.py::test_a_module_that_shows_a_command_line_has_a_main_guard": 7,
    "test_serve_browser.py::test_two_tabs_play_two_games": 7,
    "test_golden.py::test_golden_moves_unchanged": 6,
    "test_install.py::test_readme_examples_run_outside_the_checkout_after_the_readme_install": 6,
    "test_docs_site.py::test_mkdocs_build_strict_passes_and_the_readme_links_resolve": 8,
}
SLOW_SECONDS = 3


def function_id(nodeid):
    """``FILE::FUNCTION`` of ``tests/FILE::FUNCTION[params]``."""
    return nodeid.partition("[")[0].rpartition("/")[2]


def expected_seconds(names, slow):
    """The scheduling weight of each test (``names``: :func:`function_id` of each collected
    test, ``slow``: whether each is marked ``slow``): :data:`HEAVY`'s figure shared out
    among the function's parametrisations, else ``SLOW_SECONDS`` for a ``slow`` test,
    else 0."""
    count = {}
    for name in names:
        count[name] = count.get(name, 0) + 1
    return [HEAVY[name] / count[name] if name in HEAVY else SLOW_SECONDS if marked else 0
            for name, marked in zip(names, slow)]


def worker_shares(n, workers):
    """How many of ``n`` tests each of ``workers`` xdist workers receives at the start
    under ``--dist worksteal``: consecutive slices of the collection, ``len(pending) //
    workers left`` each in turn (``WorkStealingScheduling.check_schedule``)."""
    shares = []
    for k in range(workers):
        shares.append((n - sum(shares)) // (workers - k))
    return shares


def schedule(weights, workers):
    """The run order of tests given their weights (a list; 0 for a light test) for
    ``workers`` workers of ``--dist worksteal``: indices into ``weights``. Each worker's
    slice opens with its heavy tests, longest first, dealt to the least loaded worker
    (longest-processing-time first), then light tests in collection order (module
    fixtures stay together); an idle worker steals from the end of another's slice,
    where the light ones are. One worker: the heavy tests first."""
    heavy = sorted((i for i, w in enumerate(weights) if w > 0), key=lambda i: -weights[i])
    light = [i for i, w in enumerate(weights) if w <= 0]
    if workers < 2:
        return heavy + light
    shares = worker_shares(len(weights), workers)
    slices, load = [[] for _ in shares], [0.0] * workers
    for i in heavy:
        k = min((k for k in range(workers) if len(slices[k]) < shares[k]),
                key=lambda k: load[k])
        slices[k].append(i)
        load[k] += weights[i]
    rest = iter(light)
    for k, share in enumerate(shares):
        slices[k].extend(next(rest) for _ in range(share - len(slices[k])))
    return [i for s in slices for i in s]


def pytest_collection_modifyitems(config, items):
    """The order of :func:`schedule` for this run's number of xdist workers (each
    worker collects the same items and computes the same order). Order only; every
    test runs."""
    weights = expected_seconds([function_id(item.nodeid) for item in items],
                               [item.get_closest_marker("slow") is not None for item in items])
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    items[:] = [items[i] for i in schedule(weights, workers)]
