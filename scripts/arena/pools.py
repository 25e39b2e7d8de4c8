"""Many games: in this process, in a process pool, or on a Dask cluster.

The games are :class:`scripts.arena.games.Fixture` tasks played by
:func:`scripts.arena.games.play_game` wherever they run; results come back as plain
dicts, in the order given.
"""
import contextlib

from scripts.arena.extras import require
from scripts.arena.games import play_game
from scripts.arena.loading import warm_up


def run_games(games, workers=1, dask=None, on_result=None, pool=None):
    """Play ``games`` and return their results in the order given.

    ``workers`` > 1 plays them in that many processes; ``dask`` (an address such as
    ``tcp://host:8786``, or a ``distributed.Client``) plays them on a Dask cluster.
    ``on_result(result)`` is called as each game finishes (in completion order).
    ``pool``: a :func:`process_pool` to play them in (kept open by the caller across
    calls, so the same worker processes play every round of an SPRT)."""
    games = list(games)
    results = [None] * len(games)
    position = {g.index: i for i, g in enumerate(games)}

    def done(result):
        results[position[result["index"]]] = result
        if on_result is not None:
            on_result(result)

    if dask is not None:
        _run_dask(games, dask, done)
    elif pool is not None or (workers > 1 and len(games) > 1):
        from concurrent.futures import as_completed
        with contextlib.ExitStack() as stack:
            if pool is None:
                pool = stack.enter_context(process_pool(games, workers))
            futures = [pool.submit(play_game, g) for g in games]
            for f in as_completed(futures):
                done(f.result())
    else:
        for g in games:
            done(play_game(g))
    return results


def process_pool(games, workers):
    """A ``ProcessPoolExecutor`` of ``workers`` processes for ``games`` (forked where
    the platform allows, after compiling each spec here once: the workers inherit the
    machine code)."""
    from concurrent.futures import ProcessPoolExecutor
    context = fork_context()
    if context is not None:
        todo = {(s.text, g.config): (s, g.config) for g in games for s in g.specs}
        for spec, cfg in todo.values():
            warm_up(spec, cfg)
    return ProcessPoolExecutor(max_workers=workers, mp_context=context)


def fork_context():
    """The "fork" start method where the platform has it (Linux), else None (the
    default: each worker then compiles the kernels itself)."""
    import multiprocessing
    if "fork" in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("fork")
    return None


def _run_dask(games, dask, done):
    dask_map(play_game, games, dask, "scripts.arena.games", done)


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


def dask_executor(dask, module):
    """``(executor, client)``: a ``concurrent.futures``-style executor (``submit(fn,
    task).result()``) on the Dask cluster ``dask`` (see :func:`_dask_client`), each task
    run afresh (never taken from the cluster's cache of equal calls). Close ``client``
    when done if it was made here from an address."""
    client, own = _dask_client(dask, module)
    return client.get_executor(pure=False), (client if own else None)


def dask_map(function, tasks, dask, module, done):
    """``done(function(task))`` for each of ``tasks``, run on a Dask cluster (``dask``: an
    address such as ``tcp://host:8786``, or a ``distributed.Client``, left open), in
    completion order. ``module`` (where ``function`` lives) must import on the scheduler
    and on every worker: they unpickle the tasks. ``ValueError`` when the scheduler
    cannot be reached or the module is not installed there."""
    client, own = _dask_client(dask, module)
    from distributed import as_completed
    try:
        if tasks:
            for f in as_completed(client.map(function, tasks, pure=False)):
                done(f.result())
    finally:
        if own:
            client.close()


def run_tasks(function, tasks, workers=1, done=None, dask=None, module=None):
    """``done(function(task))`` for each of ``tasks``: in this process (in order), in
    ``workers`` forked processes or on a Dask cluster (``module``: where ``function``
    lives, see :func:`dask_map`), in completion order."""
    if dask is not None:
        dask_map(function, tasks, dask, module, done)
    elif workers > 1 and len(tasks) > 1:
        from concurrent.futures import ProcessPoolExecutor, as_completed
        with ProcessPoolExecutor(workers, mp_context=fork_context()) as pool:
            futures = [pool.submit(function, t) for t in tasks]
            try:
                for f in as_completed(futures):
                    done(f.result())
            except BaseException:  # done stopped the run: start no more tasks
                for f in futures:
                    f.cancel()
                raise
    else:
        for t in tasks:
            done(function(t))
