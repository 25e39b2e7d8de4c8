"""Play and analyse in the browser: the server behind ``connectx serve``
(:mod:`scripts.commands.serve` starts it).

A local web server (127.0.0.1 unless ``--host`` says otherwise) that serves
one page -- play any registry agent, see every column's score, replay a match's
``--json`` file -- and the JSON endpoints behind it (documented in ``docs/serve.md``).
This file is the server (agent pool, HTTP); the game side (request checks,
game state, outcomes, replays) is :mod:`scripts.server.game`.

Design:

* **Stateless.** Every request carries the whole game (``config`` and ``moves``) and
  the server keeps no game state, so two tabs play two independent games, a server
  restart loses nothing, and there is nothing to expire. Replaying a game of at most
  ``rows * columns`` moves through :mod:`agents.board.rules` costs well under a millisecond
  per move.
* **The game logic is plain functions** (:func:`parse_game`, :func:`game_state`,
  :func:`agent_move`, :func:`~scripts.server.analysis.analyze`, :func:`replay`) that raise :class:`BadRequest`
  for bad input; :class:`Handler` only turns HTTP into calls and results into JSON.
* **The standard library's** ``http.server.ThreadingHTTPServer``: no new dependency,
  one thread per connection; one page and four JSON endpoints need nothing a
  framework would add.
* **Bursts are queued, never reset.** The listen backlog is :data:`BACKLOG`
  connections (``http.server``'s default of 5 reset the sixth of a burst), and a
  connection the server closes first is drained before it is closed
  (:meth:`Server.shutdown_request`), so a client that sent a body the server did not
  read still gets its answer, not a reset.
* **Bounded work.** The expensive requests (agent moves, analyses, lines, position
  trees) go through :class:`Workers`: at most ``searches`` run at once and at most
  ``queue`` wait; one more is answered 503 at once, and one that waits longer than
  :data:`QUEUE_WAIT` seconds for a slot is answered 503 then, both with ``Retry-After``
  (the expected wait). The cheap ones (state, replay, the page's files) run on their
  connection's thread at once. An agent move is given ``config.actTimeout`` = the
  server's move time, which every clocked agent obeys (alphabeta, mcts, perfect); the unclocked
  fixed-depth agents are refused where :data:`UNCLOCKED` estimates that their search
  would outlast the move time. Analysis stops at its own deadline and says so.
* **Safe by default.** Only the page's own files (:data:`STATIC`) are served; POST bodies must
  be ``application/json`` (so another web site cannot post to it without a CORS
  preflight, which the server never grants), at most :data:`MAX_BODY` bytes and
  :data:`MAX_NESTING` levels deep, and the bodies held at once at most :data:`BODIES`
  bytes (503 beyond); only registry agents can be played, and no agent
  option may name a file, unless the server was started with ``--files DIR``: then
  networks and submission files inside DIR (:class:`~scripts.server.game.Files`). Bad
  input is answered 400 with ``{"error": message}``; an agent that raises or returns
  a bad column is answered 500 with a message and the server goes on.

Analysis (``/api/analyze``, ``/api/line``): :mod:`scripts.server.analysis`. The search
tree's picture (``/api/tree``, the page's "Search tree" tab):
:mod:`scripts.server.search_tree`.
"""
import json
import math
import os
import socket
import threading
import time
import traceback
from collections import OrderedDict
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import numpy as np

from agents.board.rules import parse_config
from agents.resources import data_path
from agents.solver.database import attach, default_database, missing_note
from agents.solver.openings import Openings
from agents.solver.solver import Solver
from agents.solver.solver import warm_up as warm_up_solver
from scripts.arena.specs import MatchConfig, config_struct, observation
from scripts.server.analysis import analyze, line
from scripts.server.search_tree import tree_request
from scripts.server.game import (MAX_SIDE, SERVE_MOVE_TIME, UNCLOCKED, AgentFailed, BadRequest,
                                Busy, Files, agent_catalogue, check_unclocked, game_state,
                                make_agent, parse_agent, parse_game, play_moves, replay)

WEB = data_path("scripts.server", "web")
STATIC = {"/": ("index.html", "text/html; charset=utf-8"),
          "/board.js": ("board.js", "text/javascript; charset=utf-8"),
          "/board.css": ("board.css", "text/css; charset=utf-8"),
          "/app.js": ("app.js", "text/javascript; charset=utf-8"),
          "/tree.js": ("tree.js", "text/javascript; charset=utf-8"),
          "/style.css": ("style.css", "text/css; charset=utf-8")}

