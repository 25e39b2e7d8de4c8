"""The analysis behind ``/api/analyze`` and ``/api/line`` of ``connectx serve``: every
column's score of a position, and one column's principal variation.

Plain functions of ``(app, request)`` like the rest of :mod:`scripts.server.app`, which
routes to them: ``app`` lends a search slot (``app.slot()``), a pooled solver
(``app.solver(cfg)``), a pooled alphabeta agent (``app.evaluators``), the time
limit (``app.analysis_time``) and the line's share of it (``app.line_time``); bad input
raises :class:`~scripts.server.game.BadRequest`.

The scores come first: :func:`analyze` extends the best column's line only until
``app.line_time`` seconds after the request came in (0.1 s by default), and answers with
the line as far as it got (``complete`` False); the page then asks :func:`line` for the
whole of it. Up to 11 stones on 7x6 (with the database) the scores take milliseconds and
the line up to 0.38 s from an empty table (each of its plies past the database's stones is a
search).

Scores of :func:`analyze`: with the exact solver (boards with
``columns * (rows + 1) <= 64``) the solver's convention of :mod:`agents.solver.solver`
(side to move; 0 a draw; a faster win scores higher); elsewhere alphabeta's value
(:mod:`agents.search`: ``WIN - stones`` for a proven result, else the heuristic at
the horizon). Both are turned into ``outcome`` ("win", "draw", "loss", or "eval" for
an unproven heuristic value) and ``in`` (the number of moves of the winner, counting
the column played, for a win or a loss).
"""
import time

import agents
from agents.board.bitboard import fits_bitboard
from agents.board.grid import center_order, column_heights
from agents.board.rules import drop_piece, parse_board, winner
from agents.solver.position import Position
from agents.search.scores import PROVEN, WIN
from scripts.server.game import BadRequest, game_state, outcome, parse_game, solver_outcome


def _solver_scores(app, cfg, board, mark, moves, deadline, line_deadline):
    """Exact scores by column until ``deadline``: (scores, complete, line).

    ``Solver.analyze`` with ``partial``: the columns solved before the deadline (centre
    first; with the solver's threads, split between them) are shown even when others
    are not. With every score known, ``line`` is the best column's principal variation
    (see :func:`_line`) as far as ``line_deadline`` lets it go (at least the column),
    else None. The package's
    opening scores (``app.openings``) give the columns of the first plies of 7x6 without
    a search."""
    n = cfg.rows * cfg.columns
    p = Position.from_grid(board, *cfg, mark)
    scores = [None] * cfg.columns
    with app.solver(cfg) as solver:
        found = app.openings.analyze(p) if app.openings else None
        if found is None:
            found = solver.analyze(p, deadline=deadline, partial=True)
        for c in range(cfg.columns):
            if p.can_play(c) and found[c] is not None:
                scores[c] = solver_outcome(found[c], moves, n)
        if any(p.can_play(c) and scores[c] is None for c in range(cfg.columns)):
            return scores, False, None
        best = max((c for c in center_order(cfg.columns) if scores[c] is not None),
                   key=lambda c: scores[c]["score"])  # max keeps the first, centre-most
        line = _line(solver, p, int(best), scores[best]["score"], line_deadline)
    return scores, True, line


def _column_score(solver, p, column, deadline):
    """The exact score of playing ``column`` (legal) in ``p``; None past ``deadline``."""
    if p.is_winning_move(column):
        return (p.rows * p.columns + 1 - p.moves) // 2
    child = p.copy()
    child.play(column)
    r = solver.solve(child, deadline=deadline)
    return None if r is None else -r


def _line(solver, p, column, score, deadline):
    """``{"column", "moves", "complete"}``: ``column`` (whose score is ``score``) then the
    principal variation after it, 0-based columns to the end of the game, or as far as
    ``deadline`` allows (``complete`` False; the column alone when it has passed)."""
    moves, complete = [column], True
    if not p.is_winning_move(column):
        child = p.copy()
        child.play(column)
        if child.moves < p.rows * p.columns:
            if time.perf_counter() >= deadline:
                complete = False  # no time left: the column alone
            else:
                rest, complete = solver.principal_variation(child, -score, deadline)
                moves += rest
    return {"column": column, "moves": moves, "complete": complete}


