"""The stored notebooks' figures against a fresh run: the cheap notebooks (docs/notebooks,
stored executed at full size by ``connectx lessons notebooks --execute``) run
again at the stored size (``QUICK = False``) in one Jupyter kernel, and each code cell
must print what is stored (its text, and its pictures' SVG): a change to a lesson's code
that moves a figure fails here until the notebooks are executed again.

Which notebooks (:data:`CHEAP`): those whose full run takes about a second and whose
figures are all seeded counts (coin-game 1.2 s, rollout-book 1.4 s, mini-isolation and
textbook-trees 0.0 s, on a quiet 2-core machine; the next cheapest, isolation-search and
tictactoe-think, take 1.5 s each, and the suite's budget is a few seconds for this file).
Excluded by rule: a notebook whose figures are times
(:data:`scripts.lessons.notebooks.TIMED`: tictactoe-depth's move times,
branching-factor's nodes a second, horizon-effect's positions the solver did not finish
within a second): a fresh run cannot give the stored figures. Excluded by cost: the
rest (seconds to a minute each at full size; their experiments run quick in
tests/test_lessons.py and their notebooks quick in tests/test_notebooks.py);
``connectx lessons notebooks --check`` runs this file's check on every untimed
notebook (minutes)."""
import os

import nbformat
import pytest

from scripts.lessons.notebooks import TIMED, all_notebooks, figures, rerun

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FOLDER = os.path.join(ROOT, "docs", "notebooks")
CHEAP = ("coin-game", "mini-isolation", "rollout-book", "textbook-trees")
# notebooks written by hand, not by scripts.lessons.notebooks: stored executed, with no
# QUICK parameter and no figures to hold (widget: the notebook widget's tour, whose
# outputs are widgets and a random kaggle game; tests/test_widget.py checks its calls)
OWN = ("widget",)


def test_the_lists_name_notebooks_and_do_not_overlap():
    names = {n[:-len(".ipynb")] for n in all_notebooks()}
    assert set(CHEAP) <= names and set(TIMED) <= names
    assert not set(CHEAP) & set(TIMED)


def test_every_notebook_is_stored_executed():
    for name in sorted(os.listdir(FOLDER)):
        if name.endswith(".ipynb"):
            nb = nbformat.read(os.path.join(FOLDER, name), as_version=4)
            code = [c for c in nb.cells if c.cell_type == "code"]
            assert all(c.execution_count for c in code), f"{name}: not executed"
            assert any(c.outputs for c in code), f"{name}: no outputs"
            assert not [o for c in code for o in c.outputs if o.output_type == "error"], name
            assert name[:-len(".ipynb")] in OWN or "QUICK = False" in code[0].source, \
                f"{name}: not a full run"


@pytest.fixture(scope="module")
def kernel():
    from jupyter_client.manager import start_new_kernel
    km, kc = start_new_kernel(kernel_name="python3", cwd=ROOT)
    yield km, kc
    kc.stop_channels()
    km.shutdown_kernel(now=True)


@pytest.mark.slow
@pytest.mark.parametrize("name", CHEAP)
def test_a_fresh_run_prints_the_stored_figures(name, kernel):
    stored = nbformat.read(os.path.join(FOLDER, f"{name}.ipynb"), as_version=4)
    assert figures(rerun(stored, *kernel)) == figures(stored), \
        f"{name}: the figures moved; run: connectx lessons notebooks --execute {name}"
