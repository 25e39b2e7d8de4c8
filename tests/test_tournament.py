"""scripts.arena.tournament: the Bradley-Terry fit on known data, the round robin, its files."""
import csv
import json
import math

import numpy as np
import pytest

from scripts.arena import tournament as tour
from scripts.arena.specs import parse_match_config, parse_spec
from scripts.commands.tournament import main as tournament_main

ORDER = ["random", "onestep", "minimax:depth=3", "alphabeta:depth=6"]  # weakest first


def test_two_players_recover_the_elo_formula():
    """75 points out of 100: 400 log10(3) = 190.8 Elo apart; with a flat prior the
    standard error of the difference is 1/sqrt(n p (1-p)) in log-odds units."""
    points = np.array([[0, 75.0], [25.0, 0]])
    played = np.array([[0, 100.0], [100.0, 0]])
    ratings, errors = tour.fit_ratings(points, played, prior_sd=1e9)
    assert ratings[0] - ratings[1] == pytest.approx(400 * math.log10(3), abs=1e-6)
    assert ratings.sum() == pytest.approx(0, abs=1e-9)
    se_diff = tour.ELO / math.sqrt(100 * 0.75 * 0.25)
    assert errors == pytest.approx([se_diff / 2, se_diff / 2], rel=1e-6)


def test_ratings_recovered_from_simulated_games():
    true = np.array([-300.0, -100.0, 0.0, 150.0, 250.0])
    rng = np.random.default_rng(1)
    n = len(true)
    points, played = np.zeros((n, n)), np.zeros((n, n))
    for i in range(n):
        for j in range(i + 1, n):
            p = 1 / (1 + 10 ** ((true[j] - true[i]) / 400))
            wins = rng.binomial(400, p)
            points[i, j], points[j, i] = wins, 400 - wins
            played[i, j] = played[j, i] = 400
    ratings, errors = tour.fit_ratings(points, played)
    assert np.all(np.abs(ratings - (true - true.mean())) < 3 * errors)
    assert np.all(errors < 40)
    assert list(np.argsort(ratings)) == list(range(n))


def test_perfect_scores_give_finite_ordered_ratings():
    n = 3  # 0 < 1 < 2, every game won by the stronger agent
    points = np.array([[0, 0, 0], [10, 0, 0], [10, 10, 0]], dtype=float)
    played = np.full((n, n), 10.0) - np.diag([10.0] * n)
    ratings, errors = tour.fit_ratings(points, played)
    assert np.all(np.isfinite(ratings)) and np.all(np.isfinite(errors))
    assert ratings[0] < ratings[1] < ratings[2]


def test_schedule_plays_every_pair_with_alternating_colours():
    specs = [parse_spec(s) for s in ("random", "onestep", "rules")]
    games = tour.schedule(specs, 4, 0, parse_match_config())
    assert len(games) == 3 * 4 and [g.index for g in games] == list(range(12))
    pairs = {}
    for g in games:
        key = frozenset(s.text for s in g.specs)
        pairs.setdefault(key, []).append(g.specs[0].text)
    assert len(pairs) == 3
    for firsts in pairs.values():
        assert len(firsts) == 4 and len(set(firsts)) == 2 and firsts[0] != firsts[1]


def test_round_robin_orders_agents_of_known_strength(tmp_path, capsys):
    """random < onestep < minimax depth 3 < alphabeta depth 6 on 7x6, plus a fifth
    agent (rules) whose place is not checked; all four files are written."""
    out = tmp_path / "t"
    code = tournament_main(ORDER[:2] + ["rules"] + ORDER[2:] + ["--games", "6", "--out", str(out),
                                                          "--quiet", "--seed", "0"])
    assert code == 0
    stdout = capsys.readouterr().out
    assert "Bradley-Terry" in stdout and "alphabeta:depth=6" in stdout
    with open(out / "ratings.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == 5 and [int(r["rank"]) for r in rows] == [1, 2, 3, 4, 5]
    rating = {r["agent"]: float(r["rating"]) for r in rows}
    assert [rating[a] for a in ORDER] == sorted(rating[a] for a in ORDER)
    for r in rows:
        assert float(r["low"]) < float(r["rating"]) < float(r["high"])
        assert float(r["games"]) == 4 * 6
    with open(out / "crosstable.csv", newline="") as f:
        cross = list(csv.reader(f))
    names = cross[0][1:]
    assert sorted(names) == sorted(ORDER + ["rules"])
    for i, row in enumerate(cross[1:]):  # points of i against j + points of j against i = 6
        for j in range(len(names)):
            if i != j:
                assert float(row[j + 1]) + float(cross[j + 1][i + 1]) == 6
    data = json.loads((out / "games.json").read_text())
    assert len(data["games"]) == 10 * 6
    assert (out / "ratings.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize("argv, words", [
    (["random"], "at least 2 agents"),
    (["random", "random"], "given twice"),
    (["random", "bogus"], "unknown agent 'bogus'"),
    (["random", "onestep", "--games", "x"], "--games"),
])
def test_bad_input_exits_2(argv, words, tmp_path, capsys):
    with pytest.raises(SystemExit) as exc:
        tournament_main(argv + ["--out", str(tmp_path / "t"), "--quiet"])
    assert exc.value.code == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and words in err
