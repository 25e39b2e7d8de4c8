"""scripts.arena.extras: the optional dependencies' check and the skipped IRI grammar."""
import subprocess
import sys

import pytest

from scripts.arena.extras import IRI_GRAMMAR, require, skip_iri_grammar
from tests.conftest import ROOT


def test_a_missing_extra_names_what_to_install(monkeypatch):
    import importlib.util
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None)
    with pytest.raises(ValueError, match=r"pip install 'connectx-search\[cluster\]'"):
        require("distributed", "--dask")


def test_the_command_imports_kaggle_without_the_iri_grammar_and_plays():
    """In a fresh process, after the ``connectx`` entry point has run, kaggle-environments
    imports without building rfc3987_syntax's grammar (3 s of CPU) and its ConnectX
    environment validates its configuration and plays; a module imported before is
    left alone."""
    pytest.importorskip("kaggle_environments")
    code = f"""
import sys
from scripts.cli import main
try:
    main(["--help"])
except SystemExit:
    pass
import kaggle_environments
assert sys.modules.get({IRI_GRAMMAR!r}, "absent") is None, sys.modules.get({IRI_GRAMMAR!r})
env = kaggle_environments.make("connectx", configuration={{"rows": 5, "columns": 6}})
env.run(["random", "random"])
assert env.done and env.configuration.rows == 5
print("ok")
"""
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, timeout=300)
    assert out.returncode == 0 and out.stdout.strip().endswith("ok"), out.stderr[-2000:]


def test_a_grammar_already_imported_is_left_alone(monkeypatch):
    marker = object()
    monkeypatch.setitem(sys.modules, IRI_GRAMMAR, marker)
    skip_iri_grammar()
    assert sys.modules[IRI_GRAMMAR] is marker
