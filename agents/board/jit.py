"""numba options, set in one place.

Every kernel in the package is decorated with :func:`njit` from here, never with
``numba.njit`` directly, so that:

* the options are the same everywhere (no ``cache=True``: it breaks when the code
  is run from a string, as in a Kaggle submission, and Kaggle's disk is read-only);
* if ``import numba`` fails the kernels run as plain Python (slow but correct),
  which is what a submission falls back to;
* ``NUMBA_DISABLE_JIT=1`` runs the whole package as plain Python for coverage.

:func:`now` is the monotonic clock, callable from inside a kernel (numba has no
``time`` module in nopython mode, so it goes through ``objmode``).
"""
import time

try:  # pragma: no cover - exercised by the submission fallback test
    import numba as _numba

    HAVE_NUMBA = True
except ImportError:  # pragma: no cover
    _numba = None
    HAVE_NUMBA = False


def njit(fn=None, **options):
    """Decorate a kernel: ``numba.njit`` with the package's options, or identity."""
    if not HAVE_NUMBA:
        return fn if fn is not None else (lambda f: f)
    if fn is None:
        return _numba.njit(**options)
    return _numba.njit(**options)(fn)


def is_compiled(kernel):
    """True if calling ``kernel`` runs code compiled already (or plain Python, without
    numba): it has at least one compiled overload. See :mod:`agents.players.warmup`."""
    overloads = getattr(kernel, "overloads", None)
    return overloads is None or len(overloads) > 0


if HAVE_NUMBA:

    @njit
    def now():
        """Seconds from ``time.perf_counter``, usable inside kernels."""
        with _numba.objmode(t="float64"):
            t = time.perf_counter()
        return t

else:  # pragma: no cover
    now = time.perf_counter
