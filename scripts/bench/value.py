"""``connectx bench value``: how often an agent's move keeps the game's value, on
labelled positions; and the labelling of positions from a match's games.

    connectx bench value alphabeta:depth=10 mcts:iterations=20000,seed=1
                         [--file scripts/data/positions/games.txt] [--limit N]
    connectx bench value --label games.json --out positions.txt [--stones 5-16] [--seconds 5]

A match score moves by one game's result; a position tells whether one move keeps
the value (win stays win, draw stays draw), so comparing two heuristics or two
settings on the same few hundred positions separates them with far fewer calls
than games do. Each line of the file is ``moves s1 ... sW`` (1-based move string,
then the score of playing each column, ``FULL`` for a full one: only the signs are
used, so exact scores and weak outcomes both do). The agent is called once per
position as on Kaggle (its tables are rebuilt per call by alphabeta and mcts;
``perfect`` keeps its table from line to line). Printed per agent: positions,
value kept, with a 95% interval; for two or more agents, against the first: the
positions only one of them keeps (a sign test: the other positions say nothing
about which is better).

``--label`` writes such a file from a match's ``--out`` file: every position of
every game with a number of stones in ``--stones`` (the match's opening moves are
not included), duplicates once, analysed by the exact solver column by column
(weak: -1, 0, 1), kept when the columns' outcomes differ (a position where every
move keeps the value tests nothing) and the solver settles it within
``--seconds``.

The shipped ``scripts/data/positions/games.txt`` was labelled this way from
alphabeta-against-mcts games (docs/results-search.md gives the commands); the test
data's ``early.txt`` (random play) is the held-out check.
"""
import json
import math
import os
import sys
import time

from agents.resources import data_path
from agents.solver.labels import FULL, read_lines, verdict, write_lines
from scripts.arena.report import load_games
from scripts.arena.specs import observation, parse_spec
from scripts.arena.stats import wilson
from scripts.args import (ArgumentParser, add_quiet_argument, add_seconds_argument,
                          positive_int_arg, progress_bar)
from scripts.bench.perfect import board_of

DEFAULT_FILE = str(data_path("scripts", "data", "positions", "games.txt"))


def kept(column, scores):
    """Does playing ``column`` keep the value (a good move of
    :func:`agents.solver.labels.verdict`)?"""
    return verdict(scores, column)[1]


def run(agent, lines, act=2.0, progress=None, columns_played=None):
    """``[bool]``: for each ``(moves, scores)``, does ``agent``'s move keep the value?
    The columns played are appended to ``columns_played`` when it is a list."""
    out = []
    config = {"rows": 6, "columns": 7, "inarow": 4, "actTimeout": act}
    for moves, scores in lines:
        board, _ = board_of(moves)  # checks the line is a legal 7x6 game
        obs = observation(board)
        col = agent(obs, dict(config))
        if not (isinstance(col, int) and 0 <= col < 7 and scores[col] != FULL):
            raise RuntimeError(f"{moves}: the agent played {col!r}, not a legal column")
        out.append(kept(col, scores))
        if columns_played is not None:
            columns_played.append(col)
        if progress is not None:
            progress.update(1)
    return out


def sign_test(a_only, b_only):
    """Two-sided p-value of a sign test on the discordant positions."""
    n = a_only + b_only
    if n == 0:
        return 1.0
    k = min(a_only, b_only)
    tail = sum(math.comb(n, i) for i in range(k + 1)) / 2 ** n
    return min(1.0, 2 * tail)


def label(games, solver, stones, seconds, progress=None):
    """``[(moves, outcomes)]`` of the match games' positions (see the module doc)."""
    lo, hi = stones
    seen, out = set(), []
    for g in games:
        book = len(g.get("opening") or "")
        moves = "".join(str(c + 1) for c in g["moves"])
        for n in range(max(lo, book), min(hi, len(moves) - 1) + 1):
            line = moves[:n]
            if line in seen:
                continue
            seen.add(line)
            scores = solver.analyze(line, weak=True, deadline=time.perf_counter() + seconds)
            if scores is not None and len({s for s in scores if s != FULL}) > 1:
                out.append((line, scores))
        if progress is not None:
            progress.update(1)
    return out


