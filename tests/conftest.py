import json
import os
import sys
import textwrap

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

# labelled 7x6 positions, notation and provenance in tests/data/positions/README.md
POSITIONS = os.path.join(ROOT, "tests", "data", "positions")


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


def pytest_collection_modifyitems(config, items):
    """Tests marked ``slow`` (games in fresh processes, seconds each) run first: with
    ``pytest -n auto`` the workers then share out the short tests at the end instead of
    one worker finishing a long game while the others wait. Order only; every test runs."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)
