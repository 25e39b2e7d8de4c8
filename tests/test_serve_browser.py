"""The page of ``connectx serve`` in a real headless Chromium (Playwright).

Plays a full game against alphabeta by clicking, checking every board the page
draws against :mod:`agents.board.rules`; toggles the analysis on a known position and
checks the scores against :class:`agents.solver.solver.Solver` (and the "win in N" or
"loss in N" under each, from the score by the solver's documented scale); plays two
games in two tabs at once; replays a game of a ``connectx match --json`` file step by
step.

Needs the system's Chromium (Debian: ``apt-get install chromium``) and the pip
package ``playwright`` (its driver only; it never downloads a browser here). Without
them the tests skip, unless ``CONNECTX_REQUIRE_BROWSER=1`` (set by ``.ci/run``), when
they fail. ``CONNECTX_SCREENSHOT=path.png`` also saves the screenshot there (that is
how ``docs/serve.png`` was made).
"""
import json
import os
import shutil
import threading

import numpy as np
import pytest

from agents.board.rules import drop_piece, legal_moves, winner
from agents.games.pictures import walk
from agents.solver.solver import Solver
from scripts.server import app as serve
from scripts.commands.match import main as match_main

# a real browser: end-to-end, run by ``pytest -m e2e`` and CI, not by the default run
pytestmark = pytest.mark.e2e

CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                  "--no-first-run", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync"]
CONFIG = {"rows": 6, "columns": 7, "inarow": 4}
# shared/positions/analysis.txt: 20 stones, mark 1 to move, column 3 (1-based) full
KNOWN = ("22563167133127733314", [-10, 0, -1000, 2, 0, -10, -10])


def _unavailable(reason):
    if os.environ.get("CONNECTX_REQUIRE_BROWSER") == "1":
        pytest.fail(f"CONNECTX_REQUIRE_BROWSER=1 but {reason}")
    pytest.skip(reason)


def chromium_path():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    _unavailable("no chromium on PATH (Debian: apt-get install chromium)")


def _serve(database):
    app = serve.App(searches=2, move_time=1.0, analysis_time=5.0, database=database)
    app.warm_up(specs=("alphabeta:depth=2",))
    srv = serve.make_server(app, "127.0.0.1", 0)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    return app, srv


@pytest.fixture(scope="module")
def served():
    """A server without the opening database (the solver alone, as without the extra):
    ``(app, url)``."""
    app, srv = _serve(False)
    yield app, serve.url_of(srv)
    srv.shutdown()
    srv.server_close()


@pytest.fixture(scope="module")
def url(served):
    return served[1]


@pytest.fixture(scope="module")
def url_db():
    """A server with the opening database (skips when the books extra is missing)."""
    app, srv = _serve(True)
    if app.database is None:
        srv.shutdown()
        srv.server_close()
        pytest.skip("the books extra is not installed")
    yield serve.url_of(srv)
    srv.shutdown()
    srv.server_close()


@pytest.fixture(scope="module")
def browser():
    executable = chromium_path()
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("the python package playwright is not installed (pip install playwright)")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=executable, headless=True, args=CHROMIUM_FLAGS)
        yield b
        b.close()


def open_page(context, url, errors):
    pg = context.new_page()
    pg.set_default_timeout(30_000)
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.goto(url)
    pg.wait_for_function("() => document.getElementById('board').children.length > 0")
    return pg


@pytest.fixture
def page(browser, url):
    context = browser.new_context(viewport={"width": 1100, "height": 760})
    errors = []
    yield open_page(context, url, errors)
    context.close()
    assert not errors, errors


def board_after(moves, cfg=CONFIG):
    board = [0] * (cfg["rows"] * cfg["columns"])
    for i, c in enumerate(moves):
        board = drop_piece(board, c, 1 + i % 2, cfg)
    return board


def words(scores, stones):
    """What a 7x6 scores row writes under the solver's ``scores`` (-1000: a full column,
    nothing) with ``stones`` on the board, derived from the scale in
    agents/solver/solver.py: a win scores 22 minus the winner's stones at the end, and
    "in" counts the winner's moves from now (the side to move has ``stones // 2``
    stones, the other side ``(stones + 1) // 2``)."""
    return ["" if s == -1000 else "draw" if s == 0 else
            f"win in {22 - s - stones // 2}" if s > 0 else
            f"loss in {22 + s - (stones + 1) // 2}" for s in scores]


