"""``connectx bench serve``: the page's server under a burst of loopback clients, against
``http.server``'s defaults in the same run (issue 57).

    connectx bench serve [--clients 1,8,32,128] [--requests 256] [--seconds 20]
                         [--endpoints state,move,analyze] [--searches 2] [--queue 16]

Two servers, each a fresh process (``connectx serve`` without warm-up or database,
``--analysis-time 1``; a first untimed request of each kind compiles its kernels):

* **baseline**: http.server's defaults, as before issue 57: a listen backlog of 5, a
  plain close, and no bound on the requests waiting for a search slot (each waits up
  to 10 s, then 503);
* **server**: this package's (:class:`scripts.server.app.Server`): a backlog of
  :data:`~scripts.server.app.BACKLOG`, a lingering close, ``--searches`` running and
  ``--queue`` waiting, 503 with ``Retry-After`` beyond.

For each endpoint and each number of concurrent clients (threads of this process, a new
connection a request, as a batch client or several tabs would open them) it sends
``min(--requests, 16 x clients)`` requests and prints how many were answered 200, 503
(and whether each carried ``Retry-After``) or failed (a reset, a refused or timed-out
connection), the answers a second (200s and 503s over the wall time), and the median
and slowest answer. No new request starts after ``--seconds`` of a run: each run is
bounded in count and in time. Exit status 1 if the server (not the baseline) failed a
request or sent a 503 without ``Retry-After``.

The endpoints: ``state`` (``/api/state`` of "44": no search), ``move`` (``/api/move`` of
``rules`` after "44": through the pool, milliseconds), ``analyze`` (``/api/analyze`` at a
time limit of 0.2 s of 64 random positions of 0-10 stones in turn, which the solver
rarely finishes in that time without the database: through the pool), ``tree``
(``/api/tree`` of "44" to depth 2: through the pool, the exact values cut at 1 s).
"""
import argparse
import http.client
import itertools
import json
import subprocess
import sys
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

from scripts.args import ArgumentParser, count_arg, positive_float_arg, positive_int_arg
from scripts.bench.analysis import random_positions

# endpoint -> (path, body or bodies, sent in turn)
ENDPOINTS = {"state": ("/api/state", {"moves": "44"}),
             "move": ("/api/move", {"moves": "44", "agent": "rules"}),
             "analyze": ("/api/analyze", [{"moves": m, "time_limit": 0.2}
                                          for m in random_positions(64, seed=0, most=10)]),
             "tree": ("/api/tree", {"moves": "44", "depth": 2})}
PER_CLIENT = 16  # requests a client at most, so that one client's run stays short
# the benchmarked servers' --analysis-time: a position tree's exact values stop there
BENCH_ANALYSIS_TIME = 1.0
UNBOUNDED = 1 << 30


def serve(kind, searches, queue):
    """Run a server of ``kind`` ("baseline" or "server") on a free loopback port in this
    process and print its address (the benchmark's child process)."""
    from http.server import ThreadingHTTPServer

    from scripts.server.app import App, Server, make_server, url_of

    class Baseline(Server):
        request_queue_size = 5                                    # socketserver's default
        shutdown_request = ThreadingHTTPServer.shutdown_request   # close at once

    app = App(searches=searches, analysis_time=BENCH_ANALYSIS_TIME, database=False,
              queue=UNBOUNDED if kind == "baseline" else queue)
    server = make_server(app, "127.0.0.1", 0,
                         server_class=Baseline if kind == "baseline" else Server)
    print(url_of(server), flush=True)
    server.serve_forever()


def start(kind, searches, queue):
    """``(process, (host, port))`` of a fresh server process of ``kind``."""
    proc = subprocess.Popen([sys.executable, "-m", "scripts.bench.serve", "--child", kind,
                             "--searches", str(searches), "--queue", str(queue)],
                            stdout=subprocess.PIPE, text=True)
    url = proc.stdout.readline().strip()
    if not url.startswith("http://"):
        proc.kill()
        raise SystemExit(f"bench serve: the {kind} server did not start")
    host, port = url[len("http://"):].rstrip("/").split(":")
    return proc, (host, int(port))


def request(address, path, body):
    """``(outcome, seconds)``: the status (``"503"`` when it carried Retry-After,
    ``"503 without Retry-After"`` else) or the name of the connection's error."""
    start = time.perf_counter()
    conn = http.client.HTTPConnection(*address, timeout=60)
    try:
        conn.request("POST", path, json.dumps(body).encode(),
                     {"Content-Type": "application/json"})
        r = conn.getresponse()
        r.read()
        outcome = str(r.status)
        if r.status == 503 and not (r.getheader("Retry-After") or "").isdigit():
            outcome += " without Retry-After"
    except OSError as e:
        outcome = type(e).__name__
    finally:
        conn.close()
    return outcome, time.perf_counter() - start


