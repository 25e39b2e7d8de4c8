"""The batched core (agents.envs.core, agents.envs.boards) and the Gymnasium environments
against the package's pure-Python reference rules (agents.board.rules_reference) on seeded
random games, the kernel opponents against the agents they stand for, and bad input."""
import random
from pathlib import Path

import numpy as np
import pytest

import agents
from agents.board.rules_reference import random_position, ref_drop, ref_legal_moves, ref_winner
from agents.envs.boards import Boards, board_config
from agents.envs.core import EXTERNAL, KERNEL, RANDOM
from agents.envs.opponents import ALPHABETA_TT_BITS, Opponent
from agents.search.alphabeta_bb import OPT_KILLERS, OPT_PVS
from agents.search.minimax import onestep_move
from agents.search.reference import forced_result_reference
from agents.options import split_spec

gymnasium = pytest.importorskip("gymnasium")
from agents.envs.single import ConnectXEnv  # noqa: E402
from agents.envs.vector import ConnectXVectorEnv  # noqa: E402

SHAPES = [(6, 7, 4), (5, 4, 3), (4, 9, 4), (8, 8, 4), (3, 3, 3)]  # 8x8: the grid path


def planes(board, rows, columns, mark):
    g = np.array(board).reshape(rows, columns)
    return np.stack([g == mark, (g != 0) & (g != mark)], axis=2).astype(np.int8)


def play_checked(boards, steps, rng, illegal=0.03):
    """Drive ``boards`` with random actions (a few on full columns) and check every step
    against the reference rules: the learner's stone, the opponent's reply (read from the
    grid), rewards, ends, observations and masks. Returns the finished games' rewards."""
    rows, columns, inarow = boards.cfg
    n = boards.n
    boards.reset()
    refs = [[0] * (rows * columns) for _ in range(n)]
    ended = np.zeros(n, dtype=bool)

    def sync(b):  # the reference after a reset: the opponent's opening stone, if any
        board = [int(v) for v in boards.grid[b]]
        assert sum(1 for v in board if v) == (0 if boards.me[b] == 1 else 1)
        refs[b] = board
    for b in range(n):
        sync(b)
    results = []
    for _ in range(steps):
        acts = np.zeros(n, dtype=np.int64)
        for b in range(n):
            legal = [c for c in range(columns) if refs[b][c] == 0]
            full = [c for c in range(columns) if refs[b][c] != 0]
            if legal:  # (none on a full board: its next step resets it)
                acts[b] = rng.choice(full) if full and rng.random() < illegal \
                    else rng.choice(legal)
        before = [list(r) for r in refs]
        movers = boards.me.copy()
        boards.step(acts)
        for b in range(n):
            if ended[b]:  # next-step autoreset
                assert boards.rewards[b] == 0 and not boards.terminated[b]
                ended[b] = False
                sync(b)
                continue
            me, a, ref = int(boards.me[b]), int(acts[b]), before[b]
            mover = int(movers[b])
            grid = [int(v) for v in boards.grid[b]]
            if ref[a] != 0:
                reward, done = -1.0, True
                assert grid == ref
            else:
                ref = ref_drop(ref, a, mover, rows, columns)
                if ref_winner(ref, rows, columns, inarow):
                    reward, done = 1.0, True
                elif all(ref):
                    reward, done = 0.0, True
                elif boards.self_play:
                    reward, done = 0.0, False
                else:  # the opponent's reply: the one new stone
                    new = [i for i in range(rows * columns) if grid[i] != ref[i]]
                    assert len(new) == 1 and grid[new[0]] == 3 - mover
                    ref = ref_drop(ref, new[0] % columns, 3 - mover, rows, columns)
                    won = ref_winner(ref, rows, columns, inarow)
                    reward, done = (-1.0 if won else 0.0), bool(won or all(ref))
                assert grid == ref
            assert boards.rewards[b] == reward and bool(boards.terminated[b]) == done, (b, a)
            np.testing.assert_array_equal(boards.obs[b], planes(grid, rows, columns, me))
            np.testing.assert_array_equal(boards.mask[b], [int(grid[c] == 0)
                                                           for c in range(columns)])
            refs[b] = grid
            if done:
                ended[b] = True
                results.append(reward)
    return results


