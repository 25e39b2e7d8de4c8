"""The book chapters', the tic-tac-toe article's and the Kaggle tutorial's experiments:
tic-tac-toe think-1/2/3 against minimax (the chapter's 10-game test), tic-tac-toe
solved, the coin game, and Connect Four's depth-3 minimax against think-3 and random."""
import random

from agents.games.game import Counter, alphabeta_value, minimax_value, play
from agents.games.tictactoe import EMPTY, O, X, PerfectPlayer, ThinkPlayer, TicTacToe
from scripts.lessons.rows import Row


def tally(first, second, games, seed):
    """(won, tied, lost) for ``first(seed)`` against ``second(seed)`` (player factories),
    colours alternating, ``first`` x in the even games."""
    won = tied = lost = 0
    for i in range(games):
        a, b = first(seed * 100003 + i), second(seed * 100003 + i + 50000)
        end, _ = play(TicTacToe(), {X: a, O: b} if i % 2 == 0 else {X: b, O: a})
        w = TicTacToe().winner(end) or EMPTY
        me = X if i % 2 == 0 else O
        won += w == me
        tied += w == EMPTY
        lost += w not in (me, EMPTY)
    return won, tied, lost


def think(quick=False, seed=0, progress=False):
    perfect = lambda s: PerfectPlayer(seed=s)  # noqa: E731
    rows = []
    w, t, l = tally(perfect, lambda s: ThinkPlayer(3, seed=s), 10, seed)
    verdict = "same" if (w, t, l) == (5, 5, 0) else (
        "inside a 10-game sample's spread (see the rate below)" if l == 0 and abs(w - 5) <= 2
        else "differs")
    rows.append(Row("minimax against think-3, 10 games (won-tied-lost)", "5-5-0",
                    f"{w}-{t}-{l}", verdict))
    games = 100 if quick else 2000
    for steps in (1, 2, 3):
        w, t, l = tally(perfect, lambda s: ThinkPlayer(steps, seed=s), games, seed + 1)
        rows.append(Row(f"minimax against think-{steps}, {games} games (won-tied-lost)",
                        "5-5-0 of 10" if steps == 3 else "-",
                        f"{w}-{t}-{l} ({w / games:.0%} won)"))
    w, t, l = tally(lambda s: ThinkPlayer(3, seed=s), lambda s: ThinkPlayer(1, seed=s),
                    games, seed + 2)
    rows.append(Row(f"think-3 against think-1, {games} games (won-tied-lost)", "-",
                    f"{w}-{t}-{l}"))
    return rows


def solved(quick=False, seed=0, progress=False):
    """The empty board's value by both searches and the number of distinct games
    (``quick``: alpha-beta's value only)."""
    game = TicTacToe()
    start = game.initial()
    ab = Counter()
    value = alphabeta_value(game, start, 9, X, ab)
    rows = [Row("value of the empty board", "a draw", "a draw" if value == 0 else str(value),
                "same" if value == 0 else "differs")]
    if quick:
        return rows + [Row("nodes: alpha-beta from the empty board", "-", str(ab.nodes))]
    mm = Counter()
    minimax_value(game, start, 9, X, mm)
    games = _games(game, start)
    return rows + [
        Row("nodes: minimax / alpha-beta from the empty board", "-",
            f"{mm.nodes} / {ab.nodes}"),
        Row("distinct games (move sequences to the end)", "-",
            f"{games:,}" + (" (the known count)" if games == 255168 else " (the known count "
                            "is 255,168)")),
    ]


def _games(game, state):
    if game.is_terminal(state):
        return 1
    return sum(_games(game, game.result(state, a)) for a in game.actions(state))


def coins(quick=False, seed=0, progress=False):
    from agents.games.coins import MinimaxPlayer, RandomPlayer, RulePlayer
    from scripts.lessons.coin_game import match, value_table
    rows = []
    table = value_table(21, 2)
    agree = all(mm == ab == closed for _, mm, ab, closed, _, _ in table)
    rows.append(Row("minimax and alpha-beta values of 1..21 coins against the closed form "
                    "(the mover loses when coins % 3 == 0)", "-",
                    f"{'all agree' if agree else 'DISAGREE'}; 21 coins: "
                    f"{table[-1][1]:+d} for the first player"))
    games = 20 if quick else 100
    for name, opponent in (("random", RandomPlayer(2, seed=seed + 10)),
                           ("rule-based", RulePlayer(2, seed=seed + 20))):
        _, second = match(opponent, MinimaxPlayer(2, "minimax", seed=seed), games, 21, 2)
        rows.append(Row(f"minimax moving second against {name}, {games} games",
                        "100/100 won", f"{second}/{games} won",
                        "same" if second == games else "differs"))
    return rows


def _match_row(label, a, b, games, seed, progress, material="-", book=None):
    from scripts.arena.match import match
    s = match(a, b, games, None, seed, 1, progress=progress).summary
    low, high = s["score_ci"]
    ours = f"{s['wins']}-{s['draws']}-{s['losses']}, score {s['score']:.3f} " \
           f"[{low:.3f}, {high:.3f}]"
    verdict = ""
    if book is not None:
        w, d, l = book
        score = (w + 0.5 * d) / (w + d + l)
        verdict = "inside our interval" if low <= score <= high else "outside our interval"
    return Row(label, material, ours, verdict)


def connect4_think(quick=False, seed=0, progress=False):
    games = 4 if quick else 100
    return [
        _match_row(f"Connect Four, depth-3 minimax against think-3, {games} games (W-D-L)",
                   "minimax:depth=3,tactics=False", "rules:lookahead=3", games, seed,
                   progress, "68-6-26 (score 0.710)", (68, 6, 26)),
    ]


def tutorial_positions(n, rng):
    """``n`` seeded 7x6 positions (a flat Kaggle board and the mark to move) after 0-14
    random moves, none finished."""
    from agents.search.reference import ConnectX
    game = ConnectX(6, 7, 4)
    out = []
    while len(out) < n:
        s = game.initial()
        for _ in range(rng.randrange(15)):
            actions = game.actions(s)
            s = game.result(s, actions[rng.randrange(len(actions))])
            if game.is_terminal(s):
                break
        if not game.is_terminal(s):
            out.append(s)
    return out


def tutorial(quick=False, seed=0, progress=False):
    """The package's numba minimax against the tutorial's own code: the same best
    columns on seeded positions, then the package's minimax against random."""
    import agents
    from agents.board.rules import parse_position
    from agents.players.baselines import best_columns
    from agents.players.tutorial import TutorialConfig, tutorial_best_columns
    n = 3 if quick else 8  # the tutorial's pure Python: seconds a position
    ours = agents.make("minimax", depth=3, tactics=False)
    same = 0
    for board, mark in tutorial_positions(n, random.Random(seed)):
        config = {"rows": 6, "columns": 7, "inarow": 4}
        grid, heights, mark, cfg = parse_position({"board": list(board), "mark": mark}, config)
        scores, _ = ours.scores(grid, heights, mark, cfg)
        mine = best_columns(scores, heights, cfg)
        theirs = tutorial_best_columns(list(board), mark, TutorialConfig(6, 7, 4), 3)
        same += sorted(mine) == sorted(theirs)
    games = 4 if quick else 50
    return [
        Row(f"depth-3 minimax: the tutorial's set of best columns on {n} seeded positions",
            "-", f"{same}/{n} the same", "same" if same == n else "differs"),
        _match_row(f"the package's minimax, depth 3 (the tutorial's moves, in numba) "
                   f"against random, {games} games", "minimax:depth=3,tactics=False",
                   "random", games, seed, progress),
    ]
