"""The seed lessons' other games, solved by the same reference searches as ConnectX.

Tic-tac-toe: known values (a draw; 549945 minimax nodes below the empty board, 5478
reachable positions by ply), alpha-beta == minimax with no more nodes on every
reachable position, perfect play against every opponent line, the agent's input
handling and real games in kaggle-environments' ``open_spiel_tic_tac_toe``.
Coin game: the closed form (the mover loses iff coins % (max_take + 1) == 0) and the
lesson's 100/100 wins for minimax moving second.
"""
import random
from collections import Counter as Tally

import numpy as np
import pytest

import agents
from agents.games.coins import (CoinEnv, CoinGame, MinimaxPlayer, RandomPlayer, RulePlayer,
                                mover_loses)
from agents.games.protocol import Counter, alphabeta_value, best_actions, minimax_value, play
from agents.games.tictactoe import (EMPTY_BOARD, O, ReferencePlayer, TicTacToe, TicTacToeAgent,
                                    X, best_cells, legal_cells, mark_to_move, parse_board,
                                    place, solve, winner)

GAME = TicTacToe()


def board(picture):
    """A board from an ASCII drawing, rows top to bottom (``x``, ``o``, ``.``)."""
    return parse_board("\n".join(line.strip() for line in picture.strip().splitlines()))


def unfinished_positions():
    return [s for s in solve() if not GAME.is_terminal(s)]


# ---------------------------------------------------------------------------
# Tic-tac-toe: known values
# ---------------------------------------------------------------------------


def test_empty_board_is_a_draw_for_minimax_alphabeta_and_the_solver():
    mm, ab = Counter(), Counter()
    assert minimax_value(GAME, GAME.initial(), 9, X, mm) == 0
    assert alphabeta_value(GAME, GAME.initial(), 9, X, ab) == 0
    assert solve()[GAME.initial()] == 0
    # the full game tree has 549946 nodes, the root included (Counter leaves it out)
    assert mm.nodes == 549945
    assert ab.nodes < mm.nodes // 10


def test_reachable_positions_by_ply():
    """The known counts of distinct positions after n plies (a line ends the game)."""
    by_ply = Tally(9 - board_.count(0) for board_, _ in solve())
    assert [by_ply[n] for n in range(10)] == [1, 9, 72, 252, 756, 1260, 1520, 1140, 390, 78]
    assert len(solve()) == 5478
    assert all(mark == mark_to_move(b) for b, mark in solve())


def test_rules_on_drawn_positions():
    """Utility is +-(10 - stones) for the winner/loser, 0 for a draw."""
    x_won = (board("""
        xxx
        oo.
        ...
    """), O)
    assert winner(x_won[0]) == X and GAME.is_terminal(x_won)
    assert GAME.utility(x_won, X) == 5 and GAME.utility(x_won, O) == -5
    drawn = (board("""
        xox
        xoo
        oxx
    """), O)
    assert winner(drawn[0]) == 0 and GAME.is_terminal(drawn) and GAME.utility(drawn, X) == 0
    assert legal_cells(x_won[0]) == [] and legal_cells(EMPTY_BOARD) == list(range(9))


def minimax_nodes_below():
    """``{state: nodes a full-depth minimax visits below it}`` for every reachable
    position, by memoised counting (each child is one node plus its own): without pruning
    the count depends on the state only (549945 below the empty board, what
    :func:`minimax_value` counts there, checked above)."""
    below = {}

    def count(state):
        if state not in below:
            below[state] = 0 if GAME.is_terminal(state) else sum(
                1 + count(GAME.result(state, a)) for a in GAME.actions(state))
        return below[state]

    count(GAME.initial())
    return below


