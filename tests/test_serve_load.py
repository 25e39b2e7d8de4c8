"""``connectx serve`` under a burst and under hostile input (issue 57): every request is
answered -- 200, or 503 with ``Retry-After`` when the queue of expensive requests is
full -- and none is reset; malformed bodies are 400s that name the problem; agent specs
that name files are refused unless the server was started with ``--files DIR``, and
then only inside it.

The servers run in this process on free loopback ports, without the opening database
(nothing here analyses). Figures are printed (``pytest -s``), never asserted; the load
benchmark is ``connectx bench serve``."""
import http.client
import json
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from scripts.server import app as serve


def start(app):
    """``app`` served by a thread of this process on a free loopback port."""
    srv = serve.make_server(app, "127.0.0.1", 0)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    return srv


@pytest.fixture(scope="module")
def small():
    """2 search slots, a queue of 4, no database."""
    srv = start(serve.App(searches=2, move_time=1.0, database=False, queue=4))
    yield srv
    srv.shutdown()
    srv.server_close()


def post(srv, path, body, raw=None, content_type="application/json"):
    """``(status, headers, decoded JSON)`` of one POST on a new connection; a reset or
    any other connection error is returned as its exception's name in place of the
    status."""
    conn = http.client.HTTPConnection(*srv.server_address[:2], timeout=60)
    try:
        data = raw if raw is not None else json.dumps(body).encode()
        conn.request("POST", path, data, {"Content-Type": content_type})
        r = conn.getresponse()
        return r.status, dict(r.getheaders()), json.loads(r.read())
    except OSError as e:
        return type(e).__name__, {}, None
    finally:
        conn.close()


def answered_by_design(status, headers):
    """200, or 503 with a whole number of seconds in ``Retry-After``."""
    return status == 200 or (status == 503 and headers.get("Retry-After", "").isdigit()
                             and int(headers["Retry-After"]) >= 1)


def test_256_requests_64_at_a_time_are_all_answered_none_reset(small):
    """Half of them cheap (``/api/state``), half agent moves through the pool of 2
    workers and 4 waiting: the moves beyond those may be 503 with Retry-After."""
    jobs = [("/api/state", {"moves": [3, 3, i % 7]}) if i % 2 else
            ("/api/move", {"moves": [3, i % 7], "agent": "random:seed=1"}) for i in range(256)]
    with ThreadPoolExecutor(64) as pool:
        results = list(pool.map(lambda job: post(small, *job), jobs))
    wrong = [(job, status) for job, (status, headers, _) in zip(jobs, results)
             if not answered_by_design(status, headers)]
    assert not wrong, wrong[:5]
    counts = {}
    for (path, _), (status, _, _) in zip(jobs, results):
        counts[path, status] = counts.get((path, status), 0) + 1
    assert counts["/api/state", 200] == 128 and counts.get(("/api/move", 200), 0) >= 1
    print(f"\n256 requests, 64 at a time: {counts}")


def test_a_full_queue_is_503_with_retry_after_at_once():
    srv = start(serve.App(searches=1, database=False, queue=0))
    try:
        with srv.app.workers.job():  # the only slot taken, no room to wait
            status, headers, reply = post(srv, "/api/move", {"moves": "4", "agent": "random"})
            assert status == 503 and "busy" in reply["error"], reply
            assert int(headers["Retry-After"]) == reply["retry_after"] >= 1
            assert post(srv, "/api/state", {"moves": "4"})[0] == 200  # cheap: no slot
        assert post(srv, "/api/move", {"moves": "4", "agent": "random"})[0] == 200
    finally:
        srv.shutdown()
        srv.server_close()


def test_retry_after_is_the_expected_wait():
    workers = serve.Workers(2, queue=4)
    workers.mean = 3.0
    assert workers.retry_after() == 1  # a slot is free
    with workers.job():
        assert workers.retry_after() == 1  # the other slot is free
        with workers.job():
            assert workers.admitted == 2 and workers.retry_after() == 2  # 3 s / 2 slots
    assert workers.admitted == 0
    with pytest.raises(ValueError, match="size >= 1"):
        serve.Workers(0)


