"""The Kaggle files of ``mcts:prior=NET`` and of a level (``perfect:skill=10``), loaded by
Kaggle's own loader (kaggle_environments.agent.get_last_callable, as its ``build_agent``
calls it on a file) in a fresh ``python -I`` process, play a few moves each with their
resources gone from disk: the file must carry what it needs.

"Gone from disk": the network is written to a folder that is deleted once the file is
built, and the child process refuses (an audit hook on ``open``) to read any file of the
package's folders (``agents``, ``heuristics``, ``scripts``, ``submission``) of this
checkout and of the installed copy, so neither a resource (the book, the opening tables,
the network) nor a module the file lacks can come from there; the refused paths are
reported and must be none. The numba cache is pointed at an empty folder that must stay
empty (``run_isolated``). A few moves each, from the empty board, the file playing both
sides: each a legal plain ``int``, by the agent itself (no fallback, no error). The moves
have 0.2 s each (``actTimeout``), so the level's file lends little time to its background
compile: about 1 s of CPU a file.
"""
import json
import os
import shutil

import pytest

from submission import build as bld
from test_puct import tiny_net
from test_submission_runtime import run_isolated

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGES = ("agents", "heuristics", "scripts", "submission")
MOVES = 3
pytestmark = pytest.mark.slow  # fresh processes: scheduled first (tests/conftest.py)

# argv: the file, the number of moves, then the folders to hide. Prints one JSON line.
PLAY = r"""
import importlib.util, json, os, sys
path, moves, hidden = sys.argv[1], int(sys.argv[2]), list(sys.argv[3:])
installed = importlib.util.find_spec("agents")  # the venv's copy, found without importing it
if installed is not None and installed.origin:
    root = os.path.dirname(os.path.dirname(installed.origin))
    hidden += [os.path.join(root, p) for p in %r]
hidden = [os.path.realpath(h) + os.sep for h in hidden]
refused = []

def hide(event, args):
    if event == "open" and isinstance(args[0], (str, bytes, os.PathLike)):
        name = os.path.realpath(os.fsdecode(args[0]))
        if any(name.startswith(h) for h in hidden):
            refused.append(name)
            raise PermissionError(f"hidden from the file: {name}")

sys.addaudithook(hide)
# Kaggle's loader, its module only: the package's __init__ registers every environment
# (1.3 s of CPU), which loading a file does not need
import types
kaggle = types.ModuleType("kaggle_environments")
kaggle.__path__ = list(importlib.util.find_spec("kaggle_environments").submodule_search_locations)
sys.modules["kaggle_environments"] = kaggle
sys.modules.setdefault("rfc3987_syntax", None)  # utils imports jsonschema: extras.skip_iri_grammar
from kaggle_environments.agent import get_last_callable
from kaggle_environments.utils import read_file
agent = get_last_callable(read_file(path), path=path)

rows, columns = 6, 7
cfg = {"rows": rows, "columns": columns, "inarow": 4, "actTimeout": 0.2, "timeout": 0.2}
board, played = [0] * (rows * columns), []
for step in range(moves):
    col = agent({"board": list(board), "mark": 1 + step %% 2, "step": step,
                 "remainingOverageTime": 60.0}, cfg)
    played.append([type(col).__name__, col])
    free = [r for r in range(rows) if board[r * columns + col] == 0]
    board[max(free) * columns + col] = 1 + step %% 2
state = agent.__globals__["_STATE"]
last = getattr(state["player"], "last", None) or {}
resources = sys.modules.get("agents.resources")  # the package's one reader of its data
print(json.dumps({"callable": agent.__name__, "moves": played, "refused": refused,
                  "embedded": sorted(resources.EMBEDDED) if resources else None,
                  "source": last.get("source"),
                  "state": {k: state[k] for k in ("broken", "fallbacks", "last_error", "calls")}}))
""" % (PACKAGES,)


def play_file(bundle, path, hidden):
    """Play the file of ``bundle`` written at ``path`` with ``hidden`` folders refused."""
    out = json.loads(run_isolated(PLAY, str(path), str(MOVES), *hidden).strip().splitlines()[-1])
    assert out["callable"] == "agent"
    # the resources the agent declares are served from the file (a level plays its
    # first moves without its book when the book is missing: only this sees it)
    assert out["embedded"] == sorted(bundle.resources)
    assert out["refused"] == [], out["refused"]
    assert out["state"] == {"broken": None, "fallbacks": 0, "last_error": None,
                            "calls": MOVES}, out["state"]
    assert len(out["moves"]) == MOVES
    for kind, col in out["moves"]:
        assert kind == "int" and 0 <= col < 7
    return out


@pytest.fixture
def hidden(monkeypatch):
    """The checkout's package folders; and the bundler's compression at lzma's fastest
    preset (the file decompresses any preset; preset 9 costs ~1.5 s of CPU on the level's
    600 KB of tables)."""
    import lzma
    compress = lzma.compress
    monkeypatch.setattr(lzma, "compress", lambda data, preset=None: compress(data, preset=0))
    return [os.path.join(ROOT, p) for p in PACKAGES]


def test_the_network_file_plays_without_the_network(tmp_path, hidden):
    from agents.players.network import save_network
    folder = tmp_path / "net"
    folder.mkdir()
    net = folder / "tiny.npz"
    save_network(net, tiny_net())
    bundle = bld.build("mcts", {"prior": str(net), "iterations": 30})
    assert list(bundle.resources) == ["tiny.npz"]
    path = tmp_path / "submission.py"
    path.write_text(bundle.text)
    shutil.rmtree(folder)  # the network is gone: only the file's copy is left
    play_file(bundle, path, hidden + [str(folder)])


def test_the_level_file_plays_without_the_package_data(tmp_path, hidden):
    bundle = bld.build("perfect", {"skill": 10})
    assert "book7x6.bin" in bundle.resources
    path = tmp_path / "submission.py"
    path.write_text(bundle.text)
    assert play_file(bundle, path, hidden)["source"] == "level"  # the level's code moved
