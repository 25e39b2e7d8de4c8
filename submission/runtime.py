# ---------------------------------------------------------------------------
# Runtime of a generated submission (copied verbatim from submission/runtime.py).
#
# The data above this point (written by submission.build) defines:
#   _AGENT_NAME, _AGENT_OPTIONS   the registry name and options of the agent
#   _BUNDLE_ID                    sha256 of everything embedded
#   _PACKAGES                     top-level package names embedded (e.g. "agents")
#   _REGISTRY                     module with ``make(name, **options)``
#   _RESOURCE_MODULE              module whose ``EMBEDDED`` dict gets the resources
#   _JIT_MODULE                   module whose ``HAVE_NUMBA`` says if kernels compile
#   _MODULES                      module name -> (is_package, source text)
#   _RESOURCES                    resource name -> (sha256 hex, base64 of lzma bytes)
#
# Kaggle exec()s this file and uses the *last callable* it defines, so ``agent``
# is the last definition and nothing callable may follow it. Nothing runs at
# exec time except these definitions: the modules are installed and the agent
# is built on the first call (an agent built with warmup="background", the
# build's default, compiles its numba kernels in a thread and answers without
# them until they are ready: agents.players.warmup).
# ---------------------------------------------------------------------------
import base64 as _base64
import hashlib as _hashlib
import importlib as _importlib
import importlib.util as _importlib_util
import linecache as _linecache
import lzma as _lzma
import sys as _sys
import time as _time
import traceback as _traceback

# What the file did so far; read by submission.validate (and handy in a notebook).
_STATE = {
    "player": None,            # the package agent, built on the first call
    "broken": None,            # why building it failed (then every move is a fallback)
    "calls": 0,
    "fallbacks": 0,            # moves chosen by _fallback_move after an error
    "last_error": None,
    "numba": None,             # True if the kernels are compiled, False if plain Python
    "numba_error": None,       # numba imported but failed: the kernels went plain Python
    "load_seconds": None,      # installing the modules and building the agent
    "compile_seconds": 0.0,    # numba compilation inside moves, all moves together
    "warmup": None,            # background compilation (agents.players.warmup), if the agent has one
    "first_move_seconds": None,
    "first_move_source": None, # the agent's last["source"] after it: "warm-up" or "book"
                               # when the first move waited for no kernel
    "first_move_cpu_seconds": None,  # less sensitive to a busy machine than wall time
    "max_move_seconds": 0.0,   # slowest move after the first
    "moves": [],               # each move's reason: _reason() of the agent's record
    "total_seconds": 0.0,
}


def _filename(name, is_package):
    """A pseudo path for tracebacks, e.g. <bundle>/agents/board/rules.py (nothing is on disk)."""
    path = name.replace(".", "/")
    return "<bundle>/" + (path + "/__init__.py" if is_package else path + ".py")


def _resources():
    """The embedded resources as bytes, each checked against its sha256."""
    out = {}
    for name, (digest, text) in _RESOURCES.items():
        data = _lzma.decompress(_base64.b64decode(text))
        if _hashlib.sha256(data).hexdigest() != digest:
            raise ValueError(f"embedded resource {name!r} is corrupt (sha256 mismatch)")
        out[name] = data
    return out


class _BundleImporter:
    """Meta-path finder and loader for the embedded modules (and only those)."""

    def __init__(self):
        self.bundle_id = _BUNDLE_ID

    def find_spec(self, name, path=None, target=None):
        if name not in _MODULES:
            return None
        is_package = _MODULES[name][0]
        spec = _importlib_util.spec_from_loader(
            name, self, origin=_filename(name, is_package), is_package=is_package)
        spec.has_location = True  # sets module.__file__ (tracebacks name the embedded file)
        return spec

    def create_module(self, spec):
        return None

    def exec_module(self, module):
        name = module.__name__
        is_package, source = _MODULES[name]
        filename = _filename(name, is_package)
        # mtime None: linecache keeps the text, so tracebacks show the embedded lines
        _linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
        module.__bundle__ = _BUNDLE_ID
        exec(compile(source, filename, "exec"), module.__dict__)
        if name == _RESOURCE_MODULE and _RESOURCES:
            module.EMBEDDED.update(_resources())


