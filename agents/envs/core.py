"""The batched core every environment of :mod:`agents.envs` runs on: ``N`` boards stepped
at once in numba. :func:`step_boards` plays the learner's moves on every board and, for
the random opponent, its replies in the same call; a searching opponent's kernel form
(:mod:`agents.envs.opponents`) replies on every board in one more call
(:func:`onestep_replies`, :func:`alphabeta_replies`), an opponent without one from
Python (:func:`play_replies`). The searches are kept out of :func:`step_boards` so that
an environment compiles only its own opponent's kernels (the whole in one kernel took
three times the alpha-beta agent's compile on this machine).

State, one row a board (the layouts are drawn once, in :mod:`agents.board`):

* ``grid`` int8 (N, rows * columns): Kaggle's flat board, row 0 at the top;
* ``heights`` int64 (N, columns): stones a column;
* ``me`` int8 (N,): the mark the observations are shown for: the learner's mark against
  an opponent, the side to move in self-play;
* ``rngs`` uint64 (N,): each board's xorshift64 state
  (:func:`agents.search.rollout.rand_below`): the seat drawn at a reset, a random
  opponent's moves and the opponents' tie-breaks. Board ``i`` of a batch seeded ``s``
  draws ``seed_state(s + i)``, so a single environment seeded ``s`` replays board 0;
* ``done`` int8 (N,): the board's episode ended at the last step. Gymnasium's
  *next-step* autoreset: the next :func:`step_boards` resets that board (its action is
  ignored, its reward 0) instead of playing;
* ``pending`` int8 (N,): the board waits for an opponent move from Python
  (an opponent without kernel form: :func:`play_replies`).

One step of board ``b`` (the learner's column ``a``, already checked in ``0..columns-1``):
a full column is an illegal move and ends the episode with reward -1 (PettingZoo's
rule); otherwise the stone is dropped, a line gives +1 and a full board 0, both ending
the episode; otherwise the opponent replies (a line: -1; a full board: 0). In self-play
(no opponent) the reward is the mover's and ``me`` passes to the other side.
Observations: ``obs`` int8 (N, rows, columns, 2), plane 0 the stones of ``me``, plane 1
the other mark's (PettingZoo's ``connect_four_v3`` layout), ``mask`` int8 (N, columns)
the columns with room.
"""
import numpy as np

from agents.board.grid import drop, is_win_at
from agents.board.jit import njit
from agents.search.alphabeta_bb import bb_root_search
from agents.search.minimax import minimax_scores_counts
from agents.search.rollout import rand_below
from agents.search.scores import INF, PROVEN
# duplicates: none; _safety_case is the onestep agent's safety net kernel, called as is
from agents.search.tactics import _safety_case, tactical_column

# opponent kinds of the kernels (``kind``): none (self-play), moves from Python, and the
# kernel forms of agents.envs.opponents
SELF_PLAY, RANDOM, EXTERNAL, ONESTEP, ALPHABETA = 0, 1, 2, 3, 4
# the learner's seat (``seat``): first (mark 1), second (mark 2), drawn at each reset
FIRST, SECOND, EITHER = 0, 1, 2


@njit
def _pick_legal(heights, rows, columns, rng):
    """A uniformly random column with room (from the xorshift state ``rng``)."""
    n = 0
    for c in range(columns):
        if heights[c] < rows:
            n += 1
    k = rand_below(rng, n)
    for c in range(columns):
        if heights[c] < rows:
            if k == 0:
                return c
            k -= 1
    return -1


