"""``Boards``: the validated Python side of the batched core (:mod:`agents.envs.core`):
``N`` boards of one configuration against one opponent, their seeds, reset and step.
The Gymnasium environments (:mod:`agents.envs.single`, :mod:`agents.envs.vector`) are thin over it."""
import numpy as np

from agents.board.bitboard import fits_bitboard
from agents.board.rules import parse_config
from agents.envs.core import EITHER, FIRST, RANDOM, SECOND, SELF_PLAY, step_boards
from agents.envs.opponents import Opponent
from agents.search.rollout import seed_state

SEATS = {"first": FIRST, "second": SECOND, "random": EITHER}
MASK64 = (1 << 64) - 1


def board_config(rows, columns, inarow):
    """The validated ``Config`` of an environment: the package's rules' check of each
    field (``ValueError`` naming it), and a game that can be played: ``inarow`` >= 2
    (one stone in a row would end the game at the first move) on at least two cells."""
    cfg = parse_config({"rows": rows, "columns": columns, "inarow": inarow})
    if cfg.inarow < 2:
        raise ValueError(f"inarow must be >= 2 for an environment, got {cfg.inarow} "
                         "(the first stone would win)")
    if cfg.rows * cfg.columns < 2:
        raise ValueError(f"a {cfg.rows}x{cfg.columns} board has one cell: no game to play")
    return cfg


def check_count(value, name="num_envs"):
    """A positive int (not a bool), else ``ValueError``/``TypeError`` naming ``name``."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} must be an integer >= 1, got {value!r}")
    if value < 1:
        raise ValueError(f"{name} must be an integer >= 1, got {value!r}")
    return int(value)


class Boards:
    """``n`` boards of ``rows`` x ``columns``, ``inarow`` to win, the learner in ``seat``
    ("first", "second" or "random": drawn at each reset) against ``opponent``
    (:mod:`agents.envs.opponents`; None: self-play, every board shows the side to move).

    After :meth:`reset` and :meth:`step` the arrays ``obs`` (n, rows, columns, 2),
    ``mask`` (n, columns), ``rewards`` (n,) float32 and ``terminated`` (n,) bool hold the
    result (reused: copy what you keep). Rules, rewards, autoreset: :mod:`agents.envs.core`."""

    def __init__(self, n, rows=6, columns=7, inarow=4, opponent="random", seat="first"):
        self.n = check_count(n)
        self.cfg = board_config(rows, columns, inarow)
        if seat not in SEATS:
            raise ValueError(f"seat must be one of {', '.join(SEATS)}, got {seat!r}")
        self.seat = seat
        self._seat = SEATS[seat]
        self.opponent = Opponent(opponent, self.cfg)
        rows, columns, inarow = self.cfg
        n = self.n
        self.grid = np.zeros((n, rows * columns), dtype=np.int8)
        self.heights = np.zeros((n, columns), dtype=np.int64)
        self.stones = np.zeros((n, 3), dtype=np.uint64)
        self.bits = fits_bitboard(rows, columns)
        self.me = np.ones(n, dtype=np.int8)
        self.rngs = np.zeros(n, dtype=np.uint64)
        self.done = np.zeros(n, dtype=np.int8)
        self.pending = np.zeros(n, dtype=np.int8)
        self.replies = np.zeros(n, dtype=np.int64)
        self.obs = np.zeros((n, rows, columns, 2), dtype=np.int8)
        self.mask = np.zeros((n, columns), dtype=np.int8)
        self.rewards = np.zeros(n, dtype=np.float32)
        self._terminated = np.zeros(n, dtype=np.int8)
        self._noop = np.zeros(n, dtype=np.int64)
        self.seed(None)
        # step_boards' arguments before and after the actions (one tuple each: a step
        # is a few microseconds, attribute reads count)
        self._state = (self.grid, self.heights, self.stones, self.bits, self.me, self.rngs,
                       self.done, self.pending)
        self._rest = (rows, columns, inarow, self._seat, self.opponent.kind, self.obs,
                      self.mask, self.rewards, self._terminated)

    @property
    def terminated(self):
        return self._terminated.view(np.bool_)

    @property
    def self_play(self):
        return self.opponent.kind == SELF_PLAY

    def seed(self, seed):
        """Board ``i`` draws from ``seed_state(seed + i)``; None: a seed from the OS."""
        if seed is None:
            seed = int(np.random.SeedSequence().generate_state(1, np.uint64)[0])
        elif isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
            raise TypeError(f"seed must be an integer or None, got {seed!r}")
        for i in range(self.n):
            self.rngs[i] = seed_state((int(seed) + i) & MASK64)[0]

    def reset(self):
        """Every board to a new episode (the opponent opens where the learner is second)."""
        self.play(self._noop, True)

    def step(self, actions):
        """One move on every board: ``actions`` (n,) columns (ignored where the board is
        being reset: next-step autoreset). ``TypeError`` for non-integer actions,
        ``ValueError`` for a wrong shape or a column out of range, naming the board."""
        a = actions if isinstance(actions, np.ndarray) else np.asarray(actions)
        if a.dtype.kind not in "iu":
            raise TypeError(f"actions must be integer columns, got dtype {a.dtype}")
        if a.shape != (self.n,):
            raise ValueError(f"actions must have shape ({self.n},), got {a.shape}")
        self.play(a if a.dtype == np.int64 else a.astype(np.int64), False)

    def play(self, actions, reset_all=False):
        """One step of every board with ``actions`` as they are: int64 (n,), unchecked but for
        the range (the kernel's; :meth:`step` checks the rest); or a reset of every board."""
        bad = step_boards(*self._state, actions, *self._rest, reset_all)
        if bad >= 0:
            columns = self.cfg.columns
            raise ValueError(f"action {actions[bad]} of board {bad} is out of range "
                             f"0..{columns - 1}")
        if self.opponent.kind > RANDOM:
            self.opponent.finish(self)

    def to_move(self, b):
        """The mark whose turn it is on board ``b`` (the learner's between steps)."""
        return int(self.me[b])
