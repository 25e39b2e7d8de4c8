"""numba options, set in one place.

Every kernel in the package is decorated with :func:`njit` from here, never with
``numba.njit`` directly, so that:

* the options are the same everywhere;
* compiled kernels are cached on disk (numba's cache) when the package runs from its
  source files, in a user cache directory (``$CONNECTX_NUMBA_CACHE``, else
  ``$XDG_CACHE_HOME/connectx/numba`` or ``~/.cache/connectx/numba``;
  ``CONNECTX_NUMBA_CACHE=0`` turns it off), so a second process starts in well under
  a second. Each version of the kernel sources has its own folder there (the first 16
  hex digits of :func:`sources_stamp`), so checkouts of different versions never evict
  each other's kernels; the folders of old versions can be deleted at any time. A submission file runs its code from strings: never cached. The cache of
  every kernel is keyed by a hash of *all* the package's kernel sources (numba alone
  would only see the kernel's own file, and a kernel compiled against an older version
  of a kernel it calls, from another file, must never be loaded), by the Python and
  numba versions. Kernels that take another kernel as an argument (the searches'
  ``evaluate``) and recursive kernels and their callers are decorated
  ``njit(cache=False)``: numba cannot cache the first, and a cached recursive kernel
  crashes the process that loads it (numba 0.68: a segmentation fault on the second
  run; ``tests/test_jit_cache.py`` runs every agent twice on one cache);
* if ``import numba`` fails the kernels run as plain Python (slow but correct),
  which is what a submission falls back to;
* ``NUMBA_DISABLE_JIT=1`` runs the whole package as plain Python for coverage.

:func:`now` is the monotonic clock, callable from inside a kernel (numba has no
``time`` module in nopython mode, so it goes through ``objmode``).
"""
import hashlib
import importlib.util
import os
import sys
import time

try:  # pragma: no cover - exercised by the submission fallback test
    import numba as _numba

    HAVE_NUMBA = True
except ImportError:  # pragma: no cover
    _numba = None
    HAVE_NUMBA = False

# the packages whose kernels are cached
_KERNEL_PACKAGES = ("agents", "heuristics")
CACHE_ENV = "CONNECTX_NUMBA_CACHE"
# set by a submission file's loader (submission/runtime.py) before this module runs
_IN_BUNDLE = "__bundle__" in globals()


def cache_dir():
    """Where compiled kernels are kept, or None when caching is off (see the module
    docstring); one subdirectory per Python and numba version."""
    if not HAVE_NUMBA or _IN_BUNDLE:
        return None
    value = os.environ.get(CACHE_ENV, "")
    if value == "0":
        return None
    if not value:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        value = os.path.join(base, "connectx", "numba")
    version = f"py{sys.version_info[0]}{sys.version_info[1]}-numba{_numba.__version__}"
    return os.path.join(value, version)


_STAMP = None
_FOLDERS = None


def _kernel_folders():
    """``{package: folder}`` of the kernel packages, where the import system finds them
    (looked up, not imported: ``heuristics`` imports this module)."""
    global _FOLDERS
    if _FOLDERS is None:
        _FOLDERS = {}
        for package in _KERNEL_PACKAGES:
            spec = importlib.util.find_spec(package)
            if spec is not None and spec.submodule_search_locations:
                _FOLDERS[package] = os.path.abspath(list(spec.submodule_search_locations)[0])
    return _FOLDERS


def _relative(path):
    """``path`` (a file or folder under a kernel package) as ``package/...``, else None."""
    path = os.path.abspath(path)
    for package, folder in _kernel_folders().items():
        if path == folder or path.startswith(folder + os.sep):
            return os.path.join(package, os.path.relpath(path, folder))
    return None