@pytest.mark.parametrize("shape", SHAPES)
def test_self_play_follows_the_reference_rules(shape):
    boards = Boards(6, *shape, opponent=None)
    boards.seed(11)
    results = play_checked(boards, 60, np.random.default_rng(sum(shape)))
    assert len(results) >= 6


@pytest.mark.parametrize("seat", ["first", "second", "random"])
@pytest.mark.parametrize("shape", [(6, 7, 4), (5, 4, 3), (8, 8, 4)])
def test_random_opponent_follows_the_reference_rules(shape, seat):
    boards = Boards(5, *shape, opponent="random", seat=seat)
    boards.seed(3)
    results = play_checked(boards, 40, np.random.default_rng(7))
    assert set(results) - {-1.0, 0.0, 1.0} == set() and len(results) >= 5


@pytest.mark.parametrize("opponent", ["onestep", "alphabeta:depth=2", "rules:lookahead=2"])
def test_searching_opponents_follow_the_reference_rules(opponent):
    boards = Boards(4, 6, 7, 4, opponent=opponent, seat="random")
    boards.seed(5)
    play_checked(boards, 25, np.random.default_rng(1))


def positions(rows, columns, inarow, count, seed):
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        board = random_position(rows, columns, inarow, rng.randrange(rows * columns - 4), rng)
        if board is not None:
            out.append(board)
    return out


def kernel_reply(boards, board):
    """The kernel opponent's column on ``board`` (its move: the side with fewer stones)."""
    rows, columns, _ = boards.cfg
    mover = 1 if board.count(1) == board.count(2) else 2
    boards.grid[0] = board
    boards.heights[0] = [sum(1 for r in range(rows) if board[c + r * columns]) for c in
                         range(columns)]
    boards.me[0] = 3 - mover  # the learner's mark: the reply is the opponent's
    boards.pending[0] = 1
    boards.opponent.finish(boards)
    new = [i for i in range(rows * columns) if boards.grid[0, i] != board[i]]
    return new[0] % columns, mover


@pytest.mark.parametrize("shape, spec", [
    (shape, spec) for shape in [(6, 7, 4), (5, 6, 3)]
    for spec in ["alphabeta:depth=4", "alphabeta:depth=4,deepening=false,quiescence=false"]]
    + [((6, 7, 4), "alphabeta:depth=3,heuristic=windows,history=true,pvs=true,killers=false")])
def test_alphabeta_kernel_plays_the_agents_move(shape, spec):
    boards = Boards(1, *shape, opponent=spec)
    rows, columns, inarow = boards.cfg
    name, options = split_spec(spec)
    agent = agents.make(name, **options, tt_bits=ALPHABETA_TT_BITS)
    for board in positions(*shape, 25, 2):
        col, mover = kernel_reply(boards, board)
        # a long clock: the agent's first move compiles (or loads) its kernels
        assert col == agent({"board": board, "mark": mover},
                            {"rows": rows, "columns": columns, "inarow": inarow,
                             "actTimeout": 600}), board


def test_onestep_kernel_plays_one_of_the_tutorials_best_moves():
    """The onestep kernel against the tutorial's scores and the safety net, from Python."""
    from agents.players.baselines import best_columns, tutorial_scores
    from agents.board.rules import parse_position
    from agents.search.tactics import safety_net
    boards = Boards(1, opponent="onestep")
    agent = agents.make("onestep")
    for board in positions(6, 7, 4, 30, 4):
        col, mover = kernel_reply(boards, board)
        grid, heights, mark, cfg = parse_position({"board": board, "mark": mover}, None)
        scores, _ = tutorial_scores(grid, heights, mark, cfg, "windows", agent.evaluate, 1)
        best = safety_net(grid, heights, cfg, mark, best_columns(scores, heights, cfg))
        assert col in best, (board, best)
        # the agent's own kernel (what the agent and the environment play) marks them all
        marked = np.zeros(7, dtype=np.bool_)
        assert onestep_move(grid, heights, 6, 7, 4, mark, marked, True, *agent.kernel_form(
            cfg).args[1:]) == -1 and list(np.flatnonzero(marked)) == best, board


