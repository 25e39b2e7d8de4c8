"""The submission bundler (``submission.build``, ``connectx build``): options, and what
goes into the file (the package's own source, ``agent`` last, the import graph,
resources). The generated file's runtime is tested in ``test_submission_runtime.py``,
``validate`` in ``test_validate.py``.
"""
import ast
import sys

import pytest

from conftest import write_package
from scripts.commands.build import main as build_main
from submission import build as bld


# ---------------------------------------------------------------------------
# Options
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("text, expected", [
    ("depth=6", ("depth", 6)), ("time_limit=1.5", ("time_limit", 1.5)),
    ("use_overage=true", ("use_overage", True)), ("tactics=False", ("tactics", False)),
    ("depth=None", ("depth", None)), ("heuristic=threats", ("heuristic", "threats")),
    (" seed = 3 ", ("seed", 3)), ("name='a b'", ("name", "a b")),
])
def test_parse_option(text, expected):
    assert bld.parse_option(text) == expected


@pytest.mark.parametrize("text", ["depth", "=3", "2x=1", "depth=[1, 2]"])
def test_parse_option_rejects(text):
    with pytest.raises(bld.BuildError):
        bld.parse_option(text)


def test_unknown_options_fail_the_build_naming_them(tmp_path, capsys):
    out = tmp_path / "main.py"
    rc = build_main(["--agent", "alphabeta", "--option", "depht=6", "--option", "speed=9",
                   "--output", str(out)])
    err = capsys.readouterr().err
    assert rc == 2 and not out.exists()
    assert "depht" in err and "speed" in err and "build failed" in err


@pytest.mark.parametrize("args, word", [
    (["--agent", "alphabeta", "--option", "depth=0"], "depth"),
    (["--agent", "alphabeta", "--option", "heuristic=nope"], "nope"),
    (["--agent", "no_such_agent"], "no_such_agent"),
    (["--agent", "minimax", "--option", "depth"], "key=value"),
])
def test_bad_build_arguments_fail_with_a_message(tmp_path, capsys, args, word):
    out = tmp_path / "main.py"
    assert build_main(args + ["--output", str(out)]) == 2
    assert word in capsys.readouterr().err and not out.exists()


def test_build_without_checking_options_still_rejects_unknown_agents():
    # minimax's SUBMISSION_OPTIONS (line=False, warmup=background) join the options given
    assert bld.build("minimax", {"depth": 2}, check_options=False).options == {
        "line": False, "warmup": "background", "depth": 2}
    with pytest.raises(bld.BuildError, match="nope"):
        bld.build("nope", check_options=False)


def test_unwritable_output_fails_the_build(tmp_path, capsys):
    out = tmp_path / "no_such_dir" / "main.py"
    assert build_main(["--agent", "minimax", "--output", str(out)]) == 2
    assert "cannot write" in capsys.readouterr().err


# ---------------------------------------------------------------------------
# What goes into the file
# ---------------------------------------------------------------------------


