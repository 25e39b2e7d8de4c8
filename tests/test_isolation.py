"""Isolation, the adversarial-search lesson's game: the lesson's own checks on
mini-Isolation (5 openings, 4 replies, a random playout ends, the openings' values
+inf, -inf, +inf, +inf, -inf), the queen moves against a brute-force reference on
seeded random positions, the evaluation functions on drawn positions, symmetries,
and the reference minimax / alpha-beta / iterative deepening on 5x5 Isolation."""
import math
import random

import pytest

from agents.games.isolation import (Isolation, MultiIsolation, SloppyIsolation, mini_isolation,
                                    mobility_share, my_moves, my_moves_minus_opponent_moves)
from agents.games.searches.deepening import iterative_deepening
from agents.games.protocol import (Counter, alphabeta_value, best_actions, minimax_value, play,
                               random_playout)

INF = math.inf


def random_states(game, seed, n, least, most):
    """``n`` states of ``game``, each after a seeded random number of random plies in
    [``least``, ``most``)."""
    rng = random.Random(seed)
    return [random_playout(game, None, rng, rng.randrange(least, most)) for _ in range(n)]


# ---------------------------------------------------------------------------
# The lesson's checks on mini-Isolation
# ---------------------------------------------------------------------------


def test_mini_isolation_first_player_has_5_moves_and_the_second_4_replies():
    g = mini_isolation()
    s = g.initial()
    assert g.actions(s) == [(0, 0), (1, 0), (2, 0), (0, 1), (1, 1)]  # (2, 1) is blocked
    assert len(g.actions(g.result(s, (0, 0)))) == 4
    assert g.to_move(s) == 0 and g.to_move(g.result(s, (0, 0))) == 1


def test_mini_isolation_random_playouts_finish_with_the_stuck_player_losing():
    g = mini_isolation()
    for seed in range(50):
        end = random_playout(g, g.initial(), random.Random(seed))
        assert g.is_terminal(end) and g.actions(end) == []
        loser = g.to_move(end)
        assert g.liberties(end, loser) == ()
        assert g.winner(end) == 1 - loser
        assert g.utility(end, loser) == -INF and g.utility(end, 1 - loser) == INF


def test_mini_isolation_opening_values_are_the_lessons():
    """+inf, -inf, +inf, +inf, -inf for the first player, in the lesson's move order;
    alpha-beta agrees with no more nodes."""
    g = mini_isolation()
    s = g.initial()
    values = []
    for a in g.actions(s):
        mm, ab = Counter(), Counter()
        v = minimax_value(g, g.result(s, a), 10, 0, mm)
        assert alphabeta_value(g, g.result(s, a), 10, 0, ab) == v
        assert ab.nodes <= mm.nodes
        values.append(v)
    assert values == [INF, -INF, INF, INF, -INF]
    value, best = best_actions(g, s, 10)
    assert value == INF and best == [(0, 0), (2, 0), (0, 1)]


# ---------------------------------------------------------------------------
# Rules
# ---------------------------------------------------------------------------


def reach_reference(game, state, player):
    """Cells a queen on the player's cell reaches: same row, column or diagonal, open,
    and every cell strictly between open. All open cells before the first move."""
    closed, locations = state[0], state[1]
    here = locations[player]
    is_open = [not closed >> c & 1 for c in range(game.width * game.height)]
    if here is None:
        return tuple(c for c, ok in enumerate(is_open) if ok)
    hx, hy = game.xy(here)
    out = []
    for c, ok in enumerate(is_open):
        x, y = game.xy(c)
        dx, dy = x - hx, y - hy
        if not ok or (dx, dy) == (0, 0) or not (dx == 0 or dy == 0 or abs(dx) == abs(dy)):
            continue
        steps = max(abs(dx), abs(dy))
        sx, sy = (dx > 0) - (dx < 0), (dy > 0) - (dy < 0)
        if all(is_open[(hx + k * sx) + (hy + k * sy) * game.width] for k in range(1, steps)):
            out.append(c)
    return tuple(out)


@pytest.mark.parametrize("game", [mini_isolation(), Isolation(5, 5), Isolation(4, 3, [(1, 1)]),
                                  MultiIsolation(4, 4)], ids=repr)
def test_moves_match_the_brute_force_reference_along_random_games(game):
    rng = random.Random(3)
    for _ in range(30):
        s = game.initial()
        while not game.is_terminal(s):
            for p in game.players:
                assert game.liberties(s, p) == reach_reference(game, s, p)
            actions = game.actions(s)
            assert [game.index(a) for a in actions] == list(reach_reference(game, s, s[2]))
            s = game.result(s, actions[rng.randrange(len(actions))])


def test_queen_moves_stop_at_closed_cells_and_pieces():
    g = Isolation(5, 5)
    s = g.parse("""
        . . . . .
        . # . . .
        . . 1 . 2
        . . . . .
        . . . . #
    """)
    assert sorted(g.actions(s)) == sorted([
        (0, 2), (1, 2), (3, 2),                  # row: stops before player 2
        (2, 0), (2, 1), (2, 3), (2, 4),          # column
        (3, 1), (4, 0), (1, 3), (0, 4), (3, 3),  # diagonals: (1, 1) and (4, 4) closed
    ])
    assert my_moves(g, s, 0) == 12 and my_moves(g, s, 1) == 8
    assert my_moves_minus_opponent_moves(g, s, 0) == 4
    assert my_moves_minus_opponent_moves(g, s, 1) == -4
    with pytest.raises(ValueError, match="not a move"):
        g.result(s, (1, 1))
    with pytest.raises(ValueError, match="a cell is"):
        g.result(s, (5, 0))


