"""``connectx blunders``: where the games of a match were lost, by the exact solver.

    connectx match alphabeta:time_limit=0.25 mcts:time_limit=0.25 --games 30 --out games.json
    connectx blunders games.json

For every move of every game in a match's ``--out`` file (7x6 boards, or any board
the solver takes), the solver's outcome (win, draw or loss for the side to move) is
taken before and after the move; a move that makes it worse for its player (a win
thrown to a draw or a loss, a draw to a loss) is a *blunder*. Printed: per agent,
its moves judged, its blunders, and the games whose first blunder was its, then
the blunders by the number of stones on the board when they were played (a row
per 4 stones). A position the solver does not settle within ``--seconds`` (the
first few plies of a game can take minutes) is skipped and counted; the moves of
the match's opening (``--openings``) are not judged. Last, the first blunder of each
game (up to ``--lines``) with the line that was missed: the principal variation of the
position before it, which keeps the best score to the end of the game.
With the ``books`` extra installed the solver stops at its 12-ply database, so the
opening positions are settled too.
"""
import sys
import time
from collections import Counter

from scripts.arena.report import load_games
from scripts.args import ArgumentParser, add_seconds_argument, positive_int_arg


def _sign(v):
    return (v > 0) - (v < 0)


def judge_game(moves, solver, seconds):
    """``[(ply, before, after)]`` for each move of ``moves`` (0-based columns) that
    the solver judged: the outcome sign (1, 0, -1) for the player making move ``ply``
    before and after it. The game's last move and unsettled positions are left out."""
    out = []
    text = ""
    before = None
    for ply, col in enumerate(moves[:-1]):
        if before is None:
            v = solver.solve(text, weak=True, deadline=time.perf_counter() + seconds)
            before = None if v is None else _sign(v)
        text += str(col + 1)
        v = solver.solve(text, weak=True, deadline=time.perf_counter() + seconds)
        after = None if v is None else -_sign(v)
        if before is not None and after is not None:
            out.append((ply, before, after))
        before = None if after is None else -after  # the next mover's outcome
    return out


def summarize(games, solver, seconds, bucket=4, firsts=None):
    """Per agent: moves judged, blunders, first blunders; and blunders by stones.
    ``firsts``: a list that receives ``(game index, ply, agent, before, after)`` of each
    game's first blunder."""
    judged, blunders, first = Counter(), Counter(), Counter()
    by_stones = Counter()
    skipped = 0
    for index, g in enumerate(games):
        names = g["agents"]
        book = len(g.get("opening") or "")  # the opening suite's moves are nobody's
        rows = [r for r in judge_game(g["moves"], solver, seconds) if r[0] >= book]
        skipped += len(g["moves"]) - 1 - book - len(rows)
        seen = False
        for ply, before, after in rows:
            who = names[ply % 2]
            judged[who] += 1
            if after < before:
                blunders[who] += 1
                by_stones[(who, ply // bucket * bucket)] += 1
                if not seen:
                    first[who] += 1
                    seen = True
                    if firsts is not None:
                        firsts.append((index, ply, who, before, after))
    return judged, blunders, first, by_stones, skipped


def main(argv=None, prog="python -m scripts.commands.blunders"):
    ap = ArgumentParser(prog=prog, description=__doc__.split("\n\n")[0])
    ap.add_argument("games", help="a match's --out JSON file")
    add_seconds_argument(ap, 3.0, "solver time a position before it is skipped")
    ap.add_argument("--bucket", type=positive_int_arg, default=4,
                    help="stones a row of the by-stones table (default 4)")
    ap.add_argument("--lines", type=int, default=10,
                    help="show the missed line of at most this many first blunders (default 10)")
    args = ap.parse_args(argv)
    try:
        games, cfg = load_games(args.games)
    except ValueError as e:
        ap.error(str(e))
    from agents.board.bitboard import fits_bitboard
    from agents.solver.solver import Solver
    if not fits_bitboard(cfg["rows"], cfg["columns"]):
        ap.error(f"the solver does not take a {cfg['rows']}x{cfg['columns']} board")
    from agents.solver.database import attach
    if args.lines < 0:
        ap.error("--lines must be 0 or more")
    solver = Solver(cfg["rows"], cfg["columns"], cfg["inarow"])
    try:
        attach(solver)  # the opening database, when the books extra is installed
    except ValueError as e:
        ap.error(str(e))
    firsts = []
    judged, blunders, first, by_stones, skipped = summarize(games, solver, args.seconds,
                                                            args.bucket, firsts)
    print(f"{len(games)} games, {sum(judged.values())} moves judged, {skipped} skipped "
          f"(not settled in {args.seconds:g} s)")
    names = sorted(set(judged) | set(blunders))
    for who in names:
        print(f"{who}: {blunders[who]} blunders in {judged[who]} moves, "
              f"first blunder of the game in {first[who]} games")
    print("blunders by stones on the board:")
    for start in sorted({s for _, s in by_stones}):
        cells = ", ".join(f"{who} {by_stones[(who, start)]}" for who in names)
        print(f"  {start:2d}-{start + args.bucket - 1:2d}: {cells}")
    if firsts and args.lines:
        print("first blunders and the lines they missed (columns 1-based):")
    for index, ply, who, before, after in firsts[:args.lines]:
        g = games[index]
        print(f"  game {index}, move {ply + 1} ({who}): column {g['moves'][ply] + 1}, "
              f"{OUTCOME[before]} -> {OUTCOME[after]}; {missed_line(g['moves'][:ply], solver, args.seconds)}")
    return 0


OUTCOME = {1: "win", 0: "draw", -1: "loss"}


def missed_line(moves, solver, seconds):
    """The principal variation of the position after ``moves`` (0-based columns), as text."""
    p = solver.position("")
    for c in moves:
        p.play(c)
    deadline = time.perf_counter() + seconds
    score = solver.solve(p, deadline=deadline)
    if score is None:
        return f"no exact score within {seconds:g} s"
    line, complete = solver.principal_variation(p, score, deadline)
    return (f"best line (score {score:+d}): " + " ".join(str(c + 1) for c in line)
            + ("" if complete else " ..."))


if __name__ == "__main__":
    sys.exit(main())
