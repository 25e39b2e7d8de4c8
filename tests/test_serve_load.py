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
    assert workers.retry_after() == 1  # nobody in
    with workers.job(), workers.job():
        assert workers.admitted == 2 and workers.retry_after() == 3
    assert workers.admitted == 0
    with pytest.raises(ValueError, match="size >= 1"):
        serve.Workers(0)


def test_a_refused_body_is_answered_not_reset(small):
    """The server answers 415 without reading the 8 MiB body; closing with it unread
    would reset the connection before the client reads the answer."""
    status, _, reply = post(small, "/api/state", None, raw=b" " * serve.MAX_BODY,
                            content_type="text/plain")
    assert status == 415 and "application/json" in reply["error"], (status, reply)
    assert post(small, "/api/state", {"moves": "4"})[0] == 200
