"""The lessons as notebooks: ``docs/notebooks/NAME.ipynb``, one an experiment of
``connectx lessons`` (its rows, and where the lesson is about a search's tree, the
pictures inline), plus ``search-pictures.ipynb`` (a textbook tree and a Connect Four
position's search beside the solver's exact values).

    connectx lessons notebooks [--out docs/notebooks] [--execute [NAME ...]] [--quick]
    connectx lessons notebooks --check [NAME ...]

(the command line: :mod:`scripts.commands.lessons`)

Each notebook's first code cell is its parameters (``QUICK = False``): the stored
notebooks hold the outputs of a full run (``--execute``; ``--quick``: of a quick one),
pictures included, so that a repository page shows them. A notebook not executed by a
run keeps its stored file while its cells are the generator's, and its stored outputs
while its code cells are (only its text is rewritten); a new one, or one whose code
changed, is written without outputs, and says so. The suite runs the cheap ones
again at full size and checks that they print the stored figures
(tests/test_notebooks_drift.py), and runs most others with ``QUICK = True``
(tests/test_notebooks.py, nbclient), so that none rots. ``--check`` runs the stored
notebooks again at full size (all but the :data:`TIMED` ones when none is named) and
lists those whose figures moved: the drift test's check, for every notebook, minutes.
"""
import os
import sys

PARAMETERS = "QUICK = False  # True: tiny sizes, seconds (what the suite runs)\nSEED = 0"
TREE = "[[[3, 12], [8, 2]], [[4, 6], [14, 5]], [[2, 1], [3, 7]]]"
POSITION = "22563167133127733314"  # 20 stones: the solver answers each node at once

# the lessons whose full run takes more than a few seconds: about this many seconds on the
# team's 2-core machine at low load (2026-11-27), said in the notebook's first cell
FULL_SECONDS = {"horizon-effect": 40, "connect4-think3": 20, "branching-factor": 15,
                "tutorial-lookahead": 10, "isolation-sloppy": 8}

# the notebooks whose figures include times (move times, nodes a second, positions the
# solver did not finish within a second): a fresh run cannot print the stored figures
TIMED = ("coin-game-times", "tictactoe-depth", "tictactoe-solved", "branching-factor",
         "horizon-effect")

# the lessons whose subject is a search tree: their notebooks draw one
PICTURES = {
    "textbook-trees": [
        "from IPython.display import SVG\n"
        "from agents.games.pictures import svg, trace\n"
        "from agents.games.trees import GameTree\n"
        "tree = GameTree([[3, 5], [2, 9]])  # the tic-tac-toe article's tree\n"
        "SVG(svg(trace(tree, (), 2), title='the article tree: alpha-beta'))",
        "from scripts.lessons.pruning import TUTORIAL_TREE\n"
        "# the Kaggle tutorial's tree: +40, and the -1 and +10 the opponent forces, are its\n"
        "# text's; the other leaves are the package's (the tutorial's figure is an image)\n"
        "SVG(svg(trace(GameTree(TUTORIAL_TREE), (), 3, prune=False), windows=False,\n"
        "        title=\"the tutorial's tree: minimax\"))"],
    "search-windows": [
        "from IPython.display import SVG\n"
        "from agents.games.pictures import svg, trace\n"
        "from agents.games.trees import GameTree\n"
        f"SVG(svg(trace(GameTree({TREE}), (), 3), title='alpha-beta: windows and bounds'))"],
    "tictactoe-solved": [
        "from IPython.display import SVG\n"
        "from agents.games.pictures import svg, text, trace\n"
        "from agents.games.tictactoe import TicTacToe, render\n"
        "game = TicTacToe()\n"
        "state = game.initial()\n"
        "for cell in (5, 4, 7, 3, 8):  # the book's own game (cells 1-9), five moves in\n"
        "    state = game.result(state, cell - 1)\n"
        "print(render(state[0]))\n"
        "tree = trace(game, state, 9, prune=False)  # the whole tree below it: minimax\n"
        "SVG(svg(tree, windows=False, label=lambda cell: 'abcdefghi'[cell], "
        "title='the book game after 5 moves: the whole tree, o to move (max)'))"],
    "branching-factor": [
        "from IPython.display import SVG\n"
        "from scripts.server.search_tree import position_tree\n"
        f"SVG(position_tree({POSITION!r}, depth=1 if QUICK else 2, exact=False).svg())"],
}