DEFAULT_PORT = 8017
# Connections the kernel holds while the accept loop is busy: a page with a few tabs, a
# notebook widget and a batch client (connectx bench serve: 128 concurrent clients, none
# reset). http.server's default of 5 reset 12 of 96 requests sent 32 at a time (issue 57).
BACKLOG = 128
QUEUE = 16                  # expensive requests waiting for a search slot (beyond those running)
LINGER = 2.0                # seconds a closing connection is drained of what the client sends
MAX_BODY = 8 << 20          # bytes of a POST body (a match's --json file of thousands of games)
MAX_NESTING = 32            # arrays and objects inside each other in a body (a match file: 6)
# bytes of the bodies held at once (8 bodies of the most): 128 clients posting 8 MiB
# match files would otherwise hold 1 GiB, and their parsed objects several times that
BODIES = 64 << 20
QUEUE_WAIT = 10.0           # seconds a search waits for a free slot before 503
SERVE_ANALYSIS_TIME = 5.0   # default and maximum seconds of one analysis
LINE_TIME = 0.1             # /api/analyze extends the best line until this long after the start
SOLVER_TT_BITS = 22         # 32 MiB per pooled solver
SOLVER_THREADS = min(2, os.cpu_count() or 1)  # threads of each exact analysis
POOL_KEYS = 8               # distinct agent specs / board shapes kept warm
# one cheap move of each registry agent compiles its kernels (App.warm_up)
WARM_UP = ("random", "onestep", "rules", "minimax:depth=1", "alphabeta:depth=2",
           "mcts:iterations=50", "perfect:time_limit=0.1")


# ---------------------------------------------------------------------------
# Pools: agents and solvers are not thread-safe; each request checks one out
# ---------------------------------------------------------------------------


class Pool:
    """Idle objects by key; ``get(key, build)`` calls ``build()`` when none is idle.

    At most :data:`POOL_KEYS` keys are kept (least recently used dropped), so the
    memory held is bounded by keys times the number of concurrent searches. An object
    whose use raised is not put back (its state may be broken)."""

    def __init__(self):
        self.idle = OrderedDict()
        self.lock = threading.Lock()

    @contextmanager
    def get(self, key, build):
        with self.lock:
            free = self.idle.get(key)
            obj = free.pop() if free else None
        if obj is None:
            obj = build()
        yield obj
        with self.lock:
            self.idle.setdefault(key, []).append(obj)
            self.idle.move_to_end(key)
            while len(self.idle) > POOL_KEYS:
                self.idle.popitem(last=False)


class Workers:
    """The bounded pool of the expensive requests: at most ``size`` run at once, at most
    ``queue`` more wait for a slot (``with workers.job(): ...``).

    :class:`Busy` at once when ``size + queue`` requests are already in or the expected
    wait for a slot passes :data:`QUEUE_WAIT` (the jobs ahead times the mean time of a
    job, a moving average that starts at 1 s, over ``size``), and after
    :data:`QUEUE_WAIT` seconds of waiting when the estimate was wrong; its
    ``retry_after`` is the expected wait of a request sent then, in whole seconds."""

    def __init__(self, size, queue=QUEUE):
        if size < 1 or queue < 0:
            raise ValueError(f"a pool of {size} workers and a queue of {queue}: need size >= 1, "
                             "queue >= 0")
        self.size, self.queue = int(size), int(queue)
        self.slots = threading.BoundedSemaphore(self.size)
        self.lock = threading.Lock()
        self.admitted = 0   # running + waiting
        self.mean = 1.0     # seconds of a job (moving average)

    def expected_wait(self):
        """Seconds until a request sent now would get a slot (under :attr:`lock`)."""
        return self.mean * max(0, self.admitted + 1 - self.size) / self.size

    def retry_after(self):
        """:meth:`expected_wait` in whole seconds, at least 1."""
        with self.lock:
            return max(1, math.ceil(self.expected_wait()))

    @contextmanager
    def job(self):
        with self.lock:
            full = self.admitted >= self.size + self.queue
            wait = self.expected_wait()
            if not full and wait <= QUEUE_WAIT:
                self.admitted += 1
        if full:
            raise Busy(f"all {self.size} search slots are busy and {self.queue} requests are "
                       "waiting; try again", self.retry_after())
        if wait > QUEUE_WAIT:
            raise Busy(f"all {self.size} search slots are busy for about {math.ceil(wait)} s "
                       "more; try again", self.retry_after())
        try:
            if not self.slots.acquire(timeout=QUEUE_WAIT):
                raise Busy(f"all {self.size} search slots stayed busy for {QUEUE_WAIT:g} s; "
                           "try again", self.retry_after())
            start = time.perf_counter()
            try:
                yield
            finally:
                self.slots.release()
                elapsed = time.perf_counter() - start
                with self.lock:
                    self.mean += 0.2 * (elapsed - self.mean)
        finally:
            with self.lock:
                self.admitted -= 1


