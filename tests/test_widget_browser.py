"""The notebook widget in a real JupyterLab, driven by the system's Chromium (Playwright,
as tests/test_serve_browser.py drives the page of ``connectx serve``).

One JupyterLab on loopback serves a notebook of two cells: the first shows
``widget(agent="alphabeta:depth=2")``; a click on a column plays it, and the agent's reply
and every column's exact score appear (checked against the rules and the package's
opening scores, :class:`agents.solver.openings.Openings`, not the solver the widget
used), with the words under it ("win in N", "loss in N", "draw") derived from that score
by the solver's documented scale. The second shows a kaggle replay (``tests/data/records/kaggle_connectx.json``,
``env.toJSON()``) stepped move by move, each with its verdict and the position's
scores, the played column outlined.

Needs JupyterLab and anywidget (the dev extra), the system's Chromium and playwright;
without them the test skips, unless ``CONNECTX_REQUIRE_BROWSER=1`` (``.ci/run``), when it
fails. ``CONNECTX_SCREENSHOT=path.png`` also saves a screenshot there (how
``docs/widget.png`` was made).
"""
import importlib.util
import json
import os
import queue
import shutil
import socket
import subprocess
import sys
import threading

import nbformat
import pytest

from agents.board.rules import legal_moves, winner
from agents.solver.openings import Openings
from agents.solver.position import Position
from tests.test_serve_browser import (CONFIG, _unavailable, board_after,  # noqa: F401
                                     browser, told, words)

# a real browser and JupyterLab: end-to-end, run by ``pytest -m e2e`` and CI, not by the
# default run
pytestmark = pytest.mark.e2e

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REPLAY = os.path.join(ROOT, "tests", "data", "records", "kaggle_connectx.json")
CELLS = ['from scripts.server.notebook import widget\nwidget(agent="alphabeta:depth=2")',
         'widget(replay="kaggle_connectx.json")']
