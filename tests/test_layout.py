"""The package runs from an installed wheel: its code outside ``tests/`` never reads
``tests/data`` and never works out the checkout's root from a file's location, and the
package data it reads (through :func:`agents.resources.data_path`, the one reader) are
declared in ``pyproject.toml``'s package-data, so that a wheel ships them.

scripts/ by job (as tests/test_imports.py states the rooms of agents/):

* the libraries (:data:`LIBRARIES`: arena, server, learn, lessons) take plain arguments
  and import no argument parser (argparse, nor the argument layer above them);
* the command layer (:data:`COMMAND_LAYER`: cli.py, args.py, commands/) parses every
  command line: no ``main()`` outside it and the developer instruments;
* the developer instruments (:data:`INSTRUMENTS`: bench/, and the tools that measure,
  record or write the repository's own files) are apart: scripts/tools holds nothing
  else, and they build no path to package data by hand (``data_path`` reads it).

Read from the sources (the AST, docstrings left out): no process is started."""
import ast
import fnmatch
import os
import re
import tomllib

import pytest

from tests.conftest import ROOT

PACKAGES = ("agents", "heuristics", "submission", "scripts")

# Locations derived from a file's place that are not the checkout's root, and why
ALLOWED = {
    # the folder the package is installed in (site-packages from a wheel), compared with
    # the folder another distribution's ``agents`` comes from; nothing is read there
    ("scripts/__init__.py", "HOME"),
}


def sources():
    """``(path relative to ROOT, AST)`` of every module of the packages."""
    for top in PACKAGES:
        for folder, dirs, files in os.walk(os.path.join(ROOT, top)):
            dirs[:] = sorted(d for d in dirs if d != "__pycache__")
            for name in sorted(files):
                if name.endswith(".py"):
                    path = os.path.join(folder, name)
                    with open(path, encoding="utf-8") as f:
                        yield os.path.relpath(path, ROOT).replace(os.sep, "/"), ast.parse(f.read())


def docstrings(tree):
    """The ids of the docstring constants of ``tree``'s module, classes and functions."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) \
                and node.body and isinstance(node.body[0], ast.Expr) \
                and isinstance(node.body[0].value, ast.Constant):
            out.add(id(node.body[0].value))
    return out


def mentions_file(node):
    return any(isinstance(n, ast.Name) and n.id == "__file__" for n in ast.walk(node))


def is_dirname(node):
    return isinstance(node, ast.Call) and (
        isinstance(node.func, ast.Attribute) and node.func.attr == "dirname"
        or isinstance(node.func, ast.Name) and node.func.id == "dirname")


def root_computations(tree):
    """``(line, target)`` of each expression that climbs above the folder of ``__file__``:
    ``dirname(dirname(... __file__ ...))``, ``Path(__file__).parent.parent``,
    ``Path(__file__).parents[...]``; the target is the name assigned, if any."""
    targets = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign):
            names = [t.id for t in node.targets if isinstance(t, ast.Name)]
            for sub in ast.walk(node.value):
                targets[id(sub)] = names[0] if names else None
    found = []
    for node in ast.walk(tree):
        climbs = (is_dirname(node) and node.args and is_dirname(node.args[0])
                  or isinstance(node, ast.Attribute) and node.attr == "parent"
                  and isinstance(node.value, ast.Attribute) and node.value.attr == "parent"
                  or isinstance(node, ast.Attribute) and node.attr == "parents")
        if climbs and mentions_file(node):
            found.append((node.lineno, targets.get(id(node))))
    return sorted(set(found))  # dirname(dirname(dirname(...))) climbs twice on one line


def reads_of_tests_data(tree):
    """Lines of code (not docstrings) that name ``tests/data``: a string holding it, or
    a path joined from ``"tests"`` and ``"data"``."""
    skip = docstrings(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                and id(node) not in skip and "tests/data" in node.value.replace("\\", "/"):
            found.append(node.lineno)
        elif isinstance(node, ast.Call):
            parts = [a.value for a in node.args if isinstance(a, ast.Constant)]
            if "tests" in parts and "data" in parts:
                found.append(node.lineno)
    return found


def test_no_code_outside_tests_reads_tests_data_or_computes_the_root():
    """Neither ``tests/data`` nor a root climbed to from ``__file__`` in the packages'
    code (``ALLOWED`` names the one place that compares its install folder)."""
    bad = []
    for path, tree in sources():
        bad += [f"{path}:{line}: reads tests/data" for line in reads_of_tests_data(tree)]
        bad += [f"{path}:{line}: climbs from __file__ to a root ({target or 'an expression'})"
                for line, target in root_computations(tree) if (path, target) not in ALLOWED]
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("code,found", [
    ("ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))", [(1, "ROOT")]),
    ("x = Path(__file__).parent.parent / 'data'", [(1, "x")]),
    ("x = Path(__file__).resolve().parents[1]", [(1, "x")]),
    ("x = os.path.dirname(os.path.abspath(__file__))", []),
    ("x = os.path.dirname(os.path.dirname(path))", []),
])
def test_root_computations_are_found(code, found):
    assert root_computations(ast.parse(code)) == found


@pytest.mark.parametrize("code,found", [
    ("p = os.path.join(ROOT, 'tests', 'data', 'positions')", [1]),
    ("p = 'tests/data/records/match.json'", [1]),
    ('"""Reads tests/data/positions."""\np = 1', []),
    ("p = os.path.join(ROOT, 'scripts', 'data')", []),
])
def test_reads_of_tests_data_are_found(code, found):
    assert reads_of_tests_data(ast.parse(code)) == found


def package_data():
    """``{package: [glob, ...]}`` of ``pyproject.toml``'s package-data."""
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as f:
        return tomllib.load(f)["tool"]["setuptools"]["package-data"]