class Budget:
    """A count of bytes held at once, at most ``most``: ``take(n)`` is False, and takes
    nothing, when ``n`` more would pass it; ``give(n)`` returns them."""

    def __init__(self, most):
        self.most, self.held = int(most), 0
        self.lock = threading.Lock()

    def take(self, n):
        with self.lock:
            if self.held + n > self.most:
                return False
            self.held += n
            return True

    def give(self, n):
        with self.lock:
            self.held -= n


class App:
    """What the handlers share: limits, the pool of workers, the pools of agents and
    solvers."""

    def __init__(self, searches=None, move_time=SERVE_MOVE_TIME, analysis_time=SERVE_ANALYSIS_TIME,
                 database=True, solver_threads=SOLVER_THREADS, line_time=LINE_TIME,
                 queue=QUEUE, files=None):
        self.searches = searches or max(1, os.cpu_count() or 1)
        self.move_time = float(move_time)
        self.analysis_time = float(analysis_time)
        # the scores first: /api/analyze's line stops this long after the request came in
        # (the page asks /api/line for the rest); see scripts.server.analysis
        self.line_time = float(line_time)
        self.workers = Workers(self.searches, queue)
        self.bodies = Budget(BODIES)  # request bodies held at once
        # the folder agent specs may name files in (networks, submissions), or None: no file
        self.files = Files(files) if files is not None else None
        self.agents, self.solvers, self.evaluators = Pool(), Pool(), Pool()
        # the opening database (books extra) is loaded here, so that a corrupt file stops
        # the server at once with its message, and no request pays the load
        self.database = default_database() if database else None
        # the package's opening scores (7x6 up to 8 stones, plain Python): the columns of the
        # first plies without a search, with or without the books extra
        self.openings = Openings() if database else None
        self.solver_threads = int(solver_threads)  # threads of each analysis (Solver.analyze)

    def solver(self, cfg):
        """A pooled solver of the board ``cfg`` (with the installed database, if any)."""
        def build():
            s = Solver(*cfg, tt_bits=SOLVER_TT_BITS, threads=self.solver_threads)
            attach(s, self.database is not None)
            return s
        return self.solvers.get(tuple(cfg), build)

    def slot(self):
        """A search slot of :attr:`workers` (a context manager); :class:`Busy` when the
        queue is full or no slot frees within :data:`QUEUE_WAIT` s."""
        return self.workers.job()

    def limits(self):
        return {"searches": self.searches, "queue": self.workers.queue,
                "move_time": self.move_time,
                "analysis_time": self.analysis_time, "max_side": MAX_SIDE,
                "unclocked": sorted(UNCLOCKED), "files": self.files is not None,
                "database": repr(self.database) if self.database else None,
                "database_note": None if self.database else missing_note()}

    def warm_up(self, specs=WARM_UP):
        """Compile the numba kernels (one move of each agent in ``specs``, the solver, an
        analysis of each kind) so that compiling is not paid by the first requests and
        does not eat the first move's time; returns the seconds spent."""
        t0 = time.perf_counter()
        cfg = parse_config({})
        for spec in specs:
            agent_move(self, {"agent": spec, "moves": [3]})
        with self.solver(cfg) as solver:
            warm_up_solver(solver)
            solver.reset()
        analyze(self, {"moves": [3, 3, 4], "time_limit": 0.2})
        analyze(self, {"config": {"rows": 9, "columns": 7}, "moves": [3], "time_limit": 0.2})
        return time.perf_counter() - t0


def _json_value(v):
    if isinstance(v, np.integer):
        return int(v)
    if isinstance(v, np.floating):
        return float(v)
    if isinstance(v, (str, int, float, bool)) or v is None:
        return v
    return str(v)


