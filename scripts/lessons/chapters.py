"""The book chapters', the tic-tac-toe article's and the Kaggle tutorial's experiments:
tic-tac-toe think-1/2/3 against minimax (the chapter's 10-game test), tic-tac-toe
solved, the coin game, and Connect Four's depth-3 minimax against think-3 and random."""
import copy
import random

from agents.games.protocol import (Counter, alphabeta_value, best_actions, minimax_value,
                                   play_env)
from agents.games.tictactoe import (EMPTY, O, X, PerfectPlayer, ThinkPlayer, TicTacToe,
                                    TicTacToeEnv)
from scripts.lessons.rows import Row, better_than_even, wilson


def tally(first, second, games, seed):
    """(won, tied, lost) for ``first(seed)`` against ``second(seed)`` (player factories),
    colours alternating, ``first`` x in the even games, each game played on the book's
    environment (:class:`agents.games.tictactoe.TicTacToeEnv`) as its test loop does."""
    won = tied = lost = 0
    for i in range(games):
        a, b = first(seed * 100003 + i), second(seed * 100003 + i + 50000)
        env = TicTacToeEnv()
        play_env(env, {X: a, O: b} if i % 2 == 0 else {X: b, O: a})
        w = TicTacToe().winner(env.state) or EMPTY
        me = X if i % 2 == 0 else O
        won += w == me
        tied += w == EMPTY
        lost += w not in (me, EMPTY)
    return won, tied, lost


def think(quick=False, seed=0, progress=False):
    perfect = lambda s: PerfectPlayer(seed=s)  # noqa: E731
    rows = []
    w, t, l = tally(perfect, lambda s: ThinkPlayer(3, seed=s), 10, seed)
    # two 10-game samples: each rate inside the other's 95% interval, and no loss
    mine, theirs = wilson(w, 10), wilson(5, 10)
    verdict = "same" if (w, t, l) == (5, 5, 0) else (
        f"same: {w} and 5 wins of 10 lie in each other's 95% intervals, no loss"
        if l == 0 and mine[0] <= 0.5 <= mine[1] and theirs[0] <= w / 10 <= theirs[1]
        else "differs")
    rows.append(Row("minimax against think-3, 10 games (won-tied-lost); think-3 is the "
                    "package's reading of the book's AI_think3, whose code the chapter does "
                    "not show (agents.games.tictactoe.ThinkPlayer)", "5-5-0",
                    f"{w}-{t}-{l}", verdict))
    games = 100 if quick else 2000
    for steps in (1, 2, 3):
        w, t, l = tally(perfect, lambda s: ThinkPlayer(steps, seed=s), games, seed + 1)
        rows.append(Row(f"minimax against think-{steps}, {games} games (won-tied-lost)",
                        "-", f"{w}-{t}-{l} ({w / games:.0%} won)",
                        f"package's reading {'holds' if l == 0 else 'fails'}: minimax never "
                        f"loses"))
    w, t, l = tally(lambda s: ThinkPlayer(3, seed=s), lambda s: ThinkPlayer(1, seed=s),
                    games, seed + 2)
    rows.append(Row(f"think-3 against think-1, {games} games (won-tied-lost)", "-",
                    f"{w}-{t}-{l}", "package's reading (think-3 is stronger): " +
                    better_than_even(w + t / 2, games)))
    n = 4 if quick else 20
    same = sum(env_payoff(env) == _sign(minimax_value(env.game, env.state, 9,
                                                      env.game.to_move(env.state)))
               for env in env_positions(n, random.Random(seed + 3)))
    rows.append(Row(f"chapter 5's search on the environment (each move tried on a deep copy, "
                    f"step and validinputs; scripts.lessons.chapters.env_payoff) against the "
                    f"reference minimax: the same payoff on {n} seeded positions of 3-6 "
                    f"stones", "-", f"{same}/{n}",
                    f"package's reading {'holds' if same == n else 'fails'}: the book's "
                    f"search on its environment is minimax"))
    return rows


def _sign(v):
    return (v > 0) - (v < 0)