def test_alphabeta_returns_the_minimax_value_with_no_more_nodes_on_every_position():
    """All 4520 unfinished reachable positions: alpha-beta's value equals the solved
    table, it never visits more nodes than minimax, and strictly fewer wherever at least
    5 cells are empty (below that, some positions leave nothing to prune). Minimax itself
    runs on a seeded sample of 300 (value and node count, equal to the memoised count):
    on all of them it cost 10-12 s of pure Python, the sample 1 s."""
    table, below = solve(), minimax_nodes_below()
    assert below[GAME.initial()] == 549945
    positions = sorted(unfinished_positions())
    for state in random.Random(53).sample(positions, 300):
        mm = Counter()
        assert minimax_value(GAME, state, 9, None, mm) == table[state], state
        assert mm.nodes == below[state], state
    total_mm = total_ab = 0
    for state in positions:
        ab = Counter()
        assert alphabeta_value(GAME, state, 9, None, ab) == table[state], state
        assert ab.nodes <= below[state], state
        if state[0].count(0) >= 5:
            assert ab.nodes < below[state], state
        total_mm += below[state]
        total_ab += ab.nodes
    assert len(positions) == 4520
    assert total_ab < total_mm // 5


class ShuffledTicTacToe(TicTacToe):
    """Children in a seeded random order: catches searches that depend on move order."""

    def __init__(self, seed):
        self.rng = random.Random(seed)

    def actions(self, state):
        cells = super().actions(state)
        self.rng.shuffle(cells)
        return cells


def test_alphabeta_value_does_not_depend_on_child_order():
    table = solve()
    positions = sorted(unfinished_positions())
    sample = random.Random(7).sample(positions, 300) + [GAME.initial()]
    game = ShuffledTicTacToe(seed=11)
    for state in sample:
        assert alphabeta_value(game, state, 9) == table[state]
        assert alphabeta_value(game, state, 9, 3 - state[1]) == -table[state]


# ---------------------------------------------------------------------------
# Tic-tac-toe: perfect play against every opponent line
# ---------------------------------------------------------------------------


def worst_result(choices, board_, me):
    """The worst outcome (+1 win, 0 draw, -1 loss for ``me``) over every opponent
    move sequence, when ``me`` may play any cell of ``choices(board)``; also counts
    the games (leaves) enumerated."""
    w = winner(board_)
    if w or 0 not in board_:
        return (0 if not w else (1 if w == me else -1)), 1
    mover = mark_to_move(board_)
    cells = choices(board_) if mover == me else legal_cells(board_)
    worst, games = 1, 0
    for c in cells:
        r, n = worst_result(choices, place(board_, c, mover), me)
        worst, games = min(worst, r), games + n
    return worst, games


def test_solved_agent_never_loses_to_any_opponent_line_with_any_tie_break():
    for me in (X, O):
        worst, games = worst_result(lambda b: best_cells(b)[1], EMPTY_BOARD, me)
        assert worst == 0, me  # a draw at worst (perfect opposition draws)
        assert games > 100


@pytest.fixture(scope="module")
def reference_player():
    """The plain-minimax kaggle player, shared so that its searches are done once."""
    return ReferencePlayer(minimax_value, seed=1)


def test_reference_minimax_player_never_loses_to_any_opponent_line(reference_player):
    player = reference_player
    for me in (X, O):
        worst, _ = worst_result(player.best, EMPTY_BOARD, me)
        assert worst == 0, me
    # its choices are exactly the solved agent's on every position it met
    for b, cells in player.decisions.items():
        assert cells == best_cells(b)[1], b


def test_the_exhaustive_check_catches_a_bad_player():
    """The same enumeration finds a loss for a player taking the first empty cell."""
    assert worst_result(lambda b: legal_cells(b)[:1], EMPTY_BOARD, X)[0] == -1
    assert worst_result(lambda b: legal_cells(b)[:1], EMPTY_BOARD, O)[0] == -1


# ---------------------------------------------------------------------------
# Tic-tac-toe: the agent
# ---------------------------------------------------------------------------


def test_agent_takes_a_win_in_one_and_blocks():
    agent = agents.make("tictactoe", seed=1)
    win_in_one = board("""
        xx.
        oo.
        ...
    """)
    assert agent(win_in_one) == 2  # x completes the top row
    block = board("""
        x..
        oo.
        x..
    """)
    assert agent(block) == 5  # x must block o's middle row
    assert best_cells(block) == (0, (5,))
    lost = board("""
        x.x
        .o.
        x.o
    """)  # o to move against two threats (cells 1 and 3): x wins on move 7
    assert best_cells(lost) == (-3, tuple(legal_cells(lost)))
    assert agent(lost) in legal_cells(lost)  # lost, but still a legal cell


