"""The RL conventions of the environments (issue 55, item 5): the array observation with
the mask in ``info`` (single, vector, AEC) against the dict one, Gymnasium's check_env and
PettingZoo's api_test and render_test in the new modes, an ``rgb_array`` frame read back
cell by cell, the ``human`` window, the default seat, and the vector environment's
self-play ``current_player`` and ``rewards`` against PettingZoo's rules."""
import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")
from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, render_test  # noqa: E402

from agents.board.rules_reference import ref_drop, ref_winner  # noqa: E402
from agents.envs import aec  # noqa: E402
from agents.envs.render import BOARD, CELL, COLOURS  # noqa: E402
from agents.envs.single import ConnectXEnv  # noqa: E402
from agents.envs.vector import ConnectXVectorEnv  # noqa: E402

SMALL = {"rows": 4, "columns": 5, "inarow": 3}
MODES = [None, "ansi", "rgb_array", "human"]


@pytest.fixture
def offscreen(monkeypatch):
    """pygame draws off screen (SDL's dummy driver): the human mode runs headless, its
    frames unthrottled (no test sleeps)."""
    pytest.importorskip("pygame")
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")


def read_board(frame, rows, columns):
    """Kaggle's flat board read back from an ``rgb_array`` frame: each cell's centre
    pixel matched to a mark's colour (-1: none, a drawing error)."""
    centres = frame[CELL // 2::CELL, CELL // 2::CELL][:rows, :columns]
    marks = np.full((rows, columns), -1)
    for mark, colour in enumerate(COLOURS):
        marks[(centres == colour).all(axis=2)] = mark
    return marks.reshape(-1).tolist()


@pytest.mark.parametrize("render_mode", MODES)
@pytest.mark.parametrize("obs_type", ["dict", "array"])
def test_gymnasium_check_env_in_every_mode(obs_type, render_mode, offscreen):
    check_env(ConnectXEnv(**SMALL, obs_type=obs_type, render_mode=render_mode))


def test_registered_env_takes_the_options():
    import agents.envs  # noqa: F401 - registers connectx/ConnectX-v0
    env = gymnasium.make("connectx/ConnectX-v0", **SMALL, obs_type="array",
                         render_mode="rgb_array")
    obs, info = env.reset(seed=0)
    assert obs.shape == (4, 5, 2) and info["action_mask"].tolist() == [1] * 5
    assert env.render().shape == (4 * CELL, 5 * CELL, 3)
    check_env(env.unwrapped, skip_render_check=True)
    # Gymnasium's own vectoring of it puts the masks in info the way ConnectXVectorEnv does
    sync = gymnasium.make_vec("connectx/ConnectX-v0", num_envs=2, vectorization_mode="sync",
                              **SMALL, obs_type="array")
    _, info = sync.reset(seed=0)
    ours = ConnectXVectorEnv(2, **SMALL, obs_type="array").reset(seed=0)[1]
    for key in ("action_mask", "_action_mask"):
        np.testing.assert_array_equal(info[key], ours[key])


@pytest.mark.parametrize("obs_type", ["dict", "array"])
def test_pettingzoo_api_test_and_render_test(obs_type, offscreen):
    api_test(aec.env(**SMALL, obs_type=obs_type, render_mode="rgb_array"), num_cycles=40)
    render_test(lambda render_mode=None: aec.env(**SMALL, obs_type=obs_type,
                                                 render_mode=render_mode))


def test_array_observation_is_the_dicts_planes_and_mask():
    """The same seeded games in both observation types: the array is the dict's
    ``observation`` and ``info["action_mask"]`` its ``action_mask`` (single, vector, AEC)."""
    rng = np.random.default_rng(0)
    pair = [ConnectXEnv(**SMALL, obs_type=t) for t in ("dict", "array")]
    for episode in range(6):
        (d, _), (a, info) = (e.reset(seed=episode) for e in pair)
        while True:
            np.testing.assert_array_equal(a, d["observation"])
            np.testing.assert_array_equal(info["action_mask"], d["action_mask"])
            col = int(rng.choice(np.flatnonzero(d["action_mask"])))
            (d, r1, t1, _, _), (a, r2, t2, _, info) = (e.step(col) for e in pair)
            assert (r1, t1) == (r2, t2)
            if t1:
                break
    for opponent in ("random", None):
        vec = [ConnectXVectorEnv(6, **SMALL, opponent=opponent, obs_type=t)
               for t in ("dict", "array")]
        (d, _), (a, info) = (e.reset(seed=3) for e in vec)
        for _ in range(30):
            np.testing.assert_array_equal(a, d["observation"])
            np.testing.assert_array_equal(info["action_mask"], d["action_mask"])
            assert info["_action_mask"].all()
            cols = (rng.random((6, 5)) + d["action_mask"]).argmax(axis=1)
            (d, *_), (a, *_, info) = (e.step(cols) for e in vec)
    envs = [aec.env(**SMALL, obs_type=t) for t in ("dict", "array")]
    for e in envs:
        e.reset()
    for agent, _ in zip(envs[0].agent_iter(), envs[1].agent_iter()):
        (d, _, done, _, _), (a, _, _, _, info) = envs[0].last(), envs[1].last()
        np.testing.assert_array_equal(a, d["observation"])
        np.testing.assert_array_equal(info["action_mask"], d["action_mask"])
        for other in envs[1].agents:  # the one not to move: zeros, as in the dict
            np.testing.assert_array_equal(envs[1].unwrapped.infos[other]["action_mask"],
                                          envs[0].observe(other)["action_mask"])
        col = None if done else int(rng.choice(np.flatnonzero(d["action_mask"])))
        for e in envs:
            e.step(col)


def test_rgb_array_frame_shows_every_stone_where_it_was_played():
    """A game of the AEC environment (both sides chosen here), the board read back from
    each frame equals the reference board: red stones for player_0, yellow for player_1,
    grey holes, blue between the holes."""
    rows, columns, inarow = 5, 6, 4
    env = aec.env(rows=rows, columns=columns, inarow=inarow, render_mode="rgb_array")
    env.reset()
    board, mark = [0] * (rows * columns), 1
    frame = env.render()
    assert frame.shape == (rows * CELL, columns * CELL, 3) and frame.dtype == np.uint8
    assert (frame[0, 0] == BOARD).all() and (frame[CELL - 1, CELL] == BOARD).all()
    for col in (2, 2, 3, 0, 5, 2, 1):
        env.step(col)
        board, mark = ref_drop(board, col, mark, rows, columns), 3 - mark
        assert read_board(env.render(), rows, columns) == board
    assert not ref_winner(board, rows, columns, inarow)
    # the first stone: the bottom of column 2, red
    y, x = (rows - 1) * CELL + CELL // 2, 2 * CELL + CELL // 2
    assert env.render()[y, x].tolist() == COLOURS[1].tolist() == [220, 30, 30]


def test_single_and_vector_frames():
    env = ConnectXEnv(**SMALL, seat="first", render_mode="rgb_array")
    env.reset(seed=0)
    env.step(1)
    board = read_board(env.render(), 4, 5)
    assert board[15 + 1] == 1 and board.count(2) == 1 and board.count(0) == 18
    # Gymnasium's frame collector (RecordVideo's way to the frames, without moviepy)
    frames = gymnasium.wrappers.RenderCollection(ConnectXEnv(**SMALL, render_mode="rgb_array"))
    frames.reset(seed=0)
    frames.step(0)
    assert [read_board(f, 4, 5).count(0) for f in frames.render()] in ([20, 18], [19, 17])
    vec = ConnectXVectorEnv(3, **SMALL, opponent=None, render_mode="rgb_array")
    vec.reset(seed=0)
    vec.step(np.array([0, 1, 2]))
    frames = vec.render()
    assert len(frames) == 3
    for b, frame in enumerate(frames):
        assert read_board(frame, 4, 5) == vec.boards.grid[b].tolist()
    text = ConnectXVectorEnv(2, opponent=None, render_mode="ansi")
    text.reset(seed=0)
    assert text.render()[0].splitlines()[-1] == "0 1 2 3 4 5 6"


def test_human_mode_shows_the_frame_in_a_window(offscreen):
    import pygame
    for env in (ConnectXEnv(**SMALL, render_mode="human"), aec.env(**SMALL, render_mode="human")):
        env.reset(seed=0)
        env.step(3)
        raw = env.unwrapped
        assert env.render() is None
        shown = pygame.surfarray.array3d(pygame.display.get_surface()).transpose(1, 0, 2)
        assert read_board(shown, 4, 5) == raw.boards.grid[0].tolist()
        assert read_board(shown, 4, 5).count(0) < 20
        env.close()


def test_human_mode_without_a_display_warns_and_draws_off_screen(monkeypatch):
    pytest.importorskip("pygame")
    monkeypatch.setattr("sys.platform", "linux")
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER"):
        monkeypatch.delenv(name, raising=False)
    with pytest.warns(UserWarning, match="without a display"):
        env = ConnectXEnv(**SMALL, render_mode="human")
    env.reset(seed=0)
    import os
    assert os.environ["SDL_VIDEODRIVER"] == "dummy"
    env.close()


def test_default_seat_is_random():
    env = ConnectXEnv(**SMALL)
    marks = {env.reset(seed=s)[1]["mark"] for s in range(12)}
    assert marks == {1, 2}
    vec = ConnectXVectorEnv(16, **SMALL)
    vec.reset(seed=0)
    assert set(vec.boards.me.tolist()) == {1, 2}


def test_self_play_gives_every_players_reward_and_the_player_to_move():
    """Random games (a few illegal moves) on 8 boards: ``current_player`` is the side to
    move (0 after a reset), or the last mover on a board that has just ended; ``rewards``
    are PettingZoo's (+1/-1 for a line, -1/0 for an illegal move) and equal the AEC
    environment's on the same moves."""
    n, rows, columns, inarow = 8, 4, 5, 3
    vec = ConnectXVectorEnv(n, rows, columns, inarow, opponent=None, obs_type="array")
    obs, info = vec.reset(seed=0)
    assert info["current_player"].tolist() == [0] * n and not info["rewards"].any()
    games = [aec.env(rows=rows, columns=columns, inarow=inarow) for _ in range(n)]
    for g in games:
        g.reset()
    rng = np.random.default_rng(1)
    ended = np.zeros(n, dtype=bool)
    finished = 0
    for _ in range(80):
        mask = info["action_mask"]
        legal = rng.random((n, columns)) + mask
        cols = np.where(rng.random(n) < 0.05, legal.argmin(axis=1), legal.argmax(axis=1))
        movers = info["current_player"].copy()
        obs, rewards, terminated, _, info = vec.step(cols)
        assert info["rewards"].dtype == np.float32 and info["current_player"].dtype == np.int32
        for b in range(n):
            if ended[b]:  # the reset step
                assert info["current_player"][b] == 0 and not info["rewards"][b].any()
                games[b].reset()
                continue
            g = games[b]
            assert g.agent_selection == f"player_{movers[b]}"
            g.step(int(cols[b]))
            want = [g.unwrapped.rewards[f"player_{p}"] for p in (0, 1)]
            assert info["rewards"][b].tolist() == want, b
            assert info["rewards"][b, movers[b]] == rewards[b]
            assert terminated[b] == all(g.unwrapped.terminations.values())
            if terminated[b]:
                finished += 1
                assert info["current_player"][b] == movers[b]
            else:
                assert info["current_player"][b] == 1 - movers[b]
                assert g.agent_selection == f"player_{info['current_player'][b]}"
        ended = terminated
    assert finished >= 20


@pytest.mark.parametrize("make, match", [
    (lambda: ConnectXEnv(obs_type="flat"), "obs_type must be one of 'dict', 'array'"),
    (lambda: ConnectXVectorEnv(2, obs_type=None), "obs_type"),
    (lambda: aec.env(obs_type="planes"), "obs_type"),
    (lambda: ConnectXEnv(render_mode="rgb"), "render_mode must be None or one of"),
    (lambda: ConnectXVectorEnv(2, render_mode="human"), "'ansi', 'rgb_array', got 'human'"),
])
def test_bad_options_name_what_is_wrong(make, match):
    with pytest.raises(ValueError, match=match):
        make()
