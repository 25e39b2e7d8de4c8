"""The exact solver's two sizing options, their default and their check, in plain Python
(no numpy, no numba): :class:`agents.solver.solver.Solver` checks them here, and so does
``connectx solve`` before its first line, which the package's opening scores may answer
without building a solver (``connectx solve``, :mod:`scripts.commands.solve`)."""
import numbers

# About 2**20 entries of 8 bytes: 8 MiB. With one entry a slot, larger tables saved nodes
# and cost time on the team's 2-core machine (2026-11-24: begin.txt 94 s of CPU with 2**24
# slots, 592M nodes; 82 s with 2**22, 663M; 68 s with 2**20, 912M), and the order was
# reversed the next day (docs/results-solver.md, its 2026-11-25 rows): each probe of a table that outgrows the
# caches is a trip to memory, whose cost depends on what else the machine does.
DEFAULT_TT_BITS = 20


def check_solver_options(tt_bits, threads):
    """``ValueError`` naming ``tt_bits`` (an integer in 10..30) or ``threads`` (1..64)
    when it is not one (numpy integers count; bools do not)."""
    for name, v, lo, hi in (("tt_bits", tt_bits, 10, 30), ("threads", threads, 1, 64)):
        if isinstance(v, bool) or not isinstance(v, numbers.Integral) or not lo <= v <= hi:
            raise ValueError(f"{name} must be an integer in {lo}..{hi}, got {v!r}")