def notebook(name, title, source):
    import nbformat.v4 as nbf
    cells = [nbf.new_markdown_cell(f"# {title}\n\nSource: {source}. The same rows print "
                                   f"with `connectx lessons {name}`; docs/lessons.md "
                                   f"tells the tour.{_size_note(name)}"),
             nbf.new_code_cell(PARAMETERS),
             nbf.new_code_cell("from scripts.lessons import by_name, format_rows\n"
                               f"rows = by_name()[{name!r}].run(quick=QUICK, seed=SEED)\n"
                               "print(format_rows(rows))")]
    cells += [nbf.new_code_cell(c) for c in PICTURES.get(name, [])]
    return _numbered(nbf.new_notebook(cells=cells, metadata=_metadata()), name)


def _size_note(name):
    """What the stored outputs are: the lesson's full size, and its time where it is
    long (:data:`FULL_SECONDS`)."""
    seconds = FULL_SECONDS.get(name)
    took = (f", about {seconds} s on a 2-core machine (under load it can take "
            f"twice that)") if seconds else ""
    return (f"\n\nThe outputs below are a full run (`QUICK = False`){took}; set `QUICK = "
            f"True` for tiny sizes in seconds.")


def pictures_notebook():
    import nbformat.v4 as nbf
    cells = [
        nbf.new_markdown_cell(
            "# Pictures of a search\n\nA minimax or alpha-beta search drawn: each node's "
            "value (a bound, <= or >=, where alpha-beta cut), the window [alpha, beta] it "
            "was entered with, the principal variation bold, what alpha-beta never visited "
            "grey. `connectx lessons tree` prints the same in the terminal and writes the "
            "SVG; `connectx serve` shows it in its Search tree tab."),
        nbf.new_code_cell(PARAMETERS),
        nbf.new_code_cell(
            "from IPython.display import SVG\n"
            "from agents.games.pictures import svg, text, trace\n"
            "from agents.games.trees import GameTree\n"
            f"tree = GameTree({TREE})\n"
            "print(text(trace(tree, (), 3)))\n"
            "SVG(svg(trace(tree, (), 3), title='alpha-beta'))"),
        nbf.new_code_cell("SVG(svg(trace(tree, (), 3, prune=False), windows=False, "
                          "title='minimax: every node'))"),
        nbf.new_markdown_cell(
            "A real Connect Four position (20 stones, the side to move's turn), searched to "
            "depth 2 with the `threats` evaluation at the horizon; in blue beside each node "
            "its exact value by the solver (Pons' scale, from the root player's side). The "
            "pruned children keep their exact values: what alpha-beta skipped never "
            "mattered to the root. (The solver compiles on its first call: tens of seconds "
            "once; `QUICK` leaves the exact values out.)"),
        nbf.new_code_cell(
            "from scripts.server.search_tree import position_tree\n"
            f"picture = position_tree({POSITION!r}, depth=2, exact=not QUICK)\n"
            "print(picture.text())\n"
            "SVG(picture.svg())"),
    ]
    return _numbered(nbf.new_notebook(cells=cells, metadata=_metadata()), "search-pictures")


def _numbered(nb, name):
    """Cell ids from the name and the position (nbformat draws random ones: every run
    of the generator would rewrite every file)."""
    for i, cell in enumerate(nb.cells):
        cell.id = f"{name}-{i}"
    return nb


def _metadata():
    return {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
            "language_info": {"name": "python"}}


def all_notebooks():
    """``{file name: notebook}``, in the tour's order, the pictures first."""
    from scripts.lessons import experiments
    out = {"search-pictures.ipynb": pictures_notebook()}
    for e in experiments():
        out[f"{e.name}.ipynb"] = notebook(e.name, e.title, e.source)
    return out


def with_parameters(nb, quick):
    """``nb`` with its parameters cell set to ``QUICK = quick``."""
    for cell in nb.cells:
        if cell.cell_type == "code" and cell.source.startswith("QUICK = "):
            cell.source = cell.source.replace("QUICK = False", f"QUICK = {quick}", 1)
            return nb
    raise ValueError("the notebook has no parameters cell (QUICK = ...)")


def figures(nb):
    """What a reader sees of ``nb``'s outputs, cell by cell (printed text and pictures;
    no execution counts, no metadata): two runs with the same figures compare equal.
    A stream's text is joined across the outputs it came in (the kernel flushes a
    print in one piece or several, as it happens)."""
    seen = []
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        for o in cell.get("outputs", []):
            if o.output_type == "stream":
                if seen and seen[-1][:2] == (cell.id, o.name):
                    seen[-1] = (cell.id, o.name, seen[-1][2] + o.text)
                else:
                    seen.append((cell.id, o.name, o.text))
            elif "data" in o:
                data = o["data"]
                seen.append((cell.id, "data", data.get("image/svg+xml", data.get("text/plain"))))
            else:
                seen.append((cell.id, o.output_type, str(o)))
    return seen