def agent_move(app, request):
    """The agent's move in the request's game: ``{"agent", "column", "time", "info",
    "state"}`` (``time`` in seconds, ``info`` what the agent reports of its search,
    ``state`` the :func:`game_state` after the move).

    The agent gets ``config.actTimeout = app.move_time`` and no overage."""
    cfg, moves = parse_game(request)
    spec = parse_agent(request.get("agent"), app.files)
    check_unclocked(spec, cfg, app.move_time)
    board, won = play_moves(cfg, moves)
    if won or len(moves) == cfg.rows * cfg.columns:
        raise BadRequest("the game is over: no move to play")
    mark = 1 + len(moves) % 2
    config = config_struct(MatchConfig(*cfg, app.move_time, 0.0))
    obs = observation(board, mark, len(moves), 0.0)
    with app.slot(), app.agents.get(spec.text, lambda: make_agent(spec)) as agent:
        start = time.perf_counter()
        try:
            column = agent(obs, config)
        except Exception as e:  # noqa: BLE001 - the agent's failure ends this request only
            raise AgentFailed(f"agent {spec.text!r} failed: {type(e).__name__}: {e}") from None
        elapsed = time.perf_counter() - start
        info = {k: _json_value(v) for k, v in getattr(agent, "last", {}).items()}
    if type(column) is not int or not 0 <= column < cfg.columns or board[column] != 0:
        raise AgentFailed(f"agent {spec.text!r} returned an invalid column {column!r} "
                          f"({type(column).__name__})")
    return {"agent": spec.text, "column": column, "time": elapsed, "info": info,
            "state": game_state(cfg, moves + [column])}


# ---------------------------------------------------------------------------
# HTTP (thin)
# ---------------------------------------------------------------------------

# path -> (function(app, request), the request fields it reads)
ROUTES = {"/api/state": (lambda app, req: game_state(*parse_game(req)), {"config", "moves"}),
          "/api/move": (agent_move, {"config", "moves", "agent"}),
          "/api/analyze": (analyze, {"config", "moves", "time_limit"}),
          "/api/line": (line, {"config", "moves", "column", "time_limit"}),
          "/api/replay": (lambda app, req: replay(req), {"match", "game"}),
          "/api/tree": (tree_request, {"config", "moves", "depth", "heuristic", "prune",
                                       "tree"})}


class Handler(BaseHTTPRequestHandler):
    """GET the page's files and ``/api/agents``; POST JSON to :data:`ROUTES`."""

    server_version = "connectx-serve"
    timeout = 30  # seconds a connection may stay silent (a stalled client frees its thread)
    protocol_version = "HTTP/1.1"

    def log_message(self, fmt, *args):  # quiet unless --verbose
        if getattr(self.server, "verbose", False):
            super().log_message(fmt, *args)

    def _send(self, status, body, content_type="application/json", headers=()):
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Content-Security-Policy", "default-src 'self'")
        self.end_headers()
        self.wfile.write(data)

    def _error(self, status, message):
        self._send(status, {"error": message})

    def do_GET(self):
        path = self.path.split("?", 1)[0]
        if path == "/api/agents":
            app = self.server.app
            files = app.files.catalogue() if app.files is not None else []
            return self._send(200, {"agents": agent_catalogue(), "files": files,
                                    "limits": app.limits()})
        if path in ROUTES:
            return self._error(405, f"{path} takes POST with a JSON body")
        if path not in STATIC:
            return self._error(404, f"no such page {path!r}")
        name, content_type = STATIC[path]
        self._send(200, (WEB / name).read_bytes(), content_type)

    def do_POST(self):
        path = self.path.split("?", 1)[0]
        route, fields = ROUTES.get(path, (None, None))
        if route is None:
            self.close_connection = True
            return self._error(404 if path not in STATIC else 405, f"no endpoint {path!r}")
        self.held = 0  # bytes of self.server.app.bodies this request holds
        try:
            status, body, headers = self._answer(route, fields, path)
        finally:
            self.server.app.bodies.give(self.held)  # before the answer: the client may go on
        self._send(status, body, headers=headers)

    def _answer(self, route, fields, path):
        """``(status, JSON body, headers)`` of a POST to ``route``."""
        try:
            return 200, route(self.server.app, self._read_json(fields)), ()
        except BadRequest as e:
            return 400, {"error": str(e)}, ()
        except Busy as e:
            return 503, {"error": str(e), "retry_after": e.retry_after}, \
                [("Retry-After", str(e.retry_after))]
        except AgentFailed as e:
            return 500, {"error": str(e)}, ()
        except _BodyError as e:
            self.close_connection = True
            return e.status, {"error": str(e)}, ()
        except Exception as e:  # noqa: BLE001 - a bug answers 500 and the server goes on
            self.log_error("%s failed: %s", path, traceback.format_exc())
            return 500, {"error": f"internal error: {type(e).__name__}: {e}"}, ()

    def _read_json(self, fields):
        ctype = self.headers.get("Content-Type", "").split(";")[0].strip().lower()
        if ctype != "application/json":
            raise _BodyError(415, f"POST bodies must be application/json, got {ctype or 'none'!r}")
        try:
            length = int(self.headers.get("Content-Length", ""))
        except ValueError:
            raise _BodyError(411, "a Content-Length header is required") from None
        if not 0 <= length <= MAX_BODY:
            raise _BodyError(413, f"body of {length} bytes; at most {MAX_BODY}")
        if not self.server.app.bodies.take(length):
            self.close_connection = True  # the body is left unread: drained at the close
            raise Busy(f"the server holds {BODIES >> 20} MiB of request bodies; try again")
        self.held = length
        raw = self.rfile.read(length)
        # a body holding fewer brackets cannot nest deeper (the usual small request)
        depth = json_nesting(raw) if raw.count(b"[") + raw.count(b"{") > MAX_NESTING else 0
        if depth > MAX_NESTING:
            raise BadRequest(f"body nests arrays and objects {depth} deep; at most {MAX_NESTING}")
        try:
            request = json.loads(raw)
        except (UnicodeDecodeError, ValueError) as e:
            raise BadRequest(f"body is not JSON: {e}") from None
        except RecursionError:  # json_nesting missed it (malformed text): still the client's
            raise BadRequest(f"body nests arrays and objects too deep; at most {MAX_NESTING}") \
                from None
        if not isinstance(request, dict):
            raise BadRequest(f"body must be a JSON object, got {type(request).__name__}")
        unknown = sorted(set(request) - fields)
        if unknown:
            raise BadRequest(f"unknown field(s) {', '.join(unknown)}; valid: "
                             f"{', '.join(sorted(fields))}")
        return request