def test_a_request_is_503_at_once_when_its_expected_wait_is_too_long(monkeypatch):
    """2 slots taken; a third request would wait for one of them: refused at once when
    the jobs take 5 s on average (2.5 s to wait) and the longest wait is 1 s; admitted,
    and 503 after the longest wait with the slots still taken, when the expected wait
    fits."""
    monkeypatch.setattr(serve, "QUEUE_WAIT", 1.0)
    workers = serve.Workers(2, queue=4)
    with workers.job(), workers.job():
        workers.mean = 5.0
        with pytest.raises(serve.Busy, match="busy for about 3 s more") as e:
            with workers.job():
                pass
        assert e.value.retry_after == 3 and workers.admitted == 2
        monkeypatch.setattr(serve, "QUEUE_WAIT", 0.01)
        workers.mean = 0.001
        with pytest.raises(serve.Busy, match="stayed busy for 0.01 s"):
            with workers.job():
                pass
    assert workers.admitted == 0


def test_bodies_past_the_servers_budget_are_503_and_every_byte_is_given_back(small):
    """The bodies held at once are bounded (128 clients posting 8 MiB match files would
    hold 1 GiB); every answer, 200, 400, 415 or 503, returns its body's bytes."""
    bodies = small.app.bodies
    raw = b'{"moves": "44"}' + b" " * 200
    for body, content_type, want in ((raw, "application/json", 200),
                                     (b"[" * 3000, "application/json", 400),
                                     (raw, "text/plain", 415)):
        assert post(small, "/api/state", None, raw=body, content_type=content_type)[0] == want
        assert bodies.held == 0
    assert bodies.take(serve.BODIES - 100)
    try:
        status, headers, reply = post(small, "/api/state", None, raw=raw)
        assert status == 503 and int(headers["Retry-After"]) >= 1, reply
        assert "holds 64 MiB of request bodies" in reply["error"]
        assert post(small, "/api/state", None, raw=raw[:90])[0] == 200  # fits
    finally:
        bodies.give(serve.BODIES - 100)
    assert bodies.held == 0 and post(small, "/api/state", None, raw=raw)[0] == 200


def test_a_refused_body_is_answered_not_reset(small):
    """The server answers 415 without reading the 8 MiB body; closing with it unread
    would reset the connection before the client reads the answer."""
    status, _, reply = post(small, "/api/state", None, raw=b" " * serve.MAX_BODY,
                            content_type="text/plain")
    assert status == 415 and "application/json" in reply["error"], (status, reply)
    assert post(small, "/api/state", {"moves": "4"})[0] == 200


# ---------------------------------------------------------------------------
# Hostile bodies: a 400 that names the problem, never a 500
# ---------------------------------------------------------------------------


def nesting_reference(value):
    """Depth of parsed JSON: 1 for ``[]`` or ``{}``, 0 for a scalar."""
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, list):
        return 1 + max(map(nesting_reference, value), default=0)
    return 0


@pytest.mark.parametrize("text", [
    '{}', '[]', '3', '"[[["', '[[1], [2, [3]]]', '{"a": "]]]]", "b": [{"c": "{{"}]}',
    r'["\\", [["\"]]"]]]', r'{"a": "\\\\\"[", "b": [[[]]]}', '[{"\u00e9[": ["\u00e9"]}]',
])
def test_json_nesting_counts_the_brackets_outside_strings(text):
    assert serve.json_nesting(text.encode()) == nesting_reference(json.loads(text))


def test_deeply_nested_bodies_are_400_before_parsing(small):
    """3,000 nested arrays answered ``500 internal error: RecursionError`` (issue 57)."""
    for path, raw, depth in (
            ("/api/tree", b"[" * 3000 + b"]" * 3000, 3000),
            ("/api/tree", b'{"tree": ' + b"[" * 3000 + b"1" + b"]" * 3000 + b"}", 3001),
            ("/api/state", b'{"moves": ' + b'{"a": ' * 40 + b"1" + b"}" * 40 + b"}", 41)):
        status, _, reply = post(small, path, None, raw=raw)
        assert status == 400, reply
        assert reply["error"] == f"body nests arrays and objects {depth} deep; at most 32"


def test_a_nesting_the_count_lets_through_is_caught_while_parsing(small, monkeypatch):
    monkeypatch.setattr(serve, "MAX_NESTING", 10 ** 6)
    status, _, reply = post(small, "/api/tree", None, raw=b"[" * 3000 + b"]" * 3000)
    assert status == 400 and "too deep" in reply["error"], reply