def _install():
    """Make ``import agents...`` load the embedded modules.

    Modules of the same packages imported from anywhere else (an installed copy of
    the package, another bundle) are dropped from ``sys.modules`` first; modules of
    this very bundle, already loaded by another copy of this file in the same
    process (Kaggle's self-play validation), are reused."""
    for name in list(_sys.modules):
        if name.split(".")[0] in _PACKAGES \
                and getattr(_sys.modules[name], "__bundle__", None) != _BUNDLE_ID:
            del _sys.modules[name]
    if not any(getattr(f, "bundle_id", None) == _BUNDLE_ID for f in _sys.meta_path):
        _sys.meta_path.insert(0, _BundleImporter())


def _make_player():
    _install()
    if _JIT_MODULE in _MODULES:
        _importlib.import_module(_JIT_MODULE)  # imports numba (if it can) before the timer
    with _CompileTimer():
        player = _importlib.import_module(_REGISTRY).make(_AGENT_NAME, **_AGENT_OPTIONS)
    jit = _sys.modules.get(_JIT_MODULE)  # None: the agent uses no kernels
    _STATE["numba"] = None if jit is None else bool(jit.HAVE_NUMBA)
    return player


def _make_player_without_numba():
    """Rebuild the agent on the plain-Python kernels, for when numba imports but
    cannot compile them (say, an older numba on the Kaggle image)."""
    for name in list(_sys.modules):
        if name.split(".")[0] in _PACKAGES:
            del _sys.modules[name]
    saved = _sys.modules.get("numba")
    _sys.modules["numba"] = None  # agents.board.jit sees ``import numba`` fail
    try:
        return _make_player()
    finally:
        if saved is None:
            del _sys.modules["numba"]
        else:
            _sys.modules["numba"] = saved


def _is_numba_error(exc):
    return type(exc).__module__.split(".")[0] in ("numba", "llvmlite")


class _CompileTimer:
    """Adds the time numba spends compiling inside the ``with`` block to _STATE."""

    def __enter__(self):
        self.timer = None
        numba = _sys.modules.get("numba")
        if numba is not None:
            try:
                from numba.core import event
                self.timer = event.install_timer("numba:compile", self._add)
                self.timer.__enter__()
            except Exception:  # an older numba without events: no measurement
                self.timer = None
        return self

    def __exit__(self, *exc):
        if self.timer is not None:
            return self.timer.__exit__(*exc)
        return False

    @staticmethod
    def _add(seconds):
        _STATE["compile_seconds"] += seconds


def field_of(obj, name):
    if isinstance(obj, dict):
        return obj[name]
    return getattr(obj, name)


def _legal_columns(obs, config):
    """Columns whose top cell is empty; ``ValueError`` if obs/config cannot be read."""
    try:
        columns = int(field_of(config, "columns"))
        board = list(field_of(obs, "board"))
    except (KeyError, AttributeError, TypeError, ValueError) as exc:
        raise ValueError(
            f"agent needs obs.board (a list) and config.columns (an int): {exc!r}") from None
    if columns < 1 or len(board) < columns:
        raise ValueError(f"board of {len(board)} cells does not fit {columns} columns")
    return [c for c in range(columns) if board[c] == 0]


def _fallback_move(legal, columns):
    """The legal column closest to the centre (played only after an error)."""
    return min(legal, key=lambda c: (abs(2 * c - (columns - 1)), c))


