"""Uniform-sampling Monte Carlo and UCT on the Game protocol: seeded runs repeat,
both find a tic-tac-toe win in one, UCT's visits add up to its iterations and it
blocks a threat."""
import random

import pytest

from agents.games.tictactoe import TicTacToe, parse_board
from agents.games.searches.montecarlo import uct_move, uniform_sampling_move

GAME = TicTacToe()


def state(picture):
    board = parse_board("\n".join(line.strip() for line in picture.strip().splitlines()))
    return (board, 1 if board.count(1) == board.count(2) else 2)


WIN_IN_ONE = state("""
    xx.
    oo.
    ...
""")


def test_both_take_a_win_in_one_and_repeat_with_the_seed():
    move, means = uniform_sampling_move(GAME, WIN_IN_ONE, 200, random.Random(1))
    assert move == 2 and means[2] == 1.0
    assert (move, means) == uniform_sampling_move(GAME, WIN_IN_ONE, 200, random.Random(1))
    move, visits = uct_move(GAME, WIN_IN_ONE, 300, random.Random(1))
    assert move == 2 and sum(visits.values()) == 300
    assert (move, visits) == uct_move(GAME, WIN_IN_ONE, 300, random.Random(1))


def test_uct_blocks_where_it_must():
    s = state("""
        x..
        oo.
        x..
    """)  # x to move must block at 5
    move, _ = uct_move(GAME, s, 2000, random.Random(3))
    assert move == 5


def test_a_finished_game_has_no_move():
    over = state("""
        xxx
        oo.
        ...
    """)
    with pytest.raises(ValueError, match="over"):
        uct_move(GAME, over, 10, random.Random(0))
    with pytest.raises(ValueError, match="over"):
        uniform_sampling_move(GAME, over, 10, random.Random(0))
