"""The coin game's experiments (the book's chapter 4); their command line is
``connectx lessons coins [--games 100]`` (:mod:`scripts.commands.lessons`).

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


def opponents(max_take, seed):
    """``(name, maker)`` of the players minimax meets: ``maker(i)`` builds the ``i``-th
    (seeded) copy."""
    return (("random", lambda i: RandomPlayer(max_take, seed=seed + 10 + i)),
            ("rule-based", lambda i: RulePlayer(max_take, seed=seed + 20 + i)))


def match_rows(games, coins, max_take, search, seed):
    """For each of :func:`opponents`: ``(name, minimax's wins moving second, its wins
    moving first, seconds)`` over ``games`` games each way."""
    rows = []
    for name, make_opponent in opponents(max_take, seed):
        start = time.perf_counter()
        second = MinimaxPlayer(max_take, search, seed=seed)
        _, second_wins = match(make_opponent(0), second, games, coins, max_take)
        first_wins, _ = match(MinimaxPlayer(max_take, search, seed=seed + 1),
                              make_opponent(1), games, coins, max_take)
        rows.append((name, second_wins, first_wins, time.perf_counter() - start))
    return rows


if __name__ == "__main__":
    # the library, not a command: say which command runs it
    print("scripts.lessons.coin_game is a library: run `connectx lessons coins` "
          "(python -m scripts.commands.lessons coins)", file=sys.stderr)
    sys.exit(2)