def parse_range(text):
    a, sep, b = text.partition("-")
    try:
        lo, hi = int(a), int(b if sep else a)
    except ValueError:
        raise ValueError(f"--stones must be N or N-M, got {text!r}") from None
    if not 0 <= lo <= hi:
        raise ValueError(f"--stones must be N or N-M with 0 <= N <= M, got {text!r}")
    return lo, hi


def main(argv=None, prog="python -m scripts.bench.value"):
    ap = ArgumentParser(prog=prog, description=__doc__.split("\n\n")[0])
    ap.add_argument("agents", nargs="*", help="agent specs, e.g. alphabeta:depth=10")
    ap.add_argument("--file", default=DEFAULT_FILE, help="labelled positions (default: "
                    "scripts/data/positions/games.txt)")
    ap.add_argument("--limit", type=positive_int_arg, help="only the first N positions")
    ap.add_argument("--act", type=float, default=2.0, help="actTimeout given to the agents")
    ap.add_argument("--json", help="write each agent's column and verdict per position here")
    ap.add_argument("--label", metavar="GAMES", help="a match's --out file to label")
    ap.add_argument("--out", help="where --label writes the positions")
    ap.add_argument("--stones", default="5-16", help="--label: stones on the board, N-M")
    add_seconds_argument(ap, 5.0, "--label: solver time a position before it is left out")
    add_quiet_argument(ap)
    args = ap.parse_args(argv)
    if args.label:
        if args.agents or not args.out:
            ap.error("--label takes --out and no agents")
        try:
            stones = parse_range(args.stones)
        except ValueError as e:
            ap.error(str(e))
        try:
            games, cfg = load_games(args.label)
        except ValueError as e:
            ap.error(str(e))
        if (cfg["rows"], cfg["columns"], cfg["inarow"]) != (6, 7, 4):
            ap.error("--label takes games on the 7x6 board with four in a row")
        from agents.solver.database import attach
        from agents.solver.solver import Solver
        solver = Solver()
        attach(solver)  # the opening database, when the books extra is installed
        bar = progress_bar(len(games), "games", "game", not args.quiet)
        lines = label(games, solver, stones, args.seconds, bar)
        if bar is not None:
            bar.close()
        write_lines(args.out, lines)
        print(f"{len(lines)} positions written to {args.out}")
        return 0
    if not args.agents:
        ap.error("give at least one agent (or --label GAMES --out FILE)")
    try:
        specs = [parse_spec(a) for a in args.agents]
        lines = read_lines(args.file)
    except (OSError, ValueError) as e:
        ap.error(str(e))
    if any(len(scores) != 7 for _, scores in lines):
        ap.error(f"{args.file}: the positions must be of the 7x6 board (7 scores a line)")
    if any(s.kind != "registry" for s in specs):
        ap.error("bench value takes the package's agents (name:options)")
    if args.limit:
        lines = lines[:args.limit]
    import agents
    results, played = [], []
    for s in specs:
        agent = agents.make(s.name, **s.options)
        run(agent, lines[:1], args.act)  # compile before the clock
        t0 = time.perf_counter()
        bar = progress_bar(len(lines), s.text, "pos", not args.quiet)
        played.append([])
        res = run(agent, lines, args.act, bar, played[-1])
        if bar is not None:
            bar.close()
        secs = time.perf_counter() - t0
        results.append(res)
        k, n = sum(res), len(res)
        a, b = wilson(k / n, n)
        print(f"{s.text}: value kept {k}/{n} = {k / n:.3f} (95% {a:.3f}-{b:.3f}), "
              f"{1000 * secs / n:.1f} ms a position")
    for s, res in zip(specs[1:], results[1:]):
        first_only = sum(1 for x, y in zip(results[0], res) if x and not y)
        this_only = sum(1 for x, y in zip(results[0], res) if y and not x)
        print(f"{s.text} against {specs[0].text}: kept only by it {this_only}, only by "
              f"{specs[0].text} {first_only} (sign test p = "
              f"{sign_test(this_only, first_only):.3f})")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"file": args.file, "positions": [m for m, _ in lines],
                       "agents": {s.text: {"columns": cols, "kept": res}
                                  for s, cols, res in zip(specs, played, results)}}, f)
    return 0


if __name__ == "__main__":
    sys.exit(main())