def env_payoff(env, reward=0, done=False, depth=None):
    """Chapter 5's search on its environment, in the package's code: the payoff of the
    position in ``env`` for the side to move, +1 a win, 0 a draw, -1 a loss with best
    play; ``reward`` and ``done`` are what the last ``step`` returned. Each move is tried
    on a deep copy of the environment, as the chapter does; ``depth`` plies at most (0
    at the horizon), None: to the end of the game."""
    if done:
        return -1 if reward else 0  # the previous move won, or filled the board
    if depth == 0:
        return 0
    best = -1
    for cell in env.validinputs:
        child = copy.deepcopy(env)
        _, r, d, _ = child.step(cell)
        best = max(best, -env_payoff(child, r, d, None if depth is None else depth - 1))
    return best


def env_positions(n, rng):
    """``n`` seeded environments after 3-6 random moves, none finished."""
    out = []
    while len(out) < n:
        env = TicTacToeEnv()
        env.reset()
        done = False
        for _ in range(rng.randint(3, 6)):
            _, _, done, _ = env.step(rng.choice(env.validinputs))
            if done:
                break
        if not done:
            out.append(env)
    return out


def solved(quick=False, seed=0, progress=False):
    """The empty board's value by both searches and the number of distinct games
    (``quick``: alpha-beta's value only)."""
    game = TicTacToe()
    start = game.initial()
    ab = Counter()
    value = alphabeta_value(game, start, 9, X, ab)
    corner = game.result(start, 0)
    _, replies = best_actions(game, corner, 8)
    rows = [
        Row("value of the empty board", "-", "a draw" if value == 0 else str(value),
            f"package's reading {'holds' if value == 0 else 'fails'}: a draw (the game's "
            f"known value)"),
        Row("the best replies to x in the corner a (cell 0)", "e (the centre)",
            " ".join("abcdefghi"[c] for c in replies),
            "same" if replies == [4] else "differs")]
    rows += stored_tree_rows(game, quick)
    if quick:
        return rows
    mm = Counter()
    minimax_value(game, start, 9, X, mm)
    per_ply, games, positions = tree_counts(game, start)
    nodes = sum(per_ply)
    return rows + [
        Row("nodes: minimax / alpha-beta from the empty board", "-",
            f"{mm.nodes} / {ab.nodes}", f"package's reading "
            f"{'holds' if ab.nodes < mm.nodes else 'fails'}: alpha-beta visits fewer"),
        Row("distinct games (move sequences to the end)", "-", f"{games:,}",
            f"package's reading {'holds' if games == 255168 else 'fails'}: the known count, "
            f"255,168"),
        Row("the game's scenarios, the book's bound 3^9 (every cell x, o or empty): the "
            "distinct positions reachable from the empty board", BOOK_SCENARIOS,
            f"{positions:,}", "same" if positions < 3 ** 9 else "differs"),
        Row("the tree the book's minimax walks (no table: a position reached by two orders "
            "is searched twice): its nodes by ply 0-9, and in all", BOOK_SCENARIOS,
            " ".join(f"{n:,}" for n in per_ply) + f"; {nodes:,} in all",
            f"differs: the tree is {nodes / 3 ** 9:.0f}x the bound (the book's 29 s first "
            f"move searches it)" if nodes > 3 ** 9 else "same"),
    ]


BOOK_SCENARIOS = "less than 3^9=19,683"  # the book's chapter 5
ARTICLE_REPLY_TIME = "2.99 s"  # the article's determine_move(tree, 'a'), its printed 2.986...


def stored_tree_rows(game, quick):
    """The article's way: the whole tree built and kept, then x's corner ``a`` answered
    by a minimax over the stored nodes, timed beside the article's 2.99 s (``quick``:
    the tree below ``a`` only)."""
    import time

    from agents.games.searches.stored import StoredTree
    start = time.perf_counter()
    tree = StoredTree(game, game.result(game.initial(), 0) if quick else None)
    built = time.perf_counter() - start
    below_a = 0 if quick else tree.node([0])
    start = time.perf_counter()
    _, replies = tree.best_actions(below_a)
    took = time.perf_counter() - start
    where = "below a" if quick else "from the empty board"
    want = 59705 if quick else 549946  # tree_counts' sums
    return [
        Row(f"the whole tree {where} built and kept, as the article builds it "
            f"(agents.games.searches.stored.StoredTree): nodes, seconds", "-",
            f"{len(tree):,} nodes in {built:.2f} s",
            f"package's reading {'holds' if len(tree) == want else 'fails'}: the tree the "
            f"book's minimax walks, {want:,} nodes"),
        Row("the reply to x in a, searched in the stored tree as the article does: the "
            "reply and its seconds", ARTICLE_REPLY_TIME,
            " ".join("abcdefghi"[c] for c in replies) + f" in {took:.3g} s",
            "not shown at this size: --quick judges no times" if quick else
            f"differs: {2.986 / took:.0f}x faster than the article's (machines differ; "
            f"its tree is a treelib Tree); the reply {'e, the same' if replies == [4] else 'differs'}"),
    ]