@pytest.mark.parametrize("body,words", [
    ({"tree": [[1, 2]] * 600}, "more than 1000 nodes"),
    ({"tree": str([[1, 2]] * 3000)}, "characters; at most 20000"),
    ({"tree": "[" * 3000 + "]" * 3000}, "not a tree of nested lists"),
    ({"tree": [[[[[[[[[[[[1]]]]]]]]]]]] * 3}, None),  # deep but small: drawn
])
def test_textbook_trees_are_bounded(small, body, words):
    status, _, reply = post(small, "/api/tree", body)
    if words is None:
        assert status == 200 and "svg" in reply
    else:
        assert status == 400 and words in reply["error"] and len(reply["error"]) < 200, reply


def test_a_replay_with_a_bad_opening_is_400(small):
    body = {"match": {"games": [{"moves": [3], "opening": 4}]}}
    status, _, reply = post(small, "/api/replay", body)
    assert status == 400 and "opening must be a move string" in reply["error"], reply


# ---------------------------------------------------------------------------
# Agent specs that name files: refused unless --files DIR, then only inside DIR
# ---------------------------------------------------------------------------

BOT = '''
def agent(obs, config):
    return [c for c in range(config.columns) if obs.board[c] == 0][0]
'''


def write_network(path):
    """A small random policy network of 7x6 (numpy only) at ``path``."""
    import numpy as np

    from agents.players.network import Network, save_network, shapes
    arch = {"trunk": [4], "kernel": 3, "value_hidden": 4}
    rng = np.random.default_rng(0)
    params = {k: 0.1 * rng.standard_normal(shape) for k, shape in shapes(6, 7, arch).items()}
    save_network(path, Network(6, 7, 4, arch, params))


@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    """``(allowed, outside)``: allowed holds net.npz, bot.py, deeper/net2.npz, a link to
    outside/net.npz, a link to allowed2/net.npz and a link ``out`` to the outside folder;
    outside and allowed2 (a sibling whose name starts with allowed's: a containment test
    by string prefix would take it for inside) hold net.npz and bot.py::

        files*/allowed/   net.npz bot.py deeper/net2.npz link.npz sibling.npz out/
        files*/allowed2/  net.npz bot.py
        files*/outside/   net.npz bot.py
    """
    root = tmp_path_factory.mktemp("files")
    allowed, outside, sibling = root / "allowed", root / "outside", root / "allowed2"
    (allowed / "deeper").mkdir(parents=True)
    for folder in (allowed, outside, sibling):
        folder.mkdir(exist_ok=True)
        write_network(folder / "net.npz")
        (folder / "bot.py").write_text(BOT)
    write_network(allowed / "deeper" / "net2.npz")
    (allowed / "link.npz").symlink_to(outside / "net.npz")
    (allowed / "sibling.npz").symlink_to(sibling / "net.npz")
    (allowed / "out").symlink_to(outside, target_is_directory=True)
    return allowed, outside


@pytest.fixture(scope="module")
def with_files(folders):
    srv = start(serve.App(searches=2, move_time=1.0, database=False, files=str(folders[0])))
    yield srv
    srv.shutdown()
    srv.server_close()


@pytest.mark.parametrize("agent,words", [
    ("policy:file=/etc/passwd", "option file names a file"),
    ("policy:file=/no/such/net.npz", "option file names a file"),
    ("mcts:prior=net.npz,iterations=20", "option prior names a file"),
    ("bot.py", "'bot.py' is a submission file"),
])
def test_file_specs_are_400_without_files(small, agent, words):
    """The same answer whether the file exists or not: nothing is opened."""
    status, _, reply = post(small, "/api/move", {"moves": "4", "agent": agent})
    assert status == 400 and words in reply["error"], reply
    assert reply["error"].endswith("refused over HTTP unless it was started with --files DIR, "
                                   "and then only files inside DIR")


