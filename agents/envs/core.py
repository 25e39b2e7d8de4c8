"""The batched core every environment of :mod:`agents.envs` runs on: ``N`` boards stepped
at once in numba. :func:`step_boards` plays the learner's moves on every board and, for
the random opponent, its replies in the same call; an opponent with a kernel form
(:class:`agents.players.base.KernelForm`: the move kernel the agent itself plays, from
the search room) replies on every board in one more call, a loop of this module that
calls that kernel (:func:`onestep_replies`, :func:`rules_replies`,
:func:`alphabeta_replies`; no move is computed here), an opponent without one from
Python (:func:`play_replies`). The searches are kept out of :func:`step_boards` so that
an environment compiles only its own opponent's kernels (the whole in one kernel took
three times the alpha-beta agent's compile on this machine).

State, one row a board (the layouts are drawn once, in :mod:`agents.board`):

* ``grid`` int8 (N, rows * columns): Kaggle's flat board, row 0 at the top;
* ``heights`` int64 (N, columns): stones a column;
* ``stones`` uint64 (N, 3): each mark's bitboard (``stones[b, mark]``), kept and used
  for the line test when the board fits 64 bits (``bits``);
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
the columns with room. Both are kept up to date stone by stone (a board's are rewritten
whole only at a reset, and after each move in self-play, where the view turns): nothing
but these kernels may write into them.
"""
import numpy as np

from agents.board.bitboard import MAX_BITBOARD_BITS, bb_has_line
from agents.board.grid import drop, is_win_at
from agents.board.jit import njit
from agents.search.alphabeta_bb import alphabeta_move
from agents.search.minimax import onestep_move
from agents.search.rollout import rand_below
from agents.search.tactics import rules_move

# opponent kinds of step_boards (``kind``): none (self-play), a uniformly random legal
# column (played here), moves from Python, a move kernel (a reply loop below)
SELF_PLAY, RANDOM, EXTERNAL, KERNEL = 0, 1, 2, 3
# the learner's seat (``seat``): first (mark 1), second (mark 2), drawn at each reset
FIRST, SECOND, EITHER = 0, 1, 2