def data_reads():
    """``(path, line, package, parts)`` of every ``data_path(...)`` call of the packages
    whose arguments are all string constants."""
    for path, tree in sources():
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and (
                    isinstance(node.func, ast.Name) and node.func.id == "data_path"
                    or isinstance(node.func, ast.Attribute) and node.func.attr == "data_path") \
                    and node.args and all(isinstance(a, ast.Constant) for a in node.args):
                values = [a.value for a in node.args]
                yield path, node.lineno, values[0], values[1:]


def shipped(package, relative, globs):
    """True when the file ``relative`` (to ``package``'s folder) matches a glob of
    ``package``'s package-data."""
    return any(fnmatch.fnmatch(relative, g) for g in globs.get(package, ()))


def test_the_package_data_code_reads_is_declared_in_package_data():
    """Each ``data_path`` call names a file or folder of the checkout, and every file it
    names (a folder: every file in it, README included, that is not Python source) is
    shipped by the package-data globs."""
    globs = package_data()
    reads = list(data_reads())
    assert len(reads) >= 8  # the readers: books, suites, labelled sets, positions, the page
    missing = []
    for path, line, package, parts in reads:
        folder = os.path.join(ROOT, *package.split("."))
        target = os.path.join(folder, *parts)
        if os.path.isdir(target):
            files = [os.path.relpath(os.path.join(d, f), folder).replace(os.sep, "/")
                     for d, _, names in os.walk(target) for f in names
                     if not f.endswith((".py", ".pyc"))]
        elif os.path.isfile(target):
            files = ["/".join(parts)]
        else:
            missing.append(f"{path}:{line}: {package} {'/'.join(parts)} does not exist")
            continue
        missing += [f"{path}:{line}: {package} {f} is not package data"
                    for f in files if not shipped(package, f, globs)]
    assert not missing, "\n".join(missing)


# ---------------------------------------------------------------------------
# scripts/ by job: the libraries, the command layer, the developer instruments
# ---------------------------------------------------------------------------

