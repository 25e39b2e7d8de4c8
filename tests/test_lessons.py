"""``connectx lessons`` and ``connectx play --game``: every experiment listed and run at
tiny sizes (the full sizes are for ``connectx lessons all``), the figures that must
match the material do, the rollout book's bookkeeping, the tic-tac-toe think-N
players on drawn positions and the terminal games' answers to bad input."""
import os
import random
import re

import pytest

from agents.games.tictactoe import (ThinkPlayer, TicTacToe, legal_cells, parse_board, place,
                                    solve, winning_cells)
from scripts.lessons.terminal import play as play_terminal, terminal
from scripts.commands.lessons import main
from scripts.lessons import by_name, experiments
from agents.games.protocol import minimax_value
from agents.games.isolation import mini_isolation
from scripts.lessons.sampling import book_of, fold, losing_book_moves, rollout_book, unfold

SLOW = {"connect4-think3", "tutorial-lookahead", "search-windows", "horizon-effect",
        "branching-factor"}  # numba compiles, the pure-Python tutorial

# The seed material's own figures and claims, copied by hand from the seed material (the team's seeds folder, outside the repository; never
# read at test time); a lesson's "material" cell may hold one of these or "-" (nothing).
MATERIAL = {
    # 000: book, chapter 5 (depth pruning in minimax)
    "5-5-0",        # tic-tac-toe: minimax against think-3, 10 games, won-tied-lost
    "less than 3^9=19,683",      # tic-tac-toe's "possible scenarios"
    "29.12 0.395 0.016 0.0 s",   # the full minimax's seconds at each of its moves
    "0.197 0.055 0.0 0.001 s",   # the depth-pruned minimax(env, depth=3)'s
    "29.12 s / 0.197 s",         # the two first moves' seconds
    "68-6-26",      # Connect Four: minimax(env, depth=3) against think-3, 100 games
    "5 6 4",        # Connect Four: its columns (1-7) at its moves of its game against a human
    "0.143 0.148 0.140 s",  # and its seconds for each (0.14301..., 0.14829..., 0.13970...)
    # 001: book, chapter 4 (the coin game): minimax's wins of 100 games
    "96/100 won",   # moving first against random
    "100/100 won",  # moving second against random, and against the rule-based player
    "0/100 won",    # moving first against the rule-based player
    "1 2 1 2 1",    # minimax's takes at its game against a human (at 19 17 13 11 7 coins)
    "0.31630 0.12109 0.02154 0.00852 0.00100 s",  # and the seconds it printed for each
    # 002: the Kaggle tutorial: its tree's two moves and the agent's choice
    "left -1, right +10: the agent picks the right move",
    # 003: the adversarial-search lesson
    "5",            # mini-Isolation: player 1's liberties on the empty board; and the
                    # nodes of a depth-1 search from it
    "4",            # player 2's moves after player 1's first
    "+inf -inf +inf +inf -inf",  # the values of (0,0) (1,0) (2,0) (0,1) (1,1)
    "a played-out game is terminal",  # the terminal test on a played-out board
    "alpha-beta: same move as minimax, fewer nodes",
    "my_moves - opponent_moves is the better evaluation",  # its evaluation quiz's answer
    "alpha-beta prunes less well with more than two players (Korf 1991)",
    "nodes grow about as b ** d, b the average number of legal moves",
    "ordering heuristics (the killer heuristic) make alpha-beta cut earlier",
    "a book can learn bad moves",
    "symmetries improve the book's estimates",   # "incorporating more domain knowledge"
    "raw win counts are a poor statistic; better statistics exist",
    "uniform sampling is inefficient; UCT samples promising actions more",
    "MCTS converges to the minimax value as the simulations grow",
    "SSS*: best-first, can take less time, at a heavy cost in space",
    "the horizon effect: a move best to the search's depth can be bad beyond that depth",
    "quiescence search mitigates the horizon effect",
    # 004: the tic-tac-toe article
    "e (the centre)",  # its minimax's reply to x in the corner a
    "3",               # its small tree's value
    "2.99 s",          # its determine_move's seconds for the reply to a (2.986...)
}
# what a verdict may say, the words docs/lessons.md promises: against a material figure,
# or of a package's own reading (its claim in brackets or after the word, then the measure)
VERDICTS = ("same", "differs", "not shown at this size", "not shown at this depth")
READING = re.compile(r"package's reading( \([^)]*\))?( (holds|fails)\b|: (stronger|weaker|"
                     + "|".join(VERDICTS) + "))")


def check_row(r):
    """A row's material cell holds only the material's words, and its verdict tests it
    in the promised words."""
    assert r.figure and r.ours and r.verdict, r
    assert r.material == "-" or r.material in MATERIAL, r
    if r.material == "-":
        assert READING.match(r.verdict), r
    else:
        assert re.match("(" + "|".join(VERDICTS) + r")(:|$)", r.verdict), r


