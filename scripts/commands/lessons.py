"""``connectx lessons``: the seed material's experiments beside its figures (the
experiments are :mod:`scripts.lessons`; this is their command line).

    connectx lessons                 list the experiments
    connectx lessons NAME [NAME ...] run them (``all``: every one, in the tour's order)
        [--quick] [--seed 0]
    connectx lessons tree MOVES|TREE draw a search: the position after MOVES (1-based
        [--depth 2] [--minimax]      columns, "" the empty board) with each node's exact
        [--heuristic threats]        value, or a textbook TREE as nested lists
        [--no-exact] [--svg FILE]    ("[[3, 5], [2, 9]]"); text, and an SVG with --svg
        [--exact-time 10]
    connectx lessons coins           the coin game's values and matches (the book's
        [--games 100] [--coins 21]   chapter 4): exit 1 where minimax disagrees with
        [--max-take 2] [--seed 0]    the theory
        [--search minimax]
    connectx lessons tictactoe       the tic-tac-toe agent in kaggle-environments' env:
        [--games 100] [--seed 0]     exit 1 on a loss or a game not ended cleanly
        [--opponent both]
    connectx lessons seed-matches    the seed material's matches beside its figures
        [--games 100] [--tutorial-games 20] [--ours SPEC] [--workers 1] [--seed 0]
    connectx lessons notebooks       write the lessons' notebooks (docs/notebooks), or
        [--out DIR] [--execute [NAME ...]] [--quick] [--check [NAME ...]]
                                     check the stored ones' figures (exit 1: moved)

Each is one function here (:data:`OWN_COMMANDS`); the library they call
(:mod:`scripts.lessons`) takes plain arguments and prints nothing.
"""
import sys
import time

from scripts.arena.specs import parse_spec
from scripts.args import ArgumentParser, add_seed_argument, positive_int_arg, report
from scripts.lessons import by_name, experiments, format_rows, listing


def main(argv=None, prog="python -m scripts.commands.lessons"):
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] and argv[0] in OWN_COMMANDS:
        return OWN_COMMANDS[argv[0]](argv[1:], f"{prog} {argv[0]}")
    table = by_name()
    p = ArgumentParser(prog=prog, description="The seed material's experiments beside its figures.")
    p.add_argument("names", nargs="*", metavar="NAME",
                   help=f"experiments to run, or all (none: list them): {', '.join(table)}")
    p.add_argument("--quick", action="store_true", help="tiny sizes (seconds in all)")
    add_seed_argument(p, "every experiment")
    args = p.parse_args(argv)
    if not args.names:
        print(listing(experiments()))
        return 0
    names = list(table) if args.names == ["all"] else args.names
    unknown = [n for n in names if n not in table]
    if unknown:
        return report(f"{prog}: error: unknown experiment {unknown[0]!r} "
                      f"(choose from all, {', '.join(table)})")
    progress = sys.stderr.isatty()
    for name in names:
        e = table[name]
        print(f"[{e.name}] {e.title} ({e.source})", flush=True)
        start = time.perf_counter()
        rows = e.run(quick=args.quick, seed=args.seed, progress=progress)
        print(format_rows(rows))
        extra = (" --quick" if args.quick else "") + (f" --seed {args.seed}" if args.seed else "")
        print(f"  reproduce: connectx lessons {e.name}{extra}   "
              f"[{time.perf_counter() - start:.1f} s]\n", flush=True)
    return 0


