"""The package installed as a user installs it, used from a folder outside the checkout.

A user's script or notebook starts as Kaggle's tutorials do, ``from kaggle_environments
import make``; kaggle-environments then appends the folder of its Lux environment, which
holds an ``agents.py``, to ``sys.path``. The package's ``agents`` must still be the one
imported: from the README's editable install (the package's folder is a path entry,
ahead of the appended folder) and from the built wheel (site-packages). Run from the
checkout's root the bug cannot show (that folder is first on ``sys.path``), so each run
here is a fresh process in a temporary folder, in a temporary environment that holds
only the package's install and sees this environment's site-packages (the dependencies)
through a path entry, as a virtual environment of its own would (it is built offline:
this environment's setuptools builds the wheels, ``setuptools>=77`` of the dev extra).

Where another distribution's module takes one of the package's names (openai-agents
installs a top-level ``agents``), importing the package's tools stops with one line that
names that module's file and exit status 2 (``scripts/__init__.py``).
"""
import json
import os
import re
import shlex
import shutil
import site
import subprocess
import sys
import venv
import zipfile
from importlib import metadata

import pytest

from tests.conftest import ROOT

# the suite's own start-up saving (scripts.arena.extras.skip_iri_grammar), 3 s of CPU a
# process; it touches no import path
PREAMBLE = "import sys; sys.modules.setdefault('rfc3987_syntax', None)\n"

# the README's examples play games on the clock: cut tenfold, the calls stay the same
CLOCKS = {"time_limit=0.5": "time_limit=0.05", "time_limit=0.2": "time_limit=0.02"}

# a Kaggle replay judged through the package's API, after the README's examples (``r``:
# their match)
JUDGE = """
from scripts.arena.judging import judge_games
from scripts.arena.records import parse_records

kind, config, games = parse_records(r.replay(0).toJSON())
judged = judge_games(games, config, seconds=1.0, threads=1)
import scripts
print("RESULT " + json.dumps({"kind": kind, "moves": len(games[0]["moves"]),
      "judged": sum(p["moves"] for p in judged.players.values()),
      "agents": agents.__file__, "scripts": scripts.__file__}))
"""


def readme():
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        return f.read()


def python_blocks(text):
    """The code of every fenced ``python`` block of ``text``, in order."""
    return re.findall(r"^```python\n(.*?)^```$", text, re.S | re.M)


def install_command():
    """The arguments of ``pip install`` in the README's first quick-start command."""
    quick = readme().split("## Quick start", 1)[1]
    first = quick.split("```bash\n", 1)[1].splitlines()[0]
    pip = next(part for part in first.split("&&") if "pip install" in part)
    return shlex.split(pip)[2:]


def config_settings(args):
    """``{key: value}`` of the ``--config-settings``/``-C`` options among ``args``."""
    settings = {}
    for option, value in zip(args, args[1:]):
        if option in ("--config-settings", "-C"):
            key, _, v = value.partition("=")
            settings[key] = v
    return settings


def environment(folder):
    """A new virtual environment in ``folder`` that sees this environment's
    site-packages after its own (a path entry: their ``.pth`` files, this environment's
    own install of the package included, are not run); its interpreter."""
    venv.create(folder, with_pip=False, symlinks=os.name != "nt")
    python = os.path.join(folder, "Scripts" if os.name == "nt" else "bin", "python")
    own = subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                         capture_output=True, text=True, check=True).stdout.strip()
    # this environment's site-packages, and those its own path entries add (never the
    # checkout); "0-" sorts before the package's .pth: the dependencies come first, as
    # they would in one folder
    folders = [p for p in dict.fromkeys(site.getsitepackages() + sys.path)
               if os.path.basename(p) in ("site-packages", "dist-packages")]
    with open(os.path.join(own, "0-dependencies.pth"), "w") as f:
        f.write("\n".join(folders) + "\n")
    return python, own


