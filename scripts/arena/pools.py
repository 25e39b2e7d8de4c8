"""Work in parallel: in this process, in a pool of processes, or on a Dask cluster.

The one module of the package that makes a process pool or reaches Dask
(``tests/test_imports.py`` checks it): the commands' ``--workers N`` and ``--dask
ADDRESS`` (a scheduler such as ``tcp://host:8786``) both end here.

- :func:`map_tasks` runs ``function(task)`` for each task and returns the results in
  the order given, wherever they ran;
- :func:`executor` keeps a pool open across many calls (a training run's rounds): a
  ``concurrent.futures``-style executor, ``submit(function, task).result()``;
- :func:`run_games` plays :class:`scripts.arena.games.Fixture` games by
  :func:`scripts.arena.games.play_game`, results as plain dicts.

Processes are forked where the platform allows, so they inherit what this process
compiled (numba's kernels) or loaded (a database); ``prepare()`` does that work here
once, before the fork. JAX's threads and ``fork`` do not mix: a pool is started at
once, all its processes forked before the caller goes on (a training run makes its pool
before JAX starts), and once JAX's backends run here, pools are spawned instead (fresh
interpreters: slower to start, never a deadlock).

On a Dask cluster the scheduler and the workers unpickle the tasks: the package must be
installed there, the same version (:func:`executor` checks that the module of the
function imports on every one of them and says so in a ``ValueError`` otherwise).
"""
import contextlib
import sys

from scripts.arena.extras import require


def map_tasks(function, tasks, workers=1, dask=None, on_result=None, pool=None, prepare=None):
    """``[function(task) for task in tasks]``, in the order given: in this process
    (``workers`` 1, no ``dask``), in ``workers`` processes, on the Dask cluster ``dask``
    (an address such as ``tcp://host:8786``, or a ``distributed.Client``, left open), or
    on ``pool`` (an :func:`executor` the caller keeps open). ``on_result(result)`` is
    called as each task finishes (in completion order, in this process);
    ``prepare()``: work done here before forking (see the module docstring).
    ``ValueError`` when the Dask scheduler cannot be reached or lacks the package."""
    tasks = list(tasks)
    results = [None] * len(tasks)

    def done(i, result):
        results[i] = result
        if on_result is not None:
            on_result(result)

    if pool is not None:
        _collect(pool, function, tasks, done)
    elif dask is not None or (workers > 1 and len(tasks) > 1):
        with executor(workers, dask, _module_of(function), prepare) as made:
            _collect(made, function, tasks, done)
    else:
        for i, t in enumerate(tasks):
            done(i, function(t))
    return results


def _collect(pool, function, tasks, done):
    """``done(i, result)`` of ``function(tasks[i])`` run on ``pool``, in completion order."""
    from concurrent.futures import as_completed
    futures = {pool.submit(function, t): i for i, t in enumerate(tasks)}
    for f in as_completed(futures):
        done(futures[f], f.result())


def _module_of(function):
    """The module that defines ``function`` (through ``functools.partial``)."""
    return getattr(function, "func", function).__module__


@contextlib.contextmanager
def executor(workers=1, dask=None, module="scripts", prepare=None):
    """An executor (``submit(function, task)`` returns a ``concurrent.futures.Future``)
    for the ``with`` block: on the Dask cluster ``dask`` (see :func:`map_tasks`; each task
    run afresh, never taken from the cluster's cache of equal calls), else a pool of
    ``workers`` processes started now (forked after ``prepare()``), else None for
    ``workers`` 1: the caller runs its tasks itself. ``module``: where the tasks'
    functions live (checked importable on the cluster). Closed on leaving the block, its
    pending tasks cancelled; a client given is left open."""
    if dask is not None:
        client, own = _dask_client(dask, module)
        try:
            yield client.get_executor(pure=False)
        finally:
            if own:
                client.close()
    elif workers > 1:
        pool = _process_pool(workers, prepare)
        try:
            yield pool
        finally:
            pool.shutdown(cancel_futures=True)
    else:
        yield None


def _process_pool(workers, prepare=None):
    """A ``ProcessPoolExecutor`` of ``workers`` processes, all started before it is
    returned (forked after ``prepare()`` where :func:`start_method` is "fork")."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor
    method = start_method()
    if prepare is not None and method == "fork":
        prepare()
    pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context(method))
    list(pool.map(abs, range(workers)))  # every process starts now, before JAX's threads
    return pool


def start_method():
    """"fork" where the platform has it and JAX's backends have not started in this
    process (their threads would not survive a fork); else "spawn"."""
    import multiprocessing
    if "fork" in multiprocessing.get_all_start_methods() and not _jax_started():
        return "fork"
    return "spawn"


def _jax_started():
    """Whether JAX's backends (and their threads) run in this process: JAX warns then at
    every fork. Read without importing JAX; an import alone starts nothing."""
    bridge = sys.modules.get("jax._src.xla_bridge")
    return bool(getattr(bridge, "_backends", None))


def _dask_client(dask, module):
    """``(client, own)``: a ``distributed.Client`` of ``dask`` (an address, or a client
    used as it is: ``own`` False) whose scheduler and workers import ``module``;
    ``ValueError`` when the scheduler cannot be reached or the module is not there."""
    require("distributed", "--dask")
    from distributed import Client
    own = not isinstance(dask, Client)
    try:
        client = Client(dask, timeout="10s") if own else dask
    except (OSError, TimeoutError, ValueError) as e:
        raise ValueError(f"cannot connect to Dask scheduler {dask!r}: {e}") from None
    # the scheduler unpickles the tasks and the workers run them: both need this
    # package importable (installed, same version), not only this machine
    try:
        client.run_on_scheduler(exec, f"import {module}")
        client.run(exec, f"import {module}")
    except ImportError as e:
        if own:
            client.close()
        raise ValueError(f"the Dask scheduler or a worker cannot import this package "
                         f"({e}); install it on every machine of the cluster") from None
    return client, own


def run_games(games, workers=1, dask=None, on_result=None, pool=None):
    """Play ``games`` (:class:`scripts.arena.games.Fixture`) and return their results in
    the order given; ``workers``, ``dask``, ``on_result`` and ``pool`` (from
    :func:`game_executor`: the same processes play every round of an SPRT) as in
    :func:`map_tasks`."""
    from scripts.arena.games import play_game
    games = list(games)
    return map_tasks(play_game, games, workers, dask, on_result, pool, _warm_up(games))


def game_executor(games, workers=1, dask=None):
    """An :func:`executor` for ``games``: its processes forked after compiling each
    agent here once (the workers inherit the machine code)."""
    from scripts.arena.games import play_game
    return executor(workers, dask, _module_of(play_game), _warm_up(games))


def _warm_up(games):
    """``prepare()``: build each agent of ``games`` once in this process."""
    def prepare():
        from scripts.arena.loading import warm_up
        todo = {(s.text, g.config): (s, g.config) for g in games for s in g.specs}
        for spec, cfg in todo.values():
            warm_up(spec, cfg)
    return prepare