START = 60  # seconds JupyterLab may take to say it is running (a loaded 2-core machine)


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """A JupyterLab on 127.0.0.1 (no token) serving a folder with the notebook of
    :data:`CELLS` and the replay: the notebook's address."""
    for module, extra in (("jupyterlab", "dev"), ("anywidget", "notebook")):
        if importlib.util.find_spec(module) is None:
            _unavailable(f"the python package {module} is not installed (the {extra} extra)")
    folder = tmp_path_factory.mktemp("lab")
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in CELLS])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}  # else JupyterLab asks which kernel
    nbformat.write(nb, folder / "widget.ipynb")
    shutil.copy(REPLAY, folder)
    port = _free_port()
    home = folder / ".jupyter"  # the user's own settings, workspaces and news left alone
    news = home / "settings" / "@jupyterlab" / "apputils-extension"
    news.mkdir(parents=True)
    (news / "notification.jupyterlab-settings").write_text('{"fetchNews": "false"}')
    env = {**os.environ, "PYTHONPATH": ROOT, "JUPYTER_CONFIG_DIR": str(home / "config"),
           "JUPYTERLAB_SETTINGS_DIR": str(home / "settings"),
           "JUPYTERLAB_WORKSPACES_DIR": str(home / "workspaces"),
           "JUPYTER_RUNTIME_DIR": str(home / "runtime")}
    proc = subprocess.Popen(
        [sys.executable, "-m", "jupyterlab", "--no-browser", f"--port={port}",
         "--ServerApp.ip=127.0.0.1", "--IdentityProvider.token=", "--ServerApp.password=",
         "--allow-root",  # CI runs as root, and JupyterLab refuses root without it
         f"--ServerApp.root_dir={folder}", "--ServerApp.port_retries=0",
         "--LabApp.news_url=", "--LabApp.check_for_updates_class="
         "jupyterlab.handlers.announcements.NeverCheckForUpdate"],
        cwd=folder, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    lines = queue.Queue()

    def read():
        for x in proc.stderr:
            lines.put(x)
        lines.put(None)  # it closed its stderr: it has exited
    threading.Thread(target=read, daemon=True).start()
    said = []
    try:
        while True:
            try:
                said.append(lines.get(timeout=START))
            except queue.Empty:
                pytest.fail(f"JupyterLab said nothing for {START} s:\n{''.join(said)[-2000:]}")
            if said[-1] is None:
                proc.wait()
                pytest.fail(f"JupyterLab exited with {proc.returncode}:\n"
                            f"{''.join(said[:-1])[-2000:]}")
            if f"127.0.0.1:{port}/lab" in said[-1]:
                break
        yield f"http://127.0.0.1:{port}/lab/tree/widget.ipynb"
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def run_cell(page, index):
    """Select code cell ``index`` and run it (Shift+Enter), as a user does; until the
    kernel has taken it (its prompt leaves ``[ ]``)."""
    cell = page.locator(".jp-Notebook .jp-Cell").nth(index)
    cell.locator(".jp-InputArea-editor").click()
    page.keyboard.press("Shift+Enter")
    cell.locator(".jp-InputPrompt", has_text="[*]").or_(
        cell.locator(".jp-InputPrompt", has_text=f"[{index + 1}]")).wait_for()


def wait_moves(widget, n):
    """Until ``widget`` shows ``n`` moves and the kernel is done with them."""
    widget.locator(f".board[data-busy='0'][data-moves]").wait_for()
    widget.page.wait_for_function(
        "([w, n]) => { const b = w.querySelector('.board');"
        " const m = b.dataset.moves; return b.dataset.busy === '0' &&"
        " (m === '' ? 0 : m.split(',').length) === n; }",
        arg=[widget.element_handle(), n])


def dom_board(widget):
    """The marks of ``widget``'s board cells, in Kaggle's flat order."""
    return widget.locator(".board .cell").evaluate_all(
        "cells => cells.map(c => [+c.dataset.index, +c.dataset.mark])"
        ".sort((a, b) => a[0] - b[0]).map(c => c[1])")


def shown_scores(widget):
    cells = widget.locator(".scores .score").evaluate_all(
        "cells => cells.map(c => [+c.dataset.col, c.dataset.score])")
    return [int(s) if s else -1000 for _, s in sorted(cells)]


def openings_scores(moves):
    p = Position(*CONFIG.values())
    for c in moves:
        p.play(c)
    return [-1000 if s is None else s for s in Openings().analyze(p)]


@pytest.mark.slow
def test_a_notebook_cell_plays_analyses_and_replays_with_verdicts(browser, lab, tmp_path):
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    errors = []
    page = context.new_page()
    page.set_default_timeout(60_000)  # the kernel's first cell: imports, the database
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(lab)
        page.locator(".jp-Notebook .jp-Cell").first.wait_for()
        # a cell run before the kernel is connected is dropped: wait for the idle kernel
        page.locator(".jp-StatusBar-Widget", has_text="(ipykernel) | Idle").wait_for()
        run_cell(page, 0)
        play = page.locator(".connectx-widget").first
        wait_moves(play, 0)
        assert play.get_attribute("data-mode") == "play"
        assert play.locator(".scores").get_attribute("data-ready") == "1"
        assert shown_scores(play) == openings_scores([])
        assert told(play.locator(".scores .score")) == words(openings_scores([]), 0)
        # a click on column 4 (0-based 3): the agent's reply, then the analysis
        play.locator(".board .column[data-col='3']").click()
        wait_moves(play, 2)
        moves = [int(c) for c in play.locator(".board").get_attribute("data-moves").split(",")]
        assert moves[0] == 3 and moves[1] in legal_moves(board_after([3]), CONFIG)
        assert dom_board(play) == board_after(moves)
        assert "alphabeta:depth=2 played column" in play.locator(".cx-status").text_content()
        play.locator(".scores[data-ready='1']").wait_for()
        assert shown_scores(play) == openings_scores(moves)
        said = words(openings_scores(moves), len(moves))
        assert told(play.locator(".scores .score")) == said
        assert "exact scores (solver)" in play.locator(".cx-analysis-status").text_content()
        line = play.locator(".cx-line-text").get_attribute("data-moves")
        assert line and int(line.split(",")[0]) in legal_moves(board_after(moves), CONFIG)
        first = int(line.split(",")[0])
        text = play.locator(".cx-line-text").text_content()
        assert text.startswith(f"Line of column {first + 1} ({said[first]}): "), text
        history = play.locator(".cx-history li").all_text_contents()
        assert len(history) == 2 and history[0].startswith("red (you): column 4")
        shot = tmp_path / "widget.png"
        page.screenshot(path=str(shot))
        if os.environ.get("CONNECTX_SCREENSHOT"):
            shutil.copy(shot, os.environ["CONNECTX_SCREENSHOT"])

        # the second cell: the kaggle replay, each move's verdict
        run_cell(page, 1)
        replay = page.locator(".connectx-widget[data-mode='replay']")
        replay.locator(".cx-pos").wait_for()
        game = json.load(open(REPLAY))
        expected = _kaggle_moves(game)
        assert replay.locator(".cx-pos").text_content() == f"0 / {len(expected)}"
        assert len(replay.locator(".cx-history li").all_text_contents()) == len(expected)
        verdicts = []
        for k in range(1, len(expected) + 1):
            before = shown_scores(replay)  # the judged scores of the position before move k
            played = replay.locator(".scores .score.played").get_attribute("data-col")
            assert int(played) == expected[k - 1]
            if k - 1 < Openings().ply:
                assert before == openings_scores(expected[:k - 1])
            said = told(replay.locator(".scores .score"))
            assert said == words(before, k - 1), (k, before, said)
            if k == len(expected):  # the last move won the game: at once
                assert said[expected[k - 1]] == "win in 1", said
            replay.locator(".cx-forward").click()
            replay.locator(f".board[data-pos='{k}']").wait_for()
            assert dom_board(replay) == board_after(expected[:k])
            verdict = replay.locator(".cx-verdict")
            kind = verdict.get_attribute("data-verdict")
            best = max(s for s in before if s != -1000)
            mine = before[expected[k - 1]]
            assert kind == ("perfect" if mine == best else
                            "good" if (mine > 0) == (best > 0) and (mine < 0) == (best < 0)
                            else "mistake"), (k, before, mine)
            verdicts.append(kind)
        assert winner(board_after(expected), CONFIG) in (1, 2)
        assert "mistake" in verdicts and "perfect" in verdicts
    except Exception:
        page.screenshot(path="/tmp/widget-fail.png")
        raise
    finally:
        context.close()
    assert not errors, errors


def _kaggle_moves(doc):
    """The 0-based columns of a kaggle replay: the stone each step adds (here, not by
    :mod:`scripts.arena.records`, which the widget uses)."""
    moves, before = [], None
    for step in doc["steps"]:
        board = step[0]["observation"]["board"]
        if before is not None:
            moves += [i % CONFIG["columns"] for i in range(len(board)) if board[i] != before[i]]
        before = board
    return moves