def tree_counts(game, state):
    """The game tree below ``state`` searched to the end: (its nodes at each ply, the
    root's ply 0 included; the games, its leaves; the distinct positions among its
    nodes)."""
    per_ply, seen = [], set()

    def walk(s, ply):
        if ply == len(per_ply):
            per_ply.append(0)
        per_ply[ply] += 1
        seen.add(s)
        if game.is_terminal(s):
            return 1
        return sum(walk(game.result(s, a), ply + 1) for a in game.actions(s))

    games = walk(state, 0)
    return per_ply, games, len(seen)


def coins(quick=False, seed=0, progress=False):
    from agents.games.coins import MinimaxPlayer, RandomPlayer, RulePlayer
    from scripts.lessons.coin_game import match, value_table
    rows = []
    table = value_table(21, 2)
    agree = all(mm == ab == closed for _, mm, ab, closed, _, _ in table)
    rows.append(Row("minimax and alpha-beta values of 1..21 coins against the closed form "
                    "(the mover loses when coins % 3 == 0)", "-",
                    f"{'all agree' if agree else 'DISAGREE'}; 21 coins: "
                    f"{table[-1][1]:+d} for the first player",
                    f"package's reading {'holds' if agree else 'fails'}: the closed form"))
    games = 20 if quick else 100
    rule = ("the rule-based player (agents.games.coins.RulePlayer, the package's reading "
            "of the book's rule-based AI, whose code chapter 4 does not show)")
    for name, opponent, first_won in (("random", RandomPlayer(2, seed=seed + 10), 96),
                                      (rule, RulePlayer(2, seed=seed + 20), 0)):
        first, _ = match(MinimaxPlayer(2, "minimax", seed=seed + 1), opponent, games, 21, 2)
        rows.append(Row(f"minimax moving first against {name}, {games} games",
                        f"{first_won}/100 won", f"{first}/{games} won",
                        rate_verdict(first, games, first_won / 100)))
        _, second = match(opponent, MinimaxPlayer(2, "minimax", seed=seed), games, 21, 2)
        rows.append(Row(f"minimax moving second against {name}, {games} games",
                        "100/100 won", f"{second}/{games} won",
                        "same" if second == games else "differs"))
    return rows


# The book's game of chapter 4 against a human, from 21 coins: the human's takes and
# minimax's replies in turn, and the seconds it printed for each reply.
BOOK_COIN_GAME = (2, 1, 1, 2, 2, 1, 1, 2, 2, 1)
BOOK_COIN_REPLIES = "1 2 1 2 1"
BOOK_COIN_TIMES = "0.31630 0.12109 0.02154 0.00852 0.00100 s"


def env_best(env):
    """The moves of best payoff at ``env`` by chapter 4's and chapter 5's search on
    the environment (:func:`env_payoff` below each move, on a deep copy)."""
    payoffs = {}
    for move in env.validinputs:
        child = copy.deepcopy(env)
        _, reward, done, _ = child.step(move)
        payoffs[move] = -env_payoff(child, reward, done)
    top = max(payoffs.values())
    return [m for m, v in payoffs.items() if v == top]