def test_agent_kaggle_observation_format():
    agent = TicTacToeAgent(seed=3)
    move = agent({"step": 0, "remainingOverageTime": 12}, {})  # the env's pre-game call
    assert set(move) == {"submission"} and type(move["submission"]) is int
    obs = {"observationString": "x..\n...\n...", "playerId": 1, "step": 2}
    move = agent(obs, {})
    assert move["submission"] in best_cells(board("x..\n...\n..."))[1]
    assert move["submission"] == 4  # o's only drawing reply to a corner is the centre
    plain = agent([1, 0, 0, 0, 0, 0, 0, 0, 0])
    assert type(plain) is int and plain == 4
    assert agent(EMPTY_BOARD) in range(9)
    assert agent(np.array([[1, 0, 0], [0, 0, 0], [0, 0, 0]])) == 4  # 3 rows of 3 work too


@pytest.mark.parametrize("obs,message", [
    ([0] * 8, "9 marks"),
    ([0] * 8 + [3], "9 marks"),
    ([[0, 0, 0], [0, 0, 0]], "9 marks"),
    ("x..\n...\n..", "3 rows of 3"),
    ("x..\n.q.\n...", "3 rows of 3"),
    ((X, X, 0, 0, 0, 0, 0, 0, 0), "as many stones as o or one more"),
    ((O, 0, 0, 0, 0, 0, 0, 0, 0), "as many stones as o or one more"),
    ("xxx\nooo\nx..", "both players have a line"),
    ("xxx\noo.\no..", "ended before this position"),
    ("xxx\noo.\n...", "game is over"),
    ("xox\nxoo\noxx", "game is over"),
    ({"observationString": "x..\n...\n...", "playerId": 0}, "player 0 .x. is not to move"),
    ({"observationString": "...\n...\n...", "playerId": 2}, "playerId must be 0"),
    ({"step": 3}, "no observationString after step 0"),
    (42, "expected a kaggle observation"),
])
def test_agent_rejects_bad_input(obs, message):
    with pytest.raises(ValueError, match=message):
        TicTacToeAgent()(obs, {})


def test_registry_and_options():
    assert isinstance(agents.make("tictactoe"), TicTacToeAgent)
    with pytest.raises(ValueError, match="unknown option.*depth.*valid: seed"):
        agents.make("tictactoe", depth=3)
    with pytest.raises(ValueError, match="seed must be an integer"):
        agents.make("tictactoe", seed="one")


def test_seeded_agent_is_reproducible_and_uses_every_drawing_first_move():
    first = {TicTacToeAgent(seed=s)(EMPTY_BOARD) for s in range(60)}
    assert first == set(range(9))  # every opening keeps the draw
    a, b = TicTacToeAgent(seed=5), TicTacToeAgent(seed=5)
    assert [a(EMPTY_BOARD) for _ in range(10)] == [b(EMPTY_BOARD) for _ in range(10)]


# ---------------------------------------------------------------------------
# Tic-tac-toe: real games in kaggle-environments
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("opponent", ["random", "minimax"])
def test_kaggle_env_games_are_won_or_drawn(opponent, reference_player):
    from scripts.lessons.tictactoe_match import is_clean, play_game as play_kaggle

    agent = agents.make("tictactoe", seed=0)
    other = "random" if opponent == "random" else reference_player
    results = Tally()
    for player in (0, 1):
        for game in range(10):
            record = play_kaggle(agent, other, player, seed=1000 * player + game)
            assert is_clean(record), record
            assert record.statuses == ("DONE", "DONE") and record.terminal
            # the agent's moves are timed, one figure per move it made
            assert len(record.times) == len(record.moves[player::2]) >= 3
            assert len(record.env_times) == len(record.cpu_times) == len(record.times)
            results[record.result] += 1
    assert results[-1] == 0
    if opponent == "minimax":
        assert results == {0: 20}  # perfect against perfect: always a draw


# ---------------------------------------------------------------------------
# Coin game
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("max_take", [1, 2, 3])
def test_coin_game_value_matches_the_closed_form(max_take):
    for coins in range(1, 22 if max_take == 2 else 16):  # 5 periods of the closed form at least
        game = CoinGame(coins, max_take)
        mm, ab = Counter(), Counter()
        v_mm = minimax_value(game, game.initial(), coins, None, mm)
        v_ab = alphabeta_value(game, game.initial(), coins, None, ab)
        expected = -1 if coins % (max_take + 1) == 0 else 1
        assert v_mm == v_ab == expected, coins
        assert mover_loses(coins, max_take) == (expected == -1)
        assert ab.nodes <= mm.nodes
        if expected == 1 and coins > max_take:  # the winning take is the remainder
            value, takes = best_actions(game, game.initial(), coins)
            assert (value, takes) == (1, [coins % (max_take + 1)])