# the libraries of scripts/: plain arguments in, no argument parser
LIBRARIES = ("scripts/arena/", "scripts/server/", "scripts/learn/", "scripts/lessons/")
# the command layer: the one place that parses a command line
COMMAND_LAYER = ("scripts/cli.py", "scripts/args.py", "scripts/commands/")
# the developer instruments: the benchmarks, and the tools that record the golden moves,
# time the suite, make the books, compare heuristics, pick the balanced suites and write
# the reference pages; each is run as ``python -m`` or ``connectx bench``, so a main()
INSTRUMENT_TOOLS = ("golden.py", "suite_time.py", "make_book.py", "playout_book.py",
                    "compare_heuristics.py", "balanced_suites.py", "reference_pages.py")
INSTRUMENTS = ("scripts/bench/",) + tuple(f"scripts/tools/{n}" for n in INSTRUMENT_TOOLS)
# the modules that parse a command line; ``from scripts import args`` counts too
PARSERS = ("argparse", "scripts.args", "scripts.cli", "scripts.commands")

# Library modules allowed to break the library rule (both rules: an argument parser and
# a main()), each with why. An entry that no longer breaks it fails the test, so that the
# set never outlives its reason.
EXCEPTIONS = {
    # the CleanRL-style example: one file, its settings, loop and command line together,
    # by CleanRL's single-file convention (its docstring says so)
    "scripts/learn/cleanrl_ppo.py",
}


def in_any(path, places):
    """Whether ``path`` is one of ``places`` or in one of their folders (ending in /)."""
    return any(path == p or p.endswith("/") and path.startswith(p) for p in places)


def parsers_imported(tree):
    """``(line, module)`` of each import of an argument parser (:data:`PARSERS`), lazy
    imports inside functions included."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
        else:
            continue
        found += [(node.lineno, n) for n in names
                  if any(n == m or n.startswith(m + ".") for m in PARSERS)]
    return sorted(set(found))


def mains(tree):
    """Lines of the module-level ``def main``."""
    return [node.lineno for node in tree.body
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == "main"]


def test_the_libraries_of_scripts_import_no_argument_parser():
    """arena, server, learn and lessons take plain arguments: neither argparse nor the
    argument layer (scripts.args, nor the cli and commands above it) in their modules
    (:data:`EXCEPTIONS` names the ones allowed, each still needing it)."""
    bad, still = [], set()
    for path, tree in sources():
        if not in_any(path, LIBRARIES):
            continue
        found = parsers_imported(tree)
        if path in EXCEPTIONS:
            still |= {path} if found else set()
        else:
            bad += [f"{path}:{line}: imports {module}" for line, module in found]
    assert not bad, "\n".join(bad)
    assert still == EXCEPTIONS, \
        f"no argument parser any more, remove from EXCEPTIONS: {sorted(EXCEPTIONS - still)}"


def test_no_main_outside_the_command_layer_and_the_instruments():
    """A ``main()`` is a command line: the command layer's and the instruments' only."""
    bad, seen = [], set()
    for path, tree in sources():
        lines = mains(tree)
        if path in EXCEPTIONS:
            seen |= {path} if lines else set()
        elif not in_any(path, COMMAND_LAYER + INSTRUMENTS):
            bad += [f"{path}:{line}: main() outside the command layer and the instruments"
                    for line in lines]
    assert not bad, "\n".join(bad)
    assert seen == EXCEPTIONS, \
        f"no main() any more, remove from EXCEPTIONS: {sorted(EXCEPTIONS - seen)}"


def test_every_module_of_scripts_has_one_job():
    """Each module under scripts/ is a library's, the command layer's or an
    instrument's (a new folder says which it is here)."""
    jobs = LIBRARIES + COMMAND_LAYER + INSTRUMENTS \
        + ("scripts/__init__.py", "scripts/tools/__init__.py")
    loose = [path for path, _ in sources() if path.startswith("scripts/") and not in_any(path, jobs)]
    assert not loose, f"no job: {loose}"


def test_scripts_tools_holds_the_instruments_only():
    """The tools folder is the instruments' (product code lives beside what it serves):
    each of its modules is an instrument, and each listed one exists."""
    tools = {path for path, _ in sources()
             if path.startswith("scripts/tools/") and path != "scripts/tools/__init__.py"}
    instruments = {f"scripts/tools/{n}" for n in INSTRUMENT_TOOLS}
    assert tools - instruments == set(), "not an instrument: move it out"
    assert instruments <= tools, f"listed but gone: {sorted(instruments - tools)}"