def told(cells):
    """The words under each score of a scores row (a locator of its cells), by column
    ("" for a full column)."""
    found = cells.evaluate_all(
        "cells => cells.map(c => [+c.dataset.col,"
        " c.querySelector('small') ? c.querySelector('small').textContent : ''])")
    return [t for _, t in sorted(found)]


def dom_board(page, selector):
    return page.eval_on_selector_all(f"{selector} .cell",
                                     "cells => cells.map(c => [+c.dataset.index, +c.dataset.mark])"
                                     ".sort((a, b) => a[0] - b[0]).map(c => c[1])")


def moves_shown(page):
    text = page.get_attribute("#board", "data-moves")
    return [int(c) for c in text.split(",")] if text else []


def wait_idle(page, n_moves):
    """Until the page shows ``n_moves`` moves and no request of the game is running."""
    page.wait_for_function(
        "n => { const b = document.getElementById('board');"
        " const m = b.dataset.moves; return b.dataset.busy === '0' &&"
        " (m === '' ? 0 : m.split(',').length) === n; }", arg=n_moves)


# Records every board the page draws: (moves, cells) each time #board's data-moves is set.
RECORD_BOARDS = """() => {
  window.__boards = [];
  const b = document.getElementById('board');
  new MutationObserver(() => {
    const cells = [...b.querySelectorAll('.cell')]
      .sort((x, y) => x.dataset.index - y.dataset.index).map(c => +c.dataset.mark);
    window.__boards.push([b.dataset.moves, cells]);
  }).observe(b, {attributes: true, attributeFilter: ['data-moves']});
}"""


def start_game(page, agent, human, moves_text=""):
    page.fill("#agent", agent)
    page.select_option("#colour", str(human))
    page.fill("#moves-text", moves_text)
    page.click("#new-game")


def test_full_game_against_alphabeta_by_clicking(page):
    page.evaluate(RECORD_BOARDS)
    start_game(page, "alphabeta:depth=3", human=1)
    wait_idle(page, 0)
    rng = np.random.default_rng(17)
    moves = []
    while True:
        board = board_after(moves)
        column = int(rng.choice(legal_moves(board, CONFIG)))
        page.click(f"#board .column[data-col='{column}']")
        moves.append(column)
        board = drop_piece(board, column, 1, CONFIG)
        if winner(board, CONFIG) or len(moves) == 42:
            wait_idle(page, len(moves))
            break
        wait_idle(page, len(moves) + 1)
        reply = moves_shown(page)[-1]
        assert reply in legal_moves(board, CONFIG)
        moves.append(reply)
        assert dom_board(page, "#board") == board_after(moves)
        board = board_after(moves)
        if winner(board, CONFIG) or len(moves) == 42:
            break
    assert moves_shown(page) == moves
    assert page.get_attribute("#board", "data-over") == "1"
    won = winner(board_after(moves), CONFIG)
    assert page.get_attribute("#board", "data-winner") == str(won)
    status = page.text_content("#status")
    assert {0: "Draw", 1: "You win!", 2: "alphabeta:depth=3 wins."}[won] in status
    # every board the page drew, after every single move, is the rules' board
    drawn = page.evaluate("window.__boards")
    seen = set()
    for text, cells in drawn:
        shown = [int(c) for c in text.split(",")] if text else []
        assert shown == moves[:len(shown)]
        assert cells == board_after(shown)
        seen.add(len(shown))
    assert seen == set(range(len(moves) + 1))
    # the agent's moves show their thinking time
    history = page.eval_on_selector_all("#history li", "items => items.map(i => i.textContent)")
    assert len(history) == len(moves)
    assert all(h.endswith(" ms") or h.endswith(" s") for h in history[1::2])


