"""The ``perfect`` agent's time policy: how much of a move's plain budget the exact
search leaves to the alpha-beta fallback, and what the overage
(``obs.remainingOverageTime``) pays for: settling an unknown value, then traps (see
the policy in :mod:`agents.players.perfect`). A mixin of :class:`PerfectAgent`: it reads
``self.use_overage`` and the move's :class:`agents.players.base.Clock` (``act``,
``overage``).
"""
import time

# Seconds of the move's budget kept for the alpha-beta fallback after an unfinished
# exact search (at most this share of the budget).
FALLBACK_SHARE = 0.25
FALLBACK_MAX = 0.4
OVERAGE_KEEP = 5.0  # seconds of overage never spent
COMPILE_MARGIN = 1.0  # seconds a move that waited for kernels keeps to search and return
COMPILE_SHARE = 0.7   # at most this share of the overage above OVERAGE_KEEP, a move
FALLBACK_MIN = 0.25  # seconds the alpha-beta fallback always gets
# Seconds the shallow plain-Python search (agents.solver.shallow) may take when the
# solver's kernels are not ready and waiting for them does not fit; a wait for them
# stops this much before the compile deadline, so that the search still fits.
SHALLOW_MAX = 0.8
# Settling (the weak search that keeps the value when the plain budget did not find
# it): at most this share of the spare overage, and at most SETTLE_MAX seconds a
# move (SETTLE_EARLY_MAX while more than SETTLE_FROM_EMPTIES cells are empty: 7x6
# before 6 stones, where only the book knows the value in time).
SETTLE_SHARE = 0.5
SETTLE_MAX = 25.0
SETTLE_EARLY_MAX = 5.0
SETTLE_FROM_EMPTIES = 36
# Traps (see PerfectAgent._trap): seconds they may take past the plain budget (before
# TRAP_EARLY_STONES stones and later), paid only from the overage above TRAP_FLOOR,
# the share of their time for the opponent model's searches, and the model's depths.
TRAP_MIN = 0.5
TRAP_EARLY_STONES = 14
TRAP_EARLY_MAX = 6.0
TRAP_FLOOR = 55.0


class BudgetMixin:
    """Deadlines of the perfect agent's steps (``time.perf_counter`` seconds)."""

    def _overage_left(self, clock):
        """Seconds of ``remainingOverageTime`` left if this move ended now (Kaggle
        charges the overage with a move's excess over ``actTimeout``)."""
        return clock.overage - max(0.0, time.perf_counter() - clock.start - clock.act)

    def _compile_deadline(self, clock):
        """Until when a move that needs kernels still compiling may wait for them: the
        plain budget and ``COMPILE_SHARE`` of the overage above ``OVERAGE_KEEP`` (with
        ``use_overage``), less ``COMPILE_MARGIN`` for the move itself: a move never
        TIMEOUTs on numba, and what is still compiling then goes on in the thread."""
        spare = COMPILE_SHARE * max(0.0, clock.overage - OVERAGE_KEEP) if self.use_overage \
            else 0.0
        return max(clock.plain_deadline, clock.start + clock.act + spare - COMPILE_MARGIN)

    def _settle_deadline(self, clock, plain, stones, cfg):
        """How long the weak search that settles an unsettled position may run: a
        share of the overage above ``OVERAGE_KEEP``, at most ``SETTLE_MAX`` seconds
        (``SETTLE_EARLY_MAX`` while more than ``SETTLE_FROM_EMPTIES`` cells are empty,
        where even the weak value is usually out of reach), from ``plain`` on."""
        if not self.use_overage:
            return plain
        spare = max(0.0, self._overage_left(clock) - OVERAGE_KEEP)
        empties = cfg.rows * cfg.columns - stones
        cap = SETTLE_MAX if empties <= SETTLE_FROM_EMPTIES else SETTLE_EARLY_MAX
        return max(plain, time.perf_counter()) + min(cap, SETTLE_SHARE * spare)

    def _trap_deadline(self, clock, plain, stones):
        """Traps take the plain budget; before ``TRAP_EARLY_STONES`` stones (``TRAP_MIN``
        later) up to ``TRAP_EARLY_MAX`` seconds more, paid from the overage above
        ``TRAP_FLOOR`` only: the game's overage is for keeping the value."""
        now = time.perf_counter()
        want = now + (TRAP_EARLY_MAX if stones < TRAP_EARLY_STONES else TRAP_MIN)
        spare = max(0.0, self._overage_left(clock) - TRAP_FLOOR) if self.use_overage else 0.0
        return max(plain, min(want, max(now, plain) + spare))
