"""max^n with and without shallow pruning: the same root vector with no more nodes on
seeded positions of 3-player Isolation (evaluation at the horizon and searched to
the end), and max^n on a two-player zero-sum game is minimax."""
import random

import pytest

from agents.games.isolation import MultiIsolation
from agents.games.tictactoe import O, X, TicTacToe, solve
from agents.games.searches.maxn import maxn_best, maxn_value, maxn_value_reference
from agents.games.protocol import Counter, minimax_value, random_playout
from conftest import shuffled_multi_isolation



@pytest.mark.parametrize("depth", [1, 2, 3, 4])
def test_shallow_pruning_keeps_the_root_vector_with_no_more_nodes(depth):
    game = MultiIsolation(4, 4)
    rng = random.Random(depth)
    pruned_any = False
    for _ in range(12):
        s = random_playout(game, None, rng, rng.randrange(3, 9))
        plain, pruned = Counter(), Counter()
        v = maxn_value_reference(game, s, depth, plain)
        assert maxn_value(game, s, depth, game.total, pruned) == v
        assert maxn_value(game, s, depth) == v
        assert abs(sum(v) - 1) < 1e-12
        assert pruned.nodes <= plain.nodes
        pruned_any |= pruned.nodes < plain.nodes
    assert pruned_any or depth == 1


def test_shallow_pruning_searched_to_the_end_on_a_small_board():
    rng = random.Random(4)
    for seed in range(6):
        game = shuffled_multi_isolation(seed, 3, 3)
        s = random_playout(game, None, rng, 3)
        plain, pruned = Counter(), Counter()
        v = maxn_value_reference(game, s, 20, plain)
        vector, move = maxn_best(game, s, 20, game.total, pruned)
        assert vector == v and v in ((1, 0, 0), (0, 1, 0), (0, 0, 1))
        assert pruned.nodes <= plain.nodes
        assert move in game.actions(s)


def test_maxn_of_a_two_player_zero_sum_game_is_minimax():
    game = TicTacToe()
    game.players = (X, O)
    table = solve()
    positions = sorted(s for s in table if not game.is_terminal(s))
    for s in random.Random(2).sample(positions, 25):
        v = maxn_value(game, s, 9)
        assert v == (minimax_value(game, s, 9, X), minimax_value(game, s, 9, O))
        assert v[0] == (table[s] if s[1] == X else -table[s])


def test_a_broken_constant_sum_is_rejected():
    game = TicTacToe()
    game.players = (X, O)
    with pytest.raises(ValueError, match="shallow pruning"):
        maxn_value(game, game.initial(), 9, total=0)