def _play(obs, config, legal):
    """The package agent's column, or None after an error (logged to stderr)."""
    if _STATE["broken"] is not None:
        return None
    try:
        if _STATE["player"] is None:
            t0 = _time.perf_counter()
            try:
                _STATE["player"] = _make_player()
            except Exception as exc:
                _STATE["broken"] = repr(exc)
                raise
            _STATE["load_seconds"] = _time.perf_counter() - t0
        with _CompileTimer():
            try:
                column = _STATE["player"](obs, config)
            except Exception as exc:
                if not (_STATE["numba"] and _is_numba_error(exc)):
                    raise
                _STATE["numba_error"] = repr(exc)
                print("submission: numba failed, switching to the plain-Python kernels:",
                      file=_sys.stderr)
                _traceback.print_exc(file=_sys.stderr)
                _STATE["player"] = _make_player_without_numba()
                column = _STATE["player"](obs, config)
        warm = getattr(_STATE["player"], "warm", None)
        if warm is not None:
            _STATE["warmup"] = {"done": warm.done(), "units": len(warm.log),
                                "seconds": round(sum(s for _, s in warm.log), 3),
                                "errors": list(warm.errors),
                                # moves answered without kernels while they compiled
                                "fallback_moves": getattr(_STATE["player"], "warm_moves", 0)}
        if isinstance(column, bool) or not isinstance(column, int) or column not in legal:
            raise RuntimeError(f"agent {_AGENT_NAME!r} returned {column!r}, not a legal column")
        return int(column)
    except Exception as exc:
        _STATE["last_error"] = repr(exc)
        print(f"submission: agent {_AGENT_NAME!r} failed, playing a fallback move:",
              file=_sys.stderr)
        _traceback.print_exc(file=_sys.stderr)
        return None


# the sources of a move (the agent's ``last["source"]``) played without the agent's own
# kernels: _note() writes a line for them to stderr, which Kaggle keeps in the replay's
# logs of that step
_UNREADY_SOURCES = ("warm-up", "shallow search")


def _reason(column, seconds):
    """The move's reason from the agent's record (``player.last``): ``{"column", "source",
    "seconds"}`` and, when the move waited for kernels, ``"waited"``."""
    last = getattr(_STATE["player"], "last", None)
    last = last if isinstance(last, dict) else {}
    out = {"column": int(column), "source": last.get("source"), "seconds": round(seconds, 3)}
    if last.get("waited"):
        out["waited"] = last["waited"]
    return out


def _note(reason, fallback):
    """Log the moves a replay reader would ask about (one line on stderr): a move played
    without the agent's kernels, after waiting for them, or after an error."""
    source = "a fallback after an error" if fallback else reason["source"]
    if not (fallback or reason["source"] in _UNREADY_SOURCES or reason.get("waited")):
        return
    waited = f", waited {reason['waited']:.1f} s for the kernels" if reason.get("waited") else ""
    print(f"submission: move {_STATE['calls']}: column {reason['column']} by {source}{waited} "
          f"({reason['seconds']:.2f} s)", file=_sys.stderr)


def agent(obs, config):
    """Kaggle entry point: the configured package agent, built on the first call.

    Always returns a plain ``int`` legal column: after any error in the package
    agent (logged to stderr) the legal column closest to the centre is played.
    Raises ``ValueError`` only when ``obs``/``config`` do not describe a board
    with a legal move."""
    start, cpu = _time.perf_counter(), _time.process_time()
    legal = _legal_columns(obs, config)
    if not legal:
        raise ValueError("no legal move: the top row of the board is full")
    column = _play(obs, config, legal)
    fallback = column is None
    if fallback:
        _STATE["fallbacks"] += 1
        column = _fallback_move(legal, int(field_of(config, "columns")))
    seconds = _time.perf_counter() - start
    _STATE["calls"] += 1
    reason = _reason(column, seconds)
    _STATE["moves"].append(reason)
    _note(reason, fallback)
    _STATE["total_seconds"] += seconds
    if _STATE["first_move_seconds"] is None:
        _STATE["first_move_seconds"] = seconds
        last = getattr(_STATE["player"], "last", None)
        _STATE["first_move_source"] = last.get("source") if isinstance(last, dict) else None
        _STATE["first_move_cpu_seconds"] = _time.process_time() - cpu
    else:
        _STATE["max_move_seconds"] = max(_STATE["max_move_seconds"], seconds)
    return int(column)