def rules_reference(board, mark, lookahead, rows, columns, inarow):
    """The ``rules`` agent's possible moves stated on a list board (its docstring): a win
    now, else a block of the opponent's win(s), else among the moves that give the
    opponent no win on top of them (all if none) those of the best forced result."""
    legal = ref_legal_moves(board, rows, columns)
    for who in (mark, 3 - mark):
        now = [c for c in legal if ref_winner(ref_drop(board, c, who, rows, columns), rows,
                                              columns, inarow) == who]
        if now:
            return now

    def safe(c):
        after = ref_drop(board, c, mark, rows, columns)
        return c not in ref_legal_moves(after, rows, columns) or ref_winner(
            ref_drop(after, c, 3 - mark, rows, columns), rows, columns, inarow) != 3 - mark
    candidates = [c for c in legal if safe(c)] or legal
    values = {c: -forced_result_reference(ref_drop(board, c, mark, rows, columns), 3 - mark,
                                          lookahead - 1, rows, columns, inarow)
              for c in candidates}
    return [c for c in candidates if values[c] == max(values.values())]


def test_rules_kernel_plays_one_of_the_rules_moves():
    """The agent's move kernel (agents.search.tactics.rules_move, what both the agent and
    the environment play) marks exactly the moves the rules allow, by the plain-Python
    statement above, and the environment's reply is one of them."""
    from agents.board.rules import parse_position
    from agents.search.tactics import rules_move
    boards = Boards(1, opponent="rules:lookahead=3")
    rng = random.Random(5)
    quiet = []  # early positions, mostly with no win to take or block: the rules' later steps
    while len(quiet) < 20:
        board = random_position(6, 7, 4, rng.randrange(4, 20), rng)
        if board is not None:
            quiet.append(board)
    for board in quiet:
        col, mover = kernel_reply(boards, board)
        allowed = rules_reference(board, mover, 3, 6, 7, 4)
        assert col in allowed, (board, allowed)
        grid, heights, mark, cfg = parse_position({"board": board, "mark": mover}, None)
        best = np.zeros(7, dtype=np.bool_)
        col = rules_move(grid, heights, 6, 7, 4, mark, best, 3)
        assert (col in allowed) if col >= 0 else list(np.flatnonzero(best)) == allowed, board


@pytest.mark.parametrize("spec, form", [
    ("random", "random"), ("onestep:tactics=false", "onestep_move"),
    ("rules:lookahead=1", "rules_move"),
    ("alphabeta:depth=3,heuristic=windows,pvs=true", "alphabeta_move"),
    # no kernel form: called from Python
    ("onestep:heuristic=threats", None), ("alphabeta:depth=3,aspiration=true", None),
    ("alphabeta:time_limit=0.1", None), ("minimax:depth=1", None)])
def test_opponents_play_the_agents_own_kernel_form(spec, form):
    """The environment plays the move kernel the agent names itself, with the agent's
    own options as its arguments (nothing restated in agents.envs)."""
    opponent = Opponent(spec, board_config(6, 7, 4))
    if form is None:
        assert opponent.form is None and opponent.kind == EXTERNAL
    elif form == "random":
        assert opponent.form.move is None and opponent.kind == RANDOM
    else:
        assert opponent.form.move.__name__ == form and opponent.kind == KERNEL
    if spec.startswith("rules"):
        assert opponent.form.args == (1,)
    if spec.startswith("onestep:tactics"):
        assert opponent.form.args[0] is False
    if spec.startswith("alphabeta:depth=3,heuristic"):  # depth, deepening, heuristic, opts
        assert opponent.form.args[:4] == (3, True, opponent.agent.record.id,
                                          OPT_KILLERS | OPT_PVS)