def burst(address, path, body, clients, requests, seconds):
    """``(Counter of outcomes, answer times, wall seconds)`` of ``requests`` requests from
    ``clients`` threads (``body``: one, or a list sent in turn); no request starts after
    ``seconds``."""
    deadline = time.monotonic() + seconds
    lock, outcomes, times = threading.Lock(), Counter(), []
    bodies, turn = (body if isinstance(body, list) else [body]), itertools.count()

    def client(n):
        for _ in range(n):
            if time.monotonic() > deadline:
                return
            outcome, dt = request(address, path, bodies[next(turn) % len(bodies)])
            with lock:
                outcomes[outcome] += 1
                times.append(dt)

    shares = [requests // clients + (i < requests % clients) for i in range(clients)]
    start = time.perf_counter()
    with ThreadPoolExecutor(clients) as pool:
        list(pool.map(client, shares))
    return outcomes, sorted(times), time.perf_counter() - start


def main(argv=None, prog="python -m scripts.bench.serve"):
    p = ArgumentParser(prog=prog, description=__doc__.split("\n")[0])
    p.add_argument("--clients", default="1,8,32,128",
                   help="numbers of concurrent clients, comma-separated (default 1,8,32,128)")
    p.add_argument("--requests", type=positive_int_arg, default=256,
                   help=f"requests of a run at most (default 256; at most {PER_CLIENT} a client)")
    p.add_argument("--seconds", type=positive_float_arg, default=20.0,
                   help="no request of a run starts after this many seconds (default 20)")
    p.add_argument("--endpoints", default="state,move,analyze",
                   help=f"comma-separated, of {', '.join(ENDPOINTS)} (default state,move,analyze)")
    p.add_argument("--searches", type=positive_int_arg, default=2,
                   help="the servers' search slots (connectx serve --searches; default 2)")
    p.add_argument("--queue", type=count_arg, default=16,
                   help="the server's queue (connectx serve --queue; default 16)")
    p.add_argument("--child", choices=("baseline", "server"), help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.child:
        return serve(args.child, args.searches, args.queue)
    try:
        clients = [int(c) for c in args.clients.split(",")]
        if not clients or min(clients) < 1:
            raise ValueError
    except ValueError:
        p.error(f"--clients: expected integers >= 1 separated by commas, got {args.clients!r}")
    endpoints = args.endpoints.split(",")
    unknown = [e for e in endpoints if e not in ENDPOINTS]
    if unknown:
        p.error(f"--endpoints: unknown {', '.join(unknown)}; valid: {', '.join(ENDPOINTS)}")

    failed = 0
    print(f"searches {args.searches}; the server's queue {args.queue}, the baseline's unbounded; "
          f"analysis time {BENCH_ANALYSIS_TIME:g} s; a new connection a request")
    print(f"{'endpoint':9} {'clients':>7} {'server':9} {'sent':>5} {'200':>5} {'503':>5} "
          f"{'failed':>7} {'answers/s':>10} {'median s':>9} {'slowest s':>10}  failures")
    for kind in ("baseline", "server"):
        proc, address = start(kind, args.searches, args.queue)
        try:
            for name in endpoints:
                path, body = ENDPOINTS[name]
                request(address, path, body[0] if isinstance(body, list) else body)  # compiles
                for n in clients:
                    count = min(args.requests, PER_CLIENT * n)
                    outcomes, times, wall = burst(address, path, body, n, count, args.seconds)
                    ok, busy = outcomes["200"], outcomes["503"]
                    bad = {k: v for k, v in outcomes.items() if k not in ("200", "503")}
                    if kind == "server":
                        failed += sum(bad.values())
                    median = times[len(times) // 2] if times else float("nan")
                    print(f"{name:9} {n:7d} {kind:9} {sum(outcomes.values()):5d} {ok:5d} "
                          f"{busy:5d} {sum(bad.values()):7d} {(ok + busy) / wall:10.1f} "
                          f"{median:9.3f} {times[-1] if times else float('nan'):10.3f}  "
                          f"{', '.join(f'{k} {v}' for k, v in sorted(bad.items())) or '-'}",
                          flush=True)
        finally:
            proc.terminate()
            proc.wait(timeout=30)
    print(f"the server: {failed} request(s) failed, or answered other than 200 or 503 with "
          "Retry-After")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