def line(app, request):
    """The principal variation of one column, within ``time_limit`` seconds:
    ``{"column", "score", "outcome", "in", "moves", "complete", "time", "state"}``
    (``moves``: 0-based columns from the position, ``column`` first). Exact solver only
    (boards with ``columns * (rows + 1) <= 64``)."""
    cfg, moves = parse_game(request)
    limit = _time_limit(app, request)
    state = game_state(cfg, moves)
    if state["over"]:
        raise BadRequest("the game is over: no line to show")
    if not fits_bitboard(cfg.rows, cfg.columns):
        raise BadRequest(f"lines come from the exact solver, which takes boards with "
                         f"columns * (rows + 1) <= 64; this one is {cfg.columns}x{cfg.rows}")
    column = request.get("column")
    if type(column) is not int or column not in state["legal"]:
        raise BadRequest(f"column must be one of the legal columns {state['legal']} (0-based), "
                         f"got {column!r}")
    n, k = cfg.rows * cfg.columns, len(moves)
    p = Position.from_grid(state["board"], *cfg, state["to_move"])
    with app.slot(), app.solver(cfg) as solver:
        start = time.perf_counter()
        deadline = start + limit
        score = _column_score(solver, p, column, deadline)
        if score is None:
            raise BadRequest(f"column {column + 1} was not solved within {limit:g} s")
        out = {**solver_outcome(score, k, n), **_line(solver, p, column, score, deadline)}
        out["time"] = time.perf_counter() - start
    out["state"] = state
    return out


def _alphabeta_scores(app, cfg, board, mark, moves, deadline):
    """alphabeta's value of each column (a search of the position after it, the
    remaining time shared among the columns left): (scores, complete), complete when
    every column's value is proven (a forced win, loss or draw)."""
    grid = parse_board(board, cfg)
    heights = column_heights(grid, cfg.rows, cfg.columns)
    columns = [c for c in center_order(cfg.columns) if heights[c] < cfg.rows]
    scores = [None] * cfg.columns
    complete = True
    with app.evaluators.get("alphabeta", lambda: agents.make("alphabeta")) as ab:
        for i, c in enumerate(columns):
            child = parse_board(drop_piece(board, c, mark, cfg), cfg, allow_terminal=True)
            child_board = [int(v) for v in child]
            if winner(child_board, cfg):
                scores[c] = outcome(1, moves + 1, moves)
                scores[c]["score"] = WIN - (moves + 1)
                continue
            if moves + 1 == cfg.rows * cfg.columns:
                scores[c] = outcome(0, moves + 1, moves)
                continue
            share = max(0.0, deadline - time.perf_counter()) / (len(columns) - i)
            h = column_heights(child, cfg.rows, cfg.columns)
            _, value, depth, _ = ab.search(child, h, 3 - mark, cfg, time.perf_counter() + share)
            value = -value
            if abs(value) >= PROVEN:
                scores[c] = outcome(value, WIN - abs(value), moves)
            elif depth >= cfg.rows * cfg.columns - moves - 1:
                scores[c] = outcome(0, 0, moves)  # searched to the full board: no win
                scores[c]["score"] = value
            else:
                scores[c] = {"score": value, "outcome": "eval", "in": None}
                complete = False
            scores[c]["depth"] = depth + 1
            scores[c]["pv"] = [int(c)] + list(ab.pv)  # the line behind the score, 0-based
    return scores, complete


def analyze(app, request):
    """Every column's score in the request's game, within ``time_limit`` seconds
    (default and maximum ``app.analysis_time``):

    ``{"method": "solver" | "alphabeta", "scores": [per column: None (full or not
    reached) or {"score", "outcome", "in"[, "depth", "pv"]}], "complete", "line",
    "time", "state"}`` (``line``: the best column's principal variation, see
    :func:`_line`, when the solver scored every column; else None; it is extended until
    ``app.line_time`` seconds after the start at most, its ``complete`` False when cut
    there, and :func:`line` gives the whole of it; alphabeta's ``pv``: each column's
    principal variation from the column, 0-based columns).
    ``complete`` is False when the time limit cut the analysis short (solver) or a
    value is a heuristic estimate (alphabeta)."""
    cfg, moves = parse_game(request)
    limit = _time_limit(app, request)
    state = game_state(cfg, moves)
    if state["over"]:
        raise BadRequest("the game is over: nothing to analyse")
    mark, n = state["to_move"], len(moves)
    use_solver = fits_bitboard(cfg.rows, cfg.columns)
    with app.slot():
        start = time.perf_counter()
        deadline = start + float(limit)
        line = None
        if use_solver:
            line_deadline = min(deadline, start + app.line_time)
            scores, complete, line = _solver_scores(app, cfg, state["board"], mark, n, deadline,
                                                    line_deadline)
        else:
            scores, complete = _alphabeta_scores(app, cfg, state["board"], mark, n, deadline)
        elapsed = time.perf_counter() - start
    return {"method": "solver" if use_solver else "alphabeta", "scores": scores,
            "complete": complete, "line": line, "time": elapsed, "time_limit": float(limit),
            "state": state}


def _time_limit(app, request):
    """The request's ``time_limit`` (default and maximum ``app.analysis_time``)."""
    limit = request.get("time_limit", app.analysis_time)
    if isinstance(limit, bool) or not isinstance(limit, (int, float)) \
            or not 0 < limit <= app.analysis_time:
        raise BadRequest(f"time_limit must be a number of seconds in (0, {app.analysis_time:g}], "
                         f"got {limit!r}")
    return float(limit)