def test_the_docs_promise_the_verdict_words():
    docs = re.sub(r"\s+", " ", open(os.path.join(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__))), "docs", "lessons.md"), encoding="utf-8").read())
    for word in VERDICTS + ("holds", "fails", "stronger", "weaker"):
        assert f"`{word}`" in docs, word
    assert not READING.match("package's reading: fewer")
    assert READING.match("package's reading (its count) holds: 6")


def test_listing_names_every_experiment_and_bad_names_exit_2(capsys):
    assert main([]) == 0
    out = capsys.readouterr().out
    names = [e.name for e in experiments()]
    assert len(names) == len(set(names)) >= 12
    for name in names:
        assert name in out
    assert main(["no-such-lesson"]) == 2
    assert "unknown experiment" in capsys.readouterr().err


def test_the_commands_of_connectx_lessons_are_no_experiments_names():
    """``connectx lessons WORD`` runs a command of its own before an experiment: no
    experiment may carry one of those words."""
    from scripts.commands.lessons import OWN_COMMANDS
    assert "tree" in OWN_COMMANDS
    assert not set(OWN_COMMANDS) & set(by_name())


def test_the_coin_game_command_agrees_with_the_theory(capsys):
    """``connectx lessons coins``: every count's minimax value is the closed form's and
    minimax moving second from 9 coins (a lost start for the mover) wins every game."""
    assert main(["coins", "--games", "3", "--coins", "9"]) == 0
    out = capsys.readouterr().out
    assert "all as the theory says" in out
    assert out.count("minimax second vs") == 2 and "3/3 wins    minimax first" in out


@pytest.mark.parametrize("name", sorted(set(by_name()) - SLOW))
def test_each_experiment_runs_quick_with_every_row_filled(name):
    rows = by_name()[name].run(quick=True, seed=1)
    assert rows
    for r in rows:
        check_row(r)
        assert not r.verdict.startswith("differs") and "reading fails" not in r.verdict, r


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(SLOW))
def test_the_numba_and_tutorial_experiments_run_quick(name):
    rows = by_name()[name].run(quick=True, seed=1)
    for r in rows:
        check_row(r)


def test_the_material_figures_that_must_match(capsys):
    assert main(["mini-isolation", "tictactoe-solved", "--quick"]) == 0
    out = capsys.readouterr().out
    assert "package: +inf -inf +inf +inf -inf  |  same" in out
    assert "material: e (the centre)  |  package: e  |  same" in out
    assert "reproduce: connectx lessons mini-isolation --quick" in out


def test_an_interval_from_no_wins_or_all_wins_prints_0_and_100_percent():
    """The Wilson interval of 0 or all wins ends at 0 and 1 exactly: rounded below 0 it
    printed "[-0%, 16%]"."""
    from scripts.lessons.chapters import rate_verdict
    from scripts.lessons.rows import better_than_even, wilson
    assert better_than_even(0, 20) == "differs: 95% interval [0%, 16%]"
    assert rate_verdict(0, 10, 0.0).endswith("[0%, 28%]")
    for games in (4, 10, 20, 100):
        low, high = wilson(0, games)
        assert low == 0.0 < high and wilson(games, games)[1] == 1.0


def test_the_lessons_rollout_book_sums_plus_minus_one_over_two_plies():
    """The lesson's build_tree: every round adds +-1 to one move at the root and one at
    depth 1 (for the side that moved), so the root's sums have the rounds' parity and
    size; the book keeps the highest sum, the first tallied on ties."""
    game = mini_isolation()
    tally = rollout_book(game, 50, random.Random(3))
    root = tally[game.initial()]
    assert sum(n for _, n in root.values()) == 50
    assert all(abs(total) <= n and (total - n) % 2 == 0 for total, n in root.values())
    depth1 = [s for s in tally if s != game.initial()]
    assert sum(n for s in depth1 for _, n in tally[s].values()) == 50 and depth1
    assert {s for s in tally} <= {game.initial()} | {game.result(game.initial(), a)
                                                     for a in game.actions(game.initial())}
    assert book_of({"s": {0: [1, 1], 4: [3, 5], 8: [3, 3]}}) == {"s": 4}
    # the bound: 3 of 3 not lost is less sure than 90 of 100
    assert book_of({"s": {0: [3, 3], 4: [80, 100]}}, "bound") == {"s": 4}
    assert book_of({"s": {0: [3, 3], 4: [80, 100]}}) == {"s": 4}
    assert book_of({"s": {0: [3, 3], 4: [1, 1]}}, "bound") == {"s": 0}
    with pytest.raises(ValueError, match="'sum' or 'bound'"):
        book_of({}, "mean")
    book = book_of(tally)
    n, bad = losing_book_moves(book, game)
    assert n == len(book) and 0 <= bad <= n
    # a book forced onto a losing move wherever one exists is caught everywhere
    start = game.initial()
    me = game.to_move(start)
    values = {a: minimax_value(game, game.result(start, a), 64, me) for a in game.actions(start)}
    worst = min(values, key=values.get)
    assert losing_book_moves({start: worst}, game) == (1, int(values[worst] < max(values.values())))


