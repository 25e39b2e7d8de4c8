"""The lessons' notebooks (docs/notebooks, written by scripts.lessons.notebooks): the
stored ones are the generator's (same cells), and they run, with the parameters cell
set to ``QUICK = True``, in one Jupyter kernel (nbclient), so that none rots; the
pictures come out as SVG.

The notebooks of the experiments tests/test_lessons.py marks SLOW (numba compiles, the
solver: tens of seconds each under load) are not executed here: their cells are the
same three lines as every other experiment's notebook (checked by the first test), and
their experiments run quick in tests/test_lessons.py; executing them here too doubled
those minutes (121 s for all the notebooks against a 3.5 min suite). Nor are the CHEAP
ones: tests/test_notebooks_drift.py runs them at full size and checks their figures."""
import os

import nbformat
import pytest
from nbclient import NotebookClient

from scripts.lessons.notebooks import all_notebooks, with_parameters
from tests.test_lessons import SLOW
from tests.test_notebooks_drift import CHEAP, OWN

FOLDER = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "docs",
                      "notebooks")


def test_the_stored_notebooks_are_the_generators():
    stored = sorted(f for f in os.listdir(FOLDER)
                    if f.endswith(".ipynb") and f[:-len(".ipynb")] not in OWN)
    made = all_notebooks()
    assert stored == sorted(made), "run: connectx lessons notebooks"
    for name, nb in made.items():
        on_disk = nbformat.read(os.path.join(FOLDER, name), as_version=4)
        assert [(c.cell_type, c.source) for c in on_disk.cells] == \
            [(c.cell_type, c.source) for c in nb.cells], name


@pytest.fixture(scope="module")
def kernel():
    """One kernel for every notebook (a kernel a notebook would cost seconds each)."""
    from jupyter_client.manager import start_new_kernel
    km, kc = start_new_kernel(kernel_name="python3")
    yield km, kc
    kc.stop_channels()
    km.shutdown_kernel(now=True)


@pytest.mark.slow
def test_every_notebook_runs_quick(kernel):
    km, kc = kernel
    failures, pictures = [], 0
    for name in sorted(os.listdir(FOLDER)):
        if not name.endswith(".ipynb") or name[:-len(".ipynb")] in SLOW | set(CHEAP) | set(OWN):
            continue
        nb = with_parameters(nbformat.read(os.path.join(FOLDER, name), as_version=4), True)
        client = NotebookClient(nb, km=km, timeout=600, allow_errors=False)
        client.kc = kc
        try:
            client.execute(cleanup_kc=False)
        except Exception as e:  # noqa: BLE001 - every failing notebook is listed
            failures.append(f"{name}: {type(e).__name__}: {str(e)[-300:]}")
            continue
        outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])]
        assert not [o for o in outputs if o.output_type == "error"], name
        for o in outputs:
            svg = o.get("data", {}).get("image/svg+xml")
            if svg:
                pictures += 1
                assert 'class="node' in svg and "<svg" in svg, name
        text = "".join(o.get("text", "") for o in outputs if o.output_type == "stream")
        if name != "search-pictures.ipynb":
            assert "material:" in text and "package:" in text, name
    assert not failures, "\n".join(failures)
    assert pictures >= 3  # search-pictures' three (textbook-trees': the drift test)


def test_writing_the_notebooks_keeps_the_stored_outputs(tmp_path, capsys):
    """The generator without ``--execute`` (or executing others) leaves a stored
    notebook whose cells are unchanged as it is, outputs included, and writes the
    missing ones without outputs."""
    import shutil

    from scripts.commands.lessons import main
    shutil.copy(os.path.join(FOLDER, "coin-game.ipynb"), tmp_path)
    assert main(["notebooks", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "coin-game.ipynb" not in out and "wrote" in out and "(not executed)" in out
    kept = nbformat.read(tmp_path / "coin-game.ipynb", as_version=4)
    assert any(c.get("outputs") for c in kept.cells)
    assert len(list(tmp_path.glob("*.ipynb"))) == len(all_notebooks())


def test_writing_the_notebooks_rewrites_only_the_text_of_one_whose_code_is_unchanged(
        tmp_path, capsys):
    """A stored notebook whose markdown differs from the generator's but whose code cells
    are the same gets the generator's text and keeps its outputs; one whose code differs
    is written without outputs."""
    from scripts.commands.lessons import main
    for name in ("coin-game.ipynb", "mini-isolation.ipynb"):
        nb = nbformat.read(os.path.join(FOLDER, name), as_version=4)
        if name == "coin-game.ipynb":
            nb.cells[0].source = "# an old title\n\nSource: an old source."
        else:
            nb.cells[1].source += "\n# changed"
        nbformat.write(nb, tmp_path / name)
    assert main(["notebooks", "--out", str(tmp_path)]) == 0
    made = all_notebooks()
    coins = nbformat.read(tmp_path / "coin-game.ipynb", as_version=4)
    assert [c.source for c in coins.cells] == [c.source for c in made["coin-game.ipynb"].cells]
    stored = nbformat.read(os.path.join(FOLDER, "coin-game.ipynb"), as_version=4)
    assert [c.get("outputs") for c in coins.cells] == [c.get("outputs") for c in stored.cells]
    assert any(c.get("outputs") for c in coins.cells)
    mini = nbformat.read(tmp_path / "mini-isolation.ipynb", as_version=4)
    assert not any(c.get("outputs") for c in mini.cells)
    out = capsys.readouterr().out
    assert "coin-game.ipynb (its text; the stored outputs kept)" in out