def sources_stamp():
    """sha256 of every ``.py`` file of the kernel packages (paths and contents): the
    freshness of every cached kernel."""
    global _STAMP
    if _STAMP is None:
        h = hashlib.sha256()
        for package, top in _kernel_folders().items():
            for folder, dirs, files in sorted(os.walk(top)):
                dirs.sort()
                for name in sorted(files):
                    if name.endswith(".py"):
                        path = os.path.join(folder, name)
                        h.update(os.path.join(package, os.path.relpath(path, top)).encode())
                        with open(path, "rb") as f:
                            h.update(f.read())
        _STAMP = h.hexdigest()
    return _STAMP


def _cacheable(fn):
    """True for a kernel defined in a source file of the kernel packages (not a
    submission's embedded code, not a test's or a script's kernel) while caching is on."""
    path = os.path.abspath(fn.__code__.co_filename)
    return (cache_dir() is not None and os.path.isfile(path)
            and _relative(path) is not None)


if HAVE_NUMBA:
    from numba.core import caching as _caching

    class _ProjectLocator(_caching._CacheLocator):
        """numba's cache locator for the package's kernels: the user cache directory,
        and :func:`sources_stamp` as every kernel's freshness."""

        def __init__(self, py_func, py_file):
            self._lineno = py_func.__code__.co_firstlineno
            rel = _relative(os.path.dirname(os.path.abspath(py_file)))
            # one folder a version of the sources: two checkouts (or versions) of the
            # package on one machine would otherwise overwrite each other's index files
            # at every start, and each process would compile again (seen: 8-16 s of CPU
            # a perfect agent with five worktrees sharing ~/.cache, 0.8 s when kept)
            self._cache_path = os.path.join(cache_dir(), sources_stamp()[:16], rel)

        def get_cache_path(self):
            return self._cache_path

        def get_source_stamp(self):
            return sources_stamp()

        def get_disambiguator(self):
            return str(self._lineno)

        @classmethod
        def from_function(cls, py_func, py_file):
            if not _cacheable(py_func):
                return None
            self = cls(py_func, py_file)
            try:
                self.ensure_cache_path()
            except OSError:
                return None
            return self

    if _ProjectLocator not in _caching.CacheImpl._locator_classes:
        _caching.CacheImpl._locator_classes.insert(0, _ProjectLocator)


def njit(fn=None, **options):
    """Decorate a kernel: ``numba.njit`` with the package's options, or identity.

    ``cache`` defaults to the on-disk cache of the module docstring when the kernel
    lives in a source file of the package; ``cache=False`` opts a kernel out."""
    if not HAVE_NUMBA:
        return fn if fn is not None else (lambda f: f)

    def decorate(f):
        opts = dict(options)
        if opts.get("cache", True):
            opts["cache"] = _cacheable(f)
        return _numba.njit(**opts)(f)
    if fn is None:
        return decorate
    return decorate(fn)


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


if HAVE_NUMBA:
    from llvmlite import ir as _ir
    from numba.core import cgutils as _cgutils
    from numba.extending import intrinsic as _intrinsic

    @_intrinsic
    def prefetch(typingctx, array, index):
        """Ask the processor to bring ``array[index]``'s cache line in (``prefetcht0``)
        and return at once: a hint, no effect on any value. ``index`` must be in range."""
        sig = _numba.types.void(array, index)

        def codegen(context, builder, signature, args):
            aryty = signature.args[0]
            ary = context.make_array(aryty)(context, builder, args[0])
            ptr = _cgutils.get_item_pointer(context, builder, aryty, ary, [args[1]],
                                            wraparound=False, boundscheck=False)
            i8p = _ir.IntType(8).as_pointer()
            i32 = _ir.IntType(32)
            fnty = _ir.FunctionType(_ir.VoidType(), [i8p, i32, i32, i32])
            fn = _cgutils.get_or_insert_function(builder.module, fnty, "llvm.prefetch")
            # read, highest locality, data cache
            builder.call(fn, [builder.bitcast(ptr, i8p), i32(0), i32(3), i32(1)])
            return context.get_dummy_value()

        return sig, codegen

else:  # pragma: no cover

    def prefetch(array, index):
        """A no-op without numba."""
