"""Compile an agent's numba kernels in a background thread, without stealing anyone's clock.

numba compiles a kernel on its first call. The ``perfect`` agent's kernels take
5-7 s of CPU to compile; paid in the first move of a Kaggle game, that is seconds
of the 60 s overage gone before the game starts. A :class:`Warmup` compiles them
in a daemon thread instead, one *unit* (a small call that compiles one or a few
kernels) at a time, while the agent answers its first moves from the opening
book, which needs no kernel.

When a unit may start (checked before each one; a unit in flight is never
interrupted):

* **inside one of our own moves** (:meth:`Warmup.lend`): the move's answer is
  known (a book move, or :func:`fallback_move`'s) and the rest of its plain budget is
  lent to the compiler: a unit starts only if its expected cost fits before the move's
  deadline, or if it is *big* (its expected cost is more than the whole window: no
  move could ever fit it) and nothing ran yet in this window: a big unit then runs
  on past the move's end (on Kaggle, in the time the opponent thinks);
* **while the process is otherwise idle**: the thread measures the CPU time the
  process's other threads use over a short window and starts a unit only if it
  is under ``IDLE_SHARE`` of that window. On Kaggle each agent runs in its own
  process, idle while the opponent thinks, so the kernels compile during the
  opponent's moves. In a local ``env.run`` both agents share one process: while
  the opponent searches, the process is busy and the thread waits, so the
  opponent's clock is never charged for our compiling (apart from the tail of a
  unit started in an idle gap, at most one unit's cost).

:meth:`Warmup.finish` is what a move that needs the kernels calls: it compiles
what is left (or the units up to the one it needs) in the calling move's own time;
:meth:`Warmup.ready` tells whether a unit has run.

Every agent takes the option ``warmup`` (:data:`agents.players.base.WARMUPS`); with
``"background"`` (what a Kaggle file uses) the agent's moves are answered by
:func:`fallback_move` (plain Python: one ply of tactics and a window count, no kernel)
until its units have run (:class:`agents.players.base.Agent`); :func:`shared` keeps one
:class:`Warmup` a process for each set of kernels, as the kernels themselves are shared.

Units are ``(label, fn, cost)``: ``fn()`` compiles, ``cost`` is its expected CPU
seconds on a 2-core x86-64 development machine; the observed/expected ratio of
the units done so far scales the estimates (a slower host waits for bigger
windows). An exception in a unit is recorded (``errors``) and the unit counts
as done: the kernel then compiles on its first real call, as without a warmup.
"""
import threading
import time

# A unit may start in an idle gap when the other threads used less than this share
# of one core over the last IDLE_PROBE seconds.
IDLE_SHARE = 0.2
IDLE_PROBE = 0.02
# A unit starts inside our own move only if MARGIN x its scaled cost fits.
MARGIN = 1.1


def _others_cpu():
    """CPU seconds used by the process's threads other than the calling one."""
    return time.process_time() - time.thread_time()


class Warmup:
    """Compiles ``units`` in a background thread; see the module docstring."""

    def __init__(self, units):
        self.units = list(units)
        self.log = []          # (label, seconds) of each finished unit
        self.errors = []       # (label, repr(exception))
        self._next = 0
        self._window_end = 0.0  # perf_counter time until which a move of ours lends time
        self._window_length = 0.0  # that window's length when it opened
        self._window_units = 0     # units started in that window
        self._ratio = 1.0       # observed / expected cost of the units done so far
        self._fits = True       # False while finish() waits: start units whatever their cost
        self._cond = threading.Condition()
        self._thread = None

    # -- the main thread's side ----------------------------------------------------------

    def start(self):
        """Start the thread (idempotent). Returns self."""
        with self._cond:
            if self._thread is None and not self.done():
                self._thread = threading.Thread(target=self._run, name="connectx-warmup",
                                                 daemon=True)
                self._thread.start()
        return self

    def started(self):
        """True once :meth:`start` has run the thread (``warmup="background"``)."""
        return self._thread is not None

    def done(self):
        """True once every unit has run."""
        return self._next >= len(self.units)

    def ready(self, label):
        """True once the unit ``label`` (and every unit before it) has run."""
        return self._next > self._index(label)

    def _index(self, label):
        for i, unit in enumerate(self.units):
            if unit[0] == label:
                return i
        raise ValueError(f"no warmup unit {label!r}")

    def expected_left(self, upto=None):
        """Expected CPU seconds until the unit ``upto`` (default: the last) has run, at the
        observed/expected ratio of the units done so far (a unit in flight counts whole)."""
        last = len(self.units) - 1 if upto is None else self._index(upto)
        return sum(self._expected(i) for i in range(self._next, last + 1))

    def lend(self, deadline):
        """Called inside one of our moves whose answer is already known: let units run
        until ``deadline`` (``time.perf_counter`` seconds) or until all are done."""
        self._wait(deadline)

    def finish(self, deadline=float("inf"), upto=None):
        """Compile everything left (or up to and including the unit ``upto``), in the
        calling move's time; True when done (False only if ``deadline`` came first)."""
        last = len(self.units) - 1 if upto is None else self._index(upto)
        if self._thread is None:  # never started: compile here, in this thread
            while self._next <= last and time.perf_counter() < deadline:
                self._run_unit()
            return self._next > last
        return self._wait(deadline, fits=False, last=last)

    def _wait(self, deadline, fits=True, last=None):
        """Lend the thread the time until ``deadline``; return when unit ``last``
        (default: the last one) has run or at ``deadline``. ``fits=False``: any unit
        may start, whatever its cost."""
        last = len(self.units) - 1 if last is None else last
        with self._cond:
            if self._next > last:
                return True
            self._window_end = deadline
            self._window_length = deadline - time.perf_counter()
            self._window_units = 0
            self._fits = fits
            self._cond.notify_all()
            try:
                while self._next <= last:
                    left = deadline - time.perf_counter()
                    if left <= 0:
                        break
                    self._cond.wait(min(left, 60.0))
            finally:
                self._window_end = 0.0
                self._fits = True
            return self._next > last

    # -- the thread's side --------------------------------------------------------------

    def _expected(self, i):
        return self.units[i][2] * self._ratio

    def _may_start(self, i):
        """"go" if unit ``i`` may start now, "later" to ask again, "no room" if a move
        of ours lends time but the unit does not fit in it (see the module docstring)."""
        now = time.perf_counter()
        with self._cond:
            end = self._window_end
            fits = self._fits
        if end > now:
            cost = MARGIN * self._expected(i)
            big = cost > self._window_length and self._window_units == 0
            return "go" if not fits or now + cost <= end or big else "no room"
        before = _others_cpu()
        time.sleep(IDLE_PROBE)
        if self._window_end > time.perf_counter():
            return "later"  # a move of ours began meanwhile: decide on its terms
        return "go" if _others_cpu() - before < IDLE_SHARE * IDLE_PROBE else "later"

    def _run(self):
        while not self.done():
            verdict = self._may_start(self._next)
            if verdict == "go":
                self._run_unit()
            elif verdict == "no room":
                with self._cond:  # sleep until that move ends (or finish() is called)
                    left = self._window_end - time.perf_counter()
                    if left > 0 and self._fits:
                        self._cond.wait(left)

    def _run_unit(self):
        i = self._next
        label, fn, cost = self.units[i]
        self._window_units += 1
        t0 = time.perf_counter()
        try:
            fn()
        except Exception as e:  # noqa: BLE001 - recorded; the kernel compiles on first use
            self.errors.append((label, repr(e)))
        self.log.append((label, round(time.perf_counter() - t0, 3)))
        expected = sum(u[2] for u in self.units[:i + 1])
        observed = sum(s for _, s in self.log)
        with self._cond:
            self._ratio = min(4.0, max(0.5, observed / expected)) if expected > 0 else 1.0
            self._next = i + 1
            self._cond.notify_all()


