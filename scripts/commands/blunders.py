"""``connectx blunders``: the judge of game records, move by move, by the exact solver.

    connectx match alphabeta:time_limit=0.25 mcts:time_limit=0.25 --games 30 --out games.json
    connectx blunders games.json
    connectx blunders replay.json --json          # a kaggle connectx or Game Arena replay
    connectx blunders textarena_log.json          # a TextArena ConnectFour-v0 game log
    connectx blunders games.txt --config rows=5,columns=6,inarow=4   # plain move lists
    connectx blunders 4453                        # one move list, given as the argument

Reads the package's match records (``connectx match --out``), kaggle ``connectx``
replays (``env.toJSON()``), Kaggle Game Arena replays of ``open_spiel_connect_four``
(OpenSpiel's action history), TextArena ``ConnectFour-v0`` game logs and plain move
lists (one game a line, 1-based columns), on any board the solver takes; the kind is
detected (``--format`` forces it; :mod:`scripts.arena.records` documents each). Every
move is judged with every column's exact score (:func:`scripts.arena.judging.judge_games`):
its verdict (perfect, good, value lost) and loss in stones, by the package's one judge
of a move (:mod:`agents.solver.labels`). Printed per player: moves judged, the perfect-
and good-move rates by stage (the same code as ``connectx score``), the value-losing
moves, the accuracy (a move's place between the worst and the best column's exact score,
0 for a value-losing move; the mean over the moves in percent, no fitted constant: see
:mod:`agents.solver.labels`) and the invalid answers the record names (TextArena, Game
Arena). For a record of one game (or with ``--moves``) every move's line: its column,
verdict, loss, accuracy and all the columns' scores; last, each game's first value-losing
move (up to ``--lines``) with the line it missed (the principal variation from the
position before it). ``--json`` prints all of it as JSON. ``--workers N`` judges the games
in N processes, ``--dask ADDRESS`` on a Dask cluster (each with its own solver of
``--threads`` threads; the verdicts are the same).

The moves of a match's opening suite are replayed, not judged. A position the solver does
not score within ``--seconds`` is left unscored and counted. With the ``databases`` extra
the solver stops at BitBully's 12-ply database, so a whole 7x6 game is judged in about a
second. A malformed record, an illegal move in a record or a board the solver does not
take is one line on stderr and exit status 2.
"""
import json
import os
import re
import sys
import time

from agents.solver.labels import FULL, best_score, outcome
from scripts.arena.report import no_nan
from scripts.args import (ArgumentParser, add_config_argument, add_pool_arguments,
                          add_report_arguments, add_seconds_argument, board_shape,
                          positive_int_arg, progress_bar)

VERDICT = {True: "perfect", False: "good"}
SIDES = ("x", "o")  # the side of a game's first and second player, in the move table
NAME_WIDTH = 48  # the players' table cuts longer names
OUTCOME = {1: "win", 0: "draw", -1: "loss"}


def verdict_word(move):
    """``perfect``, ``good``, ``value lost`` or ``unscored`` of a judged move."""
    if move["scores"] is None:
        return "unscored"
    return VERDICT[move["perfect"]] if move["good"] else "value lost"


def _pct(x):
    return "    -" if x is None or x != x else f"{100 * x:5.1f}%"


def format_players(result):
    """The players' table (text lines) of a :func:`judge_games` result."""
    w = min(NAME_WIDTH, max([6] + [len(name) for name in result["players"]]))
    lines = [f"{'player':{w}} {'moves':>5} {'perfect':>7} {'good':>7} {'value lost':>10} "
             f"{'accuracy':>8} {'invalid':>7}"]
    for name, p in result["players"].items():
        every = p["rows"][-1]
        acc = "       -" if p["accuracy"] != p["accuracy"] else f"{p['accuracy']:7.1f}%"
        lines.append(f"{name[:w]:{w}} {p['moves']:5d} {_pct(every['perfect']):>7} "
                     f"{_pct(every['good']):>7} {p['value_lost']:10d} {acc} {p['invalid']:7d}")
    lines.append("by stage, perfect / good (moves):")
    for name, p in result["players"].items():
        cells = "  ".join(f"{r['stage']} {_pct(r['perfect']).strip()} / {_pct(r['good']).strip()}"
                          f" ({r['n']})" for r in p["rows"][:-1])
        lines.append(f"  {name[:w]:{w}} {cells}")
    return lines


def format_moves(game, index):
    """Every judged move of one game (text lines)."""
    a, b = game["agents"]
    lines = [f"game {index + 1}: x {a} (first), o {b}",
             f"{'move':>4} {'side':4} {'col':>3}  {'verdict':10} {'loss':>4} {'acc':>5}  "
             "scores of columns 1..W (- full)"]
    for m in game["moves"]:
        scores = " ".join("-" if s == FULL else f"{s:+d}" for s in m["scores"]) \
            if m["scores"] is not None else ""
        loss = "" if m["loss"] is None else str(m["loss"])
        acc = "" if m["accuracy"] is None else f"{100 * m['accuracy']:4.0f}%"
        lines.append(f"{m['ply'] + 1:4d} {SIDES[m['seat']]:4} {m['column'] + 1:3d}  "
                     f"{verdict_word(m):10} {loss:>4} {acc:>5}  {scores}")
    for bad in game["invalid"]:
        answer = bad["answer"].replace("\n", " ")
        what = f" ({bad['category']})" if bad.get("category") else ""
        lines.append(f"  invalid answer{what} by {SIDES[bad['player']]} before move "
                     f"{bad['ply'] + 1}: {answer[:60]!r}")
    return lines


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


