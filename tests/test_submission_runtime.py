"""The generated file's runtime (``submission/runtime.py``), on small fake packages built
by ``submission.build``: no numba (but one test), fast.

Each file runs in a fresh ``python -I`` process, loaded the way Kaggle loads it, with
the package's kernel cache pointed at an empty directory that must stay empty.
"""
import json
import os
import subprocess
import sys
import tempfile

import pytest

from conftest import write_package
from submission import build as bld

PY = sys.executable


def run_isolated(code, *args, timeout=600):
    """Run ``code`` in a fresh ``python -I`` (the project is not importable).

    The package's kernel cache is pointed at an empty directory, which must stay
    empty: a submission file never writes numba's cache."""
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, CONNECTX_NUMBA_CACHE=cache)
        proc = subprocess.run([PY, "-I", "-c", code, *args], capture_output=True, text=True,
                              timeout=timeout, cwd="/", env=env)
        assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-4000:]
        written = [os.path.join(d, f) for d, _, files in os.walk(cache) for f in files]
        assert not written, f"the submission wrote numba cache files: {written[:5]}"
    return proc.stdout


# Loads a file exactly as kaggle_environments.agent.get_last_callable does.
LOAD_LIKE_KAGGLE = """
import sys
path = sys.argv[1]
env = {}
exec(compile(open(path, encoding="utf-8").read(), path, "exec"), env)
agent = [v for v in env.values() if callable(v)][-1]
"""


# ---------------------------------------------------------------------------
# The generated file's runtime (small fake packages: no numba, fast)
# ---------------------------------------------------------------------------

FAKE = {
    "fake/__init__.py": """
        import importlib
        AGENTS = {"good": "fake.players:Good", "bad": "fake.players:Bad",
                  "oldnumba": "fake.players:OldNumba",
                  "npint": "fake.players:NumpyInt", "book": "fake.players:Book"}
        def make(name, **options):
            module, cls = AGENTS[name].split(":")
            return getattr(importlib.import_module(module), cls)(**options)
    """,
    "fake/jit.py": "HAVE_NUMBA = False\n",  # no numba import: these tests stay fast
    "fake/resources.py": """
        import os
        _DATA_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")
        EMBEDDED = {}
        def read_resource(name):
            return EMBEDDED[name]
    """,
    "fake/players.py": """
        import numpy as np
        from . import jit
        from .resources import read_resource
        class Good:
            def __call__(self, obs, config):
                return 0
        class Bad:
            def __init__(self, crash_on_make=False):
                if crash_on_make:
                    raise RuntimeError("cannot build")
            def __call__(self, obs, config):
                raise ZeroDivisionError("bug in the agent")
        class OldNumba:  # plays 2 on plain-Python kernels; numba cannot compile them
            def __call__(self, obs, config):
                if jit.HAVE_NUMBA:
                    raise jit.numba.core.errors.TypingError("unsupported in this numba")
                return 2
        class NumpyInt:
            def __call__(self, obs, config):
                return np.int64(3)
        class Book:
            RESOURCES = ("book.bin",)
            def __call__(self, obs, config):
                return len(read_resource("book.bin")) % config["columns"]
    """,
}


REAL_JIT = {"fake/jit.py": """
    try:
        import numba
        HAVE_NUMBA = True
    except ImportError:
        numba = None
        HAVE_NUMBA = False
"""}


def fake_bundle(tmp_path, name, options=None, resources=None, files=None):
    root = tmp_path / "src"
    write_package(root, {**FAKE, **(files or {})})
    modules, _ = bld.collect_modules(["fake", "fake.players"], str(root), ("fake",))
    text = bld.render(name, options or {}, modules, resources or {}, packages=("fake",),
                      registry="fake", resource_module="fake.resources", jit_module="fake.jit")
    bld.check_last_callable(text)
    path = tmp_path / f"{name}.py"
    path.write_text(text)
    return str(path)


