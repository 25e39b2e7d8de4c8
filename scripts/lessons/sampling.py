"""The lesson's sampling experiments, as the lesson frames them.

* The rollout opening book (:func:`rollout_book`), built the lesson's way on its game,
  mini-Isolation: each round walks ``depth`` (2) random plies from the start, plays the
  game out at random from there, and adds the result (+1 or -1, never a draw: the
  lesson's simulation counts anything but a loss as a win) to every move of the walk,
  for the side that made it; the book keeps, for each position, the move of the highest
  sum (raw sums, which the lesson itself calls a poor statistic). Its moves are judged
  by exact values, and the book is played: its move where it has one, a random move
  elsewhere, against a random player. The lesson's two improvements, on tic-tac-toe (8
  symmetries; mini-Isolation's board has none): the tally folded by the board's
  symmetries (:func:`fold`: the rounds of symmetric positions pooled, the book then
  answers every image), and a better statistic than the sum (the 95% Wilson lower bound
  of the rate of rounds not lost), each judged by the exact values.
* MCTS with a uniform tree policy against UCT (:func:`agents.games.searches.montecarlo.mcts`),
  on tic-tac-toe positions whose exact values are known: how far each search's estimate
  of the root's value is from the minimax value as the iterations grow (the lesson:
  uniform sampling is inefficient, UCT samples promising actions more, and MCTS
  converges to the minimax value as the simulations go to infinity).
"""
import random

from agents.games.protocol import minimax_value, play, random_playout
from agents.games.isolation import mini_isolation
from agents.games.searches.montecarlo import mcts, root_estimate
from agents.games.tictactoe import TicTacToe, solve
from scripts.arena.bars import ProgressCallback
from scripts.lessons.rows import Row, better_than_even, wilson

ROUNDS = (10, 100, 1000, 10000)  # the lesson's NUM_ROUNDS is 10
BOOK_DEPTH = 2                   # the lesson's build_tree(state, book, depth=2)


SYMMETRY_CLAIM = "symmetries improve the book's estimates"
STATISTIC_CLAIM = "raw win counts are a poor statistic; better statistics exist"


def rollout_book(game, rounds, rng, depth=BOOK_DEPTH):
    """The lesson's tally: ``{state: {action: [summed reward, rounds]}}`` after
    ``rounds`` rounds (see the module's docstring), the reward of each move for the side
    that made it."""
    tally = {}
    for _ in range(rounds):
        _walk(game, game.initial(), tally, depth, rng)
    return tally


def _walk(game, state, tally, depth, rng):
    """One round below ``state``: the reward for the side that moved into ``state``."""
    if depth <= 0 or game.is_terminal(state):
        return -simulate(game, state, rng)
    actions = game.actions(state)
    action = actions[rng.randrange(len(actions))]
    reward = _walk(game, game.result(state, action), tally, depth - 1, rng)
    cell = tally.setdefault(state, {}).setdefault(action, [0, 0])
    cell[0] += reward
    cell[1] += 1
    return -reward


def simulate(game, state, rng):
    """A random game from ``state``: -1 if the side to move at ``state`` loses, else +1
    (the lesson's simulation)."""
    player = game.to_move(state)
    return -1 if game.utility(random_playout(game, state, rng), player) < 0 else 1


def book_of(tally, statistic="sum"):
    """``{state: action}``: each position's move of the highest ``statistic``, the first
    tallied on ties (as the lesson's ``max(v, key=v.get)`` over a Counter): ``"sum"``,
    the lesson's summed rewards, or ``"bound"``, the 95% Wilson lower bound of the rate
    of the move's rounds not lost (a move tried once counts for less than one tried
    often with the same rate)."""
    if statistic == "sum":
        key = lambda cell: cell[0]  # noqa: E731
    elif statistic == "bound":
        key = lambda cell: wilson((cell[0] + cell[1]) / 2, cell[1])[0]  # noqa: E731
    else:
        raise ValueError(f"statistic is 'sum' or 'bound', got {statistic!r}")
    return {s: max(entry, key=lambda a, entry=entry: key(entry[a]))
            for s, entry in tally.items()}


def fold(game, tally):
    """The tally pooled by ``game.transforms()``: each position's rounds added to its
    class's representative (its smallest image), each move mapped with it (a move's
    smallest image among the symmetries that give the representative)."""
    out = {}
    for s, entry in tally.items():
        images = {}
        for perm in game.transforms():
            images.setdefault(game.transform(s, perm), []).append(perm)
        canon = min(images)
        for a, (total, n) in entry.items():
            cell = out.setdefault(canon, {}).setdefault(min(p[a] for p in images[canon]),
                                                        [0, 0])
            cell[0] += total
            cell[1] += n
    return out


