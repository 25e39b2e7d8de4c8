"""One word a thing (issue 53): a module basename stands in one room, a class name is
defined once, the scripts build Kaggle's ``obs`` in one place. Read from the source with
``ast``; nothing is imported.

A command or a benchmark may share the basename of the module it runs
(``scripts/commands/match.py`` runs ``scripts/arena/match.py``, ``connectx bench NAME``
is ``scripts/bench/NAME.py``): those two folders are the allowed namesakes.
"""
import ast
import os
from collections import defaultdict

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOPS = ("agents", "heuristics", "scripts", "submission")
NAMESAKE_FOLDERS = (os.path.join("scripts", "commands"), os.path.join("scripts", "bench"))
# Class names still defined twice, each with the folder that owns the rename. An entry
# that is no longer a duplicate fails the test, so the list only shrinks.
PENDING_CLASSES = {"Plan": "scripts/learn (teacher.py, reinforce.py)"}


def module_paths():
    """Every module of the package, relative to the repository root."""
    out = []
    for top in TOPS:
        for folder, _, files in os.walk(os.path.join(ROOT, top)):
            out += [os.path.relpath(os.path.join(folder, f), ROOT)
                    for f in sorted(files) if f.endswith(".py")]
    return sorted(out)


def shared_basenames(paths):
    """``{basename: [paths]}`` for basenames that stand in two rooms, the namesakes of
    :data:`NAMESAKE_FOLDERS` not counted (``__init__``/``__main__`` are not names)."""
    rooms = defaultdict(list)
    for p in paths:
        base = os.path.basename(p)
        if base not in ("__init__.py", "__main__.py") \
                and os.path.dirname(p) not in NAMESAKE_FOLDERS:
            rooms[base].append(p)
    return {b: ps for b, ps in rooms.items() if len(ps) > 1}


def classes_defined(paths):
    """``{class name: [path:line, ...]}`` over every class statement of ``paths``."""
    out = defaultdict(list)
    for p in paths:
        with open(os.path.join(ROOT, p), encoding="utf-8") as f:
            tree = ast.parse(f.read(), p)
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                out[node.name].append(f"{p}:{node.lineno}")
    return out


def test_no_module_basename_in_two_rooms():
    assert shared_basenames(module_paths()) == {}


def test_the_namesake_rule_itself():
    """The rule counts two rooms, and only commands and benchmarks are namesakes."""
    paths = ["agents/search/mcts.py", "scripts/bench/mcts.py", "scripts/commands/mcts.py",
             "agents/games/game.py", "scripts/server/game.py", "scripts/tools/x.py"]
    assert shared_basenames(paths) == {"game.py": ["agents/games/game.py",
                                                   "scripts/server/game.py"]}


def test_no_class_name_defined_twice():
    twice = {name: where for name, where in classes_defined(module_paths()).items()
             if len(where) > 1}
    stale = sorted(set(PENDING_CLASSES) - set(twice))
    assert not stale, f"no longer defined twice, drop from PENDING_CLASSES: {stale}"
    new = {name: where for name, where in twice.items() if name not in PENDING_CLASSES}
    assert not new, f"class names defined twice: {new}"


def hand_built_observations(paths):
    """``path:line`` of every Kaggle observation built by hand: a call with a ``board=``
    and a ``mark=`` keyword, or a dict literal with ``"board"`` and ``"mark"`` keys."""
    out = []
    for p in paths:
        with open(os.path.join(ROOT, p), encoding="utf-8") as f:
            tree = ast.parse(f.read(), p)
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                keys = {k.arg for k in node.keywords}
            elif isinstance(node, ast.Dict):
                keys = {k.value for k in node.keys if isinstance(k, ast.Constant)}
            else:
                continue
            if {"board", "mark"} <= keys:
                out.append(f"{p}:{node.lineno}")
    return out


def test_the_scripts_build_kaggles_obs_in_one_place():
    """``agents.players.base.observation`` is the one builder of ``obs`` of the scripts
    and of ``agents/`` (``scripts.arena.specs`` imports it; its environments call agents
    too); ``submission/``, the Kaggle file's own loader, is not scanned."""
    scanned = [p for p in module_paths() if p.startswith(("scripts" + os.sep, "agents" + os.sep))]
    found = hand_built_observations(scanned)
    home = os.path.join("agents", "players", "base.py") + ":"
    assert any(f.startswith(home) for f in found)  # the detector sees the builder itself
    assert [f for f in found if not f.startswith(home)] == []


def identifiers(tree):
    """Every name ``tree`` binds or reads: functions, classes, arguments, variables,
    attributes, keyword arguments and imported names."""
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            yield node.name
        elif isinstance(node, ast.arg):
            yield node.arg
        elif isinstance(node, ast.Name):
            yield node.id
        elif isinstance(node, ast.Attribute):
            yield node.attr
        elif isinstance(node, ast.keyword) and node.arg:
            yield node.arg
        elif isinstance(node, ast.alias):
            yield node.asname or node.name


def test_one_spelling_of_analyze_in_code():
    """Solver.analyze's spelling is the code's (the prose keeps its British one): no
    identifier spells it analyse, analysing or analysed."""
    bad = []
    for path in module_paths():
        with open(os.path.join(ROOT, path), encoding="utf-8") as f:
            tree = ast.parse(f.read(), path)
        bad += [f"{path}: {name}" for name in sorted(set(identifiers(tree)))
                if "analys" in name.lower() and "analysis" not in name.lower()
                and "analyses" not in name.lower()]
    assert not bad, "\n".join(bad)


def module_constants(tree):
    """The UPPER_CASE names ``tree`` assigns at module level."""
    for node in tree.body:
        targets = node.targets if isinstance(node, ast.Assign) else \
            [node.target] if isinstance(node, ast.AnnAssign) else []
        yield from (t.id for t in targets if isinstance(t, ast.Name) and t.id.isupper())


def test_each_time_default_has_a_name_of_its_own():
    """A time constant (its name holds TIME or SECONDS) is defined in one module: the
    server's, the widget's and the benchmark's defaults differ, so their names do too
    (``SERVE_MOVE_TIME`` 2 s, ``WIDGET_MOVE_TIME`` 1 s), and one shared value is
    imported, not written again."""
    homes = defaultdict(list)
    for path in module_paths():
        with open(os.path.join(ROOT, path), encoding="utf-8") as f:
            for name in module_constants(ast.parse(f.read(), path)):
                if "TIME" in name or "SECONDS" in name:
                    homes[name].append(path)
    shared = {name: paths for name, paths in homes.items() if len(paths) > 1}
    assert not shared, shared
