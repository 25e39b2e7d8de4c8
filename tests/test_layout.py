"""The package runs from an installed wheel: its code outside ``tests/`` never reads
``tests/data`` and never works out the checkout's root from a file's location, and the
package data it reads (through :func:`agents.resources.data_path`, the one reader) are
declared in ``pyproject.toml``'s package-data, so that a wheel ships them.

Read from the sources (the AST, docstrings left out): no process is started."""
import ast
import fnmatch
import os
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