_SHARED = {}


def shared(key, units):
    """The process's one :class:`Warmup` for ``key``, made with ``units()`` the first
    time: agents whose kernels are the same share it, as they share the compiled
    kernels (two copies of a Kaggle file in one process load the same modules)."""
    if key not in _SHARED:
        _SHARED[key] = Warmup(units())
    return _SHARED[key]


def fallback_move(grid, heights, mark, rows, columns, inarow):
    """What an agent plays while its kernels compile (plain Python, no numpy call in the
    loop, no kernel; well under a millisecond on 7x6): the first of
    :func:`ranked_columns`. ``grid``: Kaggle's flat board (row 0 at the top), ``heights``:
    stones a column; the board must have a legal column. Returns a plain ``int``."""
    return ranked_columns(grid, heights, mark, rows, columns, inarow)[0]


def ranked_columns(grid, heights, mark, rows, columns, inarow):
    """The legal columns, best first by one ply of tactics and a window count: a column
    that wins now; else one that blocks the opponent's immediate win; then the columns
    that do not put the opponent's winning cell right above ours, then those that do;
    within each group the best window count first (each line of ``inarow`` cells through
    the new stone that holds no opponent stone counts 1 + 4 x our stones in it), ties
    to the centre. Plain ``int`` columns; arguments as :func:`fallback_move`'s."""
    cells = [int(v) for v in grid]
    height = [int(h) for h in heights]
    other = 3 - mark
    order = sorted(range(columns), key=lambda c: (abs(2 * c - (columns - 1)), c))
    legal = [c for c in order if height[c] < rows]

    def lines(c, r):
        """The lines of ``inarow`` cells through (row ``r``, column ``c``), as index lists."""
        for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
            for back in range(inarow):
                r0, c0 = r - back * dr, c - back * dc
                r1, c1 = r0 + (inarow - 1) * dr, c0 + (inarow - 1) * dc
                if 0 <= r0 < rows and 0 <= r1 < rows and 0 <= c0 < columns \
                        and 0 <= c1 < columns:
                    yield [(r0 + k * dr) * columns + c0 + k * dc for k in range(inarow)]

    def wins(c, r, who):
        """True if ``who`` completes a line by a stone at (``r``, ``c``) (an empty cell)."""
        at = r * columns + c
        return any(all(cells[i] == who or i == at for i in line) for line in lines(c, r))

    def row_of(c, above=0):
        return rows - 1 - height[c] - above

    def windows(c):
        r = row_of(c)
        return sum(1 + 4 * sum(cells[i] == mark for i in line)
                   for line in lines(c, r) if all(cells[i] != other for i in line))

    first = []
    for who in (mark, other):  # win now, else block
        for c in legal:
            if wins(c, row_of(c), who):
                first = [c]
                break
        if first:
            break
    safe = {c for c in legal if height[c] + 1 >= rows or not wins(c, row_of(c, 1), other)}
    # sorted is stable: among equal keys the centre-most first
    rest = sorted((c for c in legal if c not in first),
                  key=lambda c: (c not in safe, -windows(c)))
    return first + rest
