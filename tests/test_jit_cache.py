"""numba's on-disk kernel cache (agents.board.jit).

* two processes filling one empty cache at the same time, then a third loading it,
  all give the forced results of this process's kernel (which agree with the labelled
  scores' signs), and the third compiles nothing;
* ``CONNECTX_NUMBA_CACHE=0`` writes nothing;
* a kernel's folder is the one the module docstring names, computed here independently
  (the Python and numba versions, 16 hex digits of a sha256 of the kernel packages' paths
  and sources), and a changed or renamed source file changes it;
* no cached kernel is recursive or calls a recursive kernel (numba 0.68 crashes the
  process that loads such a kernel from the cache), checked on the call graph of
  every kernel of the package;
* a submission file never writes the cache: ``tests/test_submission_runtime.py`` runs every
  built file with the cache pointed at an empty directory that must stay empty.
"""
import ast
import importlib
import inspect
import json
import os
import pkgutil
import subprocess
import sys
import textwrap

import pytest

from agents.board import jit

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
END = os.path.join(ROOT, "scripts", "data", "positions", "end.txt")

needs_numba = pytest.mark.skipif(not jit.HAVE_NUMBA or os.environ.get("NUMBA_DISABLE_JIT") == "1",
                                 reason="needs numba's compiler")

# The forced result (a win or loss within 9 plies, else 0) of the side to move in the first
# lines of end.txt, by tactics.forced_result: a kernel that calls kernels of another file
# (agents.board.grid), compiled in 1-2 s of CPU (the solver's kernels, which the probe
# solved before, took 7-8 s in each of the three processes; the cache's code path is the
# same). One source, run by the probe processes and by this one.
RESULTS = textwrap.dedent("""
    import numpy as np
    from agents.search.tactics import forced_result

    def forced_results(path):
        \"\"\"[(moves, labelled score, forced result)] of the first 12 lines of ``path``.\"\"\"
        out = []
        for moves, score in [l.split() for l in open(path) if l.strip()][:12]:
            grid, heights = np.zeros(42, dtype=np.int8), np.zeros(7, dtype=np.int64)
            for i, ch in enumerate(moves):
                c = int(ch) - 1
                grid[(5 - heights[c]) * 7 + c] = 1 + i % 2
                heights[c] += 1
            r = forced_result(grid, heights, 6, 7, 4, 1 + len(moves) % 2, 9, -1)
            out.append((moves, int(score), int(r)))
        return out
""")
# Prints the results and how many of the kernel's versions were loaded from the cache
# rather than compiled.
PROBE = RESULTS + textwrap.dedent("""
    import json, sys
    results = [r for _, _, r in forced_results(sys.argv[1])]
    hits = sum(forced_result.stats.cache_hits.values())
    misses = sum(forced_result.stats.cache_misses.values())
    print(json.dumps({"results": results, "hits": hits, "misses": misses}))
""")


def expected_results():
    """This process's forced results of the probe's positions (its own kernel, from the
    suite's cache or compiled here), after checking them against the labelled scores: a
    forced win is a won position, a forced loss a lost one."""
    space = {}
    exec(RESULTS, space)
    out = []
    for moves, score, r in space["forced_results"](END):
        assert r == 0 or (r > 0) == (score > 0), (moves, score, r)
        out.append(r)
    assert {-1, 0, 1} <= set(out)  # wins, losses and open positions: a telling sample
    return out


def probe(cache, wait=True):
    env = dict(os.environ, CONNECTX_NUMBA_CACHE=str(cache))
    env.pop("NUMBA_DISABLE_JIT", None)
    proc = subprocess.Popen([sys.executable, "-c", PROBE, END], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    return result(proc) if wait else proc


def result(proc):
    out, err = proc.communicate(timeout=600)
    assert proc.returncode == 0, err[-3000:]
    return json.loads(out.strip().splitlines()[-1])


def files(folder):
    return [os.path.join(d, f) for d, _, names in os.walk(folder) for f in names]


@pytest.mark.slow
@needs_numba
def test_concurrent_fill_then_load_gives_the_same_results(tmp_path):
    expected = expected_results()
    first = [probe(tmp_path, wait=False) for _ in range(2)]  # race on an empty cache
    for out in map(result, first):
        assert out["results"] == expected and out["misses"] > 0
    assert any(f.endswith(".nbi") for f in files(tmp_path))
    third = probe(tmp_path)
    assert third["results"] == expected
    assert third["hits"] > 0 and third["misses"] == 0, third


@needs_numba
def test_cache_off_writes_nothing(tmp_path, monkeypatch):
    monkeypatch.setenv(jit.CACHE_ENV, "0")
    assert jit.cache_dir() is None
    monkeypatch.setenv(jit.CACHE_ENV, str(tmp_path))
    assert jit.cache_dir().startswith(str(tmp_path))
    env = dict(os.environ, CONNECTX_NUMBA_CACHE="0", HOME=str(tmp_path),
               XDG_CACHE_HOME=str(tmp_path))
    # one small cacheable kernel is enough to see whether anything would be written
    code = "from agents.board.bitboard import popcount; print(popcount(7))"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True,
                         text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-3000:]
    assert files(tmp_path) == []


