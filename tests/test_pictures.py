"""The pictures of a search (agents.games.pictures, scripts.server.search_tree): the
recorded alpha-beta is the reference alpha-beta step for step, its windows tell bounds
from exact values truthfully, and the text and SVG show what was pruned and the
principal variation. The exact values beside a real position's search are checked
against the solver in tests/test_serve_browser.py (which compiles the solver anyway)."""
import random
import xml.etree.ElementTree as ET

import pytest

from agents.games.protocol import alphabeta_value, minimax_value
from agents.games.pictures import principal_variation, svg, text, trace, walk
from agents.games.trees import MAX, GameTree, backed_up, depth_of, draw, pruned_leaves
from agents.search.reference import ConnectX, flat_heuristic
from scripts.commands.lessons import main as lessons_main
from scripts.server.search_tree import position_tree, textbook_tree

# the tic-tac-toe article's tree (MAX at the root): 3 at the root, the leaf 9 never read
ARTICLE_TREE = [[3, 5], [2, 9]]


def random_tree(rng, depth):
    if depth == 0 or (depth < 3 and rng.random() < 0.2):
        return rng.choice([rng.randrange(-9, 10), rng.randrange(-9, 10), float("inf")])
    return [random_tree(rng, depth - 1) for _ in range(rng.randrange(1, 4))]


def test_the_articles_tree_drawn_as_text_with_its_windows():
    root = trace(GameTree(ARTICLE_TREE), (), 2)
    assert text(root).splitlines() == [
        "* 3 max [-inf, +inf]",
        "    * 3 min [-inf, +inf]",
        "        * 3 [-inf, +inf]",
        "          5 [-inf, 3]",
        "      <=2 min [3, +inf]",       # failed low: 2 is a bound, below alpha = 3
        "          2 [3, +inf]",
        "          9 (pruned)",
    ]
    assert principal_variation(root) == [0, 0]
    assert draw(GameTree(ARTICLE_TREE)).splitlines()[4] == "      <=2 min"


@pytest.mark.parametrize("seed", range(40))
def test_the_recorded_search_is_the_reference_alphabeta(seed):
    """Same value and the same leaves read as agents.games.protocol.alphabeta_value; every
    visited node's value is its minimax value, or a bound on the side its window says;
    minimax (prune=False) visits every node with its minimax value."""
    rng = random.Random(seed)
    t = GameTree(random_tree(rng, rng.randrange(1, 5)))
    d, values = depth_of(t), backed_up(t)
    root = trace(t, (), d)
    assert root.value == alphabeta_value(t, (), d, MAX) == values[()]
    skipped = [n.path for n in walk(root) if not n.visited and not n.children]
    assert skipped == pruned_leaves(t)
    for n in walk(root):
        # fail-soft: the backed-up value is exact inside the entry window, a bound
        # outside it; the nodes never visited show their plain minimax value
        true = values[n.path]
        if n.bound == "<=":
            assert n.value <= n.alpha and true <= n.value
        elif n.bound == ">=":
            assert n.value >= n.beta and true >= n.value
        else:
            assert n.value == true
    pv = [n for n in walk(root) if n.pv]
    assert all(n.value == values[()] and n.visited for n in pv)
    assert not pv[-1].children  # the principal variation reaches a leaf
    full = trace(t, (), d, prune=False)
    assert all(n.visited and n.value == values[n.path] and n.alpha is None
               for n in walk(full))
    assert [n.path for n in walk(full)] == [n.path for n in walk(root)]


def test_the_svg_greys_what_was_pruned_and_bolds_the_principal_variation():
    doc = ET.fromstring(svg(trace(GameTree(ARTICLE_TREE), (), 2), title="article"))
    ns = "{http://www.w3.org/2000/svg}"
    nodes = {g.get("data-path"): g for g in doc.iter(ns + "g")}
    assert sorted(nodes) == ["", "0", "0.0", "0.1", "1", "1.0", "1.1"]
    classes = {p: set(g.get("class").split()) for p, g in nodes.items()}
    assert {p for p, c in classes.items() if "pruned" in c} == {"1.1"}
    assert {p for p, c in classes.items() if "pv" in c} == {"", "0", "0.0"}
    assert classes[""] >= {"max"} and classes["1"] >= {"min"} and classes["1.1"] >= {"leaf"}
    shape = {p: g[0] for p, g in nodes.items()}
    assert shape["1.1"].get("fill") == "#eee" and shape["1.0"].get("fill") == "#fff"
    assert float(shape[""].get("stroke-width")) > float(shape["1"].get("stroke-width"))
    edges = [e.get("class") for e in doc.iter(ns + "line")]
    assert sorted(edges) == ["edge", "edge", "edge", "edge pruned", "edge pv", "edge pv"]
    texts = {t.get("class"): t.text for g in nodes.values() for t in g if t.get("class")}
    assert texts["window"] and "exact" not in texts


def test_a_connect_four_positions_search_drawn_without_the_solver():
    game = ConnectX(heuristic=flat_heuristic("threats"))
    moves = "4453"
    picture = position_tree(moves, depth=2, heuristic="threats", exact=False)
    root = picture.root
    assert root.value == alphabeta_value(game, root.state, 2)
    assert [c.action for c in root.children] == list(range(7))
    assert all(c.value == minimax_value(game, c.state, 1, 1) for c in root.children
               if c.visited and not c.bound)
    assert any(not n.visited for n in walk(root))  # alpha-beta cut something
    assert all(not n.children for n in walk(root) if not n.visited)  # stubs, not revealed
    lines = picture.text().splitlines()
    assert lines[0].startswith("* ") and "max [-inf, +inf]" in lines[0]
    assert sum("(pruned)" in line for line in lines) == sum(not n.visited for n in walk(root))
    assert "exact" not in picture.text()


@pytest.mark.parametrize("bad, message", [
    (dict(moves="4453", depth=0), "depth must be"),
    (dict(moves="4453", depth=5), "depth must be"),
    (dict(moves="48", depth=2), "column digits 1-7"),
    (dict(moves="1212121", depth=2), "is over"),
    (dict(moves="44", depth=2, heuristic="nope"), "unknown heuristic"),
])
def test_bad_position_requests_name_what_is_wrong(bad, message):
    with pytest.raises(ValueError, match=message):
        position_tree(exact=False, **bad)


@pytest.mark.parametrize("bad, message", [("[[3, 5], []]", "no children"),
                                          ("[[3, 'x']]", "not a number"),
                                          ("[[3, 5", "not a tree"), ("7", "list of children")])
def test_bad_textbook_trees_name_what_is_wrong(bad, message):
    with pytest.raises(ValueError, match=message):
        textbook_tree(bad)


def test_the_command_prints_the_tree_and_writes_the_svg(tmp_path, capsys):
    out = tmp_path / "tree.svg"
    assert lessons_main(["tree", "[[3, 5], [2, 9]]", "--svg", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "9 (pruned)" in printed and "<=2 min [3, +inf]" in printed
    assert ET.parse(out).getroot().get("class") == "cx-tree"
    assert lessons_main(["tree", "4453", "--minimax", "--no-exact", "--depth", "1"]) == 0
    printed = capsys.readouterr().out.splitlines()
    assert len(printed) == 1 + 8 and "(pruned)" not in "".join(printed)
    assert lessons_main(["tree", "4453", "--depth", "9", "--no-exact"]) == 2
    assert "depth must be" in capsys.readouterr().err