def test_seeds_replay_and_board_i_is_seed_plus_i():
    def episode(n, seed, board):
        b = Boards(n, 6, 7, 4, opponent="random", seat="random")
        b.seed(seed)
        b.reset()
        out = [b.obs[board].copy()]
        for k in range(8):
            b.step(np.full(n, k % 7, dtype=np.int64))
            out.append(b.obs[board].copy())
        return np.array(out)
    np.testing.assert_array_equal(episode(4, 9, 2), episode(4, 9, 2))
    np.testing.assert_array_equal(episode(4, 9, 2), episode(1, 11, 0))
    assert not np.array_equal(episode(1, 9, 0), episode(1, 10, 0))


@pytest.mark.parametrize("opponent", ["random", "alphabeta:depth=2"])
def test_single_env_equals_board_0_of_the_vector_env(opponent):
    single = ConnectXEnv(opponent=opponent, seat="random")
    vector = ConnectXVectorEnv(3, opponent=opponent, seat="random")
    rng = np.random.default_rng(0)
    for episode in range(4):
        obs, info = single.reset(seed=episode)
        vobs, _ = vector.reset(seed=episode)
        while True:
            np.testing.assert_array_equal(obs["observation"], vobs["observation"][0])
            np.testing.assert_array_equal(obs["action_mask"], vobs["action_mask"][0])
            col = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            obs, reward, terminated, truncated, info = single.step(col)
            vobs, vreward, vterminated, _, _ = vector.step(np.array([col, 0, 1]))
            assert (reward, terminated) == (vreward[0], vterminated[0])
            if terminated:
                break


def test_gymnasium_checker_and_registration():
    from gymnasium.utils.env_checker import check_env
    import agents.envs  # noqa: F401 - registers connectx/ConnectX-v0
    env = gymnasium.make("connectx/ConnectX-v0", rows=5, columns=6, inarow=4,
                         opponent="alphabeta:depth=2", seat="second")
    check_env(env.unwrapped, skip_render_check=True)  # every mode: test_envs_conventions.py
    check_env(ConnectXEnv(opponent="random", seat="random"))
    vec = gymnasium.make_vec("connectx/ConnectX-v0", num_envs=3,
                             vectorization_mode="vector_entry_point", opponent=None)
    assert isinstance(vec, ConnectXVectorEnv) and vec.action_space.shape == (3,)


def test_illegal_move_ends_the_episode_with_a_loss():
    """A full column: -1, terminated (not truncated); a step after it asks for a reset."""
    env = ConnectXEnv(rows=3, columns=2, inarow=3, opponent="random", seat="first")
    obs, _ = env.reset(seed=1)
    while obs["action_mask"].all():
        obs, reward, terminated, _, _ = env.step(0)
        assert not terminated
    full = int(np.argmin(obs["action_mask"]))
    obs, reward, terminated, truncated, _ = env.step(full)
    assert (reward, terminated, truncated) == (-1.0, True, False)
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)


@pytest.mark.parametrize("make, error, match", [
    (lambda: Boards(0), ValueError, "num_envs must be an integer >= 1, got 0"),
    (lambda: Boards(2.0), TypeError, "num_envs"),
    (lambda: ConnectXVectorEnv(0), ValueError, "num_envs"),
    (lambda: ConnectXEnv(opponent="negamaxx"), ValueError, "unknown opponent 'negamaxx'"),
    (lambda: ConnectXEnv(opponent="alphabeta:depht=3"), ValueError, "depht"),
    (lambda: ConnectXEnv(opponent=3), TypeError, "opponent must be"),
    (lambda: ConnectXEnv(opponent=None), ValueError, "needs an opponent"),
    (lambda: ConnectXEnv(rows=0), ValueError, "config.rows"),
    (lambda: ConnectXEnv(inarow=1), ValueError, "inarow must be >= 2"),
    (lambda: ConnectXEnv(rows=1, columns=1, inarow=2), ValueError, "one cell"),
    (lambda: ConnectXEnv(seat="last"), ValueError, "seat must be one of"),
])
def test_bad_configuration_names_what_is_wrong(make, error, match):
    with pytest.raises(error, match=match):
        make()


