"""Slow, obviously-correct pure-Python rules on plain lists (Kaggle layout: row 0 at
the top, ``index = column + row * columns``), for checking the kernels of
:mod:`agents.board.rules` on seeded random positions. Nothing fast uses them; the
references of the searches built on them are in :mod:`agents.search.reference`."""
import functools


@functools.lru_cache(maxsize=64)
def ref_lines(rows, columns, inarow):
    """Every line of ``inarow`` cells, by brute force over start cells and directions
    (a tuple of tuples, computed once per shape)."""
    lines = []
    for r in range(rows):
        for c in range(columns):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (-1, 1)):
                cells = [(r + i * dr, c + i * dc) for i in range(inarow)]
                if all(0 <= rr < rows and 0 <= cc < columns for rr, cc in cells):
                    lines.append(tuple(cc + rr * columns for rr, cc in cells))
    return tuple(lines)


def ref_legal_moves(board, rows, columns):
    return [c for c in range(columns) if board[c] == 0]


def ref_drop(board, column, mark, rows, columns):
    """New list with ``mark`` in the lowest empty cell of ``column``."""
    out = list(board)
    for r in range(rows - 1, -1, -1):
        if out[column + r * columns] == 0:
            out[column + r * columns] = mark
            return out
    raise ValueError(f"column {column} is full")


def ref_winner(board, rows, columns, inarow):
    """1 or 2 if that mark fills a line (1 first if both), else 0."""
    for mark in (1, 2):
        for line in ref_lines(rows, columns, inarow):
            if all(board[i] == mark for i in line):
                return mark
    return 0


def random_position(rows, columns, inarow, stones, rng):
    """A board (list) reached by ``stones`` random legal moves from the empty board
    without anybody completing a line, or None if the random walk got stuck."""
    board = [0] * (rows * columns)
    mark = 1
    for _ in range(stones):
        moves = ref_legal_moves(board, rows, columns)
        rng.shuffle(moves)
        for c in moves:
            nxt = ref_drop(board, c, mark, rows, columns)
            if ref_winner(nxt, rows, columns, inarow) == 0:
                board = nxt
                break
        else:
            return None
        mark = 3 - mark
    return board
