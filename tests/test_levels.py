"""``perfect:skill=S`` and ``perfect:elo=E`` (agents.players.levels)."""
import pytest

import agents
from agents.players import levels
from scripts.arena.judging import score
from scripts.arena.dataset import make_set
from submission import build as bld
from agents.board.rules_reference import board_from_moves

CFG = {"rows": 4, "columns": 5, "inarow": 4, "actTimeout": 60.0}


def obs(moves, rows=4, columns=5):
    return {"board": board_from_moves(moves, rows, columns), "mark": 1 + len(moves) % 2,
            "remainingOverageTime": 0.0}


@pytest.mark.parametrize("options, word", [
    ({"skill": 21}, "skill"), ({"skill": -1}, "skill"), ({"skill": 2.5}, "skill"),
    ({"skill": True}, "skill"), ({"elo": 10.0}, "elo"), ({"elo": "x"}, "elo"),
    ({"skill": 3, "elo": 1000}, "not both"),
])
def test_bad_levels_are_refused(options, word):
    with pytest.raises(ValueError, match=word):
        agents.make("perfect", **options)


def test_the_scale_maps_both_ways():
    lo, hi = levels.ELO_OF_LEVEL[0][1], levels.ELO_OF_LEVEL[-1][1]
    assert [e for _, e in levels.ELO_OF_LEVEL] == sorted(e for _, e in levels.ELO_OF_LEVEL)
    for level in (0, 3.5, 10, 17.25, 20):
        assert levels.level_of_elo(levels.elo_of_level(level)) == pytest.approx(level)
    assert levels.level_of_elo(lo) == 0 and levels.level_of_elo(hi) == 20
    assert agents.make("perfect", elo=hi).level == 20 and agents.make("perfect").level == 20
    # the noise falls with the level
    assert levels.random_share(0) == 1 and levels.random_share(levels.RANDOM_UNTIL) == 0
    assert all(levels.temperature(a) > levels.temperature(a + 1) for a in range(20))


def test_a_win_in_one_is_never_missed_above_level_0():
    """5x4 after 1 2 1 3 1 4, x to move::

        . . . . .
        x . . . .
        x . . . .
        x o o o .     x wins at once in column 1 (0-based 0)
    """
    win = "121314"
    for seed in range(12):
        assert agents.make("perfect", skill=1, seed=seed)(obs(win), CFG) == 0
    random_moves = {agents.make("perfect", skill=0, seed=s)(obs(win), CFG) for s in range(12)}
    assert random_moves != {0}  # level 0 is a random player


def test_levels_are_seeded_and_graded():
    labelled = make_set(4, 5, 4, positions=30, seed=4)
    runs = {s: score(f"perfect:skill={s},seed=1", labelled, act=60.0) for s in (0, 10, 20)}
    again = score("perfect:skill=10,seed=1", labelled, act=60.0)
    assert again.columns == runs[10].columns
    loss = {s: r.rows[-1]["loss"] for s, r in runs.items()}
    assert loss[0] > loss[10] >= loss[20] == 0.0, loss


def test_the_stand_in_plays_where_the_exact_scores_are_not_ready():
    """7x6 without the database, two stones: the analysis of every column does not
    finish in 0.1 s, so the stand-in utilities choose (around the book's move); on a
    board past 64 bits (8x8) a win in one is still taken."""
    cfg = {"rows": 6, "columns": 7, "inarow": 4, "actTimeout": 2.0}
    agent = agents.make("perfect", skill=12, seed=0, time_limit=0.1, database=False)
    for moves in ("44", "4453"):
        col = agent(obs(moves, 6, 7), cfg)
        assert type(col) is int and 0 <= col < 7
        assert agent.last["source"] == "level" and agent.last["why"] == "softmax, stand-in"
    big = {"rows": 8, "columns": 8, "inarow": 4, "actTimeout": 2.0}
    assert agents.make("perfect", skill=1, seed=0)(obs("121314", 8, 8), big) == 0


def test_a_level_goes_into_the_kaggle_file():
    bundle = bld.build("perfect", {"skill": 5})
    assert bundle.options == {"warmup": "background", "database": False, "skill": 5}
    assert "agents.players.levels" in bundle.modules and "def _level_move" in bundle.text


def test_bench_levels_fits_ratings_anchored_on_negamax():
    """A tiny ``connectx bench levels``: levels 0 and 20 against negamax, 2 games a pair."""
    from scripts.bench.levels import calibrate
    _, rows = calibrate([0, 20], games=2, workers=1, seconds=0.05, progress=False,
                        anchors=("negamax",))
    rating = {r["agent"].split(",")[0]: r["rating"] for r in rows}
    assert rating["negamax"] == levels.ANCHOR_ELO
    assert rating["perfect:skill=20"] > rating["negamax"] > rating["perfect:skill=0"]
    assert all(r["low"] <= r["rating"] <= r["high"] for r in rows)