@pytest.mark.parametrize("agent", ["policy:file=../outside/net.npz",
                                   "policy:file={outside}/net.npz", "policy:file=link.npz",
                                   "mcts:prior=deeper/../../outside/net.npz",
                                   "../outside/bot.py", "{outside}/bot.py",
                                   "policy:file=out/net.npz", "out/bot.py",
                                   # the sibling allowed2/: inside only by string prefix
                                   "policy:file=../allowed2/net.npz",
                                   "policy:file={allowed}2/net.npz",
                                   "mcts:prior=deeper/../../allowed2/net.npz",
                                   "policy:file=sibling.npz", "../allowed2/bot.py",
                                   "{allowed}2/bot.py"])
def test_files_outside_the_folder_are_400(with_files, folders, agent):
    """By ``..``, an absolute path or a symbolic link (to a file or a folder), into the
    folder beside it or into the sibling whose name extends the folder's."""
    agent = agent.format(allowed=folders[0], outside=folders[1])
    status, _, reply = post(with_files, "/api/move", {"moves": "4", "agent": agent})
    assert status == 400 and "is outside the server's --files folder" in reply["error"], reply


@pytest.mark.parametrize("agent", ["policy:file=net.npz", "policy:file={allowed}/deeper/net2.npz",
                                   "mcts:prior=net.npz,iterations=20", "bot.py"])
def test_files_inside_the_folder_are_played(with_files, folders, agent):
    agent = agent.format(allowed=folders[0])
    status, _, reply = post(with_files, "/api/move", {"moves": [3, 3], "agent": agent})
    assert status == 200 and reply["state"]["moves"][:2] == [3, 3], reply
    if agent == "bot.py":
        assert reply["column"] == 0


@pytest.mark.parametrize("agent,words", [
    ("policy:file=gone.npz", "'gone.npz': no such file in the server's --files folder"),
    ("policy:file=" + "x" * 5000, "xxx...: no such file in the server's --files folder"),
    ("policy:file=net\0.npz", "'net\\x00.npz': embedded null byte"),
])
def test_a_missing_or_unreadable_file_name_is_400(with_files, agent, words):
    status, _, reply = post(with_files, "/api/move", {"moves": "4", "agent": agent})
    assert status == 400 and words in reply["error"] and len(reply["error"]) < 200, reply


def test_the_agent_menu_lists_the_folders_files(with_files, small):
    conn = http.client.HTTPConnection(*with_files.server_address[:2], timeout=30)
    conn.request("GET", "/api/agents")
    info = json.loads(conn.getresponse().read())
    conn.close()
    assert info["limits"]["files"] is True
    assert info["files"] == [
        {"file": "bot.py", "specs": ["bot.py"]},
        {"file": "net.npz", "specs": ["mcts:prior=net.npz", "policy:file=net.npz"]},
        {"file": "deeper/net2.npz", "specs": ["mcts:prior=deeper/net2.npz",
                                              "policy:file=deeper/net2.npz"]}]
    conn = http.client.HTTPConnection(*small.server_address[:2], timeout=30)
    conn.request("GET", "/api/agents")
    info = json.loads(conn.getresponse().read())
    assert info["files"] == [] and info["limits"]["files"] is False


@pytest.mark.parametrize("argv,words", [
    (["serve", "--files", "/no/such/folder"], "--files: no folder '/no/such/folder'"),
    (["serve", "--queue", "-1"], "--queue: expected an integer >= 0"),
])
def test_bad_files_and_queue_options_exit_2_with_one_line(argv, words, capsys):
    from conftest import cli_error_line
    assert words in cli_error_line(argv, capsys)


def test_the_benchmarks_burst_counts_every_answer(small):
    """``connectx bench serve``'s client on the test server (the benchmark itself starts
    two server processes: too long for the suite)."""
    from scripts.bench.serve import ENDPOINTS, burst
    outcomes, times, wall = burst(small.server_address[:2], *ENDPOINTS["state"], clients=4,
                                  requests=10, seconds=30)
    assert outcomes == {"200": 10} and len(times) == 10 and times == sorted(times)


@pytest.mark.parametrize("argv,words", [
    (["bench", "serve", "--clients", "8,x"], "--clients: expected integers >= 1"),
    (["bench", "serve", "--clients", "0"], "--clients: expected integers >= 1"),
    (["bench", "serve", "--endpoints", "state,nope"], "--endpoints: unknown nope"),
])
def test_bad_benchmark_options_exit_2_with_one_line(argv, words, capsys):
    from conftest import cli_error_line
    assert words in cli_error_line(argv, capsys)