def test_bad_actions_name_what_is_wrong():
    env = ConnectXEnv()
    env.reset(seed=0)
    with pytest.raises(ValueError, match="action 7 is out of range 0..6"):
        env.step(7)
    with pytest.raises(TypeError, match="action must be an integer"):
        env.step(2.0)
    with pytest.raises(TypeError, match="action must be an integer"):
        env.step(True)
    assert env.step(np.int64(3))[2] in (True, False)
    vec = ConnectXVectorEnv(2)
    vec.reset(seed=0)
    with pytest.raises(ValueError, match="action -1 of board 1 is out of range"):
        vec.step(np.array([0, -1]))
    with pytest.raises(TypeError, match="integer columns"):
        vec.step(np.array([0.0, 1.0]))
    with pytest.raises(ValueError, match=r"shape \(2,\)"):
        vec.step(np.array([0, 1, 2]))


def test_batched_env_takes_any_opponent():
    """An opponent without a kernel form (a callable here) is called from Python, with
    the objects kaggle-environments hands an agent (attributes and keys)."""
    calls = []

    def leftmost(obs, config):
        calls.append((dict(obs), dict(config)))
        return next(c for c in range(config.columns) if obs.board[c] == 0)
    vec = ConnectXVectorEnv(3, opponent=leftmost, seat="second")
    obs, _ = vec.reset(seed=0)
    assert obs["observation"][:, -1, 0, 1].tolist() == [1, 1, 1]
    assert [o["mark"] for o, _ in calls] == [1, 1, 1]
    assert calls[0] == ({"board": [0] * 42, "mark": 1, "step": 0, "remainingOverageTime": 60.0},
                        {"rows": 6, "columns": 7, "inarow": 4, "actTimeout": 2.0, "timeout": 2.0,
                         "agentTimeout": 60.0, "episodeSteps": 1000, "runTimeout": 1200})
    vec.step(np.array([3, 3, 3]))
    board = calls[-1][0]["board"]
    assert calls[-1][0]["step"] == 2 and calls[-1][0]["mark"] == 1 and board[38] == 2 \
        and board[35] == 1 and type(board[35]) is int


def test_import_agents_stays_free_of_gymnasium():
    import subprocess
    import sys
    code = ("import sys, agents; agents.make('random'); import agents.players.lookahead; "
            "print(sorted(m for m in ('gymnasium', 'pettingzoo', 'pyspiel', 'agents.envs') "
            "if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"


def test_the_masked_policy_example_of_rl_md_learns():
    """docs/rl.md's numpy masked-policy example, run as written there: the mean return of
    its last 2,000 episodes against ``random`` beats its first 2,000's by 0.1 at least.

    The margin: with the example's seeds set to 0-3 (and BLAS on one thread) the rise was
    0.24-0.30; the standard error of the difference of two means of 2,000 returns of +-1
    is under 0.03, so 0.1 lies more than 4 of them under every rise seen."""
    doc = (Path(__file__).parent.parent / "docs" / "rl.md").read_text()
    section = doc.split("### A masked policy with numpy alone", 1)[1]
    code = section.split("```python\n", 1)[1].split("```", 1)[0]
    scope = {}
    exec(compile(code, "docs/rl.md", "exec"), scope)
    returns = scope["returns"]
    assert set(returns) <= {-1.0, 0.0, 1.0} and len(returns) > 4000
    assert np.mean(returns[-2000:]) > np.mean(returns[:2000]) + 0.1
