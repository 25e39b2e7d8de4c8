"""Every ``connectx`` command from the built wheel, installed as ``pip install .`` installs
it (not editable), run in a folder outside the checkout.

The wheel is built once for the module from a copy of the distribution's files, with this
environment's setuptools (offline), into a fresh virtual environment that sees this
environment's site-packages for the dependencies (``tests/test_install.py``'s helpers);
its ``connectx`` is the console script pip would write. Each command is one fresh process
at its smallest size, without PYTHONPATH: what it reads must be the wheel's package data.
The default run checks the wheel's contents; running the commands (about 20 fresh processes
for the light ones, 40 s of CPU, and those that import JAX or kaggle-environments' whole
game set and play: learn, bench zero, mcts, env, levels, warmup's strength) are end-to-end
tests (``-m e2e``).
"""
import json
import os
import subprocess
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.test_install import build, distribution_copy, environment, install, \
    skip_without_builder

# (argv, stdin, text the output must hold); files are written to the run's folder.
# The end position is the first line of scripts/data/positions/end.txt (score -7).
END = "12332365265661174712777667"
COMMANDS = [
    (["match", "onestep", "random", "--games", "2", "--quiet", "--out", "m.json"], None,
     "games written to m.json"),
    (["tournament", "onestep", "random", "--games", "1", "--no-plot", "--quiet", "--out", "t"],
     None, "t/crosstable.csv"),
    (["solve", "--no-database"], END + "\n", END + " -7 "),
    (["score", "onestep", "--quiet"], None, "all       1000"),  # the shipped labelled set
    (["blunders", "3322", "--config", "rows=4,columns=5,inarow=3", "--seconds", "1",
      "--threads", "1", "--quiet"], None, "4 moves judged"),
    (["validate", "main.py", "--games", "self", "--min-overage", "0"], None, "1/1 games passed"),
    (["dataset", "--config", "rows=4,columns=5,inarow=3", "--positions", "4", "--out", "d.npz",
      "--quiet", "--no-database"], None, "d.npz: 4 positions"),
    (["lessons", "coin-game", "--quick"], None, "reproduce: connectx lessons coin-game"),
    (["bench", "search", "--only", "ablation", "--depth", "1", "--positions", "1", "--quiet"],
     None, "quiescence (default)"),
    (["bench", "solver", "--files", "end", "--tt-bits", "16"], None, "end    ours       200     0"),
    (["bench", "match", "random", "onestep", "--games", "2", "--workers", "2"], None, "workers"),
    (["bench", "load", "--agent", "onestep", "--moves", "5", "--hogs", "1", "--quiet"], None,
     "0 over"),
    (["bench", "value", "onestep", "--limit", "5", "--quiet"], None, "value kept"),  # games.txt
    (["bench", "perfect", "--limit", "2", "--quiet"], None, "early.txt: 2/2"),
    (["bench", "analysis", "--positions", "2", "--baseline", "0", "--quiet"], None,
     "295/295 equal to their labels"),  # analysis.txt
    (["bench", "judge", "--games", "1", "--threads", "1", "--quiet"], None, "judged 1 42-move"),
    (["bench", "serve", "--clients", "1", "--requests", "2", "--seconds", "5", "--endpoints",
      "state", "--searches", "1", "--queue", "1"], None, "0 request(s) failed"),
]
# the heavy ones (-m e2e), after dataset: learn's network is bench zero's kept network
HEAVY = [
    (["learn", "--config", "rows=4,columns=5,inarow=3", "--positions", "50", "--steps", "5",
      "--eval-games", "2", "--workers", "1", "--quiet", "--out", "run"], None, "run/net.npz"),
    (["bench", "zero", "zrun", "--simulations", "2", "--positions", "2", "--games", "1",
      "--opponents", "random", "--workers", "1", "--eval-set", "d.npz", "--quiet"], None,
     "load average"),
    (["bench", "mcts", "--seconds", "0.1"], None, "network evaluations"),
    (["bench", "env", "--tiny"], None, "load average"),
    (["bench", "levels", "--levels", "0,1", "--games", "1", "--workers", "1", "--time", "0.05",
      "--score-positions", "5", "--probes", "0", "--quiet"], None, "load average"),
    (["bench", "warmup", "--section", "strength", "--agents", "random", "--games", "1"], None,
     "random file vs negamax"),
]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    """``(connectx, python)`` of a fresh environment holding the built wheel."""
    skip_without_builder()
    base = tmp_path_factory.mktemp("wheel")
    source = distribution_copy(str(base / "source"))
    python, own = environment(str(base / "venv"))
    install(build(python, "build_wheel", source, str(base / "dist")), own,
            os.path.dirname(python))
    return os.path.join(os.path.dirname(python), "connectx"), python