def handmade_data_paths(tree):
    """Lines (not docstrings, not help texts) that build a path to a package's data by
    hand: a string naming ``agents/data`` or ``scripts/data``, or ``os.path.join``,
    ``Path`` or ``open`` given a ``"data"`` part."""
    skip = docstrings(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.keyword) and node.arg == "help":
            skip |= {id(n) for n in ast.walk(node.value)}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                and id(node) not in skip \
                and any(d in node.value.replace("\\", "/") for d in ("agents/data", "scripts/data")):
            found.append(node.lineno)
        elif isinstance(node, ast.Call):
            name = node.func.attr if isinstance(node.func, ast.Attribute) else \
                getattr(node.func, "id", None)
            if name in ("join", "Path", "open") and any(
                    isinstance(a, ast.Constant) and a.value == "data" for a in node.args):
                found.append(node.lineno)
    return sorted(set(found))


def test_the_instruments_read_package_data_through_data_path():
    """The benchmarks and tools find the positions, suites, books and labelled sets with
    :func:`agents.resources.data_path` (so they run from a wheel), never by a path of
    their own."""
    bad = []
    for path, tree in sources():
        if in_any(path, INSTRUMENTS):
            bad += [f"{path}:{line}: a path to package data built by hand"
                    for line in handmade_data_paths(tree)]
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("finder,code,found", [
    (parsers_imported, "import argparse", [(1, "argparse")]),
    (parsers_imported, "def f():\n    from scripts.args import ArgumentParser",
     [(2, "scripts.args"), (2, "scripts.args.ArgumentParser")]),
    (parsers_imported, "from scripts import args", [(1, "scripts.args")]),
    (parsers_imported, "from scripts.commands.lessons import main",
     [(1, "scripts.commands.lessons"), (1, "scripts.commands.lessons.main")]),
    (parsers_imported, "from scripts import arena\nimport argparsex", []),
    (mains, "def main(argv=None):\n    return 0", [1]),
    (mains, "class A:\n    def main(self):\n        pass\ndef main_loop():\n    pass", []),
    (handmade_data_paths, "p = os.path.join(HERE, 'data', 'book.bin')", [1]),
    (handmade_data_paths, "p = 'agents/data/book7x6.bin'", [1]),
    (handmade_data_paths, "p = Path(ROOT) / 'scripts/data/positions'", [1]),
    (handmade_data_paths, "ap.add_argument('--file', help='default scripts/data/positions/x.txt')",
     []),
    (handmade_data_paths, "p = data_path('scripts', 'data', 'positions')", []),
    (handmade_data_paths, '"""Reads agents/data/book7x6.bin."""\np = 1', []),
])
def test_the_layout_rules_find_what_they_look_for(finder, code, found):
    assert finder(ast.parse(code)) == found


def test_the_development_guides_layout_names_every_room():
    """docs/development.md's layout names each top-level folder of the packages and each
    folder of agents/ and scripts/ (``  name/`` under its parent): a new room is drawn."""
    with open(os.path.join(ROOT, "docs", "development.md"), encoding="utf-8") as f:
        page = f.read()
    block = page.split("## Layout", 1)[1].split("```", 2)[1]
    drawn = set(re.findall(r"^(\S+/)", block, re.M))
    for top in ("agents", "scripts"):
        parent = None
        for line in block.splitlines():
            if not line.startswith(" "):
                parent = line.split()[0] if line.strip() else None
            elif parent == f"{top}/" and re.match(r"^  (\S+/)", line):
                drawn.add(top + "/" + line.split()[0])
    folders = {f"{top}/" for top in PACKAGES + ("tests", "docs")}
    folders |= {f"{top}/{d}/" for top in ("agents", "scripts")
                for d in os.listdir(os.path.join(ROOT, top))
                if os.path.isdir(os.path.join(ROOT, top, d)) and d != "__pycache__"}
    assert sorted(folders - drawn) == []
