"""Every notebook of docs/notebooks as a user runs it: after the README's install
(editable, as in tests/test_install.py: a temporary environment that sees this one's
site-packages for the dependencies), each in a fresh Jupyter kernel (nbclient) whose
working folder is a temporary folder outside the checkout, with ``from
kaggle_environments import make`` first, as Kaggle's tutorials start (kaggle-environments
then appends its Lux folder, which holds an ``agents.py``, to ``sys.path``). The lessons'
notebooks run with their parameters cell set to ``QUICK = True`` (tests/test_notebooks.py's
sizes); the widget's tour as stored. A last cell names the files of ``agents`` and
``scripts``: the checkout's, not another distribution's.

End-to-end (``-m e2e``): a kernel a notebook, kaggle-environments imported in each: 7-19 s
a notebook one at a time, the 20 two at a time 197 s of wall and 94 s of CPU, at load 9 on
2 cores (2026-12-02)."""
import json
import os
import subprocess
from concurrent.futures import ThreadPoolExecutor

import nbformat
import pytest

from scripts.lessons.notebooks import with_parameters
from tests.conftest import ROOT
from tests.test_install import PREAMBLE, build, environment, install, install_command, \
    config_settings, same_file, skip_without_builder
from tests.test_notebooks_drift import OWN

FOLDER = os.path.join(ROOT, "docs", "notebooks")
NOTEBOOKS = sorted(name for name in os.listdir(FOLDER) if name.endswith(".ipynb"))

# kaggle-environments first (with the suite's start-up saving of tests/test_install.py),
# and last the files the package's names came from
FIRST = PREAMBLE + "from kaggle_environments import make"
LAST = "import agents, scripts\nprint('FILES ' + agents.__file__ + ' ' + scripts.__file__)"

# the notebook given, executed in a new kernel of this interpreter in the folder given:
# "OK", or the error's last lines, then the notebook's printed text
DRIVER = """
import json, re, sys, nbformat
from nbclient import NotebookClient
nb = nbformat.read(sys.argv[1], as_version=4)
try:
    NotebookClient(nb, timeout=600, kernel_name="python3",
                   resources={"metadata": {"path": sys.argv[2]}}).execute()
    status = "OK"
except Exception as e:
    status = re.sub(r"\x1b\\[[0-9;]*m", "", f"{type(e).__name__}: {e}")[-1500:]
text = "".join(o.get("text", "") for c in nb.cells if c.cell_type == "code"
               for o in c.get("outputs", []) if o.output_type == "stream")
print(json.dumps({"status": status, "text": text}))
"""


def as_a_user_runs_it(name):
    """The notebook ``name`` with its quick parameters, kaggle-environments first and the
    package's files printed last."""
    nb = nbformat.read(os.path.join(FOLDER, name), as_version=4)
    if name[:-len(".ipynb")] not in OWN:
        nb = with_parameters(nb, True)
    nb.cells.insert(0, nbformat.v4.new_code_cell(FIRST))
    nb.cells.append(nbformat.v4.new_code_cell(LAST))
    return nb


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """The README's install in a new environment: its interpreter and a folder outside
    the checkout (with the notebooks to run)."""
    skip_without_builder()
    tmp = tmp_path_factory.mktemp("outside")
    python, own = environment(str(tmp / "venv"))
    install(build(python, "build_editable", ROOT, str(tmp / "dist"),
                  config_settings(install_command())), own)
    elsewhere = tmp / "elsewhere"
    elsewhere.mkdir()
    for name in NOTEBOOKS:
        nbformat.write(as_a_user_runs_it(name), str(elsewhere / name))
    return python, elsewhere


def execute(python, elsewhere, name):
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run([python, "-c", DRIVER, str(elsewhere / name), str(elsewhere)],
                          cwd=elsewhere, env=env, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, f"{name}: {done.stderr[-2000:]}"
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.e2e
def test_every_notebook_runs_outside_the_checkout(installed):
    """Two at a time (two cores), every notebook; each failure listed."""
    python, elsewhere = installed
    with ThreadPoolExecutor(2) as pool:
        results = dict(zip(NOTEBOOKS, pool.map(lambda n: execute(python, elsewhere, n),
                                                NOTEBOOKS)))
    failures = [f"{name}: {r['status']}" for name, r in results.items() if r["status"] != "OK"]
    assert not failures, "\n".join(failures)
    for name, r in results.items():
        files = r["text"].rsplit("FILES ", 1)[1].split()
        assert same_file(files[0], os.path.join(ROOT, "agents", "__init__.py")), name
        assert same_file(files[1], os.path.join(ROOT, "scripts", "__init__.py")), name

