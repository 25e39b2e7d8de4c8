"""One ``connectx learn`` run: its plan for the board, the labelling processes, the
training, the files it writes (:mod:`scripts.learn.record`)."""
import platform

from scripts.arena.pools import executor
from scripts.learn.record import write_run
from scripts.learn.teacher import Plan


def plan_for(cfg, positions=None, steps=None, rounds=2, eval_games=None, database=True,
             architecture=None, value_weight=None, children=None, openings=None):
    """The teacher's :class:`~scripts.learn.teacher.Plan` for board ``cfg``: the defaults
    are sized for 7x6 on a 2-core machine (<= 15 minutes); ``architecture``: the network's
    (None: :data:`scripts.learn.model.ARCHITECTURE`); ``value_weight``: the value's share
    of the loss (None: the plan's default, 1); ``children``: child positions a batch
    trained on the value alone (None: the plan's default, 0); ``openings``: every position
    of up to this many stones labelled too (None: 0, none); ``ValueError`` for a board the
    solver cannot label, bad sizes, a bad architecture, a value weight not > 0, children
    below 0 or openings past the board."""
    from agents.envs.boards import board_config
    from agents.solver.solver import geometry
    rows, columns, inarow = cfg
    board_config(rows, columns, inarow)    # a playable board
    geometry(rows, columns, inarow)        # ValueError past the solver's 64 bits
    if inarow > max(rows, columns):
        raise ValueError(f"no line of {inarow} fits a {columns}x{rows} board: nothing to learn")
    if architecture is not None:
        from agents.players.network import check_architecture
        check_architecture(architecture)
    plan = Plan(rounds=rounds, database=database, architecture=architecture)
    if positions is not None:
        plan.positions = positions
    if steps is not None:
        plan.steps = steps
    if eval_games is not None:
        plan.eval_games = eval_games
    if value_weight is not None:
        if not 0 < value_weight < float("inf"):
            raise ValueError(f"--value-weight takes a number > 0, got {value_weight}")
        plan.value_weight = float(value_weight)
    if children is not None:
        if children < 0:
            raise ValueError(f"--children takes an integer >= 0, got {children}")
        plan.children = int(children)
    if openings is not None:
        if not 0 <= openings < rows * columns:
            raise ValueError(f"--openings takes a number of stones 0..{rows * columns - 1}, "
                             f"got {openings}")
        plan.openings = int(openings)
    if plan.positions < plan.rounds:
        raise ValueError(f"--positions {plan.positions} is fewer than one a round")
    return plan


def run(cfg, plan, seed, out, judge=None, workers=2, progress=None, log=None, command=None,
        init=None, exclude=(), dask=None):
    """Train by ``plan`` on ``cfg`` and write the run into ``out``; ``(paths, record)``.
    ``init``: ``(params, architecture)`` of a network to start from (``--init``;
    :func:`scripts.learn.zero.initial_network`), None: random weights; ``exclude``: labelled
    sets never trained on, besides ``judge``. The labelling runs in ``workers`` processes
    or on the Dask cluster ``dask`` (:func:`scripts.arena.pools.executor`: the processes
    start before JAX does, and are kept for the whole run, their solvers' tables warm)."""
    with executor(workers, dask, "scripts.learn.positions") as pool:
        from scripts.learn.teacher import train
        params, record = train(cfg, plan, seed, judge, pool, progress, log, init, exclude)
    return finish(cfg, params, record["architecture"], record, seed, out, judge, command,
                  workers)


def finish(cfg, params, architecture, record, seed, out, judge=None, command=None, workers=1,
           plot=True):
    """Complete ``record`` (the board, seed, command, judge, machine) and write the
    trained ``params`` of ``architecture`` and the record (its curve with ``plot``) into
    ``out``; ``(paths, record)``. Every mode's run ends here."""
    from agents.players.network import save_network
    from scripts.learn.model import to_network
    rows, columns, inarow = cfg
    record.update({"board": f"{columns}x{rows}/{inarow}", "rows": rows, "columns": columns,
                   "inarow": inarow, "seed": seed, "command": command, "workers": workers,
                   "judge": None if judge is None else {"positions": len(judge),
                                                        "made": judge.made},
                   "machine": platform.processor() or platform.machine()})
    made = {k: record[k] for k in ("mode", "board", "seed", "command", "seconds")}
    net = to_network(params, rows, columns, inarow, architecture, made)
    return write_run(out, net, record, save_network, plot), record
