"""MTD(f) and the aspiration window on ConnectX (agents/search/mtdf.py): the value of the
full-window alpha-beta on every tested position (and of the reference minimax with no
heuristic), from any first guess, sharing one table across passes."""
import random

import numpy as np
import pytest

from agents.board.grid import column_heights
from agents.board.rules_reference import random_position, ref_winner
from agents.board.rules import parse_config
from agents.games.protocol import minimax_value
from agents.search.mtdf import WindowSearch, aspiration, full_window, mtdf
from agents.search.reference import ConnectX
from heuristics import get


def positions(shape, count, seed):
    rows, columns, inarow = shape
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        b = random_position(rows, columns, inarow, rng.randrange(0, rows * columns // 2), rng)
        if b is not None and any(v == 0 for v in b) and not ref_winner(b, *shape):
            out.append((b, 1 + sum(1 for v in b if v) % 2))
    return out


def window(board, mark, shape, heuristic):
    grid = np.array(board, dtype=np.int8)
    cfg = parse_config(dict(zip(("rows", "columns", "inarow"), shape)))
    return WindowSearch(grid, column_heights(grid, shape[0], shape[1]), mark, cfg,
                        get(heuristic), tt_bits=12)


@pytest.mark.parametrize("shape,depth", [((4, 5, 3), 5), ((6, 7, 4), 3)])
def test_mtdf_equals_the_reference_minimax_with_no_heuristic(shape, depth):
    game = ConnectX(*shape)
    for board, mark in positions(shape, 6, depth):
        state = (tuple(board), mark)
        want = max(minimax_value(game, game.result(state, a), depth - 1, mark)
                   for a in game.actions(state))
        for guess in (0, 5, -5):
            assert mtdf(window(board, mark, shape, "none"), depth, guess) == want


@pytest.mark.parametrize("shape,depth", [((6, 7, 4), 5), ((5, 6, 4), 6)])
def test_mtdf_and_aspiration_equal_the_full_window_with_a_heuristic(shape, depth):
    for board, mark in positions(shape, 5, 31 + depth):
        want = full_window(window(board, mark, shape, "windows"), depth)
        for guess in (0, want, want + 40, want - 7):
            w = window(board, mark, shape, "windows")
            assert mtdf(w, depth, guess) == want
            assert w.calls >= 2  # at least a pass that fails and one that meets it
            assert aspiration(window(board, mark, shape, "windows"), depth, guess, 8) == want


def test_bad_input_is_refused():
    board, mark = positions((4, 5, 3), 1, 0)[0]
    w = window(board, mark, (4, 5, 3), "none")
    with pytest.raises(ValueError, match="depth must be an integer >= 1"):
        mtdf(w, 0)
    with pytest.raises(ValueError, match="delta > 0"):
        aspiration(w, 2, 0, 0)
