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


def random_position(rows, columns, inarow, stones, rng, wins=False, as_moves=False):
    """The package's one maker of seeded random positions: ``stones`` random legal moves
    from the empty board, drawn with ``rng`` (a :class:`random.Random`), marks 1 and 2 in
    turn; None when the walk fails.

    ``wins=False``: each move is the first of the shuffled legal columns that completes
    no line; None if every legal column would complete one (or the board is full).
    ``wins=True``: each move is ``rng.choice`` of all the legal columns (ascending);
    None as soon as one completes a line (a game that ended early).

    Returns the board (a flat Kaggle list), or with ``as_moves`` the 0-based columns
    played (:func:`board_from_moves` turns them into the board)."""
    board, moves = [0] * (rows * columns), []
    for i in range(stones):
        mark, legal = 1 + i % 2, ref_legal_moves(board, rows, columns)
        if wins:
            if not legal:
                return None
            col = rng.choice(legal)
            board = ref_drop(board, col, mark, rows, columns)
            if ref_winner(board, rows, columns, inarow):
                return None
        else:
            rng.shuffle(legal)
            for col in legal:
                nxt = ref_drop(board, col, mark, rows, columns)
                if ref_winner(nxt, rows, columns, inarow) == 0:
                    board = nxt
                    break
            else:
                return None
        moves.append(col)
    return moves if as_moves else board


def board_from_moves(moves, rows=6, columns=7):
    """The flat Kaggle board after ``moves`` from the empty board, the first by mark 1:
    a move string of 1-based column digits (``"4453"``, the notation of
    ``scripts/data/positions``) or a sequence of 0-based columns. Checks only that each
    column has room (``ValueError``); :meth:`agents.solver.position.Position.from_moves`
    is the checked parser of move strings."""
    if isinstance(moves, str):
        moves = [int(ch) - 1 for ch in moves]
    board = [0] * (rows * columns)
    for i, col in enumerate(moves):
        board = ref_drop(board, col, 1 + i % 2, rows, columns)
    return board