def coin_match(first, second):
    """The winner (1 or 2) of one 21-coin game, ``first`` taking first."""
    game = CoinGame()
    end, _ = play(game, {1: first, 2: second})
    return game.winner(end)


@pytest.mark.parametrize("search", ["minimax", "alphabeta"])
@pytest.mark.parametrize("opponent", [RandomPlayer, RulePlayer])
def test_minimax_second_wins_100_of_100(search, opponent):
    first = opponent(seed=17)
    second = MinimaxPlayer(search=search, seed=23)
    winners = Tally(coin_match(first, second) for _ in range(100))
    assert winners == {2: 100}


def test_rule_player_beats_random_and_minimax_first_loses_to_rules():
    """Contrast: the start is lost for the mover, so minimax first loses to the rule
    player, and the rule player (second) beats random every time too."""
    assert Tally(coin_match(MinimaxPlayer(search="alphabeta", seed=1), RulePlayer(seed=2))
                 for _ in range(20)) == {2: 20}
    assert Tally(coin_match(RandomPlayer(seed=3), RulePlayer(seed=4))
                 for _ in range(20)) == {2: 20}


def test_coin_env_and_bad_input():
    env = CoinEnv(coins=4)
    assert env.validinputs == []
    with pytest.raises(ValueError, match="reset"):
        env.step(1)
    assert env.reset() == (4, 1) and env.validinputs == [1, 2]
    assert env.step(2) == ((2, 2), 0, False, {"player": 1, "take": 2})
    with pytest.raises(ValueError, match="takes 1 to 2, got 3"):
        env.step(3)
    assert env.step(2) == ((0, 1), 1, True, {"player": 2, "take": 2})
    assert env.validinputs == []
    env.reset()
    env.step(2)
    env.step(1)
    assert env.validinputs == [1]  # one coin left
    env.step(1)
    with pytest.raises(ValueError, match="reset"):
        env.step(1)
    with pytest.raises(ValueError, match="coins must be an integer >= 1"):
        CoinGame(0)
    with pytest.raises(ValueError, match="max_take must be an integer >= 1"):
        CoinEnv(5, max_take=1.5)
    with pytest.raises(ValueError, match="search must be one of"):
        MinimaxPlayer(search="mcts")
    with pytest.raises(ValueError, match="coins >= 1"):
        MinimaxPlayer()(CoinGame(), (0, 1))
    with pytest.raises(ValueError, match="seed must be an integer"):
        RandomPlayer(seed=1.5)
    game = CoinGame(7)
    end, takes = play(game, {1: RulePlayer(seed=0), 2: RandomPlayer(seed=0)})
    assert sum(takes) == 7 and game.winner(end) == 1 + (len(takes) - 1) % 2


def test_the_one_play_loop_plays_tictactoe_perfectly_to_a_draw_and_reports_each_move():
    """``agents.games.protocol.play``: perfect against perfect is a draw (the game's value),
    players keyed by mark, and ``watch`` sees each move with the states around it."""
    from agents.games.tictactoe import PerfectPlayer
    seen = []
    end, cells = play(GAME, {X: PerfectPlayer(seed=1), O: PerfectPlayer(seed=2)},
                      watch=lambda s, a, t: seen.append((s, a, t)))
    assert GAME.is_terminal(end) and GAME.winner(end) is None and end[0].count(0) == 0
    assert [a for _, a, _ in seen] == cells and len(cells) == 9
    assert all(GAME.result(s, a) == t for s, a, t in seen)
    assert seen[0][0] == GAME.initial() and seen[-1][2] == end