def unfold(game, book):
    """A book of representatives (from a :func:`fold`-ed tally) as a book of every
    image: each symmetry maps the position and its move together."""
    out = {}
    for s, a in book.items():
        for perm in game.transforms():
            out.setdefault(game.transform(s, perm), perm[a])
    return out


def losing_book_moves(book, game):
    """``(book positions, those whose book move loses the exact value)``, the values by
    the reference minimax to the end."""
    bad = 0
    for s, a in book.items():
        me = game.to_move(s)
        values = {b: minimax_value(game, game.result(s, b), 64, me) for b in game.actions(s)}
        bad += values[a] < max(values.values())
    return len(book), bad


def book_player(book, rng):
    """The book's move where it has one, else a uniformly random move."""
    def player(game, state):
        if state in book:
            return book[state]
        actions = game.actions(state)
        return actions[rng.randrange(len(actions))]
    return player


def random_player(rng):
    return book_player({}, rng)


def wins_against_random(game, first, games, seed):
    """Games ``first(rng)``'s player wins against a random player, seats alternating."""
    won = 0
    for i in range(games):
        rng = random.Random(seed * 100003 + i)
        me, other = first(rng), random_player(rng)
        seat = i % 2
        end, _ = play(game, [me, other] if seat == 0 else [other, me])
        won += game.winner(end) == seat
    return won


def book_experiment(quick=False, seed=0, progress=False):
    game = mini_isolation()
    rounds = (10, 100) if quick else ROUNDS
    games = 40 if quick else 400
    bar = ProgressCallback("rollouts", "game", progress, sum(rounds))
    rows, judged = [], []
    for n in rounds:
        book = book_of(rollout_book(game, n, random.Random(seed * 7 + n)))
        judged.append((n, book, *losing_book_moves(book, game)))
        bar.update(n)
    bar.close()
    rows.append(Row(f"mini-Isolation (the package's reading: the book quiz only imports a "
                    f"GameState, taken as the lesson's 3x2 one), the lesson's book (depth "
                    f"{BOOK_DEPTH}, +-1 sums); "
                    f"rounds: book moves that lose the exact value / book positions",
                    "a book can learn bad moves",
                    ", ".join(f"{n}: {bad}/{size}" for n, _, size, bad in judged),
                    "same" if any(bad for *_, bad in judged) else
                    "not shown at this size: no book move loses the value"))
    baseline = wins_against_random(game, random_player, games, seed)
    for n, book, _, _ in (judged[0], judged[-1]):
        won = wins_against_random(game, lambda rng, book=book: book_player(book, rng), games,
                                  seed)
        rows.append(Row(f"mini-Isolation, the book of {n} rounds played (its move where it "
                        f"has one, else random) against random, {games} games, seats "
                        f"alternating; random against random won {baseline}", "-",
                        f"{won}/{games} won ({won / games:.0%})",
                        "package's reading (the book plays better than random): " +
                        better_than_even(won, games)))
    return rows + improvements(quick, seed)