def tree_main(argv, prog):
    """``connectx lessons tree``: a search drawn (:mod:`scripts.server.search_tree`)."""
    from heuristics import REGISTRY
    from scripts.server.search_tree import EXACT_TIME, MAX_DEPTH, position_tree, textbook_tree
    p = ArgumentParser(prog=prog, description="Draw a minimax or alpha-beta search: values "
                       "backed up, each node's alpha-beta window, the nodes alpha-beta never "
                       "visits (pruned), the principal variation (*), and for a position "
                       "each node's exact value by the solver.")
    p.add_argument("what", metavar="MOVES|TREE", help="moves from the empty 7x6 board "
                   "(1-based columns, e.g. 4453) or a textbook tree, e.g. '[[3, 5], [2, 9]]'")
    p.add_argument("--depth", type=int, default=2, help=f"plies, 1-{MAX_DEPTH} (default 2; "
                   "a textbook tree is searched to its leaves)")
    p.add_argument("--minimax", action="store_true", help="minimax (no pruning, no windows)")
    p.add_argument("--heuristic", default="threats", choices=sorted(REGISTRY),
                   help="the evaluation at the horizon (default threats)")
    p.add_argument("--no-exact", action="store_true", help="no solver values")
    p.add_argument("--exact-time", type=float, default=EXACT_TIME, metavar="SECONDS",
                   help=f"stop solving after this long (default {EXACT_TIME:g}; the "
                   "solver's compiling first is not counted)")
    p.add_argument("--svg", metavar="FILE", help="also write the picture as an SVG file")
    args = p.parse_args(argv)
    try:
        if args.what.lstrip().startswith("["):
            picture = textbook_tree(args.what, not args.minimax)
        else:
            picture = position_tree(args.what, args.depth, heuristic=args.heuristic,
                                    prune=not args.minimax, exact=not args.no_exact,
                                    exact_time=args.exact_time)
    except ValueError as e:
        return report(f"{prog}: error: {e}")
    print(picture.title)
    print(picture.text(windows=not args.minimax))
    if args.svg:
        with open(args.svg, "w", encoding="utf-8") as f:
            f.write(picture.svg(windows=not args.minimax))
        print(f"wrote {args.svg}")
    return 0


def games_parser(prog, description, games, seeded):
    """A parser with ``--games`` (``games``: what one counts) and ``--seed`` (of
    ``seeded``): the one-lesson runs' common options."""
    p = ArgumentParser(prog=prog, description=description)
    p.add_argument("--games", type=positive_int_arg, default=100, help=f"{games} (default 100)")
    add_seed_argument(p, seeded)
    return p


def coins_main(argv, prog):
    """``connectx lessons coins``: :mod:`scripts.lessons.coin_game`."""
    p = games_parser(prog, "The coin game (the book's chapter 4): the value of every count "
                     "of coins beside the closed form, then minimax against a random and a "
                     "rule-based player.", "games", "the games")
    p.add_argument("--coins", type=positive_int_arg, default=21,
                   help="coins on the table at the start (default 21)")
    p.add_argument("--max-take", type=positive_int_arg, default=2,
                   help="most coins taken in one move (default 2)")
    p.add_argument("--search", choices=("minimax", "alphabeta"), default="minimax",
                   help="search of the perfect player (default minimax)")
    args = p.parse_args(argv)
    from agents.games.coins import mover_loses
    from scripts.lessons.coin_game import match_rows, value_table
    ok = True
    print(f"value for the side to move (take 1..{args.max_take}, last coin wins)")
    print(f"{'coins':>5} {'minimax':>8} {'alphabeta':>9} {'closed form':>11} "
          f"{'mm nodes':>9} {'ab nodes':>9}")
    for n, v_mm, v_ab, closed, n_mm, n_ab in value_table(args.coins, args.max_take):
        ok &= v_mm == v_ab == closed
        print(f"{n:>5} {v_mm:>8} {v_ab:>9} {closed:>11} {n_mm:>9} {n_ab:>9}")
    print(f"\n{args.games} games each, {args.coins} coins, {args.search}")
    for name, second_wins, first_wins, seconds in match_rows(
            args.games, args.coins, args.max_take, args.search, args.seed):
        ok &= not mover_loses(args.coins, args.max_take) or second_wins == args.games
        print(f"  minimax second vs {name:10}: {second_wins}/{args.games} wins    "
              f"minimax first vs {name:10}: {first_wins}/{args.games} wins  [{seconds:.2f} s]")
    print("all as the theory says" if ok else "FAILED: see the rows above")
    return 0 if ok else 1


