"""The package's agents as OpenSpiel bots (agents.envs.spiel), played against OpenSpiel's
own MCTSBot through its evaluate_bots."""
import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")
from open_spiel.python.algorithms import evaluate_bots, mcts  # noqa: E402

from agents.board.rules_reference import ref_drop, ref_winner  # noqa: E402
from agents.envs.spiel import AgentBot, kaggle_board  # noqa: E402


def mcts_bot(game, seed):
    rng = np.random.RandomState(seed)
    return mcts.MCTSBot(game, uct_c=2, max_simulations=60,
                        evaluator=mcts.RandomRolloutEvaluator(1, rng), random_state=rng)


@pytest.mark.parametrize("text", ["connect_four", "connect_four(rows=5,columns=6,x_in_row=3)"])
def test_agents_play_openspiel_mcts_through_evaluate_bots(text):
    game = pyspiel.load_game(text)
    p = game.get_parameters()
    rows, columns, inarow = p["rows"], p["columns"], p["x_in_row"]
    wins = 0
    for seat in (0, 1):
        ours = AgentBot(game, "alphabeta:depth=4")
        bots = [ours, mcts_bot(game, seat)] if seat == 0 else [mcts_bot(game, seat), ours]
        state = game.new_initial_state()
        returns = evaluate_bots.evaluate_bots(state, bots, np.random.RandomState(seat))
        assert state.is_terminal() and sum(returns) == 0
        board = [0] * (rows * columns)  # the game again on the reference rules
        for i, col in enumerate(state.history()):
            board = ref_drop(board, col, 1 + i % 2, rows, columns)
        assert kaggle_board(state, ours.cfg) == board
        won = ref_winner(board, rows, columns, inarow)
        assert returns[0] == (0 if not won else (1 if won == 1 else -1))
        wins += returns[seat] == 1
    assert wins >= 1  # depth-4 alpha-beta against 60 random-rollout simulations


def test_bad_games_and_agents():
    with pytest.raises(ValueError, match="not 'tic_tac_toe'"):
        AgentBot(pyspiel.load_game("tic_tac_toe"), "random")
    with pytest.raises(ValueError, match="unknown opponent 'nobody'"):
        AgentBot(pyspiel.load_game("connect_four"), "nobody")
    with pytest.raises(ValueError, match="needs an agent"):
        AgentBot(pyspiel.load_game("connect_four"), None)


def test_an_openspiel_bot_plays_the_packages_match():
    import random

    from agents.board.rules_reference import board_from_moves, random_position
    from agents.envs.spiel import bot_agent, game_config, history_of
    from scripts.arena.match import match
    game = pyspiel.load_game("connect_four(rows=5,columns=6,x_in_row=4)")
    cfg = game_config(game)
    rng = random.Random(0)
    for _ in range(40):  # the history found replays to the board
        moves = random_position(5, 6, 4, rng.randrange(25), rng, as_moves=True)
        if moves is not None:
            board = board_from_moves(moves, 5, 6)
            assert board_from_moves(history_of(board, cfg), 5, 6) == board
    with pytest.raises(ValueError, match="2 stones of mark 1 and 0 of mark 2"):
        history_of([0] * 24 + [1, 1, 0, 0, 0, 0], cfg)  # two stones of mark 1, bottom row
    with pytest.raises(ValueError, match="above an empty cell"):
        history_of([1] + [0] * 29, cfg)
    result = match(bot_agent(mcts_bot(game, 0), game), "random", games=2,
                   cfg="rows=5,columns=6,inarow=4", progress=False)
    assert result.summary["games"] == 2
    assert result.summary["agents"][0] == "openspiel.MCTSBot"
