"""The ``connectx`` command and the shared argument layer: every subcommand documents
every flag, rejects bad input with one line and exit status 2 (no traceback), and
names the extra to install when an optional dependency is missing."""
import importlib
import json
import os
import subprocess
import sys
import tomllib

import pytest

import agents
from conftest import ROOT, cli_error_line
from scripts import args as cli_args
from scripts import cli
from scripts.arena.match import MatchResult, match
from scripts.arena.specs import parse_spec
from scripts.args import parse_options
from scripts.arena.tournament import tournament
from submission import build as bld


def leaves():
    """(prog, module) of every runnable command in the dispatch table."""
    return [(prog, module) for prog, module, _ in cli.leaves()]


def own_commands():
    """(prog, module, word) of every command a command reads itself (``connectx lessons
    tree``: its ``OWN_COMMANDS``)."""
    return [(prog, module, word) for prog, module in leaves()
            for word in getattr(importlib.import_module(module), "OWN_COMMANDS", ())]


# ---------------------------------------------------------------------------
# Help
# ---------------------------------------------------------------------------


def test_connectx_help_lists_the_subcommands(capsys):
    assert cli.main(["--help"]) == 0
    out = capsys.readouterr().out
    for name in ("match", "tournament", "play", "solve", "build", "validate", "fuzz", "bench"):
        assert f"\n  {name} " in out


class Captured(Exception):
    pass


OTHER_SCRIPTS = ["scripts.tools.compare_heuristics",
                 "scripts.tools.make_book", "scripts.tools.playout_book",
                 "scripts.tools.balanced_suites", "scripts.tools.golden", "scripts.tools.suite_time",
                 "scripts.tools.reference_pages"]


@pytest.mark.parametrize("prog, module, word",
                         [(prog, module, None) for prog, module in leaves()]
                         + own_commands() + [(None, m, None) for m in OTHER_SCRIPTS])
def test_every_flag_has_help_and_usage_shows_how_it_is_run(prog, module, word, monkeypatch):
    """The parser a command builds, caught at parse time: every argument has a help
    text and ``usage:`` names the command as typed."""
    def capture(self, *a, **k):
        raise Captured(self)

    monkeypatch.setattr(cli_args.ArgumentParser, "parse_args", capture)
    main = importlib.import_module(module).main
    argv = [word] if word else []
    with pytest.raises(Captured) as exc:
        main(argv, prog=prog) if prog else main(argv)
    parser = exc.value.args[0]
    assert parser.prog == (f"{prog} {word}" if word else prog or f"python -m {module}")
    undocumented = [a.dest for a in parser._actions if not a.help]
    assert undocumented == []


# ---------------------------------------------------------------------------
# Bad input: exit 2, one line, no traceback (in this process, and a few in real ones)
# ---------------------------------------------------------------------------

BAD_INPUT = [
    ([], "a command is required"),
    (["frobnicate"], "unknown command 'frobnicate'"),
    (["match", "nosuch", "random"], "unknown agent 'nosuch'"),
    (["match", "random", "random", "--config", "rows=6,columns=7,inarow=4,speed=2"], "speed"),
    (["tournament", "random", "onestep", "--config", "rows=0", "--quiet"], "rows"),
    (["play", "minimax:depth"], "malformed option 'depth'"),
    (["play", "random", "--config", "inarow=x"], "inarow"),
    (["solve", "--config", "rows=x"], "config.rows must be an integer"),
    (["solve", "--config", "rows=20,columns=20"], "connectx solve: error:"),
    (["build", "--agent", "nosuch"], "build failed"),
    (["validate", "/nonexistent/main.py"], "no such file"),
    (["fuzz", "--agents", "minimax:dpth=2", "--games", "1"], "dpth"),
    (["bench", "search", "--positions", "0"], "--positions"),
    (["bench", "solver", "--files", "nope"], "--files"),
    (["bench", "solver", "--lines", "8"], "--lines '8'"),
    (["bench", "solver", "--lines", "4", "--rounds", "0"], "--rounds"),
    (["bench", "mcts", "--seconds", "x"], "--seconds"),
    (["bench", "mcts", "--seconds", "nan"], "--seconds: expected a number > 0, got 'nan'"),
    (["blunders", "games.json", "--seconds", "0"], "--seconds: expected a number > 0, got '0'"),
    (["bench", "value", "--label", "g.json", "--seconds", "-1"], "expected a number > 0"),
    (["bench", "match", "--games", "0"], "--games"),
    (["bench", "match", "random", "nosuch"], "unknown agent 'nosuch'"),
    (["bench", "match", "--config", "rows=0"], "rows"),
    (["bench", "load", "--agent", "nosuch"], "unknown agent 'nosuch'"),
    (["bench"], "a command is required"),
    (["blunders", "/nonexistent/games.json"], "cannot read it"),
]


