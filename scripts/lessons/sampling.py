"""The lesson's sampling experiments: an opening book built from random rollouts
(win counts), measured against exact values, and uniform-sampling Monte Carlo
against UCT at equal playouts."""
import random

from agents.games.tictactoe import TicTacToe, solve
from agents.games.searches.montecarlo import uct_move, uniform_sampling_move
from agents.search.reference import ConnectX
from scripts.lessons.rows import Progress, Row

ROUNDS = (10, 100, 1000, 10000)


def rollout_book(game, rounds, plies, rng, finish=None):
    """The lesson's book: ``rounds`` uniformly random games from the start; for every
    position of the first ``plies`` plies, ``{action: [wins, plays]}`` for the player
    who moved (a draw counts half). Returns ``{state: {action: [wins, plays]}}``.

    ``finish(state, rng)`` plays a position out at random and returns the winner (0
    for a draw); by default the game's own moves, to the end."""
    finish = finish or (lambda state, rng: _finish(game, state, rng))
    book = {}
    for _ in range(rounds):
        state, path = game.initial(), []
        while len(path) < plies and not game.is_terminal(state):
            actions = game.actions(state)
            a = actions[rng.randrange(len(actions))]
            path.append((state, a, game.to_move(state)))
            state = game.result(state, a)
        winner = finish(state, rng)
        for s, a, mover in path:
            entry = book.setdefault(s, {}).setdefault(a, [0.0, 0])
            entry[0] += 1.0 if winner == mover else (0.5 if winner == 0 else 0.0)
            entry[1] += 1
    return book


def _finish(game, state, rng):
    while not game.is_terminal(state):
        actions = game.actions(state)
        state = game.result(state, actions[rng.randrange(len(actions))])
    for p in (1, 2):
        if game.utility(state, p) > 0:
            return p
    return 0


def connect4_finish(rows, columns, inarow):
    """A fast random playout of a small Connect Four board (uct_reference's list board
    with its incremental win check): ``finish(state, rng) -> winner``."""
    from agents.search.uct_reference import Board, XorShift, rollout

    def finish(state, rng):
        board, mark = state
        b = Board(rows, columns, inarow, board)
        if any(board) and ConnectX(rows, columns, inarow).is_terminal(state):
            return _finish(ConnectX(rows, columns, inarow), state, rng)
        return rollout(b, mark, False, XorShift(rng.getrandbits(64) | 1))
    return finish


def book_move(entry):
    """The book's move: the most wins (the lesson's count), the first on ties."""
    return max(entry, key=lambda a: entry[a][0])


def lost_value_share(book, move_values):
    """(book positions, positions whose book move loses the value); ``move_values(state)``
    gives ``{action: exact value for the mover}``."""
    bad = 0
    for s, entry in book.items():
        values = move_values(s)
        bad += values[book_move(entry)] < max(values.values())
    return len(book), bad


def tictactoe_values():
    game, table = TicTacToe(), solve()
    return game, lambda s: {a: -table[game.result(s, a)] for a in game.actions(s)}


def connect4_values(rows, columns, inarow):
    """Exact values of each move on a small board, from the package's solver."""
    from agents.solver.solver import Solver
    game = ConnectX(rows, columns, inarow)
    solver = Solver(rows, columns, inarow)
    cache = {}

    def move_string(state):
        # the moves leading to ``state`` are not kept; rebuild one sequence from the
        # board (stones of a column bottom up, alternating marks from the count)
        return _moves_of(state[0], rows, columns)

    def values(s):
        if s not in cache:
            scores = solver.analyze(move_string(s))
            cache[s] = {c: (scores[c] > 0) - (scores[c] < 0) for c in game.actions(s)}
        return cache[s]
    return game, values


def _moves_of(board, rows, columns):
    """A move string (1-based columns) reaching ``board`` (Kaggle layout), for boards of
    at most a few stones: tries the orders of the stones by brute force."""
    import itertools
    stones = [(c, rows - 1 - r, board[c + r * columns]) for r in range(rows)
              for c in range(columns) if board[c + r * columns]]
    ones = [s for s in stones if s[2] == 1]
    twos = [s for s in stones if s[2] == 2]
    for p1 in itertools.permutations(ones):
        for p2 in itertools.permutations(twos):
            order = [x for pair in itertools.zip_longest(p1, p2) for x in pair if x]
            height = [0] * columns
            ok = True
            for c, h, _ in order:
                ok &= height[c] == h
                height[c] += 1
            if ok:
                return "".join(str(c + 1) for c, _, _ in order)
    raise ValueError("no move order reaches this board")


def book_experiment(quick=False, seed=0, progress=False):
    rows = []
    rounds = (10, 100) if quick else ROUNDS
    boards = [("tic-tac-toe", tictactoe_values(), None)]
    if not quick:  # the solver's first call compiles (seconds)
        boards.append(("Connect Four 5x4", connect4_values(4, 5, 4), connect4_finish(4, 5, 4)))
    bar = Progress(progress, len(boards) * sum(rounds), "rollouts", "game")
    for label, (game, values), finish in boards:
        shares = []
        for n in rounds:
            bar.update(n)
            book = rollout_book(game, n, 3, random.Random(seed * 7 + n), finish)
            positions, bad = lost_value_share(book, values)
            shares.append(f"{n}: {bad}/{positions}")
        rows.append(Row(f"{label}, first 3 plies; rounds: book moves that lose the value / "
                        f"book positions", "a book can learn bad moves", ", ".join(shares),
                        "same" if any(int(s.split(": ")[1].split("/")[0]) for s in shares)
                        else "not shown at this size: no book move loses the value"))
    bar.close()
    return rows


def unfinished_tictactoe(n, rng):
    """``n`` seeded unfinished positions where some move loses the value."""
    game, table = TicTacToe(), solve()
    pool = sorted(s for s in table if not game.is_terminal(s)
                  and len({-table[game.result(s, a)] for a in game.actions(s)}) > 1)
    return game, table, rng.sample(pool, n)


def uct_experiment(quick=False, seed=0, progress=False):
    game, table, positions = unfinished_tictactoe(10 if quick else 150, random.Random(seed))
    rows = []
    budgets = (20, 100) if quick else (20, 100, 400, 1600)
    bar = Progress(progress, sum(budgets) * len(positions), "playouts", "playout")
    for budget in budgets:
        kept = {"uniform": 0, "uct": 0}
        for i, s in enumerate(positions):
            best = table[s]
            rng = random.Random(seed * 1000003 + budget * 1009 + i)
            a, _ = uniform_sampling_move(game, s, budget, rng)
            kept["uniform"] += -table[game.result(s, a)] == best
            a, _ = uct_move(game, s, budget, rng)
            kept["uct"] += -table[game.result(s, a)] == best
            bar.update(budget)
        n = len(positions)
        rows.append(Row(f"{budget} playouts, {n} tic-tac-toe positions: value kept, "
                        f"flat Monte Carlo (uniform sampling at the root) / UCT",
                        "uniform sampling is inefficient; UCT samples promising actions more",
                        f"{kept['uniform']}/{n} / {kept['uct']}/{n}",
                        "same" if kept["uct"] > kept["uniform"] else
                        "not shown at this size: UCT kept no more values"))
    bar.close()
    return rows