def test_analysis_shows_the_solver_scores(page, tmp_path):
    moves_text, expected = KNOWN
    assert Solver(tt_bits=20).analyze(moves_text) == expected
    start_game(page, "alphabeta:depth=2", human=1, moves_text=moves_text)
    wait_idle(page, len(moves_text))
    page.check("#analyze")
    page.wait_for_selector("#scores[data-ready='1']")
    shown = page.eval_on_selector_all(
        "#scores .score", "cells => cells.map(c => [+c.dataset.col, c.dataset.score])")
    scores = [int(s) if s else -1000 for _, s in sorted(shown)]
    assert scores == expected
    assert page.get_attribute("#scores", "data-complete") == "1"
    classes = page.eval_on_selector_all("#scores .score", "cells => cells.map(c => c.className)")
    for cls, s in zip(classes, expected):
        assert ({True: "win", False: "loss"}[s > 0] if s else
                ("none" if s == -1000 else "draw")) in cls.split() or s == -1000
    assert told(page.locator("#scores .score")) == words(expected, len(moves_text))
    assert "exact scores (solver)" in page.text_content("#analysis-status")
    # a move and the agent's reply: the analysis follows the new position
    page.click("#board .column[data-col='3']")
    wait_idle(page, len(moves_text) + 2)
    page.wait_for_selector("#scores[data-ready='1']")
    after = "".join(str(c + 1) for c in moves_shown(page))
    shown = page.eval_on_selector_all(
        "#scores .score", "cells => cells.map(c => [+c.dataset.col, c.dataset.score])")
    assert [int(s) if s else -1000 for _, s in sorted(shown)] == Solver(tt_bits=20).analyze(after)
    assert told(page.locator("#scores .score")) == words(Solver(tt_bits=20).analyze(after),
                                                         len(after))
    shot = tmp_path / "serve.png"
    page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 10_000
    if os.environ.get("CONNECTX_SCREENSHOT"):
        shutil.copy(shot, os.environ["CONNECTX_SCREENSHOT"])
    # undo takes back the human's move and the agent's reply
    page.click("#undo")
    wait_idle(page, len(moves_text))
    assert dom_board(page, "#board") == board_after([int(c) - 1 for c in moves_text])


def test_analysis_says_when_it_is_cut_short(page):
    start_game(page, "alphabeta:depth=2", human=1)
    wait_idle(page, 0)
    page.fill("#analysis-time", "0.05")
    page.check("#analyze")
    page.wait_for_selector("#scores[data-ready='1']")
    assert page.get_attribute("#scores", "data-complete") == "0"
    assert "cut short" in page.text_content("#analysis-status")


def test_empty_board_scores_and_its_line_with_the_database(browser, url_db):
    """The opening database: every column of the empty board, exact, and the best line,
    stepped forward on the board; a click on another score shows that column's line."""
    context = browser.new_context(viewport={"width": 1100, "height": 760})
    errors = []
    page = open_page(context, url_db, errors)
    try:
        start_game(page, "alphabeta:depth=2", human=1)
        wait_idle(page, 0)
        page.check("#analyze")
        page.wait_for_selector("#scores[data-ready='1']")
        shown = page.eval_on_selector_all(
            "#scores .score", "cells => cells.map(c => [+c.dataset.col, c.dataset.score])")
        assert [int(s) for _, s in sorted(shown)] == [-2, -1, 0, 1, 0, -1, -2]
        assert told(page.locator("#scores .score")) == [
            "loss in 20", "loss in 21", "draw", "win in 21", "draw", "loss in 21", "loss in 20"]
        assert page.get_attribute("#scores", "data-complete") == "1"
        page.wait_for_selector("#line:not([hidden])")
        page.wait_for_selector("#line-text[data-complete='1']")  # finished by /api/line if cut
        line = [int(c) for c in page.get_attribute("#line-text", "data-moves").split(",")]
        assert line[0] == 3
        assert_wins(line, first=True, stones=2 * (22 - 1) - 1)  # +1: red's 21st stone
        text = page.text_content("#line-text")
        assert text.startswith("Line of column 4 (win in 21): "), text
        for k in (1, 2, 3):
            page.click("#line-forward")
            page.wait_for_selector(f"#board[data-preview='{k}']")
            assert dom_board(page, "#board") == board_after(line[:k])
        assert page.text_content("#line-pos") == f"3 / {len(line)}"
        page.click("#line-back")
        page.wait_for_selector("#board[data-preview='2']")
        # another column's line: column 1 (score -2 for red)
        page.click("#scores .score[data-col='0']")
        page.wait_for_function("() => document.getElementById('line-text').dataset.column === '0'")
        other = [int(c) for c in page.get_attribute("#line-text", "data-moves").split(",")]
        assert other[0] == 0
        assert_wins(other, first=False, stones=2 * (22 - 2))  # -2: yellow's 20th stone
        text = page.text_content("#line-text")
        assert text.startswith("Line of column 1 (loss in 20): "), text
        assert dom_board(page, "#board") == [0] * 42  # the preview was left
    finally:
        context.close()
    assert not errors, errors


