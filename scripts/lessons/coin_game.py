"""The coin game's experiments (the book's chapter 4):
``python -m scripts.lessons.coin_game [--games 100]``.

21 coins, take 1 or 2, whoever takes the last coin wins. Prints

* the minimax value of the start for the side to move, for every count up to
  ``--coins``, next to the closed form (the mover loses iff coins % 3 == 0), with the
  nodes minimax and alpha-beta visit;
* minimax moving second against a random player and against the rule-based player,
  ``--games`` games each (the lesson: 100/100 wins), and, for contrast, minimax
  moving first against the same players.

Exits with status 1 if a value disagrees with the closed form or minimax moving
second loses a game.
"""
import sys
import time

from agents.games.coins import CoinGame, MinimaxPlayer, RandomPlayer, RulePlayer, mover_loses
from agents.games.protocol import Counter, alphabeta_value, minimax_value, play


def value_table(coins, max_take):
    """Rows (n, minimax value, alpha-beta value, closed form, minimax nodes, a-b nodes)."""
    rows = []
    for n in range(1, coins + 1):
        game = CoinGame(n, max_take)
        mm, ab = Counter(), Counter()
        v_mm = minimax_value(game, game.initial(), n, None, mm)
        v_ab = alphabeta_value(game, game.initial(), n, None, ab)
        rows.append((n, v_mm, v_ab, -1 if mover_loses(n, max_take) else 1, mm.nodes, ab.nodes))
    return rows


def match(first, second, games, coins, max_take):
    """Wins of (player 1, player 2) over ``games`` games."""
    wins = {1: 0, 2: 0}
    game = CoinGame(coins, max_take)
    for _ in range(games):
        end, _ = play(game, {1: first, 2: second})
        wins[game.winner(end)] += 1
    return wins[1], wins[2]


def main(argv=None, prog="python -m scripts.lessons.coin_game"):
    from scripts.args import ArgumentParser, add_seed_argument, positive_int_arg
    parser = ArgumentParser(prog=prog, description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=positive_int_arg, default=100, help="games (default 100)")
    parser.add_argument("--coins", type=positive_int_arg, default=21,
                        help="coins on the table at the start (default 21)")
    parser.add_argument("--max-take", type=positive_int_arg, default=2,
                        help="most coins taken in one move (default 2)")
    parser.add_argument("--search", choices=("minimax", "alphabeta"), default="minimax",
                        help="search of the perfect player (default minimax)")
    add_seed_argument(parser, "the games")
    args = parser.parse_args(argv)
    for name in ("games", "coins", "max_take"):
        if getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')} must be at least 1")

    ok = True
    print(f"value for the side to move (take 1..{args.max_take}, last coin wins)")
    print(f"{'coins':>5} {'minimax':>8} {'alphabeta':>9} {'closed form':>11} "
          f"{'mm nodes':>9} {'ab nodes':>9}")
    for n, v_mm, v_ab, closed, n_mm, n_ab in value_table(args.coins, args.max_take):
        ok &= v_mm == v_ab == closed
        print(f"{n:>5} {v_mm:>8} {v_ab:>9} {closed:>11} {n_mm:>9} {n_ab:>9}")

    s = args.seed
    opponents = (("random", lambda i: RandomPlayer(args.max_take, seed=s + 10 + i)),
                 ("rule-based", lambda i: RulePlayer(args.max_take, seed=s + 20 + i)))
    print(f"\n{args.games} games each, {args.coins} coins, {args.search}")
    for name, make_opponent in opponents:
        start = time.perf_counter()
        mm = MinimaxPlayer(args.max_take, args.search, seed=s)
        _, second_wins = match(make_opponent(0), mm, args.games, args.coins, args.max_take)
        ok &= not mover_loses(args.coins, args.max_take) or second_wins == args.games
        first_wins, _ = match(MinimaxPlayer(args.max_take, args.search, seed=s + 1),
                              make_opponent(1), args.games, args.coins, args.max_take)
        print(f"  minimax second vs {name:10}: {second_wins}/{args.games} wins    "
              f"minimax first vs {name:10}: {first_wins}/{args.games} wins  "
              f"[{time.perf_counter() - start:.2f} s]")
    print("all as the theory says" if ok else "FAILED: see the rows above")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