def test_tictactoe_env_has_the_books_interface():
    """reset, step, validinputs; rewards from x's side; bad steps rejected. x's line
    after x 0, o 3, x 1, o 4, x 2; o's after x 0, o 3, x 1, o 4, x 8, o 5::

        x x x      x x .
        o o .      o o o
        . . .      . . x
    """
    from agents.games.tictactoe import TicTacToeEnv
    env = TicTacToeEnv()
    assert env.validinputs == []
    with pytest.raises(ValueError, match="reset"):
        env.step(4)
    assert env.reset() == (0,) * 9 and env.validinputs == list(range(9))
    board, reward, done, info = env.step(0)
    assert (reward, done, info) == (0, False, {"player": 1, "cell": 0}) and board[0] == 1
    with pytest.raises(ValueError, match="not one of the valid inputs"):
        env.step(0)
    for cell in (3, 1, 4):
        assert env.step(cell)[1:3] == (0, False)
    assert env.validinputs == [2, 5, 6, 7, 8]
    assert env.step(2)[1:3] == (1, True)
    assert env.validinputs == []
    with pytest.raises(ValueError, match="reset"):
        env.step(5)
    env.reset()
    for cell in (0, 3, 1, 4, 8):
        env.step(cell)
    assert env.step(5)[1:4] == (-1, True, {"player": 2, "cell": 5})  # o's win: -1


def test_the_lessons_players_play_on_the_env_as_on_the_game():
    """play_env with seeded players ends as play does with the same players, every game."""
    from agents.games.protocol import play_env
    from agents.games.tictactoe import PerfectPlayer, ThinkPlayer, TicTacToe, TicTacToeEnv
    for seed in range(6):
        players = lambda: {1: ThinkPlayer(1 + seed % 3, seed=seed), 2: PerfectPlayer(seed)}  # noqa: E731
        end, moves = play(TicTacToe(), players())
        env = TicTacToeEnv()
        reward, env_moves = play_env(env, players())
        assert env_moves == moves and env.state == end
        assert reward == {1: 1, 2: -1}.get(TicTacToe().winner(end), 0)
    env = CoinEnv(coins=7)
    reward, takes = play_env(env, {1: MinimaxPlayer(seed=1), 2: RulePlayer(seed=2)})
    assert sum(takes) == 7 and reward == 1 and len(takes) % 2 == 1  # 7 coins: the first wins


def test_chapter5s_search_on_the_env_is_the_reference_minimax():
    """scripts.lessons.chapters.env_payoff (deep copies, step, validinputs) gives the sign
    of the reference minimax's value at seeded positions, and at a depth limit the
    reference minimax with no evaluation (0 at the horizon)."""
    import random
    from agents.games.protocol import minimax_value
    from scripts.lessons.chapters import env_payoff, env_positions
    for env in env_positions(12, random.Random(5)):
        game, state = env.game, env.state
        v = minimax_value(game, state, 9, game.to_move(state))
        assert env_payoff(env) == (v > 0) - (v < 0)
        v2 = minimax_value(game, state, 2, game.to_move(state))
        assert env_payoff(env, depth=2) == (v2 > 0) - (v2 < 0)


def test_the_stored_tree_is_the_reference_minimax():
    """StoredTree (the article's whole tree, kept) below tic-tac-toe positions of 3-4
    stones and below coin games: its node count is the tree's (every child, the root
    included), each node's value the reference minimax's, its best actions best_actions'."""
    from agents.games.searches.stored import StoredTree
    from scripts.lessons.chapters import tree_counts
    game = TicTacToe()
    rng = random.Random(7)
    for _ in range(4):
        state = game.initial()
        for _ in range(rng.randint(3, 4)):
            state = game.result(state, rng.choice(game.actions(state)))
        if game.is_terminal(state):
            continue
        tree = StoredTree(game, state)
        assert len(tree) == sum(tree_counts(game, state)[0])
        me = game.to_move(state)
        for c in tree.children(0):
            assert tree.value(c) == minimax_value(game, tree.state[c], 9, me)
            assert tree.state[c] == game.result(state, tree.action[c])
        assert tree.best_actions(0) == best_actions(game, state, 9)
    for coins in (5, 9):
        coin = CoinGame(coins)
        tree = StoredTree(coin)
        assert tree.value(0) == minimax_value(coin, coin.initial(), coins, 1)
        assert tree.node([1, 2]) in tree.children(tree.node([1]))
    with pytest.raises(ValueError, match="no child 3"):
        tree.node([3])
