"""The numba rules kernels against the pure-Python reference, plus perft."""
import random

import numpy as np
import pytest

from agents.board import rules
from agents.board.bitboard import bb_can_play, bb_from_grid, bb_has_line, bb_play, fits_bitboard
from agents.board.grid import column_heights, window_table, wins_by_playing
from agents.board.jit import njit
from agents.board.rules_reference import (random_position, ref_drop, ref_legal_moves, ref_lines,
                                    ref_winner)

SHAPES = [(6, 7, 4), (4, 5, 3), (5, 4, 3), (3, 3, 3), (8, 9, 5), (10, 10, 4), (12, 12, 5),
          (1, 5, 2), (5, 1, 3), (4, 4, 6), (2, 2, 1), (9, 7, 4)]


def cfg_of(shape):
    return {"rows": shape[0], "columns": shape[1], "inarow": shape[2]}


def random_boards(shape, n, seed):
    rows, columns, inarow = shape
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        stones = rng.randrange(0, rows * columns)
        b = random_position(rows, columns, inarow, stones, rng)
        if b is not None:
            out.append(b)
    return out


@pytest.mark.parametrize("shape", SHAPES)
def test_kernels_match_reference_on_random_positions(shape):
    rows, columns, inarow = shape
    cfg = cfg_of(shape)
    n = 25 if rows * columns <= 42 else 6  # the pure-Python reference is slow on big boards
    for board in random_boards(shape, n, seed=sum(shape)):
        assert rules.legal_moves(board, cfg) == ref_legal_moves(board, rows, columns)
        grid = np.array(board, dtype=np.int8)
        assert list(column_heights(grid, rows, columns)) == [
            sum(1 for r in range(rows) if board[c + r * columns]) for c in range(columns)]
        for c in ref_legal_moves(board, rows, columns):
            for mark in (1, 2):
                expected = ref_drop(board, c, mark, rows, columns)
                assert rules.drop_piece(board, c, mark, cfg) == expected
                w = ref_winner(expected, rows, columns, inarow)
                assert rules.winner(expected, cfg) == w
                assert rules.is_win(expected, mark, cfg) == (w == mark or
                                                            ref_winner_mark(expected, shape, mark))
                heights = column_heights(grid, rows, columns)
                assert wins_by_playing(grid, heights, rows, columns, inarow, c, mark) == \
                    ref_winner_mark(expected, shape, mark)
                # array path and bitboard path agree
                arr = bool(rules._has_line_array(np.array(expected, dtype=np.int8), rows, columns,
                                                 inarow, mark))
                assert arr == ref_winner_mark(expected, shape, mark)
                if fits_bitboard(rows, columns):
                    stones, _ = bb_from_grid(np.array(expected, dtype=np.int8), rows,
                                                    columns, mark)
                    assert bool(bb_has_line(stones, rows + 1, inarow)) == arr


def ref_winner_mark(board, shape, mark):
    return any(all(board[i] == mark for i in line) for line in ref_lines(*shape))


@pytest.mark.parametrize("shape", SHAPES)
def test_window_table_matches_brute_force_lines(shape):
    table = window_table(*shape)
    assert sorted(map(sorted, table.tolist())) == sorted(map(sorted, ref_lines(*shape)))


def test_bitboard_play_matches_array_drop():
    rows, columns, inarow = 6, 7, 4
    rng = random.Random(7)
    for board in random_boards((rows, columns, inarow), 30, seed=3):
        grid = np.array(board, dtype=np.int8)
        for c in ref_legal_moves(board, rows, columns):
            mark = 1 + sum(1 for v in board if v) % 2
            cur, mask = bb_from_grid(grid, rows, columns, mark)
            assert bb_can_play(mask, c, rows + 1, rows)
            nxt_cur, nxt_mask = bb_play(cur, mask, c, rows + 1)
            after = np.array(ref_drop(board, c, mark, rows, columns), dtype=np.int8)
            opp, all_ = bb_from_grid(after, rows, columns, 3 - mark)
            assert (nxt_cur, nxt_mask) == (opp, all_)
        full = [c for c in range(columns) if board[c] != 0]
        for c in full:
            _, mask = bb_from_grid(grid, rows, columns, 1)
            assert not bb_can_play(mask, c, rows + 1, rows)
        _ = rng


@njit
def _perft_level(cur, mask, rows, columns, inarow):
    """Children of every (cur, mask) position; those with a line are counted but not expanded."""
    H = rows + 1
    n = cur.shape[0]
    out_cur = np.empty(n * columns, dtype=np.uint64)
    out_mask = np.empty(n * columns, dtype=np.uint64)
    k = 0
    for i in range(n):
        for c in range(columns):
            if bb_can_play(mask[i], c, H, rows):
                nc, nm = bb_play(cur[i], mask[i], c, H)
                out_cur[k] = nc
                out_mask[k] = nm
                k += 1
    return out_cur[:k], out_mask[:k]


@njit
def _won(cur, mask, rows, inarow):
    """Has the player who just moved (stones = mask ^ cur) a line?"""
    out = np.zeros(cur.shape[0], dtype=np.bool_)
    for i in range(cur.shape[0]):
        out[i] = bb_has_line(cur[i] ^ mask[i], rows + 1, inarow)
    return out


def test_perft_7x6():
    """Distinct 7x6 positions after n plies (OEIS A212693); a won position ends its line."""
    expected = [1, 7, 49, 238, 1120, 4263, 16422, 54859, 184275]
    cur = np.zeros(1, dtype=np.uint64)
    mask = np.zeros(1, dtype=np.uint64)
    counts = [1]
    for _ in range(8):
        won = _won(cur, mask, 6, 4)
        cur, mask = _perft_level(cur[~won], mask[~won], 6, 7, 4)
        # (cur, mask) identifies a position; cur + mask is Pons' unique key
        keys = np.unique(np.stack([cur, mask], axis=1), axis=0)
        cur, mask = keys[:, 0].copy(), keys[:, 1].copy()
        counts.append(len(cur))
    assert counts == expected