@njit
def _pick(flags, rng):
    """A uniformly random index ``i`` with ``flags[i]`` (from the xorshift state ``rng``;
    -1 if there is none): the onestep and rules opponents' draw among their best columns."""
    n = 0
    for i in range(flags.shape[0]):
        n += flags[i]
    k = rand_below(rng, n)
    for i in range(flags.shape[0]):
        if flags[i]:
            if k == 0:
                return i
            k -= 1
    return -1


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
def _play(b, grid, heights, stones, bits, rows, columns, inarow, col, mark, me, obs, mask):
    """Drop ``mark`` into ``col`` of board ``b`` and write the stone into its observation
    (``me``'s plane or the other's) and the mask: 1 if it made a line, 2 if it filled the
    board, 0 otherwise. With ``bits`` (the board fits 64 bits) the line test runs on the
    board's bitboards ``stones[b, mark]`` (ten times faster than on the grid)."""
    idx = drop(grid[b], heights[b], rows, columns, col, mark)
    obs[b, idx // columns, col, 0 if mark == me[b] else 1] = 1
    if bits:
        H = rows + 1
        s = stones[b, mark] | (np.uint64(1) << np.uint64(col * H + heights[b, col] - 1))
        stones[b, mark] = s
        won = bb_has_line(s, H, inarow)
    else:
        won = is_win_at(grid[b], rows, columns, inarow, idx)
    if idx < columns:  # the top row: the column is full
        mask[b, col] = 0
    if won:
        return 1
    if idx >= columns:  # not the top row: the board has room
        return 0
    for c in range(columns):
        if grid[b, c] == 0:
            return 0
    return 2


@njit
def play_one(grid, heights, stones, me, obs, mask, col, inarow):
    """One move on board 0 of the arrays (the AEC environment's single board; few
    arguments: a call from Python costs per argument): the side to move (mark 1 after an
    even number of stones) drops into ``col``, the observation kept for ``me[0]``
    (never turned). Returns 3 if ``col`` (in range) is full (nothing played), else
    :func:`_play`'s 1 (a line), 2 (a full board) or 0."""
    rows, columns = obs.shape[1], obs.shape[2]
    if heights[0, col] >= rows:
        return 3
    n = 0
    for c in range(columns):
        n += heights[0, c]
    return _play(0, grid, heights, stones, columns * (rows + 1) <= MAX_BITBOARD_BITS, rows, columns, inarow,
                 col, 1 + n % 2, me, obs, mask)


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
def _finish(b, grid, heights, stones, bits, me, done, col, rows, columns, inarow, obs, mask,
            rewards, terminated):
    """Play the opponent's column ``col`` on board ``b`` (pending) and write the result:
    the second half of a step."""
    result = _play(b, grid, heights, stones, bits, rows, columns, inarow, col, 3 - me[b], me, obs,
                   mask)
    if result == 1:
        rewards[b] = -1.0
        terminated[b] = 1
    elif result == 2:
        terminated[b] = 1
    done[b] = terminated[b]


@njit
def step_boards(grid, heights, stones, bits, me, rngs, done, pending, actions, rows, columns,
                inarow, seat, kind, obs, mask, rewards, terminated, reset_all):
    """The learner's move on every board (module docstring) and, for ``kind`` RANDOM,
    the opponent's reply; with ``reset_all`` every board is reset instead (``actions``
    unused). Fills ``obs``, ``mask``, ``rewards`` and ``terminated``. For any other
    opponent (not SELF_PLAY) the boards that wait for its move are flagged in
    ``pending``, for :func:`play_replies` or a reply loop of this module to finish.

    Returns -1, or the first board whose action is out of ``0..columns-1`` (then nothing
    has been played: the caller raises)."""
    if not reset_all:
        for b in range(grid.shape[0]):
            if actions[b] < 0 or actions[b] >= columns:
                return b
    for b in range(grid.shape[0]):
        rewards[b] = 0.0
        terminated[b] = 0
        pending[b] = 0
        if reset_all or done[b]:
            done[b] = 0
            grid[b, :] = 0
            heights[b, :] = 0
            stones[b, :] = 0
            obs[b] = 0
            mask[b, :] = 1
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
                _play(b, grid, heights, stones, bits, rows, columns, inarow,
                      _pick_legal(heights[b], rows, columns, rngs[b:b + 1]), 1, me, obs, mask)
            continue
        m = me[b]
        a = actions[b]
        if heights[b, a] >= rows:  # an illegal move: the episode is lost
            rewards[b] = -1.0
            terminated[b] = 1
        else:
            result = _play(b, grid, heights, stones, bits, rows, columns, inarow, a, m, me, obs,
                           mask)
            if result == 1:
                rewards[b] = 1.0
                terminated[b] = 1
            elif result == 2:
                terminated[b] = 1
            elif kind == SELF_PLAY:  # the other side to move: its view
                me[b] = 3 - m
                observe(b, grid, heights, me, rows, columns, obs, mask)
            elif kind == RANDOM:
                reply = _pick_legal(heights[b], rows, columns, rngs[b:b + 1])
                _finish(b, grid, heights, stones, bits, me, done, reply, rows, columns, inarow,
                        obs, mask, rewards, terminated)
                continue
            else:
                pending[b] = 1
                continue
        done[b] = terminated[b]
    return -1


@njit
def play_replies(grid, heights, stones, bits, me, done, pending, replies, rows, columns, inarow,
                 obs, mask, rewards, terminated):
    """Finish every ``pending`` board with the opponent's column ``replies[b]`` (from
    Python, checked legal by the caller)."""
    for b in range(grid.shape[0]):
        if pending[b]:
            pending[b] = 0
            _finish(b, grid, heights, stones, bits, me, done, replies[b], rows, columns, inarow,
                    obs, mask, rewards, terminated)


@njit
def _answer(b, col, best, grid, heights, stones, bits, me, rngs, done, rows, columns, inarow,
            obs, mask, rewards, terminated):
    """Finish board ``b`` with a move kernel's answer: its column ``col``, or (-1) one
    of the columns it marked in ``best`` drawn from the board's random numbers."""
    if col < 0:
        col = _pick(best, rngs[b:b + 1])
    _finish(b, grid, heights, stones, bits, me, done, col, rows, columns, inarow, obs, mask,
            rewards, terminated)


# The reply loops of the move kernels (agents.players.base.KernelForm), one a kernel so
# that an environment compiles only its opponent's; each the same loop, the arguments
# after ``inarow`` the kernel form's ``args``.
@njit
def onestep_replies(grid, heights, stones, bits, me, rngs, done, pending, rows, columns, inarow,
                    tactics, windows, cell_windows, counters, obs, mask, rewards, terminated):
    """Finish every ``pending`` board with :func:`agents.search.minimax.onestep_move`."""
    best = np.zeros(columns, dtype=np.bool_)
    for b in range(grid.shape[0]):
        if pending[b]:
            pending[b] = 0
            col = onestep_move(grid[b], heights[b], rows, columns, inarow, 3 - me[b], best,
                               tactics, windows, cell_windows, counters)
            _answer(b, col, best, grid, heights, stones, bits, me, rngs, done, rows, columns,
                    inarow, obs, mask, rewards, terminated)


@njit
def rules_replies(grid, heights, stones, bits, me, rngs, done, pending, rows, columns, inarow,
                  lookahead, obs, mask, rewards, terminated):
    """Finish every ``pending`` board with :func:`agents.search.tactics.rules_move`."""
    best = np.zeros(columns, dtype=np.bool_)
    for b in range(grid.shape[0]):
        if pending[b]:
            pending[b] = 0
            col = rules_move(grid[b], heights[b], rows, columns, inarow, 3 - me[b], best,
                             lookahead)
            _answer(b, col, best, grid, heights, stones, bits, me, rngs, done, rows, columns,
                    inarow, obs, mask, rewards, terminated)


@njit
def alphabeta_replies(grid, heights, stones, bits, me, rngs, done, pending, rows, columns,
                      inarow, depth, deepening, heuristic, opts, quiescence, geo, order, zobrist,
                      tt, killers, moves, history, pv, pvlen, stats, scores, windows, deadline,
                      next_cost, info, line, obs, mask, rewards, terminated):
    """Finish every ``pending`` board with :func:`agents.search.alphabeta_bb.alphabeta_move`."""
    best = np.zeros(columns, dtype=np.bool_)
    for b in range(grid.shape[0]):
        if pending[b]:
            pending[b] = 0
            col = alphabeta_move(grid[b], heights[b], rows, columns, inarow, 3 - me[b], best,
                                 depth, deepening, heuristic, opts, quiescence, geo, order,
                                 zobrist, tt, killers, moves, history, pv, pvlen, stats, scores,
                                 windows, deadline, next_cost, info, line)
            _answer(b, col, best, grid, heights, stones, bits, me, rngs, done, rows, columns,
                    inarow, obs, mask, rewards, terminated)