def connectx(program, argv, cwd, stdin=None, timeout=300):
    """``connectx ARGV`` in ``cwd`` without PYTHONPATH: the finished process."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    return subprocess.run([program, *argv], cwd=cwd, env=env, input=stdin,
                          capture_output=True, text=True, timeout=timeout)


def check(program, cwd, command):
    argv, stdin, expect = command
    done = connectx(program, argv, cwd, stdin)
    assert done.returncode == 0 and expect in done.stdout, \
        f"connectx {' '.join(argv)}: exit {done.returncode}\n{done.stdout[-1500:]}\n" \
        f"{done.stderr[-1500:]}"


def test_the_wheel_holds_the_package_and_its_data(wheel, tmp_path):
    """The modules come from the environment's site-packages, never the checkout, and the
    package data the commands read are there."""
    program, python = wheel
    code = ("import json, agents, scripts\nfrom agents.resources import data_path\n"
            "print(json.dumps({'agents': agents.__file__, 'scripts': scripts.__file__, "
            "'data': [data_path(*p).is_file() for p in (('agents', 'data', 'book7x6.bin'), "
            "('scripts', 'data', 'labelled', '7x6.npz'), ('scripts', 'data', 'suites', "
            "'balanced4.txt'), ('scripts', 'data', 'positions', 'early.txt'), "
            "('scripts', 'data', 'positions', 'games.txt'), ('scripts.server', 'web', "
            "'index.html'))]}))")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run([python, "-c", code], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    found = json.loads(done.stdout)
    site = os.path.dirname(os.path.dirname(found["agents"]))
    assert site.endswith("site-packages") and found["scripts"].startswith(site)
    assert all(found["data"]), found["data"]


@pytest.mark.e2e
@pytest.mark.slow
def test_every_command_runs_from_the_wheel_outside_the_checkout(wheel, tmp_path):
    """build first (validate plays its file), then the commands and benchmarks of
    :data:`COMMANDS` two at a time, then serve answers its page and a position; bench
    warmup's cold section, which builds its baseline from a git checkout, says so in one
    line (exit 2)."""
    pytest.importorskip("kaggle_environments")
    program, _ = wheel
    check(program, tmp_path, (["build", "--agent", "onestep", "--out", "main.py"], None,
                              "modules"))
    with ThreadPoolExecutor(2) as pool:
        for future in [pool.submit(check, program, tmp_path, c) for c in COMMANDS]:
            future.result()
    assert (tmp_path / "t" / "crosstable.csv").is_file() and (tmp_path / "d.npz").is_file()
    cold = connectx(program, ["bench", "warmup", "--section", "cold", "--agents", "random"],
                    tmp_path)
    assert cold.returncode == 2 and len(cold.stderr.splitlines()) == 1, cold.stderr
    assert "git checkout" in cold.stderr
    serve(program, tmp_path)


def serve(program, cwd):
    """``connectx serve`` on a free port: its page (package data) and a position's state."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    proc = subprocess.Popen([program, "serve", "--port", "0", "--no-warm-up", "--no-database",
                             "--searches", "1"], cwd=cwd, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        first = proc.stdout.readline()
        assert first.startswith("connectx serve: http://"), first + proc.stderr.read()
        url = first.split()[2]
        with urllib.request.urlopen(url, timeout=60) as page:
            assert b"<html" in page.read().lower()
        request = urllib.request.Request(url + "api/state", method="POST",
                                         data=json.dumps({"moves": "4453"}).encode(),
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=60) as answer:
            assert answer.status == 200 and json.load(answer)
    finally:
        proc.terminate()
        proc.wait(timeout=30)


@pytest.mark.e2e
def test_the_heavy_commands_run_from_the_wheel_outside_the_checkout(wheel, tmp_path):
    """A tiny ``learn`` run (JAX), its network as the one kept network of a zero run for
    ``bench zero``, and the benchmarks that import kaggle-environments' games or play
    whole matches, one process each."""
    pytest.importorskip("jax")
    pytest.importorskip("kaggle_environments")
    program, _ = wheel
    check(program, tmp_path, COMMANDS[6])  # dataset: d.npz, bench zero's judge set
    check(program, tmp_path, HEAVY[0])
    (tmp_path / "zrun" / "networks").mkdir(parents=True)
    (tmp_path / "zrun" / "networks" / "iteration-001.npz").write_bytes(
        (tmp_path / "run" / "net.npz").read_bytes())
    for command in HEAVY[1:]:
        check(program, tmp_path, command)
