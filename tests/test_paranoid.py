"""The paranoid search: alpha-beta on the two-player reduction equals the plain
reference minimax on the n-player game (every other player minimising ``player``'s
value) with no more nodes, on seeded 3-player Isolation positions, in any child order."""
import random

import pytest

from agents.games.isolation import MultiIsolation
from agents.games.searches.paranoid import COALITION, ParanoidGame, paranoid_best, paranoid_value
from agents.games.protocol import Counter, minimax_value, random_playout
from conftest import shuffled_multi_isolation



@pytest.mark.parametrize("depth", [1, 2, 3, 4])
def test_paranoid_alphabeta_equals_the_reference_with_no_more_nodes(depth):
    game = MultiIsolation(4, 4)
    shuffled = shuffled_multi_isolation(depth, 4, 4)
    rng = random.Random(10 + depth)
    for _ in range(10):
        s = random_playout(game, None, rng, rng.randrange(3, 9))
        for player in game.players:
            plain, ab = Counter(), Counter()
            v = minimax_value(game, s, depth, player, plain)  # the paranoid value, unpruned
            assert paranoid_value(game, s, depth, player, ab) == v
            assert paranoid_value(shuffled, s, depth, player) == v
            assert minimax_value(ParanoidGame(game, player), s, depth, player) == v
            assert ab.nodes <= plain.nodes


def test_the_reduction_has_two_sides_and_opposite_values():
    game = MultiIsolation(3, 3)
    reduced = ParanoidGame(game, 1)
    s = game.initial()
    assert reduced.to_move(s) == COALITION and reduced.players == (1, COALITION)
    s = game.result(s, (0, 0))
    assert reduced.to_move(s) == 1
    assert reduced.evaluate(s, 1) == -reduced.evaluate(s, COALITION) == game.evaluate(s, 1)
    value, move = paranoid_best(game, s, 3)
    assert move in game.actions(s) and value == paranoid_value(game, game.result(s, move), 2, 1)
    with pytest.raises(ValueError, match="not one of"):
        ParanoidGame(game, 5)
