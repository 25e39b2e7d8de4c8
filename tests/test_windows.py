"""The window searches of agents/games/searches/windows.py against the reference
alpha-beta: the same value on every tested position, from every first guess."""
import math
import random

import pytest

from agents.games.coins import CoinGame
from agents.games.protocol import Counter, alphabeta_value, minimax_value, random_playout
from agents.games.searches.windows import (Memory, aspiration_value, lalphabeta_value,
                                           mt_sss_value, mtdf_value, pvs_value, window_value)
from agents.games.tictactoe import TicTacToe
from agents.games.trees import GameTree, root_value


def tictactoe_positions(n, seed, least=0):
    """``n`` seeded unfinished positions after ``least``-5 random moves."""
    game, rng = TicTacToe(), random.Random(seed)
    out = []
    while len(out) < n:
        s = random_playout(game, None, rng, rng.randrange(least, 6))
        if not game.is_terminal(s):
            out.append(s)
    return game, out


@pytest.mark.parametrize("depth", [2, 4, 9])
def test_every_driver_equals_alphabeta_on_tictactoe(depth):
    game, states = tictactoe_positions(12, depth, 3 if depth == 9 else 0)
    for s in states:
        want = alphabeta_value(game, s, depth)
        assert minimax_value(game, s, depth) == want
        assert pvs_value(game, s, depth) == want
        assert lalphabeta_value(game, s, depth) == want
        assert window_value(game, s, depth, -math.inf, math.inf, memory=Memory()) == want
        for guess in (-5, 0, 3, 7):
            assert mtdf_value(game, s, depth, guess)[0] == want
            assert aspiration_value(game, s, depth, guess, 1)[0] == want
        assert mt_sss_value(game, s, depth, 10)[0] == want


def test_a_window_value_is_a_bound_on_the_side_it_fails():
    game, states = tictactoe_positions(20, 5, 3)
    for s in states:
        v = alphabeta_value(game, s, 9)
        for a, b in ((-2, 2), (0, 1), (v - 1, v + 1), (v, v + 1), (v - 1, v)):
            g = window_value(game, s, 9, a, b)
            if a < v < b:
                assert g == v
            elif v <= a:
                assert v <= g <= a
            else:
                assert b <= g <= v


def test_mtdf_counts_fewer_nodes_from_a_good_guess_and_matches_on_coins_and_trees():
    game = TicTacToe()
    s = game.initial()
    near, far = Counter(), Counter()
    assert mtdf_value(game, s, 9, 0, counter=near)[0] == 0
    assert mtdf_value(game, s, 9, 5, counter=far)[0] == 0
    assert near.nodes < far.nodes
    for coins in range(1, 13):
        g = CoinGame(coins)
        assert mtdf_value(g, g.initial(), coins)[0] == alphabeta_value(g, g.initial(), coins)
    rng = random.Random(4)
    for _ in range(30):
        t = GameTree([[rng.randrange(-9, 10) for _ in range(rng.randrange(1, 4))]
                  for _ in range(rng.randrange(1, 4))])
        assert mtdf_value(t, (), 2)[0] == mt_sss_value(t, (), 2, 9)[0] == root_value(t)


def test_fractional_values_and_bad_windows_are_refused():
    t = GameTree([[0.5, 1]])
    with pytest.raises(ValueError, match="integer values"):
        mtdf_value(t, (), 2)
    with pytest.raises(ValueError, match="delta > 0"):
        aspiration_value(TicTacToe(), TicTacToe().initial(), 2, 0, 0)


def test_lalphabeta_puts_the_killer_first_and_reads_fewer_nodes_than_pvs():
    """The same scout search with and without the killer of each ply first: the same
    values, fewer nodes with it on positions searched to the end (the move that refuted
    a sibling refutes again)."""
    game, states = tictactoe_positions(6, 11, 2)
    with_killer, without = Counter(), Counter()
    for s in states:
        assert lalphabeta_value(game, s, 9, None, with_killer) == \
            pvs_value(game, s, 9, None, without)
    assert with_killer.nodes < without.nodes
