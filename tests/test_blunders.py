"""scripts.commands.blunders: a match's games judged move by move by the exact solver."""
import json

from agents.solver.solver import Solver
from scripts.commands import blunders

SHAPE = (5, 5, 4)  # rows, columns, inarow: a draw, every position solves at once


def outcome(solver, text):
    v = solver.solve(text, weak=True)
    return (v > 0) - (v < 0)


def scripted_game(solver, blunder_ply):
    """A game on the small board where every move keeps its player's outcome but one,
    which makes it worse (the leftmost such column): the first move from
    ``blunder_ply`` on that has a worse column. Returns (moves, that move's ply)."""
    rows, columns, _ = SHAPE
    text, moves, played = "", [], None
    while True:
        p = solver.position(text)
        if any(p.can_play(c) and p.is_winning_move(c) for c in range(columns)):
            c = next(c for c in range(columns) if p.can_play(c) and p.is_winning_move(c))
            return moves + [c], played
        if len(text) == rows * columns:
            return moves, played
        best = outcome(solver, text)
        legal = [c for c in range(columns) if p.can_play(c)]
        keep = [c for c in legal if -outcome(solver, text + str(c + 1)) == best]
        worse = [c for c in legal if -outcome(solver, text + str(c + 1)) < best]
        if played is None and len(moves) >= blunder_ply and worse:
            c, played = worse[0], len(moves)
        else:
            c = keep[0]
        text += str(c + 1)
        moves.append(c)


def test_judge_game_finds_the_one_blunder_and_who_made_it(tmp_path, capsys):
    rows, columns, inarow = SHAPE
    solver = Solver(rows, columns, inarow)
    games = []
    plies = []
    for i, start in enumerate((2, 3, 5)):
        moves, ply = scripted_game(solver, start)
        assert ply is not None
        plies.append(ply)
        rows_judged = blunders.judge_game(moves, solver, 5.0)
        assert len(rows_judged) == len(moves) - 1  # all settled, the last move excluded
        assert [p for p, before, after in rows_judged if after < before] == [ply]
        names = ["A", "B"] if i % 2 == 0 else ["B", "A"]
        games.append({"agents": names, "moves": moves})
    judged, bl, first, by_stones, skipped = blunders.summarize(games, solver, 5.0)
    who = [("A", "B")[(ply + i) % 2] for i, ply in enumerate(plies)]  # game i: names[i % 2] first
    expected = {w: who.count(w) for w in set(who)}
    assert bl == expected and first == expected and skipped == 0
    assert sum(judged.values()) == sum(len(g["moves"]) - 1 for g in games)
    stones = {}
    for w, ply in zip(who, plies):
        stones[(w, ply // 4 * 4)] = stones.get((w, ply // 4 * 4), 0) + 1
    assert by_stones == stones
    path = tmp_path / "games.json"
    path.write_text(json.dumps({"config": {"rows": rows, "columns": columns, "inarow": inarow},
                                "games": games}))
    assert blunders.main([str(path)]) == 0
    out = capsys.readouterr().out
    for w in expected:
        assert f"{w}: {expected[w]} blunders" in out
    assert "0 skipped" in out
    # each game's first blunder names the line it missed: played from the position before
    # the blunder, the line ends the game with the printed score
    shown = [line for line in out.splitlines() if line.startswith("  game ")]
    assert len(shown) == len(games)
    for text, g, ply in zip(shown, games, plies):
        assert f"move {ply + 1} " in text and f"column {g['moves'][ply] + 1}," in text
        tail = text.split("best line (score ")[1]
        score = int(tail.split(")")[0])
        line = [int(c) - 1 for c in tail.split("): ")[1].split()]
        assert score == solver.solve("".join(str(c + 1) for c in g["moves"][:ply]))
        p = solver.position("".join(str(c + 1) for c in g["moves"][:ply]))
        for i, c in enumerate(line):
            if p.is_winning_move(c):
                assert i == len(line) - 1 and score == ((1 if i % 2 == 0 else -1)
                                                        * ((rows * columns + 1 - p.moves) // 2))
                break
            p.play(c)
        else:
            assert score == 0 and p.moves == rows * columns