def run_cli(argv):
    """``connectx argv`` in a fresh process (a ``Popen``: see :func:`check_one_line`)."""
    code = ("import sys\n"
            "from scripts.cli import main\n"
            f"sys.exit(main({list(argv)!r}))\n")
    return subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def check_one_line(proc, words):
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 2, (out, err)
    assert "Traceback" not in err, err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("connectx"), err
    assert words in lines[0], err


@pytest.mark.parametrize("argv, words", BAD_INPUT)
def test_each_subcommand_rejects_bad_input_with_one_line(argv, words, capsys):
    """In this process (a fresh one per case cost ~0.45 s of CPU each, mostly imports):
    ``main`` returns or exits with 2, and stderr is one line naming the problem; an
    exception other than ``SystemExit`` fails the test (it would be a traceback)."""
    line = cli_error_line(argv, capsys)
    assert line.startswith("connectx") and words in line, line


def test_bad_input_exits_2_with_one_line_in_a_real_process():
    """The same through the interpreter's exit, for a few cases (all at once: each
    process mostly waits for its imports)."""
    cases = [BAD_INPUT[i] for i in (0, 2, 7, 10, 20)]
    procs = [(run_cli(argv), words) for argv, words in cases]
    for proc, words in procs:
        check_one_line(proc, words)


MISSING = [
    (["match", "negamax", "random"], ["kaggle_environments"], "connectx-search[games]"),
    (["match", "random", "random", "--replay", "r.html"], ["kaggle_environments"],
     "connectx-search[games]"),
    (["tournament", "random", "onestep", "--out", "/nonexistent/t"], ["matplotlib"],
     "connectx-search[games]"),
    (["match", "random", "random", "--dask", "tcp://127.0.0.1:1", "--quiet"], ["distributed"],
     "connectx-search[cluster]"),
    (["validate", os.path.join(ROOT, "README.md")], ["kaggle_environments"],
     "connectx-search[games]"),
]

# Each case of argv[1] (JSON: [argv, block]) in turn: the modules in ``block`` and all
# their submodules out of sys.modules and made unimportable (as if not installed), then
# ``connectx argv``, then unblocked; prints [exit status, stderr] a case as one JSON line.
RUN_MISSING = r"""
import contextlib, io, json, sys, traceback
from scripts.cli import main
out = []
for argv, block in json.loads(sys.argv[1]):
    for m in block:
        for name in [n for n in sys.modules if n == m or n.startswith(m + ".")]:
            del sys.modules[name]
        sys.modules[m] = None
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        try:
            status = main(argv)
        except SystemExit as exc:
            status = exc.code
        except Exception:
            status = None
            traceback.print_exc()
    for m in block:
        del sys.modules[m]
    out.append([status, err.getvalue()])
print(json.dumps(out))
"""