def coin_times(quick=False, seed=0, progress=False):
    """Chapter 4's minimax timed at each of its moves of the book's game (the human
    takes 2 1 2 1 2, minimax answers at 19 17 13 11 7 coins): its search on the
    environment, each move tried on a deep copy, as the chapter does; ``quick`` times
    only the moves from 13 coins on (the 19 and 17 coins' trees are most of the work)."""
    import time

    from agents.games.coins import CoinEnv
    env = CoinEnv(21, 2)
    env.reset()
    times, nodes, replies, positions = [], [], [], None
    for i, take in enumerate(BOOK_COIN_GAME):
        if i % 2 == 1 and not (quick and env.state[0] > 13):
            start = time.perf_counter()
            best = env_best(env)
            times.append(time.perf_counter() - start)
            per_ply, _, seen = tree_counts(env.game, env.state)
            nodes.append(sum(per_ply))
            positions = seen if positions is None else positions
            replies.append(" ".join(map(str, best)))
        env.step(take)
    coins = "13 11 7" if quick else "19 17 13 11 7"
    first = 13 if quick else 19
    return [
        Row(f"minimax's takes at the book's own game (the human takes 2 1 2 1 2; minimax "
            f"answers at {coins} coins): every winning take",
            BOOK_COIN_REPLIES if not quick else "-", " ".join(replies),
            ("same" if " ".join(replies) == BOOK_COIN_REPLIES else "differs") if not quick
            else "package's reading " + ("holds" if " ".join(replies) == "1 2 1" else "fails")
            + ": one winning take each, the book's 1 2 1"),
        Row(f"chapter 4's minimax on the environment (each move tried on a deep copy; "
            f"scripts.lessons.chapters.env_best) timed at those moves (at {coins} coins), "
            f"and the nodes of each search's tree", BOOK_COIN_TIMES,
            " ".join(f"{t:.3g}" for t in times) + " s; nodes " +
            " ".join(f"{n:,}" for n in nodes),
            _ratio_verdict([times[0], times[-1]], [nodes[0], nodes[-1]], 0.31630 / 0.00100,
                           quick)),
        Row(f"the distinct positions (coins left, side to move) in the tree below {first} "
            f"coins, against its nodes", "-", f"{positions} positions, {nodes[0]:,} nodes",
            f"package's reading {'holds' if positions <= 2 * (first + 1) else 'fails'}: "
            f"at most two a count of coins, so a table that searched each once would "
            f"visit {positions} where the tree, growing about 1.6x a coin, has "
            f"{nodes[0]:,}"),
    ]


def rate_verdict(wins, games, rate):
    """Whether the material's winning ``rate`` lies in the 95% Wilson interval of
    ``wins`` of ``games``."""
    low, high = wilson(wins, games)
    text = f"{rate:.0%} against the package's 95% interval [{low:.0%}, {high:.0%}]"
    return ("same: " if low <= rate <= high else "differs: ") + text


def _match_row(label, a, b, games, seed, progress, material="-", book=None):
    """A match row; with ``book`` (the material's won, tied, lost) its verdict says
    whether the material's score lies in the package's 95% interval, else whether
    ``a`` beats ``b`` (the package's reading, labelled as such)."""
    from scripts.arena.match import match
    s = match(a, b, games, None, seed, 1, progress=progress).summary
    low, high = s["score_ci"]
    ours = f"{s['wins']}-{s['draws']}-{s['losses']}, score {s['score']:.3f} " \
           f"[{low:.3f}, {high:.3f}]"
    if book is not None:
        w, d, l = book
        score = (w + 0.5 * d) / (w + d + l)
        verdict = ("same: the material's score is inside the package's interval"
                   if low <= score <= high else "differs: the material's score is outside "
                   "the package's interval")
    else:
        verdict = "package's reading: " + ("stronger" if low > 0.5 else "weaker"
                                            if high < 0.5 else "not shown at this size")
    return Row(label, material, ours, verdict)


# The book's Connect Four agent in the package's words. Its ``minimax(env, depth=3)``
# plays a move and then searches ``depth`` more plies below it, checking for the end of
# the game before the depth: it looks 4 plies ahead, with payoffs +1 / -1 at a finished
# game and 0 at the horizon. That is ``minimax:depth=4,heuristic=none`` here; the
# tutorial's ``N_STEPS = 3`` counts its own move in the 3 (``minimax:depth=3``).
BOOK_AGENT = "minimax:depth=4,heuristic=none,tactics=False"
TUTORIAL_AGENT = "minimax:depth=3,tactics=False"
THINK3 = "rules:lookahead=3"


def book_payoff(game, state, depth, counter=None):
    """The book chapter's rule, in the package's own code: the payoff of ``state`` for
    the side to move, -1 if the previous move won, 0 for a draw or at ``depth`` 0,
    else the best of the negated payoffs of its children searched ``depth - 1``
    (``counter``: a :class:`agents.games.protocol.Counter` of the positions visited)."""
    if counter is not None:
        counter.nodes += 1
    if game.winner(state):
        return -1
    if game.is_terminal(state) or depth == 0:
        return 0
    return max(-book_payoff(game, game.result(state, a), depth - 1, counter)
               for a in game.actions(state))