@njit
def _onestep_move(grid, heights, rows, columns, inarow, mark, tactics, rng, windows,
                  cell_windows, stats):
    """The ``onestep`` agent's move (:class:`agents.players.baselines.OneStepAgent`,
    windows heuristic): the tutorial's one-ply scores, the best columns, its safety net
    when ``tactics``, a random one of them."""
    scores = minimax_scores_counts(grid, heights, rows, columns, inarow, windows, cell_windows,
                                   1, mark, stats)
    top = -INF
    for c in range(columns):
        if heights[c] < rows and scores[c] > top:
            top = scores[c]
    best = np.zeros(columns, dtype=np.bool_)
    for c in range(columns):
        best[c] = heights[c] < rows and scores[c] == top
    if tactics:
        keep = np.zeros(columns, dtype=np.bool_)
        case = _safety_case(grid, heights, rows, columns, inarow, mark, best, keep)
        if case == 1:
            for c in range(columns):
                best[c] = best[c] and keep[c]
        elif case == 2:
            for c in range(columns):
                best[c] = keep[c]
    n = 0
    for c in range(columns):
        if best[c]:
            n += 1
    k = rand_below(rng, n)
    for c in range(columns):
        if best[c]:
            if k == 0:
                return c
            k -= 1
    return -1


@njit
def alphabeta_move(grid, heights, rows, columns, inarow, mark, depth, heuristic, opts,
                   quiescence, geo, order, zobrist, tt, killers, moves, history, pv, pvlen,
                   stats, scores, windows):
    """The ``alphabeta`` agent's move at a fixed ``depth`` with no clock
    (:meth:`agents.players.lookahead.AlphaBetaAgent.choose`): the immediate win or
    forced block, else iterative deepening from an empty table to ``depth`` plies (or
    a proven score), each depth searching the previous depth's move first. The search
    memory is the agent's (:class:`agents.search.alphabeta.Tables` and
    :func:`agents.search.alphabeta_bb.packed_table`), ``windows`` None on bitboards."""
    t = tactical_column(grid, heights, rows, columns, inarow, mark)
    if t >= 0:
        return t
    tt[:] = 0
    killers[:] = -1
    history[:] = 0
    stats[:] = 0
    empties = rows * columns
    for c in range(columns):
        empties -= heights[c]
    best = -1
    for d in range(1, min(depth, empties) + 1):
        col = bb_root_search(grid, heights, rows, columns, inarow, geo, heuristic, order, d,
                             mark, zobrist, tt, killers, moves, 0.0, best, stats, scores,
                             windows, opts, history, pv, pvlen, -INF, INF, quiescence)
        if col < 0:
            break
        best = col
        if abs(scores[col]) >= PROVEN:
            break
    return best


@njit
def _play(b, grid, heights, rows, columns, inarow, col, mark):
    """Drop ``mark`` into ``col`` of board ``b``: 1 if it made a line, 2 if it filled the
    board, 0 otherwise."""
    idx = drop(grid[b], heights[b], rows, columns, col, mark)
    if is_win_at(grid[b], rows, columns, inarow, idx):
        return 1
    for c in range(columns):
        if heights[b, c] < rows:
            return 0
    return 2


@njit
def observe(b, grid, heights, me, rows, columns, obs, mask):
    """Write board ``b``'s planes (``me``'s stones, the other mark's) and legal mask."""
    m = me[b]
    for r in range(rows):
        for c in range(columns):
            v = grid[b, c + r * columns]
            obs[b, r, c, 0] = 1 if v == m else 0
            obs[b, r, c, 1] = 1 if v != 0 and v != m else 0
    for c in range(columns):
        mask[b, c] = 1 if heights[b, c] < rows else 0


@njit
def _finish(b, grid, heights, me, done, col, rows, columns, inarow, obs, mask, rewards,
            terminated):
    """Play the opponent's column ``col`` on board ``b`` (pending), then write the result
    and the observation: the second half of a step."""
    result = _play(b, grid, heights, rows, columns, inarow, col, 3 - me[b])
    if result == 1:
        rewards[b] = -1.0
        terminated[b] = 1
    elif result == 2:
        terminated[b] = 1
    done[b] = terminated[b]
    observe(b, grid, heights, me, rows, columns, obs, mask)