def ref_perft(rows, columns, inarow, plies):
    level = {tuple([0] * (rows * columns))}
    counts = [1]
    for n in range(plies):
        nxt = set()
        for b in level:
            if ref_winner(list(b), rows, columns, inarow):
                continue
            for c in ref_legal_moves(b, rows, columns):
                nxt.add(tuple(ref_drop(list(b), c, 1 + n % 2, rows, columns)))
        level = nxt
        counts.append(len(level))
    return counts


@pytest.mark.parametrize("shape,plies", [((4, 4, 3), 7), ((3, 5, 3), 7)])
def test_perft_small_boards_match_reference(shape, plies):
    rows, columns, inarow = shape
    cur = np.zeros(1, dtype=np.uint64)
    mask = np.zeros(1, dtype=np.uint64)
    counts = [1]
    for _ in range(plies):
        won = _won(cur, mask, rows, inarow)
        cur, mask = _perft_level(cur[~won], mask[~won], rows, columns, inarow)
        keys = np.unique(np.stack([cur, mask], axis=1), axis=0)
        cur, mask = keys[:, 0].copy(), keys[:, 1].copy()
        counts.append(len(cur))
    assert counts == ref_perft(rows, columns, inarow, plies)


# --- validation ---------------------------------------------------------------

CFG = {"rows": 6, "columns": 7, "inarow": 4}


@pytest.mark.parametrize("board,message", [
    ([0] * 41, "42"),
    ([0] * 41 + [3], "value 3"),
    ([0] * 41 + [-1], "value -1"),
    ([1] + [0] * 41, "above an empty cell"),
    ([1, 2] * 21, "full"),
    ([0] * 21 + [1, 1, 1, 1, 0, 0, 0] + [0] * 7 + [2, 2, 2, 0, 0, 0, 0], "above an empty"),
    ("not a board", "42"),
    (None, "list"),
])
def test_malformed_boards_raise_clear_errors(board, message):
    with pytest.raises(ValueError, match=message):
        rules.parse_board(board, rules.parse_config(CFG))


def test_won_board_raises():
    board = [0] * 35 + [1, 1, 1, 1, 2, 2, 2]
    with pytest.raises(ValueError, match="already won by player 1"):
        rules.parse_board(board, rules.parse_config(CFG))


@pytest.mark.parametrize("mark", [0, 3, "1", None, True, 1.5])
def test_bad_mark_raises(mark):
    with pytest.raises(ValueError, match="mark must be 1 or 2"):
        rules.parse_mark(mark)


@pytest.mark.parametrize("config,field", [
    ({"rows": 0, "columns": 7, "inarow": 4}, "rows"),
    ({"rows": 6, "columns": -1, "inarow": 4}, "columns"),
    ({"rows": 6, "columns": 7, "inarow": "4"}, "inarow"),
    ({"rows": 6.5, "columns": 7, "inarow": 4}, "rows"),
])
def test_bad_config_raises(config, field):
    with pytest.raises(ValueError, match=f"config.{field}"):
        rules.parse_config(config)


def test_drop_piece_rejects_full_column_and_bad_column():
    board = [0] * 42
    for r in range(6):
        board[3 + r * 7] = 1 + r % 2
    with pytest.raises(ValueError, match="column 3 is full"):
        rules.drop_piece(board, 3, 1, CFG)
    with pytest.raises(ValueError, match="column must be"):
        rules.drop_piece(board, 7, 1, CFG)


def test_parse_position_one_pass_matches_the_checks_one_by_one():
    """``parse_position`` (one kernel pass) and ``parse_board`` + ``heights_of`` give the
    same grid and heights on valid boards, and the same ValueError on broken ones:
    values out of range, floating stones, full and won boards, wrong lengths and types."""
    rng = random.Random(11)
    seen = {"ok": 0, "error": 0}
    for rows, columns, inarow in [(6, 7, 4), (5, 4, 3), (8, 9, 5), (3, 3, 3)]:
        config = {"rows": rows, "columns": columns, "inarow": inarow}
        cfg = rules.parse_config(config)
        for k in range(60):
            board = random_position(rows, columns, inarow, rng.randrange(0, rows * columns), rng)
            if board is None:
                continue
            broken = list(board)
            kind = k % 6
            if kind == 1:
                broken[rng.randrange(len(broken))] = rng.choice([3, -1, 7])
            elif kind == 2:
                top = [i for i in range(columns) if broken[i + (rows - 1) * columns] == 0]
                if top:
                    broken[top[0]] = 1  # a stone on the top row of an empty column
            elif kind == 3:
                broken = broken[:-1]
            elif kind == 4:
                broken = [1 + (i // columns + i % columns) % 2 for i in range(rows * columns)]
            for compile_checks in (True, False):
                obs = {"board": broken, "mark": 1}
                try:
                    want_grid = rules.parse_board(broken, cfg)
                    want = (list(want_grid), list(rules.heights_of(want_grid, cfg)))
                except ValueError as e:
                    want = str(e)
                try:
                    grid, heights, mark, got_cfg = rules.parse_position(obs, config, compile_checks)
                    got = (list(grid), list(heights))
                    assert grid.dtype == np.int8 and mark == 1 and got_cfg == cfg
                except ValueError as e:
                    got = str(e)
                assert got == want, (broken, compile_checks)
                seen["error" if isinstance(want, str) else "ok"] += 1
    assert seen["ok"] > 150 and seen["error"] > 150
