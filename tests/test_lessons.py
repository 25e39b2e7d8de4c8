"""``connectx lessons`` and ``connectx play --game``: every experiment listed and run at
tiny sizes (the full sizes are for ``connectx lessons all``), the figures that must
match the material do, the rollout book's bookkeeping, the tic-tac-toe think-N
players on drawn positions and the terminal games' answers to bad input."""
import random

import pytest

from agents.games.tictactoe import (ThinkPlayer, TicTacToe, legal_cells, parse_board, place,
                                    solve, winning_cells)
from scripts.lessons.terminal import play as play_terminal, terminal
from scripts.commands.lessons import main
from scripts.lessons import by_name, experiments
from scripts.lessons.sampling import _moves_of, book_move, lost_value_share, rollout_book

SLOW = {"connect4-think3", "tutorial-lookahead"}  # numba compiles, the pure-Python tutorial


def test_listing_names_every_experiment_and_bad_names_exit_2(capsys):
    assert main([]) == 0
    out = capsys.readouterr().out
    names = [e.name for e in experiments()]
    assert len(names) == len(set(names)) >= 12
    for name in names:
        assert name in out
    assert main(["no-such-lesson"]) == 2
    assert "unknown experiment" in capsys.readouterr().err


@pytest.mark.parametrize("name", sorted(set(by_name()) - SLOW))
def test_each_experiment_runs_quick_with_every_row_filled(name):
    rows = by_name()[name].run(quick=True, seed=1)
    assert rows
    for r in rows:
        assert r.figure and r.material and r.ours
        assert not r.verdict.startswith("differs"), r


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(SLOW))
def test_the_numba_and_tutorial_experiments_run_quick(name):
    rows = by_name()[name].run(quick=True, seed=1)
    assert all(r.ours for r in rows)


def test_the_material_figures_that_must_match(capsys):
    assert main(["mini-isolation", "tictactoe-solved", "--quick"]) == 0
    out = capsys.readouterr().out
    assert "package: +inf -inf +inf +inf -inf  |  same" in out
    assert "package: a draw  |  same" in out
    assert "reproduce: connectx lessons mini-isolation --quick" in out


def test_rollout_book_counts_its_rounds_and_judges_moves_by_exact_values():
    game, table = TicTacToe(), solve()
    book = rollout_book(game, 200, 2, random.Random(3))
    root = book[game.initial()]
    assert sum(plays for _, plays in root.values()) == 200
    assert all(0 <= wins <= plays for entry in book.values() for wins, plays in entry.values())
    assert set(book) <= {game.initial()} | {game.result(game.initial(), a) for a in range(9)}
    values = {s: {a: -table[game.result(s, a)] for a in game.actions(s)} for s in book}
    # a book whose every entry is forced onto a losing move where one exists
    forced = {s: {a: [1.0 if vals[a] < max(vals.values()) else 0.0, 1]
                  for a in vals} for s, vals in values.items()}
    n, bad = lost_value_share(forced, lambda s: values[s])
    assert n == len(book) and bad == sum(len(set(v.values())) > 1 for v in values.values())
    assert book_move({0: [3.0, 5], 4: [3.0, 4], 8: [1.0, 1]}) == 0  # most wins, first on ties


def test_connect_four_move_strings_rebuild_the_board():
    from agents.search.reference import ConnectX
    game = ConnectX(4, 5, 4)
    s = game.initial()
    for col in (2, 2, 0, 4, 2):
        s = game.result(s, col)
    moves = _moves_of(s[0], 4, 5)
    t = game.initial()
    for ch in moves:
        t = game.result(t, int(ch) - 1)
    assert t == s


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