def test_alphabeta_bundle_is_the_package_source(tmp_path, capsys):
    out = tmp_path / "main.py"
    assert build_main(["--agent", "alphabeta", "--option", "depth=7", "--output", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "size:" in printed and "agents.search" in printed
    text = out.read_text()
    assert text == bld.build("alphabeta", {"depth": 7}).text  # deterministic
    modules = {}
    for node in ast.parse(text).body:  # _MODULES['name'] = (is_package, source)
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Subscript) \
                and node.targets[0].value.id == "_MODULES":
            modules[node.targets[0].slice.value] = ast.literal_eval(node.value)
    for name in ("agents", "agents.board.jit", "agents.board.rules", "agents.players.base",
                 "agents.search.alphabeta", "agents.players.lookahead", "heuristics",
                 "heuristics.threats"):
        assert name in modules
    for name, (is_package, source) in modules.items():
        path, package = bld.module_file(name)
        assert package == is_package
        with open(path, encoding="utf-8") as f:
            assert source == f.read(), f"{name} differs from the package source"


def test_generated_file_ends_with_agent_and_exec_has_no_side_effects(tmp_path):
    text = bld.build("minimax").text
    bld.check_last_callable(text)
    def package_state():
        return list(sys.meta_path), {k: v for k, v in sys.modules.items()
                                     if k.split(".")[0] in bld.PACKAGES}
    before = package_state()
    env = {}
    exec(compile(text, "main.py", "exec"), env)
    assert [v for v in env.values() if callable(v)][-1] is env["agent"]
    assert package_state() == before  # nothing is installed until agent() is called
    with pytest.raises(bld.BuildError, match="def agent"):
        bld.check_last_callable(text + "\ndef helper():\n    pass\n")
    with pytest.raises(bld.BuildError, match="def agent"):
        bld.check_last_callable(text + "\nhelper = print\n")


@pytest.mark.parametrize("text", [
    "plain", "", "a'b", "ends with '", "'''", 'x = """doc"""\n', "back\\slash\\n",
    "tab\there\n", "\r\n", "é ü", "''''", "\\'''",
])
def test_text_literal_round_trips(text):
    assert ast.literal_eval(bld.text_literal(text)) == text


def test_import_graph(tmp_path):
    write_package(tmp_path, {
        "pkg/__init__.py": "from .core import run\n",
        "pkg/core.py": """
            import numpy as np
            from . import tables
            from .util import helper as h
            def run():
                from pkg.lazy import late  # lazy imports count too
                return late()
        """,
        "pkg/tables.py": "X = 1\n",
        "pkg/util.py": "import math\ndef helper():\n    return 1\n",
        "pkg/lazy.py": "def late():\n    return 2\n",
        "pkg/unused.py": "import os\n",
        "pkg/sub/__init__.py": "",
        "pkg/sub/deep.py": "from ..util import helper\nfrom .. import tables\n",
    })
    modules, external = bld.collect_modules(["pkg.core"], str(tmp_path), ("pkg",))
    assert list(modules) == ["pkg", "pkg.core", "pkg.lazy", "pkg.tables", "pkg.util"]
    assert modules["pkg"][0] is True and modules["pkg.core"][0] is False
    assert external == ["math", "numpy"]
    modules, _ = bld.collect_modules(["pkg.sub.deep"], str(tmp_path), ("pkg",))
    assert {"pkg.sub", "pkg.sub.deep", "pkg.util", "pkg.tables"} <= set(modules)


@pytest.mark.parametrize("source, message", [
    ("from .missing import x\n", "pkg.missing"),
    ("import pkg.gone\n", "pkg.gone"),
    ("from numba import njit\n@njit(cache=True)\ndef f():\n    pass\n", "cache=True"),
    ("import requests\n", "requests"),
    ("import scripts.bench.search\n", "scripts"),
    ("def f(:\n", "does not parse"),
])
def test_import_graph_rejects(tmp_path, source, message):
    write_package(tmp_path, {"pkg/__init__.py": "", "pkg/mod.py": source})
    with pytest.raises(bld.BuildError, match=message.replace(".", r"\.")):
        bld.collect_modules(["pkg.mod"], str(tmp_path), ("pkg",))


def test_resources(tmp_path):
    class Player:
        RESOURCES = ("book.bin",)
    assert bld.agent_resources(Player()) == ("book.bin",)
    assert bld.agent_resources(object()) is None
    data = tmp_path / "data"
    data.mkdir()
    for name in ("book.bin", "other.bin", ".keep"):
        (data / name).write_bytes(b"x")
    modules = {"pkg.a": (False, 'BOOK = "book.bin"\nNOTE = ".keep"\n'),
               "pkg.b": (False, 'def f():\n    return "book.bin", "missing.bin"\n')}
    assert bld.named_resources(modules, str(data)) == {"book.bin": ["pkg.a", "pkg.b"]}
    # undeclared: what the modules name; declared: exactly that (even nothing)
    assert bld.choose_resources(object(), modules, str(data))[0] == ("book.bin",)
    Player.RESOURCES = ()
    assert bld.choose_resources(Player(), modules, str(data)) == (
        (), "declared by Player.RESOURCES")
    Player.RESOURCES = ("other.bin",)
    assert bld.choose_resources(Player(), modules, str(data))[0] == ("other.bin",)
    Player.RESOURCES = "book.bin"
    with pytest.raises(bld.BuildError, match="tuple of file names"):
        bld.agent_resources(Player())
    with pytest.raises(bld.BuildError, match="nope.bin"):
        bld.load_resources(("nope.bin",), str(tmp_path))
    with pytest.raises(bld.BuildError, match="not found"):
        bld.load_resources(("../main.py",), str(tmp_path))
