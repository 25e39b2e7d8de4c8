"""Golden moves: the column every deterministic agent setting chooses on seeded
positions, and the exact solver's scores, recorded as JSON.

    python -m scripts.tools.golden --write tests/data/golden_moves.json
    python -m scripts.tools.golden --check tests/data/golden_moves.json

A guard for pure restructures (moving code between modules must not change a single
move), not a test of strength: a deliberate change of a search or a tie-break changes
the file, and then the file is rewritten with ``--write`` in the same commit, saying
why in its message. Positions are random legal games (seeded) of several shapes:
7x6/4, 6x5/4 and 5x4/3 (bitboard and array paths), 8x7/4 (the bitboard solver's
largest common shape) and 10x10/5 (array path only). Settings: ``minimax`` depths
1-4, ``alphabeta`` at fixed depths (and at depth 5 without quiescence), ``mcts`` with a seed and an iteration cap,
``perfect`` on book positions and on positions its solver settles at once, and
``Solver.solve``/``analyze`` on a sample of ``scripts/data/positions``.
"""
import json
import os
import random
import sys
import time

from agents.resources import data_path

POSITIONS = data_path("scripts", "data", "positions")

# (rows, columns, inarow, number of positions, fewest stones, most stones)
SHAPES = ((6, 7, 4, 60, 0, 30), (5, 6, 4, 40, 0, 22), (4, 5, 3, 30, 0, 14),
          (7, 8, 4, 20, 30, 46), (10, 10, 5, 20, 0, 40))
NO_CLOCK = 1e6  # actTimeout of the golden configs: fixed-depth searches never time out


def settings(rows, columns):
    """``[(label, agent name, options)]`` played on every position of the shape."""
    out = [(f"minimax{d}", "minimax", {"depth": d, "seed": 0}) for d in (1, 2, 3, 4)]
    out += [(f"alphabeta{d}", "alphabeta", {"depth": d, "tt_bits": 16}) for d in (1, 2, 3, 5)]
    # the plain tree (quiescence off, the default until 2026-11-25): its moves are the
    # ones "alphabeta5" recorded before quiescence became the default
    out += [("alphabeta5plain", "alphabeta", {"depth": 5, "tt_bits": 16, "quiescence": False})]
    out += [("alphabeta3w", "alphabeta", {"depth": 3, "heuristic": "windows", "tt_bits": 16}),
            ("minimax2t", "minimax", {"depth": 2, "heuristic": "threats", "seed": 1}),
            ("mcts", "mcts", {"iterations": 300, "seed": 7, "max_nodes": 4096,
                              "reuse": False}),
            ("mcts_random", "mcts", {"iterations": 200, "seed": 3, "rollout": "random",
                                     "max_nodes": 4096, "reuse": False})]
    return out


def positions(rows, columns, inarow, count, lo, hi, seed):
    """``count`` seeded random positions (flat Kaggle boards, side to move) with
    ``lo..hi`` stones, none of them over (no line, not full): random games that ended
    early are drawn again."""
    from agents.board.rules_reference import random_position
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        target = rng.randint(lo, hi)
        board = random_position(rows, columns, inarow, target, rng, wins=True)
        if board is not None and 0 in board[:columns]:
            out.append((board, 1 + target % 2))
    return out


def play(name, options, board, mark, rows, columns, inarow):
    """The column a fresh agent ``name(**options)`` chooses."""
    import agents
    from scripts.arena.specs import observation
    config = {"rows": rows, "columns": columns, "inarow": inarow, "actTimeout": NO_CLOCK}
    return agents.make(name, **options)(observation(board, mark, remaining_overage=0.0),
                                        config)


def sample_lines(name, step):
    with open(os.path.join(POSITIONS, name)) as f:
        lines = [line.split() for line in f if line.strip()]
    return lines[::step]


def record():
    """The golden data: ``{key: value}`` with readable keys."""
    from agents.solver.position import Position
    from agents.solver.solver import Solver
    out = {}
    for rows, columns, inarow, count, lo, hi in SHAPES:
        shape = f"{columns}x{rows}/{inarow}"
        boards = positions(rows, columns, inarow, count, lo, hi, seed=rows * 100 + columns)
        for label, name, options in settings(rows, columns):
            out[f"{shape} {label}"] = [play(name, options, b, m, rows, columns, inarow)
                                       for b, m in boards]
        if columns * (rows + 1) <= 64 and lo >= 20:  # late positions: the solver settles them
            solver = Solver(rows, columns, inarow, tt_bits=20)
            out[f"{shape} solver analyze"] = [
                solver.analyze(Position.from_grid(b, rows, columns, inarow, m)) for b, m in boards]
            out[f"{shape} perfect"] = [
                play("perfect", {"tt_bits": 20, "traps": False, "time_limit": 60.0}, b, m,
                     rows, columns, inarow) for b, m in boards]
    # 7x6: the book (early positions) and solved late positions from the shared set
    from agents.solver.book import load_book
    opening_book = load_book()
    book = [(b, m) for b, m in positions(6, 7, 4, 400, 0, 10, seed=607)
            if opening_book.lookup(Position.from_grid(b, 6, 7, 4, m)) is not None][:40]
    out["7x6/4 perfect book"] = [play("perfect", {"tt_bits": 20, "traps": False}, b, m, 6, 7, 4)
                                 for b, m in book]
    solver = Solver(6, 7, 4, tt_bits=22)
    end = sample_lines("end.txt", 10)
    out["7x6/4 solver end"] = [[line[0], solver.solve(line[0])] for line in end]
    analysis = sample_lines("analysis.txt", 40)
    out["7x6/4 solver analysis"] = [[line[0], solver.analyze(line[0])] for line in analysis]
    out["7x6/4 perfect end"] = [
        play("perfect", {"tt_bits": 20, "traps": False, "time_limit": 60.0},
             *board_of(line[0]), 6, 7, 4) for line in end]
    return out


def board_of(moves, rows=6, columns=7):
    """(flat Kaggle board, mark to move) after a 1-based move string."""
    from agents.board.rules_reference import board_from_moves
    return board_from_moves(moves, rows, columns), 1 + len(moves) % 2


def main(argv=None):
    from scripts.args import ArgumentParser
    p = ArgumentParser(prog="python -m scripts.tools.golden", description=__doc__.split("\n\n")[0])
    group = p.add_mutually_exclusive_group(required=True)
    group.add_argument("--write", metavar="FILE", help="record the golden moves into FILE")
    group.add_argument("--check", metavar="FILE", help="compare with FILE (exit 1 on a change)")
    args = p.parse_args(argv)
    start = time.perf_counter()
    data = record()
    took = time.perf_counter() - start
    if args.write:
        with open(args.write, "w") as f:  # one setting a line: a diff names the setting
            f.write("{\n" + ",\n".join(f"{json.dumps(k)}: {json.dumps(data[k])}"
                                        for k in sorted(data)) + "\n}\n")
        print(f"wrote {len(data)} settings to {args.write} in {took:.1f} s")
        return 0
    with open(args.check) as f:
        want = json.load(f)
    # JSON turns tuples into lists: compare through one round trip
    got = json.loads(json.dumps(data))
    changed = sorted(k for k in set(want) | set(got) if want.get(k) != got.get(k))
    for key in changed:
        print(f"changed: {key}", file=sys.stderr)
    print(f"{len(got) - len(changed)}/{len(got)} settings unchanged ({took:.1f} s)")
    return 1 if changed else 0


if __name__ == "__main__":
    sys.exit(main())