def book_columns(game, state, depth=3, counter=None):
    """The columns the book's ``minimax(env, depth)`` chooses among: a move that wins at
    once, else the moves of best payoff, each searched ``depth`` plies below the move
    (``counter``: as :func:`book_payoff`'s, the root's children included)."""
    values = {}
    for a in game.actions(state):
        child = game.result(state, a)
        if game.winner(child):
            return [a]
        values[a] = -book_payoff(game, child, depth, counter)
    top = max(values.values())
    return [a for a, v in values.items() if v == top]


def depth_conventions(n, seed):
    """(positions, positions where the book's depth 3 picks the same columns as the
    package's minimax at depth 4 with no heuristic, the same as at depth 3), on ``n``
    seeded positions where the mover has no immediate win (the book then plays the first
    winning column it finds, where the package rates every winning line alike)."""
    import agents
    from agents.board.rules import parse_position
    from agents.players.baselines import best_columns
    from agents.search.reference import ConnectX
    from scripts.arena.specs import observation
    game = ConnectX(6, 7, 4)
    four = agents.make("minimax", depth=4, heuristic="none", tactics=False)
    three = agents.make("minimax", depth=3, heuristic="none", tactics=False)
    same4 = same3 = 0
    rng, positions = random.Random(seed), []
    while len(positions) < n:
        s = tutorial_positions(1, rng)[0]
        if not any(game.winner(game.result(s, a)) for a in game.actions(s)):
            positions.append(s)
    for board, mark in positions:
        grid, heights, mark, cfg = parse_position(observation(board, mark),
                                                  {"rows": 6, "columns": 7, "inarow": 4})
        book = sorted(book_columns(game, (board, mark)))
        for agent, count in ((four, 4), (three, 3)):
            mine = sorted(best_columns(agent.scores(grid, heights, mark, cfg)[0], heights, cfg))
            if count == 4:
                same4 += mine == book
            else:
                same3 += mine == book
    return n, same4, same3


def connect4_think(quick=False, seed=0, progress=False):
    games = 4 if quick else 100
    n, same4, same3 = depth_conventions(2 if quick else 6, seed)
    return [
        Row(f"the book's minimax(env, depth=3), rewritten on the package's rules, against "
            f"minimax:heuristic=none: the same best columns on {n} seeded positions, "
            f"at depth 4 / at depth 3", "-", f"{same4}/{n} / {same3}/{n}",
            "package's reading holds: the book's depth 3 is 4 plies" if same4 == n else
            "package's reading fails: the book's depth 3 is not minimax:depth=4"),
        _match_row(f"Connect Four, the book's agent ({BOOK_AGENT}: 4 plies, win/loss "
                   f"payoffs) against think-3 ({THINK3}: the package's reading of the "
                   f"book's conn_think3, whose code the chapter does not show), {games} "
                   f"games (W-D-L)",
                   BOOK_AGENT, THINK3, games, seed, progress, "68-6-26", (68, 6, 26)),
        _match_row(f"Connect Four, the tutorial's heuristic minimax ({TUTORIAL_AGENT}: 3 "
                   f"plies) against think-3, {games} games (W-D-L)", TUTORIAL_AGENT, THINK3,
                   games, seed, progress),
    ]


def tutorial_positions(n, rng):
    """``n`` seeded 7x6 positions (a flat Kaggle board and the mark to move) after 0-14
    random moves, none finished (the package's one maker, games that ended drawn again)."""
    from agents.board.rules_reference import random_position
    out = []
    while len(out) < n:
        stones = rng.randrange(15)
        board = random_position(6, 7, 4, stones, rng, wins=True)
        if board is not None:
            out.append((tuple(board), 1 + stones % 2))
    return out