def first_losses(result):
    """``[(game index, move)]``: each game's first value-losing move."""
    out = []
    for index, g in enumerate(result["games"]):
        lost = [m for m in g["moves"] if m["good"] is False]
        if lost:
            out.append((index, lost[0]))
    return out


def as_json(result):
    """The result as JSON-ready data (the boards left out, NaN as null)."""
    games = [{**g, "moves": [{k: v for k, v in m.items() if k != "board"} for m in g["moves"]]}
             for g in result["games"]]
    return no_nan({**result, "games": games})




def main(argv=None, prog="python -m scripts.commands.blunders"):
    from scripts.arena.records import KINDS, parse_records, read_records
    ap = ArgumentParser(prog=prog, description=__doc__.split("\n\n")[0])
    ap.add_argument("record", help="a game record file (match --out, kaggle or Game Arena "
                    "replay, TextArena log, move lists), or one move list such as 4453")
    ap.add_argument("--format", choices=KINDS, default=None,
                    help="the record's kind (default: detected)")
    add_config_argument(ap, board_only=True)
    add_seconds_argument(ap, 3.0, "solver time a position before it is left unscored")
    ap.add_argument("--threads", type=positive_int_arg, default=2,
                    help="solver threads (default 2)")
    add_pool_arguments(ap, "judging games", "judge games")
    ap.add_argument("--moves", action="store_true",
                    help="print every move of every game (default: when there is one game)")
    ap.add_argument("--lines", type=int, default=10,
                    help="show the missed line of at most this many first value-losing moves "
                         "(default 10)")
    add_report_arguments(ap)
    args = ap.parse_args(argv)
    if args.lines < 0:
        ap.error("--lines must be 0 or more")
    config = board_shape(ap, args.config) if args.config else None
    try:
        if not os.path.exists(args.record) and re.fullmatch(r"[0-9,]+", args.record):
            kind, cfg, games = parse_records(args.record, args.format or "moves", config)
        else:
            kind, cfg, games = read_records(args.record, args.format, config)
        if config is not None and kind != "moves" and tuple(config) != tuple(cfg):
            ap.error(f"--config is for move lists; this {kind} record is on "
                     f"{cfg[1]}x{cfg[0]}/{cfg[2]}")
        from agents.board.bitboard import fits_bitboard
        from scripts.arena.judging import check_games, game_solver, judge_games
        check_games(games, cfg)  # a bad record fails before the solver starts
        parallel = args.dask is not None or args.workers > 1
        if not fits_bitboard(cfg[0], cfg[1]) or not parallel:  # (the workers fork first)
            solver = game_solver(*cfg, threads=args.threads)
        bar = None if args.quiet or args.json or len(games) < 2 else \
            progress_bar(len(games), "games", "game")
        try:
            result = judge_games(games, cfg, args.seconds, None if parallel else solver,
                                 args.threads, None if bar is None else (lambda: bar.update(1)),
                                 args.workers, args.dask)
        finally:
            if bar is not None:
                bar.close()
        if parallel:  # the missed lines' solver
            solver = game_solver(*cfg, threads=args.threads)
    except ValueError as e:
        ap.error(str(e))
    result["kind"] = kind
    if args.json:
        print(json.dumps(as_json(result), indent=1))
        return 0
    moves = sum(len(g["moves"]) for g in result["games"])
    print(f"{kind} record: {len(games)} game(s) on {cfg[1]}x{cfg[0]}/{cfg[2]}, {moves} moves "
          f"judged in {result['seconds']:.2f} s ({result['unjudged']} unscored within "
          f"{args.seconds:g} s)")
    print("\n".join(format_players(result)))
    if args.moves or len(games) == 1:
        for index, g in enumerate(result["games"]):
            print("\n".join(format_moves(g, index)))
    firsts = first_losses(result)
    if firsts and args.lines:
        print("first value-losing moves and the lines they missed (columns 1-based):")
    for index, m in firsts[:args.lines]:
        g = games[index]
        print(f"  game {index + 1}, move {m['ply'] + 1} ({m['agent']}): column "
              f"{m['column'] + 1}, {OUTCOME[outcome(best_score(m['scores']))]} -> "
              f"{OUTCOME[outcome(m['scores'][m['column']])]}; "
              f"{missed_line(g['moves'][:m['ply']], solver, args.seconds)}")
    return 0




if __name__ == "__main__":
    sys.exit(main())
