"""The import graph of the project flows one way (issues 18 and 32)::

    board (agents.board) <- heuristics <- search (agents.search) <- solver (agents.solver)
        <- players (agents.players)
    games (agents.games: the lessons' wing, pure Python) <- search (its ConnectX reference)
        <- registry (agents) <- submission, environments (agents.envs)
        <- scripts.arena (games between agents) <- scripts.server (the browser app),
           scripts.lessons, scripts.learn (the libraries of scripts/, no argument layer:
           tests/test_layout.py)
        <- scripts.args (the argument layer) <- scripts.cli, and the commands, benchmarks
           and tools (scripts.commands, scripts.bench, scripts.tools)

A module may import its own room and the rooms below it, never a room above or beside
it. Imports are read from the source (``ast``: lazy imports inside functions count
too), with the bundler's own reader, so the test sees what the submission build walks.
"""
import ast
import os

import pytest

from submission.build import imported_names, module_file
from tests.conftest import ROOT

PACKAGES = ("agents", "heuristics", "scripts", "submission", "tests")

# what a library of scripts/ may use (tests/test_layout.py: no argument parser in them)
LIBRARY = ("agents", "heuristics", "submission", "scripts.arena")  # agents.envs too
# what a command, a benchmark or a tool may use: the argument layer too
TOOLS = LIBRARY + ("scripts.args",)
# room -> the rooms (besides itself) its modules may import; a module's room is the
# longest prefix listed in ROOMS
BELOW_REGISTRY = ("agents.board", "heuristics", "agents.resources", "agents.search",
                  "agents.players", "agents.games", "agents.solver")
ROOMS = {
    "agents.board": (),
    "heuristics": ("agents.board",),
    # package data, read through one function (the bundler embeds it): imports nothing
    "agents.resources": (),
    # the lessons' wing: the Game protocol, its reference searches and one game loop,
    # the lessons' searches and games; pure Python, it imports nothing of the project
    "agents.games": (),
    # search: the kernels and drivers of one algorithm a file, their slow references
    # (the Connect Four reference is a Game of the lessons' wing)
    "agents.search": ("agents.board", "heuristics", "agents.resources", "agents.games"),
    # the exact solver and its stored knowledge (databases, opening scores, the move book):
    # the search room's counters, no evaluation
    "agents.solver": ("agents.board", "agents.resources", "agents.search"),
    # players: the agent classes, thin over the searches and the solver
    "agents.players": ("agents.board", "heuristics", "agents.resources", "agents.search",
                       "agents.solver"),
    # the registry: agents/__init__.py (it names the players by string, imports them lazily)
    "agents": BELOW_REGISTRY,
    # the reinforcement-learning environments: the board, the searches and the players
    # through the registry (agents.make, agents.options); nothing imports them but the
    # benchmarks and the tests (``import agents`` stays free of gymnasium)
    "agents.envs": BELOW_REGISTRY + ("agents",),
    # the submission's builder, runtime and validation: the agents only (its command
    # lines are scripts.commands.build and .validate)
    "submission": ("agents",),
    # scripts/__init__.py
    "scripts": (),
    # the library the commands call (games between agents, labelled sets, the database
    # builder, the pools): no argparse, no printing
    "scripts.arena": ("agents", "heuristics"),
    # the browser app
    "scripts.server": ("agents", "heuristics", "scripts.arena"),
    # the one argument layer, and the connectx table on it (the table names the
    # commands' modules by string)
    "scripts.args": ("agents", "scripts.arena"),
    "scripts.cli": ("scripts.args",),
    # the thin mains, one a command (``database build``'s work is scripts.arena's
    # database_build); the benchmarks; the tools
    "scripts.commands": TOOLS + ("scripts.server", "scripts.tools", "scripts.lessons",
                                 "scripts.learn"),
    # the benchmarks: bench analysis --page times the browser app's own requests, bench
    # zero measures the networks a --mode zero run kept (its judge of the search)
    "scripts.bench": TOOLS + ("scripts.server", "scripts.learn"),
    "scripts.tools": TOOLS,
    # the reference pages are generated from the command layer's own parsers
    "scripts.tools.reference_pages": TOOLS + ("scripts.cli",),
    # the lessons' experiments, their terminal games and one-lesson scripts (their command
    # line: scripts.commands.lessons)
    "scripts.lessons": LIBRARY,
    # connectx learn's work: labelled positions, the JAX network, the teacher's training,
    # PPO (ppo.py) for the reinforce mode (reinforce.py) and the course's recipe (recipe.py),
    # the run's files
    "scripts.learn": LIBRARY,
    # the CleanRL-style example: one file with its own command line, by CleanRL's
    # single-file convention (tests/test_layout.py's EXCEPTIONS)
    "scripts.learn.cleanrl_ppo": TOOLS + ("scripts.learn",),
}