def test_a_move_closes_the_cell_left_behind():
    g = mini_isolation()
    s = g.result(g.result(g.initial(), (0, 0)), (2, 0))
    s = g.result(s, (1, 1))
    assert g.render(s).splitlines()[:2] == ["# . 2", ". 1 #"]
    assert g.index((0, 0)) not in g.liberties(s, 0)


def test_bad_games_and_pictures_are_rejected():
    with pytest.raises(ValueError, match="MultiIsolation"):
        Isolation(4, 4, players=3)
    with pytest.raises(ValueError, match="no room"):
        Isolation(1, 1)
    with pytest.raises(ValueError, match="symbol"):
        mini_isolation().parse("x..\n..#")
    with pytest.raises(ValueError, match="probability"):
        SloppyIsolation(slip=1.5)


# ---------------------------------------------------------------------------
# 5x5: symmetries, evaluation functions, the reference searches
# ---------------------------------------------------------------------------



def test_symmetries_of_5x5_and_mini_isolation():
    g = Isolation(5, 5)
    assert len(g.transforms()) == 8
    openings = {g.canonical(g.result(g.initial(), a)) for a in g.actions(g.initial())}
    assert len(openings) == 6  # centre, 2 edge-adjacent kinds, corner, edge, diagonal
    assert len(mini_isolation().transforms()) == 1  # the blocked corner breaks them all
    assert len(Isolation(4, 3).transforms()) == 4


@pytest.mark.parametrize("evaluation", [my_moves, my_moves_minus_opponent_moves])
def test_symmetric_states_have_equal_values(evaluation):
    g = Isolation(5, 5, evaluation=evaluation)
    for s in random_states(g, 5, 6, 2, 10):
        values = {alphabeta_value(g, t, 3, 0) for t in g.symmetric_states(s)}
        assert len(values) == 1


@pytest.mark.parametrize("evaluation", [my_moves, my_moves_minus_opponent_moves])
def test_alphabeta_equals_minimax_with_no_more_nodes_on_5x5(evaluation):
    g = Isolation(5, 5, evaluation=evaluation)
    for s in random_states(g, 9, 8, 2, 12):
        for depth in (1, 2, 3):
            mm, ab = Counter(), Counter()
            for player in (0, 1):
                assert alphabeta_value(g, s, depth, player, ab) == \
                    minimax_value(g, s, depth, player, mm)
            assert ab.nodes <= mm.nodes


def test_iterative_deepening_answers_with_its_deepest_finished_search():
    g = Isolation(5, 5)
    s = random_playout(g, None, random.Random(1), 6)
    its = iterative_deepening(g, s, max_nodes=3000)
    assert [it.depth for it in its] == list(range(1, len(its) + 1)) and len(its) >= 2
    assert sum(it.nodes for it in its) <= 3000
    last = its[-1]
    assert (last.value, last.actions) == best_actions(g, s, last.depth, alphabeta_value)
    proof = iterative_deepening(mini_isolation(), mini_isolation().initial(), max_depth=10)
    assert proof[-1].value == INF and proof[-1].actions == [(0, 0), (2, 0), (0, 1)]
    with pytest.raises(ValueError, match="budget"):
        iterative_deepening(g, s)


# ---------------------------------------------------------------------------
# Variants
# ---------------------------------------------------------------------------


def test_three_player_isolation_plays_on_after_a_player_is_out():
    g = MultiIsolation(3, 3)
    s = g.parse("""
        # 1 #
        # # #
        2 . 3
    """, mover=0)
    assert g.actions(s) == []  # not reached by play: the mover is stuck
    s = g.parse("""
        # 1 .
        # # .
        2 # 3
    """, mover=0)
    after = g.result(s, (2, 0))  # player 2 is stuck: out; player 3 to move
    assert g.to_move(after) == 2 and not after[3] >> 1 & 1 and not g.is_terminal(after)
    end = g.result(after, (2, 1))  # player 1 (at (2, 0)) is stuck: out; 3 wins
    assert g.is_terminal(end) and g.winner(end) == 2
    assert [g.utility(end, p) for p in g.players] == [0.0, 0.0, 1.0]
    for state in random_states(g, 2, 20, 0, 8):
        shares = [mobility_share(g, state, p) for p in g.players]
        assert abs(sum(shares) - 1) < 1e-12 and min(shares) >= 0


def test_sloppy_outcomes_are_a_distribution_and_slip_zero_is_the_plain_game():
    g = SloppyIsolation(4, 4, slip=0.2)
    seen_astray = False
    for s in random_states(g, 4, 20, 2, 8):
        for a in g.actions(s):
            outs = g.outcomes(s, a)
            assert abs(sum(p for p, _ in outs) - 1) < 1e-12
            assert outs[0][1] == g.result(s, a)
            seen_astray |= len(outs) > 1
            ax, ay = a
            for _, t in outs[1:]:  # astray: an open cell one king step from the aim
                x, y = g.xy(t[1][s[2]])
                assert max(abs(x - ax), abs(y - ay)) == 1 and not s[0] >> t[1][s[2]] & 1
    assert seen_astray
    plain = SloppyIsolation(4, 4, slip=0.0)
    s = random_playout(plain, None, random.Random(1), 4)
    assert all(len(plain.outcomes(s, a)) == 1 for a in plain.actions(s))


def test_play_draws_sloppy_outcomes_with_the_seed():
    g = SloppyIsolation(4, 4, slip=0.5)

    def first(game, state):
        return game.actions(state)[0]

    ends = [play(g, [first, first], rng=random.Random(seed)) for seed in (8, 8, 9, 10, 11)]
    assert ends[0] == ends[1]
    assert all(g.is_terminal(end) and g.winner(end) in (0, 1) for end, _ in ends)
    # the same players, other outcomes of their moves: the seed is what differs
    assert len({end for end, _ in ends}) > 1