def rerun(stored, km=None, kc=None):
    """A copy of the executed notebook ``stored`` run again at its stored parameters
    (in the kernel ``km``/``kc`` when given, else a fresh one)."""
    import nbformat
    from nbclient import NotebookClient
    fresh = nbformat.from_dict(stored)
    for cell in fresh.cells:
        if cell.cell_type == "code":
            cell.outputs = []
    client = NotebookClient(fresh, km=km, timeout=1800, kernel_name="python3",
                            record_timing=False,
                            resources={"metadata": {"path": os.getcwd()}})
    if kc is not None:
        client.kc = kc
        client.execute(cleanup_kc=False)
    else:
        client.execute()
    return fresh


def check(folder, names):
    """``(name, same)`` of each of ``names`` (all the untimed notebooks when empty) as it
    is checked: whether its fresh run prints the stored figures."""
    import nbformat
    names = names or [n[:-len(".ipynb")] for n in all_notebooks()
                      if n[:-len(".ipynb")] not in TIMED]
    for name in names:
        stored = nbformat.read(os.path.join(folder, f"{name}.ipynb"), as_version=4)
        yield name, figures(rerun(stored)) == figures(stored)


def write(folder, execute=None, quick=False):
    """Write every notebook into ``folder``, a line for each one written as it is:
    ``execute`` (a list of names, empty: all) names those run and stored with their
    outputs (``quick``: of a quick run); a stored one not executed keeps its outputs
    while its code cells are the generator's."""
    import nbformat
    os.makedirs(folder, exist_ok=True)
    for name, nb in all_notebooks().items():
        path = os.path.join(folder, name)
        chosen = execute is not None and (not execute or name[:-len(".ipynb")] in execute)
        if not chosen and _same_cells(path, nb):
            continue  # not executed and its cells unchanged: its stored outputs stay
        if not chosen and _same_code(path, nb):
            # only its text changed: the stored outputs are still its code's
            nb = _with_text(nbformat.read(path, as_version=4), nb)
            nbformat.write(nb, path)
            yield f"wrote {path} (its text; the stored outputs kept)"
            continue
        if chosen:
            from nbclient import NotebookClient
            run = with_parameters(nbformat.from_dict(nb), True) if quick else nb
            NotebookClient(run, timeout=1800, kernel_name="python3", record_timing=False,
                           resources={"metadata": {"path": os.getcwd()}}).execute()
            nb = run
            if quick:  # the stored parameters stay the full run's
                with_parameters_back(nb)
        nbformat.write(nb, path)
        yield f"wrote {path}" + ("" if chosen else " (not executed)")


def _same_cells(path, nb):
    """Whether the notebook stored at ``path`` has ``nb``'s cells (kind and source)."""
    import nbformat
    if not os.path.exists(path):
        return False
    stored = nbformat.read(path, as_version=4)
    return [(c.cell_type, c.source) for c in stored.cells] == \
        [(c.cell_type, c.source) for c in nb.cells]


def _same_code(path, nb):
    """Whether the notebook stored at ``path`` has ``nb``'s code cells (and its cells
    in the same places): only its markdown differs."""
    import nbformat
    if not os.path.exists(path):
        return False
    stored = nbformat.read(path, as_version=4)
    return [(c.cell_type, c.source if c.cell_type == "code" else "") for c in stored.cells] == \
        [(c.cell_type, c.source if c.cell_type == "code" else "") for c in nb.cells]


def _with_text(stored, nb):
    """``stored`` (the same code cells as ``nb``) with ``nb``'s markdown: its outputs
    and the run's metadata stay."""
    for mine, theirs in zip(nb.cells, stored.cells):
        if mine.cell_type == "markdown":
            theirs.source = mine.source
    return stored


def with_parameters_back(nb):
    for cell in nb.cells:
        if cell.cell_type == "code" and cell.source.startswith("QUICK = True"):
            cell.source = cell.source.replace("QUICK = True", "QUICK = False", 1)


if __name__ == "__main__":
    # the library, not a command: say which command runs it
    print("scripts.lessons.notebooks is a library: run `connectx lessons notebooks` "
          "(python -m scripts.commands.lessons notebooks)", file=sys.stderr)
    sys.exit(2)