def room_of(name):
    best = None
    for room in ROOMS:
        if (name == room or name.startswith(room + ".")) \
                and (best is None or len(room) > len(best)):
            best = room
    return best


def modules():
    """Every module of the rooms, by dotted name."""
    out = []
    for top in ("agents", "heuristics", "scripts", "submission"):
        for folder, _, files in os.walk(os.path.join(ROOT, top)):
            for f in sorted(files):
                if f.endswith(".py"):
                    rel = os.path.relpath(os.path.join(folder, f), ROOT)[:-3].split(os.sep)
                    if rel[-1] == "__init__":
                        rel = rel[:-1]
                    out.append(".".join(rel))
    return sorted(out)


def project_imports(name):
    """The project modules ``name`` imports (attributes resolved to their module)."""
    path, is_package = module_file(name)
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), path)
    out = set()
    for imported, _ in imported_names(tree, name, is_package):
        if imported.split(".")[0] not in PACKAGES:
            continue
        while imported and module_file(imported) is None:
            imported = imported.rpartition(".")[0]
        if imported:
            out.add(imported)
    return out


@pytest.mark.parametrize("name", [m for m in modules() if room_of(m)])
def test_imports_flow_down(name):
    room = room_of(name)
    allowed = (room,) + ROOMS[room]
    bad = sorted(m for m in project_imports(name)
                 if not any(m == r or m.startswith(r + ".") for r in allowed))
    assert not bad, f"{name} (room {room}) imports {bad}; allowed: {allowed}"


def test_every_room_has_modules():
    for room in ROOMS:
        assert any(room_of(m) == room for m in modules()), room


def test_no_two_modules_import_each_other():
    graph = {m: project_imports(m) for m in modules()}
    pairs = sorted((a, b) for a in graph for b in graph[a]
                   if a < b and a in graph.get(b, ()))
    assert not pairs, f"modules that import each other: {pairs}"


@pytest.mark.parametrize("name", [m for m in modules() if room_of(m) == "scripts.arena"])
def test_arena_neither_parses_arguments_nor_prints(name):
    """The library of games returns values; the commands parse and print."""
    path, _ = module_file(name)
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), path)
    imported = {n for node in ast.walk(tree) if isinstance(node, (ast.Import, ast.ImportFrom))
                for n in ([a.name for a in node.names] if isinstance(node, ast.Import)
                          else [node.module or ""])}
    assert "argparse" not in imported and "scripts.args" not in imported, name
    prints = [node.lineno for node in ast.walk(tree) if isinstance(node, ast.Call)
              and isinstance(node.func, ast.Name) and node.func.id == "print"]
    assert not prints, f"{name} prints on lines {prints}"


# the one module that makes a process pool or reaches Dask: the rest asks it
POOLS = "scripts.arena.pools"
POOL_MAKERS = ("multiprocessing", "concurrent.futures.process",
               "concurrent.futures.ProcessPoolExecutor", "dask", "distributed")


def pool_makers(name):
    """What of :data:`POOL_MAKERS` module ``name`` imports (lazy imports too), or names
    (``ProcessPoolExecutor`` reached as an attribute)."""
    path, _ = module_file(name)
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), path)
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            names |= {node.module} | {f"{node.module}.{a.name}" for a in node.names}
        elif isinstance(node, ast.Attribute) and node.attr == "ProcessPoolExecutor" \
                or isinstance(node, ast.Name) and node.id == "ProcessPoolExecutor":
            names.add("concurrent.futures.ProcessPoolExecutor")
    return sorted(n for n in names
                  if any(n == m or n.startswith(m + ".") for m in POOL_MAKERS))


def test_only_the_pools_module_makes_process_pools_or_reaches_dask():
    """``--workers N`` and ``--dask ADDRESS`` end in one module: where a pool's start
    method (fork before JAX starts) and the cluster's checks are decided once."""
    assert pool_makers(POOLS), "the rule reads nothing: the pools module itself not seen"
    found = {m: pool_makers(m) for m in modules() if m != POOLS}
    assert {m: n for m, n in found.items() if n} == {}