def improvements(quick=False, seed=0):
    """The lesson's two improvements on tic-tac-toe books: for each number of rounds and
    each of several seeds, one tally and four books (sums or the lower bound, folded or
    not), every position a book answers judged by the exact values."""
    game, table = TicTacToe(), solve()
    rounds, seeds = ((10, 100), 3) if quick else ((10, 100, 1000), 10)
    kinds = (("sum", False), ("sum", True), ("bound", False), ("bound", True))
    bad = {(n, k): [0, 0] for n in rounds for k in kinds}
    for n in rounds:
        for i in range(seeds):
            tally = rollout_book(game, n, random.Random(seed * 1009 + n * 31 + i))
            folded = fold(game, tally)
            for statistic, symmetric in kinds:
                book = (unfold(game, book_of(folded, statistic)) if symmetric
                        else book_of(tally, statistic))
                for s, a in book.items():
                    bad[n, (statistic, symmetric)][0] += \
                        -table[game.result(s, a)] < table[s]
                    bad[n, (statistic, symmetric)][1] += 1

    def total(k):
        return sum(bad[n, k][0] for n in rounds), sum(bad[n, k][1] for n in rounds)

    def rate(k):
        lost, answered = total(k)
        return lost / answered

    def verdict(k, what):
        """Fewer values lost than the plain sums beyond the noise: the improved books'
        95% interval of the rate lost lies below the plain books' rate."""
        low, high = wilson(*total(k))
        text = f"{rate(k):.1%} [{low:.1%}, {high:.1%}] against {rate(('sum', False)):.1%}"
        if quick:
            return f"not shown at this size: --quick judges {seeds} seeds' books, {text}"
        if high < rate(("sum", False)):
            return f"same: {text}"
        if rate(k) >= rate(("sum", False)):
            return f"differs: {what} loses no fewer values, {text}"
        return f"not shown at this size: {text}, inside the interval"

    names = {("sum", False): "sums", ("sum", True): "sums folded",
             ("bound", False): "bound", ("bound", True): "bound folded"}
    ours = "; ".join(f"{n}: " + ", ".join(f"{names[k]} {bad[n, k][0]}/{bad[n, k][1]}"
                                          for k in kinds) for n in rounds)
    figure = (f"tic-tac-toe, the lesson's book (depth {BOOK_DEPTH}) from {seeds} seeds at each "
              f"number of rounds: book moves that lose the exact value / positions the book "
              f"answers, with the lesson's sums, folded by the 8 symmetries, with the 95% "
              f"lower bound of the rate not lost, and both")
    return [
        Row(figure + "; the symmetries' verdict: folded sums against plain sums, all rounds",
            SYMMETRY_CLAIM, ours, verdict(("sum", True), "folding")),
        Row("the same books, all rounds: the share of answers that lose the value with the "
            "lower bound (unfolded) against the sums; with both improvements", STATISTIC_CLAIM,
            f"{rate(('bound', False)):.1%} against {rate(('sum', False)):.1%}; both "
            f"{rate(('bound', True)):.1%}", verdict(("bound", False), "the bound")),
    ]


def unfinished_tictactoe(n, rng):
    """``n`` seeded unfinished positions where some move loses the value."""
    game, table = TicTacToe(), solve()
    pool = sorted(s for s in table if not game.is_terminal(s)
                  and len({-table[game.result(s, a)] for a in game.actions(s)}) > 1)
    return game, table, rng.sample(pool, n)


def _sign(v):
    """The solved table's value (faster wins score more) as win 1, draw 0, loss -1."""
    return (v > 0) - (v < 0)


def uct_experiment(quick=False, seed=0, progress=False):
    """Each tree policy's mean distance from the minimax value of its root estimate, and
    the positions whose chosen move keeps the value, at growing iterations."""
    game, table, positions = unfinished_tictactoe(10 if quick else 100, random.Random(seed))
    budgets = (20, 200) if quick else (25, 100, 400, 1600)
    bar = ProgressCallback("iterations", "iteration", progress, 2 * sum(budgets) * len(positions))
    n, errors, rows = len(positions), {}, []
    for budget in budgets:
        error, kept = {"uniform": 0.0, "uct": 0.0}, {"uniform": 0, "uct": 0}
        for i, s in enumerate(positions):
            for policy in error:
                root = mcts(game, s, budget, random.Random(seed * 1000003 + budget * 1009 + i),
                            policy=policy)
                error[policy] += abs(root_estimate(root) - _sign(table[s])) / n
                pick = (max(root.children, key=lambda a: root.children[a].visits)
                        if policy == "uct" else
                        max(root.children, key=lambda a: root.children[a].wins
                            / root.children[a].visits))
                kept[policy] += _sign(-table[game.result(s, pick)]) == _sign(table[s])
                bar.update(budget)
        errors[budget] = error
        rows.append(Row(f"{budget} iterations, {n} tic-tac-toe positions: mean distance of "
                        f"the root's estimate from its minimax value (-1..1), uniform tree "
                        f"policy / UCT; the chosen move keeps the value (best mean / most "
                        f"visited)",
                        "uniform sampling is inefficient; UCT samples promising actions more",
                        f"{error['uniform']:.3f} / {error['uct']:.3f}; {kept['uniform']}/{n}"
                        f" / {kept['uct']}/{n}",
                        "same" if error["uct"] < error["uniform"] else
                        "not shown at this size: UCT's estimate is no closer"))
    bar.close()
    first, last = errors[budgets[0]], errors[budgets[-1]]
    rows.append(Row(f"convergence: UCT's mean distance from the minimax value at "
                    f"{budgets[0]} and at {budgets[-1]} iterations (the uniform policy's "
                    f"beside)", "MCTS converges to the minimax value as the simulations grow",
                    f"{first['uct']:.3f} -> {last['uct']:.3f} (uniform {first['uniform']:.3f}"
                    f" -> {last['uniform']:.3f})",
                    "same" if last["uct"] < first["uct"] and last["uct"] < 0.5 * first["uct"]
                    else "not shown at this size: the distance does not halve"))
    return rows