def json_nesting(raw):
    """How deep arrays and objects nest in the JSON text ``raw`` (bytes), counted before
    parsing (``json.loads`` recurses once a level, and 3,000 levels raised
    ``RecursionError``): the brackets outside strings, in numpy, in linear time
    (0.2 s for a 4 MB match file on a busy 2-core machine, whatever the bytes). A quote
    opens or closes a string unless an odd number of backslashes comes just before it.
    Exact for valid JSON; for malformed text a bound that the parser's own error follows."""
    text = np.frombuffer(raw, np.uint8)
    quote = text == ord('"')
    if b"\\" in raw:
        at = np.arange(len(text), dtype=np.int32)
        # backslashes in a row ending at each byte (0 where the byte is not one)
        run = at - np.maximum.accumulate(np.where(text == ord("\\"), -1, at))
        quote[1:] &= (run[:-1] & 1) == 0
    inside = np.cumsum(quote, dtype=np.int32) & 1  # 1 from an opening quote to its closing one
    step = ((text == ord("[")) | (text == ord("{"))).astype(np.int32)
    step -= (text == ord("]")) | (text == ord("}"))
    step[inside == 1] = 0
    return int(np.cumsum(step).max(initial=0))


class _BodyError(Exception):
    def __init__(self, status, message):
        super().__init__(message)
        self.status = status


class Server(ThreadingHTTPServer):
    """``ThreadingHTTPServer`` with a listen backlog of :data:`BACKLOG` and a lingering
    close."""

    request_queue_size = BACKLOG
    daemon_threads = True

    def shutdown_request(self, request):
        """Close a connection without a reset: stop sending, then read and drop what the
        client still sends (a body the handler refused unread; at most :data:`MAX_BODY`
        bytes, for at most :data:`LINGER` seconds) until it closes its end. Closing a
        socket with unread input makes the kernel send a reset, which can destroy the
        answer before the client has read it."""
        try:
            request.shutdown(socket.SHUT_WR)
            request.settimeout(LINGER)
            deadline, drained = time.monotonic() + LINGER, 0
            while drained <= MAX_BODY and time.monotonic() < deadline:
                chunk = request.recv(1 << 16)
                if not chunk:
                    break
                drained += len(chunk)
        except OSError:  # the client is gone, or stayed silent for LINGER s
            pass
        self.close_request(request)


def make_server(app, host="127.0.0.1", port=DEFAULT_PORT, verbose=False, server_class=Server):
    """A :class:`Server` serving ``app`` (port 0: any free port); ``server_class``: a
    subclass (``connectx bench serve`` measures http.server's defaults with one)."""
    server = server_class((host, port), Handler)
    server.app = app
    server.verbose = verbose
    return server


def url_of(server):
    host, port = server.server_address[:2]
    return f"http://{host}:{port}/"
