"""Every module run as ``python -m X`` either does its job or says in one line which
command does (exit status 2).

The modules are found, not listed: every module of ``agents``, ``submission`` and
``scripts`` with an ``if __name__ == "__main__"`` guard (or a package's ``__main__.py``)
is run with ``--help`` and must print its usage (exit 0) or one line on stderr that
names a command (exit 2); a module whose docstring shows how to run it as a command
(an indented ``connectx NAME`` or ``python -m`` itself line) must have such a guard.
"""
import ast
import json
import os
import re
import subprocess
import sys

import pytest

from tests.conftest import ROOT

PACKAGES = ("agents", "submission", "scripts")

# Runs each module given on the command line as ``python -m MODULE --help`` would, in
# this one process (one interpreter start for all: seconds, not a minute), and prints
# {module: [exit status, stdout, stderr]} as JSON.
RUN_ALL = r"""
import contextlib, io, json, runpy, sys, warnings
warnings.filterwarnings("ignore", message=".*found in sys.modules after import of package")
out = {}
for name in sys.argv[1:]:
    so, se = io.StringIO(), io.StringIO()
    sys.argv = [name, "--help"]
    status = 0
    with contextlib.redirect_stdout(so), contextlib.redirect_stderr(se):
        try:
            runpy.run_module(name, run_name="__main__", alter_sys=False)
        except SystemExit as e:
            status = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
        except Exception as e:  # a traceback: reported as such
            status, se = 1, io.StringIO(repr(e))
    out[name] = [status, so.getvalue(), se.getvalue()]
sys.__stdout__.write("RESULT " + json.dumps(out) + "\n")
"""


def modules():
    """(module name, has a __main__ guard, docstring) of every module of PACKAGES."""
    found = []
    for package in PACKAGES:
        for folder, dirs, files in os.walk(os.path.join(ROOT, package)):
            dirs[:] = sorted(d for d in dirs if not d.startswith((".", "__")))
            for f in sorted(files):
                if not f.endswith(".py"):
                    continue
                path = os.path.join(folder, f)
                rel = os.path.relpath(path, ROOT)[:-3].replace(os.sep, ".")
                with open(path, encoding="utf-8") as fh:
                    tree = ast.parse(fh.read())
                if rel.endswith(".__main__"):
                    found.append((rel[:-len(".__main__")], True, ast.get_docstring(tree) or ""))
                    continue
                name = rel[:-len(".__init__")] if rel.endswith(".__init__") else rel
                guard = any(isinstance(node, ast.If) and "__main__" in ast.unparse(node.test)
                            for node in tree.body)
                found.append((name, guard, ast.get_docstring(tree) or ""))
    return found


def shows_command(name, doc):
    """True if the docstring shows running this module as a command: an indented line
    ``connectx WORD`` or ``python -m NAME``."""
    return bool(re.search(rf"^\s+(connectx [a-z]|python -m {re.escape(name)}\b)", doc, re.M))


def test_a_module_that_shows_a_command_line_has_a_main_guard():
    """``python -m submission.build`` once exited 0 printing nothing, writing nothing."""
    found = {name: guard for name, guard, _ in modules()}
    # a package's __main__.py makes the package runnable
    missing = [name for name, guard, doc in modules()
               if shows_command(name, doc) and not guard and not found.get(name)]
    assert missing == [], f"documented as commands but do nothing as python -m: {missing}"


@pytest.mark.slow
def test_every_python_m_entry_prints_its_usage_or_the_command_to_run():
    names = sorted({name for name, guard, _ in modules() if guard})
    assert "submission.build" in names and "scripts.cli" in names
    proc = subprocess.run([sys.executable, "-c", RUN_ALL, *names], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)
    lines = [l for l in proc.stdout.splitlines() if l.startswith("RESULT ")]
    assert proc.returncode == 0 and lines, proc.stderr[-3000:]
    results = json.loads(lines[-1][len("RESULT "):])
    bad = {}
    for name, (status, out, err) in results.items():
        if status == 0 and "usage" in out.lower():
            continue  # it does its job: here, printing its usage
        if status == 2 and len(err.strip().splitlines()) == 1 \
                and re.search(r"connectx|python -m", err):
            continue  # one line naming the command that does the job
        bad[name] = [status, out[-300:], err[-300:]]
    assert bad == {}, bad


def test_bench_warmup_rejects_bad_input_in_one_line(capsys, tmp_path, monkeypatch):
    """Unknown agents; ``--section cold`` outside a git checkout (it builds its baseline
    from one; CI runs the suite in an archived copy); a revision the checkout lacks."""
    from tests.conftest import cli_error_line
    cold = ["bench", "warmup", "--section", "cold", "--agents", "random", "--baseline",
            "no-such-revision"]
    assert "unknown agent(s) nope" in cli_error_line(["bench", "warmup", "--agents", "nope"],
                                                      capsys)
    monkeypatch.chdir(tmp_path)  # a temporary folder: no git checkout
    assert "from a git checkout" in cli_error_line(cold, capsys)
    repo = tmp_path / "repo"
    repo.mkdir()
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-C", str(repo)]
    subprocess.run(git + ["init", "-q"], check=True)
    subprocess.run(git + ["commit", "-q", "--allow-empty", "-m", "empty"], check=True)
    monkeypatch.chdir(repo)
    assert "cannot read revision" in cli_error_line(cold, capsys)
