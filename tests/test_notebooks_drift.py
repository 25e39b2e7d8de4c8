"""The stored notebooks' figures against a fresh run: the cheap notebooks (docs/notebooks,
stored executed at full size by ``python -m scripts.lessons.notebooks --execute``) run
again at the stored size (``QUICK = False``) in one Jupyter kernel, and each code cell
must print what is stored (its text, and its pictures' SVG): a change to a lesson's code
that moves a figure fails here until the notebooks are executed again.

Which notebooks (:data:`CHEAP`): those whose full run takes about a second or less
and whose figures are all seeded counts (coin-game 1.2 s, rollout-book 0.4 s,
mini-isolation and textbook-trees 0.0 s; the next cheapest, isolation-search and
tictactoe-think, take 1.5 s each, and the suite's budget is a few seconds for this file).
Excluded by rule: a notebook whose figures are times (:data:`TIMED`: tictactoe-depth's
move times, branching-factor's nodes a second, horizon-effect's positions the solver
did not finish within a second): a fresh run cannot give the stored figures. Excluded by
cost: the rest (seconds to a minute each at full size; their experiments run quick in
tests/test_lessons.py and their notebooks quick in tests/test_notebooks.py)."""
import os

import nbformat
import pytest
from nbclient import NotebookClient

from scripts.lessons.notebooks import all_notebooks

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FOLDER = os.path.join(ROOT, "docs", "notebooks")
CHEAP = ("coin-game", "mini-isolation", "rollout-book", "textbook-trees")
TIMED = ("tictactoe-depth", "branching-factor", "horizon-effect")


def _outputs(nb):
    """Each code cell's printed text and pictures, in order (no execution counts, no
    metadata: what a reader sees)."""
    seen = []
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        for o in cell.get("outputs", []):
            if o.output_type == "stream":
                seen.append((cell.id, o.name, o.text))
            elif "data" in o:
                data = o["data"]
                seen.append((cell.id, "data", data.get("image/svg+xml", data.get("text/plain"))))
            else:
                seen.append((cell.id, o.output_type, str(o)))
    return seen


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
            assert "QUICK = False" in code[0].source, f"{name}: not a full run"


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
    km, kc = kernel
    stored = nbformat.read(os.path.join(FOLDER, f"{name}.ipynb"), as_version=4)
    fresh = nbformat.from_dict(stored)
    for cell in fresh.cells:
        if cell.cell_type == "code":
            cell.outputs = []
    client = NotebookClient(fresh, km=km, timeout=120, record_timing=False)
    client.kc = kc
    client.execute(cleanup_kc=False)
    assert _outputs(fresh) == _outputs(stored), \
        f"{name}: the figures moved; run: python -m scripts.lessons.notebooks --execute {name}"
