"""The PettingZoo AEC environment (agents.envs.aec): PettingZoo's own api_test and
seed_test, the same observations, rewards and ends as connect_four_v3 on 6x7, and random
games on other boards against the reference rules."""
import numpy as np
import pytest

pytest.importorskip("pettingzoo")
from pettingzoo.test import api_test, seed_test  # noqa: E402

from agents.board.rules_reference import ref_drop, ref_winner  # noqa: E402
from agents.envs import aec  # noqa: E402


@pytest.mark.parametrize("shape", [(6, 7, 4), (5, 9, 3)])
def test_pettingzoo_api_and_seed_tests(shape):
    rows, columns, inarow = shape
    api_test(aec.env(rows=rows, columns=columns, inarow=inarow), num_cycles=60)
    seed_test(lambda: aec.env(rows=rows, columns=columns, inarow=inarow), num_cycles=60)


def test_drop_in_for_connect_four_v3():
    pytest.importorskip("pygame")
    from pettingzoo.classic import connect_four_v3
    ours, theirs = aec.env(), connect_four_v3.env()
    rng = np.random.default_rng(0)
    for game in range(20):
        ours.reset(seed=game)
        theirs.reset(seed=game)
        assert ours.agents == theirs.agents == ["player_0", "player_1"]
        for a, b in zip(ours.agent_iter(), theirs.agent_iter()):
            assert a == b
            for agent in ours.agents:
                mine, their = ours.observe(agent), theirs.observe(agent)
                for key in ("observation", "action_mask"):
                    np.testing.assert_array_equal(mine[key], their[key])
                    assert mine[key].dtype == their[key].dtype
            last, their_last = ours.last(), theirs.last()
            assert last[1:4] == their_last[1:4]
            if last[2]:
                ours.step(None)
                theirs.step(None)
                continue
            col = int(rng.choice(np.flatnonzero(last[0]["action_mask"])))
            ours.step(col)
            theirs.step(col)


@pytest.mark.parametrize("shape", [(4, 5, 3), (7, 8, 5), (8, 9, 4)])
def test_random_games_end_as_the_reference_rules_say(shape):
    rows, columns, inarow = shape
    env = aec.env(rows=rows, columns=columns, inarow=inarow)
    rng = np.random.default_rng(sum(shape))
    for _ in range(15):
        env.reset()
        board = [0] * (rows * columns)
        mark = 1
        while True:
            obs, reward, terminated, truncated, _ = env.last()
            if terminated:
                break
            col = int(rng.choice([c for c in range(columns) if board[c] == 0]))
            env.step(col)
            board = ref_drop(board, col, mark, rows, columns)
            mark = 3 - mark
        won = ref_winner(board, rows, columns, inarow)
        assert won or all(board)
        expected = {"player_0": 0, "player_1": 0}
        if won:
            expected = {"player_0": 1 if won == 1 else -1, "player_1": 1 if won == 2 else -1}
        assert env.unwrapped._cumulative_rewards == expected


def test_illegal_and_bad_actions():
    env = aec.env(rows=2, columns=3, inarow=3)
    env.reset()
    for col in (0, 0):
        env.step(col)
    with pytest.raises(ValueError, match="action 3 is out of range 0..2"):
        env.step(3)
    with pytest.raises(TypeError, match="action must be an integer"):
        env.step("1")
    env.step(0)  # full: player_0 loses
    assert env.unwrapped.rewards == {"player_0": -1.0, "player_1": 0.0}
    assert all(env.unwrapped.terminations.values())