def test_a_line_cut_at_the_line_time_is_finished_by_the_page(browser, served):
    """A server whose analyses answer with the line's first column alone (``line_time``
    0): the page shows the scores, then asks ``/api/line`` and shows the whole line,
    which keeps the best score to the end of the game."""
    app, url = served
    moves_text, expected = KNOWN
    context = browser.new_context(viewport={"width": 1100, "height": 760})
    errors = []
    page = open_page(context, url, errors)
    app.line_time = 0.0
    try:
        start_game(page, "alphabeta:depth=2", human=1, moves_text=moves_text)
        wait_idle(page, len(moves_text))
        page.check("#analyze")
        page.wait_for_selector("#scores[data-ready='1']")
        assert page.get_attribute("#scores", "data-complete") == "1"
        page.wait_for_selector("#line-text[data-complete='1']")
        line = [int(c) for c in page.get_attribute("#line-text", "data-moves").split(",")]
        assert len(line) > 1 and expected[line[0]] == max(expected)
        assert "cut short" not in page.text_content("#line-text")
        moves = [int(c) - 1 for c in moves_text]
        board = board_after(moves)
        for i, c in enumerate(line):
            assert c in legal_moves(board, CONFIG) and not winner(board, CONFIG)
            board = drop_piece(board, c, 1 + (len(moves) + i) % 2, CONFIG)
        # +2 for the side to move (mark 1 here: 20 stones): its four on stone 43 - 2 * 2
        assert winner(board, CONFIG) == 1 and len(moves) + len(line) == 43 - 2 * max(expected)
    finally:
        app.line_time = serve.LINE_TIME
        context.close()
    assert not errors, errors


def assert_wins(line, first, stones):
    """Played from the empty board, ``line`` ends with a four of the first (or second)
    player on stone ``stones`` and not before."""
    board = [0] * 42
    for i, c in enumerate(line):
        assert not winner(board, CONFIG)
        board = drop_piece(board, c, 1 + i % 2, CONFIG)
    assert winner(board, CONFIG) == (1 if first else 2) and len(line) == stones


def test_bad_agent_shows_the_servers_message(page):
    start_game(page, "alphabeta:deep=3", human=2)
    page.wait_for_selector("#status.error")
    assert "unknown option(s) deep" in page.text_content("#status")


