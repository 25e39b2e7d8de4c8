"""Choose the book move of lost positions by playing the game out against a ladder of
``alphabeta`` opponents.

In a position proven lost every column loses against perfect play, so the solver
cannot tell them apart; against a fallible opponent they differ a lot. For each
position this script takes the optimal columns (the slowest loss,
:meth:`agents.solver.solver.Solver.moves_at_least`), plays each one out to the end with the
``perfect`` agent (traps on) against every opponent of the ladder, the opponent moving
first, and keeps the column with the fewest losses, then the most wins, then the most
draws (ties: the solver's order). The chosen column goes into the opening book as a
WEAK entry with score -1 (it keeps the proven outcome, as every column does), and the
book's ``max_stones`` grows to cover the position. Usage::

    python -m scripts.tools.playout_book 444443333 [MOVES ...] [--opponents "alphabeta:depth=8;..."]
        [--workers 2] [--book agents/data/book7x6.bin] [--out FILE] [--dry-run]

Positions are move strings (1-based columns) with the second player to move.
"""
import os
import sys
import time

from agents.resources import data_path
from agents.solver.book import BOOK_NAME, WEAK, decode_book, encode_book
from agents.solver.position import Position, canonical
from agents.solver.solver import Solver
from scripts.arena.pools import map_tasks
from scripts.arena.specs import MatchConfig

ROWS, COLUMNS, INAROW = 6, 7, 4
# shallow to deep: fixed depths 8-14, time limits 0.1 s to the default (actTimeout 2 s)
DEFAULT_OPPONENTS = ("alphabeta:depth=8;alphabeta:depth=9;alphabeta:depth=10;"
                     "alphabeta:depth=11;alphabeta:depth=12;alphabeta:depth=13;"
                     "alphabeta:depth=14;alphabeta:time_limit=0.1;alphabeta:time_limit=0.12;"
                     "alphabeta:time_limit=0.14;alphabeta:time_limit=0.2;"
                     "alphabeta:time_limit=0.3;alphabeta:time_limit=0.5;"
                     "alphabeta:time_limit=1.0;alphabeta:time_limit=1.5;alphabeta")
CONFIG = MatchConfig(ROWS, COLUMNS, INAROW, actTimeout=2.0, remainingOverageTime=60.0)


def play_out(moves, opponent, agent=None):
    """Play ``moves`` to the end: ``opponent`` (a registry spec) as the first player,
    ``perfect`` as the second, through the one game loop
    (:func:`scripts.arena.games.play_out`, kaggle's clock: 2 s a move, 60 s overage each).
    ``"W"``, ``"D"`` or ``"L"`` for ``perfect`` and the moves of the game (1-based);
    ``RuntimeError`` if a move is judged ERROR, TIMEOUT or INVALID (no result of a
    failed game goes into the book)."""
    from agents import make
    from scripts.arena.games import play_out as play_game, start_position
    from scripts.arena.specs import parse_spec
    me = agent or make("perfect")
    spec = parse_spec(opponent)
    if spec.kind != "registry":
        raise ValueError(f"opponent {opponent!r}: a registry agent is needed")
    opp = make(spec.name, **spec.options)
    grid, heights = start_position([int(ch) - 1 for ch in moves], CONFIG, moves)
    out = play_game((opp, me), CONFIG, grid, heights)
    game = moves + "".join(str(c + 1) for c in out.moves)
    if out.error is not None:
        raise RuntimeError(f"{game} against {opponent}: {out.statuses}, {out.error}")
    return {0: "D", 1: "L", 2: "W"}[out.winner], game


def choose(results, order):
    """The column with the fewest losses, then most wins, then most draws; ties keep
    ``order``. ``results`` maps column -> string of W/D/L."""
    def rank(c):
        r = results[c]
        return (r.count("L"), -r.count("W"), -r.count("D"), order.index(c))
    return min(results, key=rank)


def add_lost_entries(book, chosen):
    """Book bytes with ``chosen`` ({move string: 0-based column}) as WEAK entries of a
    lost position (score -1), mirror-folded; ``max_stones`` grows to cover them."""
    rows, columns, inarow, max_stones, table = decode_book(book)
    for moves, col in chosen.items():
        p = Position.from_moves(moves, rows, columns, inarow)
        key, mirrored = canonical(p.key(), rows, columns)
        table[key] = (columns - 1 - col if mirrored else col, -1, WEAK)
        max_stones = max(max_stones, p.moves)
    return encode_book(table, rows, columns, inarow, max_stones)


_AGENT = None


def _job(args):
    global _AGENT
    moves, col, opponent = args
    from agents import make
    if _AGENT is None:
        _AGENT = make("perfect")
    _AGENT.reset_opponent_model()
    result, _ = play_out(moves + str(col + 1), opponent, _AGENT)
    return moves, col, opponent, result


def main(argv=None, prog="python -m scripts.tools.playout_book"):
    from scripts.args import ArgumentParser
    ap = ArgumentParser(prog=prog, description=__doc__.split("\n\n")[0])
    ap.add_argument("positions", nargs="+", help="move strings, second player to move")
    ap.add_argument("--opponents", default=DEFAULT_OPPONENTS,
                    help="';'-separated agent specs (default: an alphabeta ladder)")
    ap.add_argument("--workers", type=int, default=2, help="processes playing games (default 2)")
    ap.add_argument("--book", default=str(data_path("agents", "data", BOOK_NAME)),
                    help=f"book to read (default agents/data/{BOOK_NAME})")
    ap.add_argument("--out", default=None, help="book to write (default: --book)")
    ap.add_argument("--dry-run", action="store_true", help="print the choice, write nothing")
    args = ap.parse_args(argv)
    opponents = [o for o in args.opponents.split(";") if o]
    solver = Solver(ROWS, COLUMNS, INAROW)
    todo, cands = [], {}
    for moves in args.positions:
        p = Position.from_moves(moves, ROWS, COLUMNS, INAROW)
        if p.moves % 2 != 1:
            raise SystemExit(f"{moves}: the second player is not to move")
        score = solver.solve(p)
        if score >= 0:
            raise SystemExit(f"{moves}: not lost (score {score}); the solver plays it")
        cands[moves] = solver.moves_at_least(p, score)
        print(f"{moves}: score {score}, optimal columns {[c + 1 for c in cands[moves]]}",
              flush=True)
        todo += [(moves, c, o) for c in cands[moves] for o in opponents]
    results = {m: {c: "" for c in cs} for m, cs in cands.items()}
    t0 = time.perf_counter()
    for moves, col, opponent, r in map_tasks(_job, todo, args.workers):
        results[moves][col] += r
    print(f"{len(todo)} games in {time.perf_counter() - t0:.0f} s")
    chosen = {}
    for moves in args.positions:
        res = results[moves]
        for c in cands[moves]:
            r = res[c]
            print(f"  {moves} column {c + 1}: {r} (W {r.count('W')}, D {r.count('D')}, "
                  f"L {r.count('L')})")
        chosen[moves] = choose(res, cands[moves])
        print(f"{moves}: book column {chosen[moves] + 1}")
    if not args.dry_run:
        with open(args.book, "rb") as f:
            data = add_lost_entries(f.read(), chosen)
        out = args.out or args.book
        with open(out, "wb") as f:
            f.write(data)
        print(f"{len(decode_book(data)[4])} positions, {len(data)} bytes -> {out}")


if __name__ == "__main__":
    main()