def tutorial(quick=False, seed=0, progress=False):
    """The package's numba minimax against the tutorial's own code: the same best
    columns on seeded positions, then the package's minimax against random."""
    import agents
    from agents.board.rules import parse_position
    from agents.players.baselines import best_columns
    from agents.players.kaggle_tutorial import TutorialConfig, tutorial_best_columns
    from scripts.arena.specs import observation
    n = 3 if quick else 8  # the tutorial's pure Python: seconds a position
    ours = agents.make("minimax", depth=3, tactics=False)
    same = 0
    for board, mark in tutorial_positions(n, random.Random(seed)):
        config = {"rows": 6, "columns": 7, "inarow": 4}
        grid, heights, mark, cfg = parse_position(observation(board, mark), config)
        scores, _ = ours.scores(grid, heights, mark, cfg)
        mine = best_columns(scores, heights, cfg)
        theirs = tutorial_best_columns(list(board), mark, TutorialConfig(6, 7, 4), 3)
        same += sorted(mine) == sorted(theirs)
    games = 4 if quick else 50
    return [
        Row(f"depth-3 minimax: the tutorial's set of best columns on {n} seeded positions",
            "-", f"{same}/{n} the same", f"package's reading {'holds' if same == n else 'fails'}"
            f": the tutorial's moves, in numba"),
        _match_row(f"the package's minimax, depth 3 (the tutorial's moves, in numba) "
                   f"against random, {games} games", "minimax:depth=3,tactics=False",
                   "random", games, seed, progress),
    ]


# The book's two tic-tac-toe games against a human (its cells 1-9, row by row; x the
# agent): the moves of each, and the seconds it printed for each of the agent's moves.
BOOK_FULL_GAME = (5, 4, 7, 3, 8, 9, 2)
BOOK_FULL_TIMES = "29.12 0.395 0.016 0.0 s"
BOOK_DEPTH_GAME = (2, 5, 7, 1, 9, 8, 4, 3)
BOOK_DEPTH_TIMES = "0.197 0.055 0.0 0.001 s"
BOOK_DEPTH = 4  # the book's minimax(env, depth=3): a move, then 3 more plies below it
# The book's Connect Four game against a human (columns 1-7; red, the agent, first):
# the moves, the agent's three (5, 6, 4), and the seconds it printed for each of them.
BOOK_CONNECT4_GAME = (5, 1, 6, 1, 4)
BOOK_CONNECT4_COLUMNS = "5 6 4"
BOOK_CONNECT4_TIMES = "0.143 0.148 0.140 s"  # its 0.14301..., 0.14829..., 0.13970...


def depth_limited(quick=False, seed=0, progress=False):
    """The book's depth pruning on tic-tac-toe: the agent's search at each of its moves
    of the book's two games, full (to the end) and depth-limited (the book's depth=3,
    4 plies, a draw's 0 at the horizon), timed and counted; ``quick`` skips the full
    search of the empty board (half a million nodes in plain Python)."""
    import time
    game = TicTacToe()
    rows, measured = [], {}
    for label, moves, plies in (("full", BOOK_FULL_GAME, 9), ("depth", BOOK_DEPTH_GAME,
                                                               BOOK_DEPTH)):
        times, nodes, tied = [], [], None
        state = game.initial()
        for i, cell in enumerate(moves):
            if i % 2 == 0 and not (quick and label == "full" and i == 0):
                counter, start = Counter(), time.perf_counter()
                values = {a: minimax_value(game, game.result(state, a), plies - 1, X, counter)
                          for a in game.actions(state)}
                times.append(time.perf_counter() - start)
                nodes.append(counter.nodes + len(values))
                if i == 0:
                    tied = sum(v == max(values.values()) for v in values.values())
            state = game.result(state, cell - 1)
        measured[label] = (times, nodes, tied)
    (ft, fn, f_tied), (dt, dn, d_tied) = measured["full"], measured["depth"]
    shown = " ".join(f"{t:.3g}" for t in ft) + " s; nodes " + " ".join(f"{n:,}" for n in fn)
    rows.append(Row("the full minimax's move times at the book's own game (x: 5 4 7 3 8 9 2)"
                    + (" (--quick: the empty board's left out)" if quick else ""),
                    BOOK_FULL_TIMES, shown, _ratio_verdict(ft, fn, 29.12 / 0.395, quick)))
    rows.append(Row(f"the depth-limited minimax's move times (the book's depth=3: "
                    f"{BOOK_DEPTH} plies) at its own game (2 5 7 1 9 8 4 3)", BOOK_DEPTH_TIMES,
                    " ".join(f"{t:.3g}" for t in dt) + " s; nodes " +
                    " ".join(f"{n:,}" for n in dn),
                    _ratio_verdict(dt, dn, 0.197 / 0.055, quick)))
    if not quick:
        rows.append(Row("the first move: full against depth-limited search, seconds (the "
                        "material's 29 s against 0.2 s: 148x)", "29.12 s / 0.197 s",
                        f"{ft[0]:.3g} s / {dt[0]:.3g} s ({ft[0] / dt[0]:.0f}x); nodes "
                        f"{fn[0]:,} / {dn[0]:,} ({fn[0] / dn[0]:.0f}x)",
                        _ratio_verdict([ft[0], dt[0]], [fn[0], dn[0]], 29.12 / 0.197, False)))
        rows.append(Row("first moves rated best on the empty board, full / depth-limited", "-",
                        f"{f_tied} / {d_tied} of 9",
                        f"package's reading {'holds' if f_tied == d_tied == 9 else 'fails'}: "
                        f"every first move ties (a draw, and 0 at the 4-ply horizon), so the "
                        f"book's 5 and 2 are its tie-breaks"))
    return rows + connect4_times(quick)