RUN_FAKE = LOAD_LIKE_KAGGLE + """
import io
import json
cfg = {"rows": 6, "columns": 7, "inarow": 4}
full0 = [1] + [0] * 6 + [2] * 35          # column 0 full
out = {"moves": []}
for board in ([0] * 42, full0, [0, 0, 1, 2, 1, 2, 1] + [1] * 35):
    col = agent({"board": board, "mark": 1}, cfg)
    out["moves"].append([type(col).__name__, col])
try:
    agent({"mark": 1}, cfg)
except ValueError as exc:
    out["bad_input"] = str(exc)
try:
    agent({"board": [1] * 42, "mark": 1}, cfg)
except ValueError as exc:
    out["full"] = str(exc)
state = agent.__globals__["_STATE"]
out["state"] = {k: state[k] for k in ("fallbacks", "broken", "numba", "calls")}
if state["numba_error"]:
    out["state"]["numba_error"] = state["numba_error"]
print(json.dumps(out))
"""


def test_runtime_plays_the_packaged_agent(tmp_path):
    out = json.loads(run_isolated(RUN_FAKE, fake_bundle(tmp_path, "good")))
    # column 0 is full on the second board: the wrapper replaces the illegal move
    assert out["moves"] == [["int", 0], ["int", 3], ["int", 0]]
    assert out["state"] == {"fallbacks": 1, "broken": None, "numba": False, "calls": 3}
    assert "obs.board" in out["bad_input"] and "top row" in out["full"]


@pytest.mark.parametrize("name, options, fallbacks, broken", [
    ("bad", {}, 3, None),                        # raises on every move
    ("bad", {"crash_on_make": True}, 3, "cannot build"),  # not retried on later moves
    ("npint", {}, 3, None),                      # numpy.int64 is not a Kaggle action
])
def test_runtime_falls_back_to_a_legal_int(tmp_path, name, options, fallbacks, broken):
    out = json.loads(run_isolated(RUN_FAKE, fake_bundle(tmp_path, name, options)))
    # centre-most legal column; the last board has only columns 0 and 1 open
    assert out["moves"] == [["int", 3], ["int", 3], ["int", 1]]
    assert out["state"]["fallbacks"] == fallbacks
    assert (out["state"]["broken"] is None) == (broken is None)
    if broken:
        assert broken in out["state"]["broken"]


def test_runtime_switches_to_plain_python_when_numba_cannot_compile(tmp_path):
    out = json.loads(run_isolated(RUN_FAKE, fake_bundle(tmp_path, "oldnumba", files=REAL_JIT)))
    assert out["moves"] == [["int", 2], ["int", 2], ["int", 1]]  # 2 is full on the last board
    assert out["state"]["numba"] is False and out["state"]["fallbacks"] == 1
    assert "TypingError" in out["state"]["numba_error"]


def test_runtime_embeds_resources(tmp_path):
    data = bytes(range(256)) * 41 + b"!"  # 10497 bytes: column 10497 % 7 == 4
    path = fake_bundle(tmp_path, "book", resources={"book.bin": data})
    out = json.loads(run_isolated(RUN_FAKE, path))
    # 4 is legal on the first two boards, not on the third
    assert out["moves"] == [["int", 4], ["int", 4], ["int", 1]]
    assert out["state"]["fallbacks"] == 1
    text = open(path).read().replace(bld._pack(data)[0], "0" * 64)  # wrong checksum
    with open(path, "w") as f:
        f.write(text)
    out = json.loads(run_isolated(RUN_FAKE, path))
    assert "corrupt" in out["state"]["broken"]


def test_runtime_prefers_the_bundle_over_an_installed_package(tmp_path):
    """A copy of the package on sys.path (or already imported) is not used."""
    (tmp_path / "other").mkdir()
    write_package(tmp_path / "other", {"fake/__init__.py": "raise ImportError('disk copy')\n"})
    code = ("import sys; sys.path.insert(0, sys.argv[2]); import types; "
            "sys.modules['fake'] = types.ModuleType('fake')\n" + RUN_FAKE)
    out = json.loads(run_isolated(code, fake_bundle(tmp_path, "good"), str(tmp_path / "other")))
    assert out["state"]["broken"] is None and out["moves"][0] == ["int", 0]
