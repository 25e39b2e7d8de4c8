"""The textbook trees (agents/games/trees.py): the values the seed material prints,
the leaves alpha-beta never reads, and on seeded random trees that those leaves can
take any value without changing the root's."""
import math
import random

import pytest

from agents.games.protocol import alphabeta_value, minimax_value
from agents.games.trees import MAX, GameTree, backed_up, draw, pruned_leaves, root_value

# The material's printed values, copied by hand from the seed material (the team's seeds
# folder, outside the repository; never read here).
# 004, the tic-tac-toe article: its tree, MAX at the root, and the values it backs up
ARTICLE_TREE = [[3, 5], [2, 9]]
ARTICLE_VALUES = {(0,): 3, (1,): 2, (): 3}
# 003, the adversarial-search lesson's minimax figure: one MIN node of leaves 10 and
# +inf, backed up to 10 (the only node whose values its text gives)
LESSON_NODE = [[10, math.inf]]
LESSON_VALUE = 10


def test_the_articles_tree_backs_up_to_3_and_alphabeta_never_reads_its_9():
    t = GameTree(ARTICLE_TREE)
    values = backed_up(t)
    assert {s: values[s] for s in ARTICLE_VALUES} == ARTICLE_VALUES
    assert root_value(t, minimax_value) == root_value(t, alphabeta_value) == 3
    assert pruned_leaves(t) == [(1, 1)]  # after 2 < 3 the right MIN node is cut
    assert t.node((1, 1)) == 9
    assert draw(t).splitlines() == [
        "* 3 max",
        "    * 3 min",
        "        * 3",
        "          5",
        "      <=2 min",  # alpha-beta backed up a bound: 2 <= alpha = 3
        "          2",
        "          9 (pruned)",
    ]


def test_the_lessons_min_node_takes_10_over_plus_infinity():
    t = GameTree(LESSON_NODE)
    assert backed_up(t)[(0,)] == LESSON_VALUE == root_value(t)
    assert pruned_leaves(t) == []  # a MIN node's first leaf cuts nothing at the root


def random_tree(rng, depth):
    if depth == 0 or (depth < 3 and rng.random() < 0.2):
        return rng.randrange(-9, 10)
    return [random_tree(rng, depth - 1) for _ in range(rng.randrange(1, 4))]


@pytest.mark.parametrize("seed", range(40))
def test_pruned_leaves_can_take_any_value_without_changing_the_root(seed):
    rng = random.Random(seed)
    nodes = random_tree(rng, rng.randrange(1, 6))
    t = GameTree(nodes)
    value = root_value(t)
    assert root_value(t, alphabeta_value) == value == backed_up(t)[()]
    cut = pruned_leaves(t)

    def replaced(n, path, new):
        if path in new:
            return new[path]
        if not isinstance(n, list):
            return n
        return [replaced(c, path + (i,), new) for i, c in enumerate(n)]

    for extreme in (-math.inf, math.inf):
        other = GameTree(replaced(nodes, (), {p: extreme for p in cut}))
        assert root_value(other) == value


def test_bad_trees_are_refused():
    with pytest.raises(ValueError, match="no children"):
        GameTree([[1, 2], []])
    with pytest.raises(ValueError, match=r"leaf \(0, 1\) is 'x'"):
        GameTree([[1, "x"]])
    assert GameTree([[1]]).to_move((0,)) != MAX