def build(python, hook, source, out, settings=None):
    """The wheel that setuptools' ``hook`` (``build_editable``, ``build_wheel``) builds
    from ``source``, as pip's build does, with this environment's setuptools."""
    code = ("import sys, json; from setuptools import build_meta; "
            f"print(build_meta.{hook}(sys.argv[1], json.loads(sys.argv[2])))")
    done = subprocess.run([python, "-c", code, out, json.dumps(settings or {})], cwd=source,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    return os.path.join(out, done.stdout.strip().splitlines()[-1])


def install(wheel, site_packages, scripts=None):
    """Install the pure wheel ``wheel`` into ``site_packages`` (what pip does with one)
    and, given the environment's ``scripts`` folder, its console scripts there (pip's
    launcher: the entry point's ``main`` called, its result the exit status)."""
    with zipfile.ZipFile(wheel) as z:
        z.extractall(site_packages)
        names = z.namelist()
    if scripts is None:
        return
    points = next(n for n in names if n.endswith(".dist-info/entry_points.txt"))
    python = os.path.join(scripts, "python")
    section = None
    with open(os.path.join(site_packages, points), encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if line.startswith("["):
                section = line
            elif section == "[console_scripts]" and "=" in line:
                name, _, target = (part.strip() for part in line.partition("="))
                module, _, function = target.partition(":")
                path = os.path.join(scripts, name)
                with open(path, "w") as out:
                    out.write(f"#!{python}\nimport sys\nfrom {module} import {function}\n"
                              f"sys.exit({function}())\n")
                os.chmod(path, 0o755)


def run(python, code, cwd, env=None):
    """``python -c PREAMBLE+code`` in ``cwd``, without PYTHONPATH: the finished process."""
    env = {k: v for k, v in (env or os.environ).items() if k != "PYTHONPATH"}
    return subprocess.run([python, "-c", PREAMBLE + code], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300)


def same_file(a, b):
    return os.path.realpath(a) == os.path.realpath(b)


def result(done):
    assert done.returncode == 0, done.stderr[-3000:]
    line = next(l for l in done.stdout.splitlines() if l.startswith("RESULT "))
    return json.loads(line[len("RESULT "):])


def skip_without_builder():
    """Skips where this environment cannot build the package offline (no dev extra)."""
    try:
        version = metadata.version("setuptools")
    except metadata.PackageNotFoundError:
        version = "0"
    if int(version.split(".")[0]) < 77:
        pytest.skip(f"building the package offline needs setuptools>=77 (the dev extra); "
                    f"this environment has {version}")


@pytest.fixture
def builder():
    skip_without_builder()


def distribution_copy(folder):
    """A copy of the distribution's files in the new ``folder`` (a build writes into its
    source: nothing is written into the checkout); ``folder``."""
    os.makedirs(folder)
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy(os.path.join(ROOT, name), folder)
    for name in ("agents", "heuristics", "submission", "scripts"):
        shutil.copytree(os.path.join(ROOT, name), os.path.join(folder, name),
                        ignore=shutil.ignore_patterns("__pycache__"))
    return folder


def widget_first_cell():
    with open(os.path.join(ROOT, "docs", "notebooks", "widget.ipynb"), encoding="utf-8") as f:
        cells = json.load(f)["cells"]
    return "".join(next(c for c in cells if c["cell_type"] == "code")["source"])


@pytest.mark.slow
def test_readme_examples_run_outside_the_checkout_after_the_readme_install(builder, tmp_path):
    """After the README's install (``pip install -e``, its config settings if any), in a
    folder outside the checkout: the README's Python examples in order (they start with
    ``from kaggle_environments import make``), the widget notebook's first cell and a
    Kaggle replay judged through the package's API, in one fresh process; ``agents`` and
    ``scripts`` are the checkout's."""
    args = install_command()
    assert "-e" in args or "--editable" in args
    python, own = environment(str(tmp_path / "venv"))
    install(build(python, "build_editable", ROOT, str(tmp_path / "dist"),
                  config_settings(args)), own)
    code = "\n".join(python_blocks(readme()))
    assert code.startswith("from kaggle_environments import make\n")
    for clock, cut in CLOCKS.items():
        assert clock in code
        code = code.replace(clock, cut)
    code = "import json\n" + code + "\n" + widget_first_cell() + "\n" + JUDGE
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    found = result(run(python, code, elsewhere))
    assert same_file(found["agents"], os.path.join(ROOT, "agents", "__init__.py"))
    assert same_file(found["scripts"], os.path.join(ROOT, "scripts", "__init__.py"))
    assert found["kind"] == "kaggle" and 7 <= found["moves"] == found["judged"]


@pytest.mark.slow
def test_imports_from_the_built_wheel_outside_the_checkout(builder, tmp_path):
    """A regular install of the built wheel (built from a copy of the distribution's
    files: nothing is written into the checkout), kaggle-environments imported first, in a
    folder outside the checkout: ``agents`` and the widget come from site-packages."""
    source = distribution_copy(str(tmp_path / "source"))
    python, own = environment(str(tmp_path / "venv"))
    install(build(python, "build_wheel", source, str(tmp_path / "dist")), own)
    code = ("import json\nfrom kaggle_environments import make\nimport agents\n"
            "from scripts.server.notebook import widget\n"
            "print('RESULT ' + json.dumps({'agents': agents.__file__, "
            "'move': agents.make('onestep')({'board': [0] * 42, 'mark': 1}, "
            "make('connectx').configuration)}))")
    found = result(run(python, code, tmp_path))
    assert same_file(found["agents"], os.path.join(own, "agents", "__init__.py"))
    assert found["move"] in range(7)


@pytest.mark.parametrize("planted", ["agents/__init__.py", "agents.py"])
@pytest.mark.parametrize("entry", ["connectx", "widget"])
def test_a_foreign_agents_module_stops_with_one_line(tmp_path, planted, entry):
    """A top-level ``agents`` of another distribution ahead of the package (a package as
    openai-agents installs, a module as Lux's folder holds): ``connectx`` (its console
    script's code) and the widget's import print one line naming that module's file and
    the remedy, exit status 2, and never run that module's code."""
    foreign = tmp_path / "foreign"
    path = foreign / planted
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("raise RuntimeError('the foreign module ran')\n")
    code = {"connectx": "import sys\nfrom scripts.cli import main\nsys.exit(main(['--help']))\n",
            "widget": "from scripts.server.notebook import widget\n"}[entry]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(foreign), ROOT]))
    done = subprocess.run([sys.executable, "-c", PREAMBLE + code], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120)
    lines = done.stderr.splitlines()
    assert done.returncode == 2 and len(lines) == 1, done.stderr[-2000:]
    assert str(path) in lines[0] and "environment of its own" in lines[0]
    assert "the foreign module ran" not in done.stderr and done.stdout == ""
