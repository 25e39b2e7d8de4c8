"""Issue 16 in matches and tournaments: opening suites played in colour-swapped pairs,
pair statistics, SPRT early stopping, replays of every game, CPU share per worker.

Small boards and fast agents (a few seconds of games); the shipped 7x6 suite is only
read and checked, not played through.
"""
import os

import pytest

from scripts.arena import match as match_mod
from scripts.arena import suites
from scripts.arena.games import Fixture, play_game
from scripts.arena.specs import parse_match_config, parse_spec
from scripts.arena.stats import score_interval
from scripts.commands.match import main as match_main
from scripts.commands.tournament import main as tournament_main

SMALL = "rows=5,columns=6,inarow=4"


def write_suite(tmp_path, lines, name="suite.txt"):
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n")
    return str(path)


# ---------------------------------------------------------------------------
# Suites
# ---------------------------------------------------------------------------


def test_read_suite_takes_first_tokens_and_skips_comments(tmp_path):
    path = write_suite(tmp_path, ["# a comment", "", "4453 0", "11", "  34  -2  3"])
    assert suites.read_suite(path) == ["4453", "11", "34"]


@pytest.mark.parametrize("line, words", [
    ("48", "'8'"),                # no column 8 on 7 columns
    ("4a", "'a'"),
    ("1111111", "full"),          # the seventh stone in a 6-row column
    ("1212121", "connects"),      # the first player's vertical four
])
def test_bad_openings_are_named_with_their_line(tmp_path, line, words):
    path = write_suite(tmp_path, ["44", line])
    with pytest.raises(ValueError, match="line 2") as e:
        suites.read_suite(path)
    assert words in str(e.value)


def test_distinct_openings_fold_transpositions_and_mirrors():
    """Perft counts 7 and 49 positions after 1 and 2 plies (STYLE.md); mirror folding
    leaves 4 (columns 1-4) and 25 (pairs up to the mirror, 4 of 49 their own image:
    (49 + 7) / 2 = 28, minus the 3 ... that are mirror images of a transposition)."""
    one, two = suites.distinct_openings(1), suites.distinct_openings(2)
    assert one == ["1", "2", "3", "4"]
    assert len(two) == 25 and "44" in two and "17" in two and "71" not in two
    # every 2-ply position or its mirror is represented exactly once
    from agents.solver.position import Position
    keys = set()
    for a in range(1, 8):
        for b in range(1, 8):
            m = f"{a}{b}"
            k = {Position.from_moves(x).key() for x in (m, suites.mirror(m))}
            keys.add(min(k))
    assert len(keys) == 25


def test_shipped_suite_is_legal_folded_and_within_its_bound():
    have = suites.shipped()
    assert have, "no balanced suite shipped"
    for k in have:
        path = suites.suite_path(k)
        openings = suites.read_suite(path)
        assert all(len(m) == k for m in openings)
        assert len(set(openings)) == len(openings)
        assert not set(openings) & {suites.mirror(m) for m in openings if suites.mirror(m) != m}
        with open(path, encoding="utf-8") as f:
            header = [line for line in f if line.startswith("#")]
            f.seek(0)
            rows = [line.split() for line in f if line.strip() and not line.startswith("#")]
        made_by = "Made by: python -m scripts.tools.balanced_suites --generate"
        assert any(made_by in h for h in header)
        assert all(-suites.BOUND <= int(lo) <= int(hi) <= suites.BOUND for _, lo, hi in rows)


def test_balanced_suite_that_is_not_shipped_exits_2_listing_the_shipped(capsys):
    with pytest.raises(SystemExit) as exc:
        match_main(["random", "random", "--openings", "balanced:9", "--quiet"])
    assert exc.value.code == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "balanced:9" in err
    assert all(f"balanced:{k}" in err for k in suites.shipped())


def test_balanced_suite_on_another_board_exits_2(capsys):
    with pytest.raises(SystemExit) as exc:
        match_main(["random", "random", "--config", SMALL, "--openings",
                        f"balanced:{suites.shipped()[0]}", "--quiet"])
    assert exc.value.code == 2 and "7x6" in capsys.readouterr().err


def test_default_is_the_balanced_suite_on_7x6_only():
    assert suites.default_openings(6, 7, 4) == f"balanced:{suites.shipped()[-1]}"
    assert suites.default_openings(5, 6, 4) == "none"


# ---------------------------------------------------------------------------
# Games from an opening, pairs
# ---------------------------------------------------------------------------