@needs_numba
def test_each_version_of_the_sources_has_its_own_folder(tmp_path, monkeypatch):
    """Two checkouts of different versions on one machine must not overwrite each
    other's cached kernels: the folder names the sources' stamp."""
    from agents.board.bitboard import popcount
    monkeypatch.setenv(jit.CACHE_ENV, str(tmp_path))
    locator = jit._ProjectLocator(popcount.py_func, popcount.py_func.__code__.co_filename)
    # the expected folder, computed here from the module docstring's words, not by jit's
    # functions: <cache>/py<major><minor>-numba<version>/<16 hex of the stamp>/agents/board
    import numba
    version = f"py{sys.version_info.major}{sys.version_info.minor}-numba{numba.__version__}"
    stamp = stamp_of(ROOT)[:16]
    assert locator.get_cache_path() == os.path.join(str(tmp_path), version, stamp, "agents", "board")
    assert locator.get_source_stamp() == stamp_of(ROOT)


def stamp_of(root):
    """sha256 over every ``.py`` file of ``agents/`` and ``heuristics/`` under ``root``, in
    the order of their (folder, name), each as its path relative to ``root`` then its bytes
    (jit.sources_stamp's contract, computed independently)."""
    import hashlib
    import pathlib
    files = [p for package in ("agents", "heuristics")
             for p in pathlib.Path(root, package).rglob("*.py")]
    h = hashlib.sha256()
    for p in sorted(files, key=lambda p: (str(p.parent), p.name)):
        h.update(os.path.relpath(p, root).encode())
        h.update(p.read_bytes())
    return h.hexdigest()


def test_a_changed_source_gets_a_new_stamp(tmp_path, monkeypatch):
    """One changed byte in any kernel package's file, or a renamed file, changes the
    stamp (so a new folder); a copy of the same sources elsewhere keeps it."""
    import shutil
    for package in ("agents", "heuristics"):
        shutil.copytree(os.path.join(ROOT, package), tmp_path / package,
                        ignore=shutil.ignore_patterns("__pycache__", "data"))

    def stamp():
        monkeypatch.setattr(jit, "_FOLDERS", {p: str(tmp_path / p) for p in ("agents", "heuristics")})
        monkeypatch.setattr(jit, "_STAMP", None)
        return jit.sources_stamp()
    same = stamp()
    assert same == stamp_of(ROOT) == stamp_of(tmp_path)
    rules = tmp_path / "heuristics" / "__init__.py"
    rules.write_bytes(rules.read_bytes() + b"\n")
    changed = stamp()
    assert changed == stamp_of(tmp_path) != same
    (tmp_path / "heuristics" / "__init__.py").rename(tmp_path / "heuristics" / "__init_.py")
    assert stamp() not in (same, changed)


def kernels():
    """Every numba kernel defined in the package's modules: {py_func: dispatcher}."""
    found = {}
    for package in ("agents", "heuristics"):
        pkg = importlib.import_module(package)
        for info in pkgutil.walk_packages(pkg.__path__, package + "."):
            module = importlib.import_module(info.name)
            for value in vars(module).values():
                py = getattr(value, "py_func", None)
                if py is not None and py.__module__ == module.__name__:
                    found[py] = value
    return found


def callees(py, table):
    """The package kernels ``py`` calls by name (its globals resolve the names)."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(py)))
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            target = None
            if isinstance(node.func, ast.Name):
                target = py.__globals__.get(node.func.id)
            elif isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name):
                target = getattr(py.__globals__.get(node.func.value.id), node.func.attr, None)
            inner = getattr(target, "py_func", None)
            if inner in table:
                out.add(inner)
    return out


@needs_numba
def test_no_cached_kernel_reaches_a_recursive_kernel():
    table = kernels()
    assert len(table) > 50  # the walk found the package's kernels
    graph = {py: callees(py, table) for py in table}

    def reach(py):
        seen, stack = set(), list(graph[py])
        while stack:
            k = stack.pop()
            if k not in seen:
                seen.add(k)
                stack.extend(graph[k])
        return seen

    recursive = {py for py in table if py in reach(py)}
    assert recursive  # forced_result, negamax, ...: the check sees recursion
    bad = sorted(f"{py.__module__}.{py.__name__}" for py, k in table.items()
                 if type(k._cache).__name__ != "NullCache"
                 and (py in recursive or reach(py) & recursive))
    assert not bad, f"cached kernels that are or call recursive kernels: {bad}"