@njit
def step_boards(grid, heights, me, rngs, done, pending, actions, rows, columns, inarow, seat,
                kind, obs, mask, rewards, terminated, reset_all):
    """The learner's move on every board (module docstring) and, for ``kind`` RANDOM,
    the opponent's reply; with ``reset_all`` every board is reset instead (``actions``
    unused). Fills ``obs``, ``mask``, ``rewards`` and ``terminated``. For any other
    opponent (not SELF_PLAY) the boards that wait for its move are flagged in
    ``pending``, for a reply kernel of this module to finish."""
    for b in range(grid.shape[0]):
        rewards[b] = 0.0
        terminated[b] = 0
        pending[b] = 0
        if reset_all or done[b]:
            done[b] = 0
            grid[b, :] = 0
            heights[b, :] = 0
            if kind == SELF_PLAY or seat == FIRST:
                me[b] = 1
            elif seat == SECOND:
                me[b] = 2
            else:
                me[b] = 1 + rand_below(rngs[b:b + 1], 2)
            if me[b] == 2:  # the opponent opens (inarow >= 2: never a line)
                if kind != RANDOM:
                    pending[b] = 1
                    continue
                _play(b, grid, heights, rows, columns, inarow,
                      _pick_legal(heights[b], rows, columns, rngs[b:b + 1]), 1)
            observe(b, grid, heights, me, rows, columns, obs, mask)
            continue
        m = me[b]
        a = actions[b]
        if heights[b, a] >= rows:  # an illegal move: the episode is lost
            rewards[b] = -1.0
            terminated[b] = 1
        else:
            result = _play(b, grid, heights, rows, columns, inarow, a, m)
            if result == 1:
                rewards[b] = 1.0
                terminated[b] = 1
            elif result == 2:
                terminated[b] = 1
            elif kind == SELF_PLAY:
                me[b] = 3 - m
            elif kind == RANDOM:
                _finish(b, grid, heights, me, done, _pick_legal(heights[b], rows, columns,
                                                                rngs[b:b + 1]),
                        rows, columns, inarow, obs, mask, rewards, terminated)
                continue
            else:
                pending[b] = 1
                continue
        done[b] = terminated[b]
        observe(b, grid, heights, me, rows, columns, obs, mask)


@njit
def play_replies(grid, heights, me, done, pending, replies, rows, columns, inarow, obs, mask,
                 rewards, terminated):
    """Finish every ``pending`` board with the opponent's column ``replies[b]`` (from
    Python, checked legal by the caller)."""
    for b in range(grid.shape[0]):
        if pending[b]:
            pending[b] = 0
            _finish(b, grid, heights, me, done, replies[b], rows, columns, inarow, obs, mask,
                    rewards, terminated)


@njit
def onestep_replies(grid, heights, me, rngs, done, pending, rows, columns, inarow, tactics,
                    windows, cell_windows, stats, obs, mask, rewards, terminated):
    """Finish every ``pending`` board with the ``onestep`` opponent's move."""
    for b in range(grid.shape[0]):
        if pending[b]:
            pending[b] = 0
            col = _onestep_move(grid[b], heights[b], rows, columns, inarow, 3 - me[b], tactics,
                                rngs[b:b + 1], windows, cell_windows, stats)
            _finish(b, grid, heights, me, done, col, rows, columns, inarow, obs, mask, rewards,
                    terminated)


@njit
def alphabeta_replies(grid, heights, me, done, pending, rows, columns, inarow, depth, heuristic,
                      opts, quiescence, geo, order, zobrist, tt, killers, moves, history, pv,
                      pvlen, stats, scores, windows, obs, mask, rewards, terminated):
    """Finish every ``pending`` board with the fixed-depth ``alphabeta`` opponent's move
    (:func:`alphabeta_move`)."""
    for b in range(grid.shape[0]):
        if pending[b]:
            pending[b] = 0
            col = alphabeta_move(grid[b], heights[b], rows, columns, inarow, 3 - me[b], depth,
                                 heuristic, opts, quiescence, geo, order, zobrist, tt, killers,
                                 moves, history, pv, pvlen, stats, scores, windows)
            _finish(b, grid, heights, me, done, col, rows, columns, inarow, obs, mask, rewards,
                    terminated)