def test_game_starts_after_the_opening_and_agents_see_a_normal_observation(tmp_path):
    """The agent records what it is shown: the opening's stones, its mark, the step.

    Opening "3343" on 6x5 (row 0 at the top)::

        . . . . . .
        . . . . . .
        . . 2 . . .
        . . 2 . . .
        . . 1 1 . .      mark 1 to move at step 4
    """
    log = tmp_path / "seen.txt"
    path = tmp_path / "spy.py"
    path.write_text(f"def agent(obs, config):\n"
                    f"    with open({str(log)!r}, 'a') as f:\n"
                    f"        f.write(f'{{obs.step}} {{obs.mark}} {{list(obs.board)}}\\n')\n"
                    f"    return [c for c in range(config.columns) "
                    f"if obs.board[c] == 0][0]\n")
    cfg = parse_match_config(SMALL)
    r = play_game(Fixture(0, (parse_spec(str(path)), parse_spec("random")), 5, cfg, "3343"))
    assert r["opening"] == "3343" and r["moves"][:4] == [2, 2, 3, 2]
    seen = [line for line in log.read_text().splitlines() if line.startswith("4 ")]
    first = seen[0].split(" ", 2)  # (the untimed warm-up calls show steps 0 and 1)
    assert first[:2] == ["4", "1"]
    board = eval(first[2])  # noqa: S307 - a list literal we wrote
    assert board[4 * 6 + 2] == 1 and board[3 * 6 + 2] == 2 and board[4 * 6 + 3] == 1
    assert board[2 * 6 + 2] == 2 and sum(1 for v in board if v) == 4
    assert len(r["times"][0]) + len(r["times"][1]) == len(r["moves"]) - 4


def test_pairs_share_an_opening_with_colours_swapped():
    cfg = parse_match_config(SMALL)
    a, b = parse_spec("onestep"), parse_spec("random")
    ops = ["11", "22", "33"]
    games = match_mod.schedule(a, b, 13, 4, cfg, ops)
    for i in range(0, 12, 2):
        assert games[i].opening == games[i + 1].opening
        assert games[i].specs == (a, b) and games[i + 1].specs == (b, a)
    first_round = {games[i].opening for i in (0, 2, 4)}
    assert first_round == set(ops)  # every opening once before any comes back
    assert games[12].opening in ops  # odd --games: the last game has no partner
    assert match_mod.schedule(a, b, 13, 4, cfg, ops) == games
    assert [g.opening for g in match_mod.schedule(a, b, 4, 4, cfg, None)] == [""] * 4


def test_odd_games_leave_the_last_game_out_of_the_pairs(capsys):
    match_main(["onestep", "random", "--games", "5", "--config", SMALL, "--quiet",
                    "--openings", "none"])
    out = capsys.readouterr().out
    assert "pairs 2 " in out and "1 game(s) without a partner" in out


def test_match_reports_pentanomial_elo_los_and_replays_with_openings(tmp_path):
    pytest.importorskip("kaggle_environments")
    cfg = parse_match_config(SMALL)
    path = write_suite(tmp_path, ["3", "34", "43", "1", "6"])
    out = tmp_path / "replays"
    code = match_main(["onestep", "random", "--games", "6", "--config", SMALL, "--quiet",
                           "--openings", path, "--replays", str(out), "--seed", "2"])
    assert code == 0
    files = sorted(os.listdir(out))
    assert files == ["game0000.html", "game0001.html", "game0002.html", "game0003.html",
                     "game0004.html", "game0005.html", "index.html"]
    index = (out / "index.html").read_text()
    assert all(f'href="game000{i}.html"' in index for i in range(6))
    results, s = match_mod.match("onestep", "random", 6, cfg, seed=2, progress=False,
                                 openings=suites.read_suite(path, 5, 6, 4))
    assert sum(s["pairs"]["pentanomial"]) == 3 and 0 <= s["pairs"]["los"] <= 1
    for r in results:
        assert "".join(str(c + 1) for c in r["moves"]).startswith(r["opening"])


def test_deterministic_agents_pair_interval_is_wider_than_the_per_game_one():
    """Fixed-depth alphabeta against seeded minimax on 6x5 from the empty board: the
    two agents are deterministic, so 16 games are 8 copies of one pair of games. The
    per-game Wilson interval counts 16 independent games and is narrow; the pair
    statistics see a single distinct pair and claim nothing ([0, 1]). Over 3 openings
    cycled 6 times the pairs are 3 distinct trials, not 6."""
    cfg = parse_match_config(SMALL)
    a, b = "alphabeta:depth=3", "minimax:depth=1,seed=0"
    results, s = match_mod.match(a, b, 16, cfg, seed=0, progress=False)
    assert len({tuple(r["moves"]) for r in results}) == 2  # the same two games again
    wilson = s["score_ci"][1] - s["score_ci"][0]
    pair = s["pairs"]["score_ci"][1] - s["pairs"]["score_ci"][0]
    assert s["pairs"]["effective_pairs"] == 1 and wilson < 0.5 and pair > wilson
    results, s = match_mod.match(a, b, 12, cfg, seed=0, progress=False,
                                 openings=["3", "34", "1"])
    assert s["pairs"]["pairs"] == 6 and s["pairs"]["effective_pairs"] <= 3
    low, high = score_interval(s["score"], s["games"])
    assert s["pairs"]["score_ci"][1] - s["pairs"]["score_ci"][0] > high - low