def tictactoe_main(argv, prog):
    """``connectx lessons tictactoe``: :mod:`scripts.lessons.tictactoe_match`."""
    p = games_parser(prog, "The perfect tic-tac-toe agent in kaggle-environments' "
                     "open_spiel_tic_tac_toe, against the env's random agent and the reference "
                     "minimax, in each colour.", "games per opponent and colour", "the games")
    p.add_argument("--opponent", choices=("random", "minimax", "both"), default="both",
                   help="who the perfect player meets (default both)")
    args = p.parse_args(argv)
    import agents
    from agents.games.protocol import Counter, alphabeta_value, minimax_value
    from agents.games.tictactoe import ReferencePlayer, TicTacToe, solve
    from scripts.lessons.tictactoe_match import is_clean, play_game, summary

    start = time.perf_counter()
    table = solve()
    print(f"solved table: {len(table)} positions in {1e3 * (time.perf_counter() - start):.0f} ms")
    game = TicTacToe()
    for name, search in (("minimax", minimax_value), ("alphabeta", alphabeta_value)):
        counter, start = Counter(), time.perf_counter()
        value = search(game, game.initial(), 9, None, counter)
        print(f"reference {name:9} from the empty board: value {value}, {counter.nodes} nodes, "
              f"{time.perf_counter() - start:.2f} s")
    agent = agents.make("tictactoe", seed=args.seed)
    start = time.perf_counter()
    first = agent({"observationString": "...\n...\n...", "playerId": 0, "step": 1}, {})
    print(f"agent's first move from the empty board: {first} in "
          f"{1e3 * (time.perf_counter() - start):.3f} ms")
    opponents = {"random": lambda: "random",
                 "minimax": lambda: ReferencePlayer(seed=args.seed + 1)}
    clean = True
    for name in (list(opponents) if args.opponent == "both" else [args.opponent]):
        opponent = opponents[name]()  # one reference player per opponent: it keeps its searches
        for player in (0, 1):
            start = time.perf_counter()
            records = [play_game(agent, opponent, player, seed=args.seed * 100003 + i)
                       for i in range(args.games)]
            colour = "x (first)" if player == 0 else "o (second)"
            print(f"tictactoe as {colour:10} vs {name:8} {summary(records)}  "
                  f"[{time.perf_counter() - start:.1f} s]", flush=True)
            clean &= all(is_clean(r) for r in records)
    print("all games clean: no loss, statuses DONE, terminal" if clean
          else "FAILED: a loss, a status other than DONE, or an unfinished game")
    return 0 if clean else 1


def seed_matches_main(argv, prog):
    """``connectx lessons seed-matches``: :mod:`scripts.lessons.seed_experiments`."""
    from scripts.lessons.seed_experiments import TABLE_HEAD, default_ours, rows
    p = games_parser(prog, "The seed material's matches (the book's minimax against its "
                     "think-3 player, the tutorial's agent against random), re-run beside the "
                     "figures it printed.", "games of each match", "the matches")
    p.add_argument("--ours", default=None,
                   help=f"our agent against random (default {default_ours()})")
    p.add_argument("--tutorial-games", type=positive_int_arg, default=20,
                   help="games of the slow pure-Python tutorial agent (default 20)")
    p.add_argument("--workers", type=positive_int_arg, default=1,
                   help="processes playing games in parallel (default 1)")
    args = p.parse_args(argv)
    try:
        parse_spec(args.ours or default_ours())
    except ValueError as e:
        return report(f"{prog}: error: {e}")
    print(TABLE_HEAD, flush=True)
    for line in rows(args.games, args.tutorial_games, args.ours, args.seed, args.workers,
                     progress=sys.stderr.isatty()):
        print(line, flush=True)
    return 0


def notebooks_main(argv, prog):
    """``connectx lessons notebooks``: :mod:`scripts.lessons.notebooks`."""
    import os

    from scripts.lessons.notebooks import check, write
    p = ArgumentParser(prog=prog, description="Write the lessons' notebooks, or run the "
                       "stored ones again and list those whose figures moved.")
    p.add_argument("--out", default=os.path.join("docs", "notebooks"), metavar="DIR",
                   help="folder of the notebooks (default docs/notebooks, from the checkout's root)")
    p.add_argument("--execute", nargs="*", metavar="NAME", help="store the outputs of a run "
                   "(of these notebooks only, e.g. search-pictures; none named: all)")
    p.add_argument("--quick", action="store_true", help="with --execute: a quick run")
    p.add_argument("--check", nargs="*", metavar="NAME", help="run the stored notebooks again "
                   "(these, or every untimed one) and list those whose figures moved")
    args = p.parse_args(argv)
    if args.check is not None:
        moved = 0
        for name, same in check(args.out, args.check):
            print(f"{name}: {'the stored figures' if same else 'MOVED'}", flush=True)
            moved += not same
        return 1 if moved else 0
    for line in write(args.out, args.execute, args.quick):
        print(line, flush=True)
    return 0


# the words `connectx lessons` reads as commands of its own (not experiments' names)
OWN_COMMANDS = {"tree": tree_main, "coins": coins_main, "tictactoe": tictactoe_main,
                "seed-matches": seed_matches_main, "notebooks": notebooks_main}


if __name__ == "__main__":
    sys.exit(main())