def test_replay_of_a_saved_match_game(page, tmp_path):
    path = tmp_path / "games.json"
    assert match_main(["rules", "random", "--games", "2", "--json", str(path), "--quiet"]) == 0
    game = json.loads(path.read_text())["games"][1]
    page.click("#tab-replay")
    page.set_input_files("#replay-file", str(path))
    page.wait_for_function("() => document.getElementById('replay-game').options.length === 2")
    page.select_option("#replay-game", "1")
    page.wait_for_selector("#replay-board[data-game='1']")
    assert page.eval_on_selector_all("#replay-moves li", "items => items.length") \
        == len(game["moves"])
    assert dom_board(page, "#replay-board") == board_after([])
    n = len(game["opening"])  # the opening's moves (a balanced suite on 7x6) have no time
    for k in range(1, len(game["moves"]) + 1):
        page.click("#replay-forward")
        assert page.get_attribute("#replay-board", "data-pos") == str(k)
        assert dom_board(page, "#replay-board") == board_after(game["moves"][:k])
        if k <= n:
            assert not page.get_attribute("#replay-status", "data-time")
            continue
        t = game["times"][(k - 1) % 2][(k - 1 - n) // 2]
        assert float(page.get_attribute("#replay-status", "data-time")) == pytest.approx(t)
        shown = f"{1000 * t:.1f} ms" if t < 1 else f"{t:.2f} s"
        assert f"in {shown}" in page.text_content("#replay-status")
    assert game["result"] in page.text_content("#replay-status")
    page.click("#replay-back")
    assert dom_board(page, "#replay-board") == board_after(game["moves"][:-1])


def test_two_tabs_play_two_games(browser, url):
    """Two tabs of one browser, moves interleaved: each keeps its own game."""
    context = browser.new_context()
    errors = []
    try:
        tabs = [open_page(context, url, errors) for _ in range(2)]
        for tab, start in zip(tabs, ("4", "11")):
            start_game(tab, "alphabeta:depth=2", human=1 + len(start) % 2, moves_text=start)
        for tab, start in zip(tabs, ("4", "11")):  # the human to move in both
            wait_idle(tab, len(start))
        played = [moves_shown(tab) for tab in tabs]
        assert played == [[3], [0, 0]]
        for tab, column in zip(tabs, (0, 6)):
            tab.click(f"#board .column[data-col='{column}']")
        for tab, before, column in zip(tabs, played, (0, 6)):
            wait_idle(tab, len(before) + 2)
            moves = moves_shown(tab)
            assert moves[:len(before) + 1] == before + [column]
            assert dom_board(tab, "#board") == board_after(moves)
    finally:
        context.close()
    assert not errors, errors


def test_search_tree_tab_draws_a_textbook_tree_and_a_position(page):
    """The "Search tree" tab: the article's tree with its pruned leaf greyed and the
    principal variation bold; then a real position (the 20-stone KNOWN one) searched to
    depth 2, every node of the server's own trace drawn, the exact values beside the
    root's children the solver's scores."""
    from scripts.server.search_tree import position_tree
    page.click("#tab-tree")
    page.fill("#tree-input", "[[3, 5], [2, 9]]")
    page.click("#tree-draw")
    page.wait_for_selector("#tree-picture[data-ready='1']")
    drawn = page.eval_on_selector_all(
        "#tree-picture g.node", "gs => gs.map(g => [g.dataset.path, g.getAttribute('class'),"
        " g.querySelector('.shape').getAttribute('fill'), g.getBoundingClientRect().width])")
    assert [p for p, _, _, _ in drawn] == ["", "0", "0.0", "0.1", "1", "1.0", "1.1"]
    assert {p for p, cls, _, _ in drawn if "pruned" in cls.split()} == {"1.1"}
    assert {p for p, cls, _, _ in drawn if "pv" in cls.split()} == {"", "0", "0.0"}
    assert {p: fill for p, _, fill, _ in drawn}["1.1"] == "#eee"  # greyed
    assert all(width > 0 for *_, width in drawn)  # laid out, visible
    assert "principal variation: 0 0" in page.text_content("#tree-status")
    moves_text, expected = KNOWN
    page.fill("#tree-input", moves_text)
    page.fill("#tree-depth", "2")
    page.click("#tree-draw")
    page.wait_for_selector("#tree-picture[data-ready='1'] g.node[data-path='0.0']")
    want = position_tree(moves_text, 2, exact=False).root
    paths = page.eval_on_selector_all("#tree-picture g.node", "gs => gs.map(g => g.dataset.path)")
    assert paths == [".".join(map(str, n.path)) for n in walk(want)]
    pruned = page.eval_on_selector_all("#tree-picture g.node.pruned",
                                       "gs => gs.map(g => g.dataset.path)")
    assert pruned and pruned == [".".join(map(str, n.path)) for n in walk(want) if not n.visited]
    exact = page.eval_on_selector_all(
        "#tree-picture g.node", "gs => gs.filter(g => g.dataset.path.split('.').length === 1"
        " && g.dataset.path !== '').map(g => g.querySelector('.exact').textContent)")
    assert [int(e) for e in exact] == [s for s in expected if s != -1000]