def connect4_times(quick):
    """The book's Connect Four rule (:func:`book_columns`, depth 3: 4 plies) timed at
    each of the agent's moves of the book's own game, with its nodes and its columns;
    ``quick``: the third move only, the one the rule decides (a double threat). Each
    time is the quickest of 3 runs over the positions in turn (1 with ``quick``): the
    moves' spread is the verdict's, and a single run's first search is the slowest (the
    machine warming up)."""
    import time

    from agents.search.reference import ConnectX
    game = ConnectX(6, 7, 4)
    state, positions = game.initial(), []
    for i, column in enumerate(BOOK_CONNECT4_GAME):
        if i % 2 == 0 and not (quick and i < 4):
            positions.append((state, column))
        state = game.result(state, column - 1)
    times, nodes, chosen = [float("inf")] * len(positions), [], []
    for run in range(1 if quick else 3):  # the positions in turn, each run
        for k, (state, column) in enumerate(positions):
            counter, start = Counter(), time.perf_counter()
            best = book_columns(game, state, 3, counter)
            times[k] = min(times[k], time.perf_counter() - start)
            if run == 0:
                nodes.append(counter.nodes)
                chosen.append((column, sorted(c + 1 for c in best)))
    kept = all(column in best for column, best in chosen)
    shown = " / ".join("all" if len(best) == 7 else " ".join(map(str, best))
                       for _, best in chosen)
    moves = "the third, after 5 1 6 1" if quick else "5 6 4"
    rows = [Row(f"Connect Four: the book's rule (scripts.lessons.chapters.book_columns, "
                f"depth=3: 4 plies, payoffs only) at the agent's moves of the book's game "
                f"(5 1 6 1 4, red the agent): the columns it rates best", "-" if quick else
                BOOK_CONNECT4_COLUMNS, shown,
                (f"package's reading {'holds' if kept else 'fails'}: the book's 4 the one "
                 f"best column" if quick else
                 f"{'same' if kept else 'differs'}: each of the book's columns is among the "
                 f"best (its 5 and 6 are tie-breaks)"))]
    ours = " ".join(f"{t:.3g}" for t in times) + " s; nodes " + \
        " ".join(f"{n:,}" for n in nodes)
    if quick:
        verdict = "not shown at this size: --quick judges no times"
    else:
        spread = max(times) / min(times)
        verdict = (f"{'same' if spread <= 3 else 'differs'}: the moves take alike, "
                   f"{spread:.2f}x from the slowest to the quickest against the book's 1.06x "
                   f"(nodes {max(nodes) / min(nodes):.2f}x; machines differ, so the spread "
                   f"is compared: {0.143 / times[0]:.2f}x the book's speed here)")
    rows.append(Row(f"Connect Four: the same rule's seconds (the quickest of "
                    f"{1 if quick else 3} runs) and nodes at the agent's moves ({moves})",
                    BOOK_CONNECT4_TIMES, ours, verdict))
    return rows


def _ratio_verdict(times, nodes, material_ratio, quick):
    """Whether the first two searches' time ratio is the material's within a factor of 3
    (machines differ; the ratio of the work should not)."""
    if quick or len(times) < 2:
        return "not shown at this size: --quick judges no times"
    ours = times[0] / max(times[1], 1e-9)
    close = material_ratio / 3 <= ours <= material_ratio * 3
    return (f"{'same' if close else 'differs'}: the two searches' time ratio {ours:.0f}x "
            f"against the material's {material_ratio:.0f}x (nodes {nodes[0] / nodes[1]:.0f}x)")
