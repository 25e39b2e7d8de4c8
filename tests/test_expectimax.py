"""Expectimax: equal to minimax on games without chance (tic-tac-toe, mini-Isolation,
sloppy Isolation with slip 0), and on sloppy Isolation equal to a hand-written
expectation over the outcomes of the first move."""
import math
import random

from agents.games.isolation import SloppyIsolation, mini_isolation
from agents.games.tictactoe import TicTacToe, solve
from agents.games.searches.expectimax import expectimax_best, expectimax_value
from agents.games.protocol import minimax_value, random_playout



def test_expectimax_without_chance_is_minimax():
    game = TicTacToe()
    table = solve()
    positions = sorted(s for s in table if not game.is_terminal(s))
    for s in random.Random(3).sample(positions, 80):
        assert expectimax_value(game, s, 9) == table[s]
    mini = mini_isolation()
    for a in mini.actions(mini.initial()):
        s = mini.result(mini.initial(), a)
        assert expectimax_value(mini, s, 10, 0) == minimax_value(mini, s, 10, 0)
    plain = SloppyIsolation(4, 4, slip=0.0)
    rng = random.Random(6)
    for _ in range(10):
        s = random_playout(plain, None, rng, rng.randrange(2, 8))
        for depth in (1, 2, 3):
            assert expectimax_value(plain, s, depth, 0) == minimax_value(plain, s, depth, 0)


def test_expectimax_averages_the_outcomes_of_a_sloppy_move():
    game = SloppyIsolation(4, 4, slip=0.3)
    rng = random.Random(12)
    checked = 0
    for _ in range(20):
        s = random_playout(game, None, rng, rng.randrange(2, 7))
        if game.is_terminal(s):
            continue
        me = game.to_move(s)
        by_hand = max(sum(p * expectimax_value(game, t, 1, me) for p, t in game.outcomes(s, a))
                      for a in game.actions(s))
        assert math.isclose(expectimax_value(game, s, 2), by_hand)
        value, move = expectimax_best(game, s, 2)
        assert math.isclose(value, by_hand) and move in game.actions(s)
        checked += any(len(game.outcomes(s, a)) > 1 for a in game.actions(s))
    assert checked >= 5