def test_the_depth_limited_tictactoe_search_counts_the_books_four_plies():
    """The book's depth=3 looks 4 plies ahead: from the empty board 9 + 9*8 + 9*8*7 +
    9*8*7*6 positions (no line before the fifth stone). In its Connect Four game, after
    5 1 6 1 (columns 1-7) red's 4 makes a double threat: the one column rated best."""
    from scripts.lessons.chapters import depth_limited
    rows = depth_limited(quick=True)
    assert "nodes 3,609 " in rows[1].ours and 9 + 72 + 504 + 3024 == 3609
    assert rows[-2].ours == "4" and rows[-1].material == "0.143 0.148 0.140 s"
    timed = [r for r in rows if r.material.endswith(" s")]
    # --quick judges no times
    assert len(timed) == 3 and all(r.verdict.startswith("not shown") for r in timed)


def test_mcts_uniform_policy_is_not_uct():
    """The uniform tree policy spreads the visits over the root's moves; UCT piles them on
    the move that wins at once."""
    from agents.games.searches.montecarlo import mcts
    game = TicTacToe()
    s = (parse_board("xx.\noo.\n..."), 1)  # x wins at cell 2
    uniform = mcts(game, s, 300, random.Random(1), policy="uniform")
    uct = mcts(game, s, 300, random.Random(1))
    share = {k: r.children[2].visits / 300 for k, r in (("uniform", uniform), ("uct", uct))}
    assert share["uct"] > 0.5 > share["uniform"]
    with pytest.raises(ValueError, match="unknown tree policy"):
        mcts(game, s, 10, random.Random(1), policy="greedy")


def board(picture):
    return parse_board("\n".join(line.strip() for line in picture.strip().splitlines()))


def test_think_players_win_block_and_fork():
    win = board("""
        xx.
        oo.
        ...
    """)
    assert ThinkPlayer(1, seed=0).candidates(win) == [2]
    block = board("""
        x..
        oo.
        x..
    """)  # x to move, o threatens 5
    assert ThinkPlayer(1, seed=0).candidates(block) == [1, 2, 5, 7, 8]
    assert ThinkPlayer(2, seed=0).candidates(block) == [5]
    forks = 0
    for state in solve():
        b = state[0]
        if TicTacToe().is_terminal(state):
            continue
        mark = state[1]
        if winning_cells(b, mark) or winning_cells(b, 3 - mark):
            continue
        cells = ThinkPlayer(3, seed=0).candidates(b)
        if cells != legal_cells(b):
            forks += 1
            assert all(len(winning_cells(place(b, c, mark), mark)) >= 2 for c in cells)
    assert forks > 0
    with pytest.raises(ValueError, match="steps"):
        ThinkPlayer(4)


def scripted(lines):
    it = iter(lines)

    def ask(prompt):
        try:
            return next(it)
        except StopIteration:
            raise EOFError from None
    return ask


@pytest.mark.parametrize("game, spec, lines, answers", [
    ("tictactoe", "think1", ["a", "0", "10"], ["is not a cell number", "there is no cell 0",
                                               "there is no cell 10"]),
    ("coins", "minimax", ["x", "3"], ["is not a number", "you cannot take 3"]),
    ("isolation", "random", ["9 9", "foo", "1"], ["there is no cell (9, 9)", "is not a cell",
                                                  "is not a cell"]),
])
def test_bad_input_gets_one_line_and_the_prompt_again(game, spec, lines, answers):
    term = terminal(game)
    said = []
    assert play_terminal(term, term.agent(spec, 0), spec, False, scripted(lines), said.append) is None
    errors = [s for s in said if "\n" not in s and any(a in s for a in answers)]
    assert len(errors) == len(answers)
    assert said[-1] == "game abandoned"


def test_a_whole_terminal_game_of_coins_against_minimax_is_lost_by_the_first_player():
    term = terminal("coins")
    said = []
    takes = ["1"] * 30
    winner = play_terminal(term, term.agent("minimax", 0), "minimax", False, scripted(takes), said.append)
    assert winner == 2 and said[-1] == "minimax wins"


def test_isolation_mini_board_and_bad_agents():
    term = terminal("isolation", "mini")
    assert term.game.width == 3 and term.game.height == 2
    with pytest.raises(ValueError, match="depth"):
        term.agent("alphabeta:depth=0", 0)
    with pytest.raises(ValueError, match="unknown isolation agent"):
        term.agent("minimax", 0)
    with pytest.raises(ValueError, match="unknown game"):
        terminal("chess")