# ---------------------------------------------------------------------------
# SPRT
# ---------------------------------------------------------------------------


def test_sprt_stops_early_on_clearly_different_agents(capsys):
    code = match_main(["onestep", "random", "--games", "200", "--config", SMALL, "--quiet",
                           "--openings", "none", "--sprt", "0,20"])
    out = capsys.readouterr().out
    assert code == 0 and "H1 accepted" in out
    games = int(out.split(" after ")[1].split()[0])
    assert games < 200


def test_sprt_on_identical_agents_runs_to_the_limit_or_accepts_h0(capsys):
    code = match_main(["random", "random", "--games", "40", "--config", SMALL, "--quiet",
                           "--openings", "none", "--sprt", "0,20"])
    out = capsys.readouterr().out
    assert (code, "inconclusive" in out) in ((3, True), (1, False))
    assert "after 40 games" in out or code == 1


def test_sprt_bad_input_exits_2(capsys):
    with pytest.raises(SystemExit) as exc:
        match_main(["random", "random", "--config", SMALL, "--sprt", "20,0", "--quiet"])
    assert exc.value.code == 2 and "elo0 < elo1" in capsys.readouterr().err


# ---------------------------------------------------------------------------
# Tournament: replays of every game, CPU share
# ---------------------------------------------------------------------------


def test_tournament_writes_one_replay_per_game_and_an_index(tmp_path, capsys):
    pytest.importorskip("kaggle_environments")
    pytest.importorskip("matplotlib")
    out = tmp_path / "replays"
    tournament_main(["random", "onestep", "rules", "--games", "2", "--config", SMALL, "--quiet",
                   "--out", str(tmp_path / "t"), "--replays", str(out), "--workers", "2",
                   "--openings", write_suite(tmp_path, ["3", "4"])])
    printed = capsys.readouterr().out
    files = sorted(os.listdir(out))
    assert len(files) == 3 * 2 + 1 and "index.html" in files
    assert (out / "index.html").read_text().count("<a href=") == 6
    assert "CPU share per worker" in printed


def test_replays_without_kaggle_environments_exit_2_naming_the_extra(monkeypatch, tmp_path,
                                                                      capsys):
    import importlib.util
    real = importlib.util.find_spec

    def no_kaggle(name, *args, **kwargs):
        return None if name == "kaggle_environments" else real(name, *args, **kwargs)

    monkeypatch.setattr(importlib.util, "find_spec", no_kaggle)
    with pytest.raises(SystemExit) as exc:
        match_main(["random", "random", "--config", SMALL, "--quiet", "--replays",
                        str(tmp_path / "r")])
    err = capsys.readouterr().err.strip()
    assert exc.value.code == 2 and len(err.splitlines()) == 1 and "games" in err


def test_score_at_least_agrees_with_the_exact_score():
    """On seeded random 7x6 positions of 16 to 24 stones (fast to solve exactly) the
    null-window bound agrees with the solved score for every threshold around it."""
    import random

    from agents.solver.solver import Solver
    solver = Solver(tt_bits=16)
    rng = random.Random(16)
    checked = 0
    while checked < 12:
        p = solver.position("")
        moves = rng.randint(16, 24)
        while p.moves < moves:
            legal = [c for c in range(7) if p.can_play(c) and not p.is_winning_move(c)]
            if not legal:
                break
            p.play(rng.choice(legal))
        if p.moves < moves:
            continue
        score = solver.solve(p)
        for t in range(score - 3, score + 4):
            assert solver.score_at_least(p, t) == (score >= t), (t, score)
        checked += 1


def test_sprt_stops_at_the_same_game_whatever_the_workers():
    """Rounds are whole pairs in schedule order, so the stop does not depend on which
    worker finishes first; one pool serves every round (two worker ids, not one per
    round)."""
    from scripts.arena.stats import parse_sprt
    cfg = parse_match_config(SMALL)
    runs = [match_mod.match("onestep", "random", 200, cfg, seed=5, progress=False,
                            sprt=parse_sprt("0,20"), workers=w) for w in (1, 2)]
    (r1, s1), (r2, s2) = runs
    assert s1["sprt"]["verdict"] == "H1" and s1["games"] == s2["games"] < 200
    assert s1["sprt"]["llr"] == pytest.approx(s2["sprt"]["llr"])
    assert [r["moves"] for r in r1] == [r["moves"] for r in r2]
    assert len(s2["workers"]) == 2