def test_missing_optional_dependency_names_the_extra():
    """Every case in one process (a process a case cost ~0.75 s of CPU, mostly imports):
    each exits 2 with one line naming the extra to install."""
    cases = json.dumps([[argv, block] for argv, block, _ in MISSING])
    proc = subprocess.run([sys.executable, "-c", RUN_MISSING, cases], cwd=ROOT, text=True,
                          stdin=subprocess.DEVNULL, capture_output=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    results = json.loads(proc.stdout.splitlines()[-1])
    for (argv, block, words), (status, err) in zip(MISSING, results, strict=True):
        assert status == 2 and "Traceback" not in err, (argv, err)
        lines = err.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("connectx"), (argv, err)
        assert words in lines[0], (argv, err)


# ---------------------------------------------------------------------------
# A reader that stops early (connectx ... | head)
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("argv, buffered", [
    (["blunders", os.path.join("tests", "data", "records", "full_column.txt")], False),
    (["blunders", os.path.join("tests", "data", "records", "full_column.txt")], True),
    (["--help"], True)])
def test_a_closed_pipe_ends_the_command_quietly(argv, buffered):
    """stdout's reader closes the pipe before the command writes (what ``| head -1``
    does to a longer output, without the race): exit status 141 and no traceback.
    Unbuffered (``PYTHONUNBUFFERED``), the pipe error comes inside the command's own
    ``print``; buffered (Python's default for a pipe), at the entry point's flush."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    if not buffered:
        env["PYTHONUNBUFFERED"] = "1"
    proc = subprocess.Popen([sys.executable, "-m", "scripts.cli", *argv], cwd=ROOT, env=env,
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    proc.stdout.close()  # before the child has imported anything: every write fails
    err = proc.stderr.read()
    status = proc.wait(timeout=120)
    assert "Traceback" not in err and "BrokenPipe" not in err and "Broken pipe" not in err, err
    assert status == cli.BROKEN_PIPE, (status, err)


# ---------------------------------------------------------------------------
# Start-up: the heavy optional modules load only for the work that needs them
# ---------------------------------------------------------------------------

# imported by no command's start: jax (learn's training), kaggle-environments (kaggle's
# built-in agents, replays, validation: about 1.6 s of CPU with extras.skip_iri_grammar)
# and matplotlib (charts); the server, by no command but serve
HEAVY = ("jax", "kaggle_environments", "matplotlib", "scripts.server")
HEAVY_ALLOWED = {"connectx serve": ("scripts.server",)}

# In one fresh process: import scripts.cli, then `connectx --help` and each command's
# --help (those allowed a heavy module last), each followed by one JSON line [prog, the
# heavy modules loaded so far].
RUN_HELPS = r"""
import contextlib, io, json, sys
HEAVY = json.loads(sys.argv[1])
def loaded():
    return sorted(m for m in HEAVY if m in sys.modules)
from scripts.cli import main
print(json.dumps(["import scripts.cli", loaded()]))
for prog in json.loads(sys.argv[2]):
    argv = prog.split()[1:] + ["--help"]
    with contextlib.redirect_stdout(io.StringIO()):
        try:
            main(argv)
        except SystemExit:
            pass
    print(json.dumps([prog, loaded()]))
"""


def test_no_command_loads_jax_kaggle_or_matplotlib_to_start():
    """``connectx --help`` and every command's ``--help`` in a fresh process load none
    of :data:`HEAVY` (the server only for ``connectx serve``): an eager import of one of
    them at a module's top, anywhere on a command's path, fails here."""
    progs = ["connectx"] + sorted((prog for prog, _ in leaves()),
                                  key=lambda prog: prog in HEAVY_ALLOWED)
    proc = subprocess.run([sys.executable, "-c", RUN_HELPS, json.dumps(HEAVY),
                           json.dumps(progs)], cwd=ROOT, text=True, stdin=subprocess.DEVNULL,
                          capture_output=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    lines = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [prog for prog, _ in lines] == ["import scripts.cli"] + progs
    for prog, heavy in lines:
        assert set(heavy) <= set(HEAVY_ALLOWED.get(prog, ())), (prog, heavy)


# ---------------------------------------------------------------------------
# One value parser, one entry point
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("text, value", [
    ("3", 3), ("007", 7), ("1_000", 1000), ("-0.5", -0.5), ("TRUE", True), ("none", None),
    ("threats", "threats"), ("'3'", "3"), ('"a b"', "a b"),
])
def test_one_value_parser_for_specs_and_the_bundler(text, value):
    assert parse_options(f"k={text}", "test") == {"k": value}
    assert bld.parse_option(f"k={text}") == ("k", value)


@pytest.mark.parametrize("text", ["k=[1, 2]", "k=(1, 2)", "k=1j", "2k=1", "k="])
def test_value_parser_rejects_other_literals_and_bad_keys(text):
    with pytest.raises(ValueError):
        parse_options(text, "test")
    with pytest.raises(bld.BuildError):
        bld.parse_option(text)


def test_console_entry_point_is_the_dispatcher():
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as f:
        project = tomllib.load(f)["project"]
    module, _, name = project["scripts"]["connectx"].partition(":")
    assert getattr(importlib.import_module(module), name) is cli.main


# ---------------------------------------------------------------------------
# Notebook API
# ---------------------------------------------------------------------------


def test_match_takes_agent_callables_and_returns_a_result_object():
    def first_legal(obs, config):
        return next(c for c in range(config.columns) if obs.board[c] == 0)

    onestep = agents.make("onestep", seed=1)
    r = match(onestep, first_legal, games=4, cfg="rows=5,columns=6,inarow=4", progress=False)
    assert isinstance(r, MatchResult)
    games, summary = r  # still unpacks as before
    assert summary["agents"] == [type(onestep).__name__, "first_legal"]
    assert summary["wins"] + summary["draws"] + summary["losses"] == 4
    assert r.config.columns == 6 and "W-D-L" in str(r)
    assert repr(r).startswith(f"MatchResult({type(onestep).__name__} vs first_legal: W-D-L ")
    with pytest.raises(ValueError, match="this process only"):
        match(first_legal, "random", games=2, workers=2, progress=False)


def test_tournament_takes_callables_and_reads_as_attributes():
    def leftmost(obs, config):
        return next(c for c in range(config.columns) if obs.board[c] == 0)

    t = tournament([leftmost, "onestep"], games=2, cfg="rows=4,columns=5,inarow=3",
                   progress=False)
    assert t.names == ["leftmost", "onestep"] and t["names"] == t.names
    assert len(t.results) == 2 and t.played[0, 1] == 2


def test_callable_spec_is_played_as_is():
    fn = agents.make("random", seed=3)
    spec = parse_spec(fn)
    assert spec.kind == "callable" and spec.name is fn


def test_fuzz_takes_agent_specs():
    import io
    from scripts.commands import fuzz
    report = fuzz.run(["minimax:depth=2"], None, games=3, seconds=None, seed=1, max_side=6,
                      out=io.StringIO(), act_timeouts=(1.0,))
    assert list(report) == ["minimax:depth=2"]
    r = report["minimax:depth=2"]
    assert r["games"] == 3 and sum(r[s] for s in fuzz.STATUSES) == 0