def test_the_books_depth_3_is_the_packages_depth_4():
    """The book chapter's ``minimax(env, depth=3)`` plays a move and searches 3 plies
    below it (4 in all), the package's ``minimax:depth=4,heuristic=none``; the depth-3
    search (the tutorial's convention: 3 plies, its own move included) picks other
    columns here. Moves 1-based ``144253576``, O (2) to move::

        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . x x . .
        x o o o x x o

    x has two on the second row (columns 3 and 4, 0-based) with playable cells on both
    sides: unless O plays column 2 or 5 now, x makes an open three and wins on the
    fourth ply. The book's rule sees that loss and keeps columns 2 and 5; 3 plies of
    payoffs rate every column 0.
    """
    import agents
    from agents.board.rules import parse_position
    from agents.players.baselines import best_columns
    from agents.search.reference import ConnectX
    from scripts.lessons.chapters import book_columns
    game = ConnectX(6, 7, 4)
    s = game.initial()
    for ch in "144253576":
        s = game.result(s, int(ch) - 1)
    assert s[1] == 2 and not any(game.winner(game.result(s, a)) for a in game.actions(s))
    grid, heights, mark, cfg = parse_position({"board": list(s[0]), "mark": 2},
                                              {"rows": 6, "columns": 7, "inarow": 4})

    def columns(depth):
        agent = agents.make("minimax", depth=depth, heuristic="none", tactics=False)
        return best_columns(agent.scores(grid, heights, mark, cfg)[0], heights, cfg)

    assert sorted(book_columns(game, s, 3)) == sorted(columns(4)) == [2, 5]
    assert sorted(columns(3)) == list(range(7))


def test_the_swing_quiescence_equals_its_reference_and_extends():
    """:func:`agents.search.horizon.swing_search` (through ``swing_root``) gives the value of
    ``agents.search.reference.swing_value`` on seeded middle-game positions, depth 2 with
    up to 2 plies of extension; with ``extend=0`` it is plain alpha-beta (the reference's
    minimax at the same depth), and on some of them the extension changes the value."""
    import numpy as np

    from agents.board.grid import column_heights
    from agents.board.rules import parse_config
    from agents.search.horizon import swing_root
    from agents.search.reference import ConnectX, flat_heuristic, swing_value
    from heuristics import HEURISTIC_IDS
    from scripts.lessons.horizon_effect import _positions
    cfg = parse_config({"rows": 6, "columns": 7, "inarow": 4})
    game = ConnectX(6, 7, 4, heuristic=flat_heuristic("threats"))
    changed = 0
    for board in _positions(4, random.Random(2)):
        grid = np.array(board, dtype=np.int8)
        heights = column_heights(grid, 6, 7)
        mark = 1 + sum(1 for v in board if v) % 2
        state = (tuple(board), mark)
        got = {}
        for extend in (0, 2):
            want = max(swing_value(game, game.result(state, a), 1, extend, 50, mark)
                       for a in game.actions(state))
            got[extend] = swing_root(grid, heights, mark, cfg, 2, HEURISTIC_IDS["threats"],
                                     extend, 50)[1]
            assert got[extend] == want, (board, extend)
        changed += got[0] != got[2]
    assert changed >= 2


def test_folding_pools_symmetric_positions_and_unfolding_answers_every_image():
    """Tic-tac-toe's 8 symmetries: a tally of x in two corners folds into one class (the
    rounds pooled, the reply mapped with the board), and the folded book answers the
    four corner openings with moves that are each other's images; every symmetric
    position has its image's exact value."""
    from agents.games.tictactoe import solve
    game = TicTacToe()
    start = game.initial()
    a, i = game.result(start, 0), game.result(start, 8)   # x in corner a, in corner i
    tally = {a: {4: [1, 1], 1: [-1, 1]}, i: {4: [1, 1], 7: [1, 1]}}
    folded = fold(game, tally)
    assert list(folded) == [min(game.transform(a, p) for p in game.transforms())]
    [(canon, entry)] = folded.items()
    assert entry[4] == [2, 2] and sum(n for _, n in entry.values()) == 4
    # b after a and h after i are images: their rounds pooled in one edge of the class
    assert len(entry) == 2 and [v for k, v in entry.items() if k != 4] == [[0, 2]]
    # the empty board is its own image under all 8: its four corners are one move
    assert fold(game, {start: {0: [1, 1], 8: [-1, 1], 2: [1, 1]}}) == {start: {0: [1, 3]}}
    book = unfold(game, book_of(folded))
    corners = [game.result(start, c) for c in (0, 2, 6, 8)]
    assert all(book[s] == 4 for s in corners) and len(book) == 4
    table = solve()
    assert all(table[game.transform(s, p)] == v for s, v in list(table.items())[:500]
               for p in game.transforms())
