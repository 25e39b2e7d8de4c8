"""Work in parallel (scripts/arena/pools.py): results in the order given wherever they
ran, the start method of a pool, and the work of ``connectx database build`` and of the
teacher's labelling on a real Dask scheduler -- two workers, over loopback TCP -- equal
to the work done here for the same seed."""
import multiprocessing
import sys
import time
import types

import distributed
import numpy as np
import pytest

from scripts.arena import pools


@pytest.fixture(scope="module")
def client():
    """A Dask scheduler and two workers on 127.0.0.1 (TCP; the workers are threads of
    this process: seconds to start, where worker processes take ten)."""
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  host="127.0.0.1", protocol="tcp://",
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as c:
        assert c.scheduler.address.startswith("tcp://127.0.0.1:")
        assert len(c.scheduler_info()["workers"]) == 2
        yield c


def ran(stream, function):
    """How many tasks of ``function`` the cluster ran while ``stream`` recorded."""
    return sum(t["key"].startswith(function + "-") for t in stream.data)


def _late_square(x):
    """``x * x``, the smaller ``x`` the later: completion order is not the order given."""
    time.sleep(0.05 * (4 - x))
    return x * x


def test_results_come_in_the_order_given(client):
    for where in ({}, {"workers": 2}, {"dask": client}):
        seen = []
        assert pools.map_tasks(_late_square, range(4), on_result=seen.append,
                               **where) == [0, 1, 4, 9], where
        assert sorted(seen) == [0, 1, 4, 9], where
    with distributed.get_task_stream(client) as tasks:
        pools.map_tasks(_late_square, range(4), dask=client)
    assert ran(tasks, "_late_square") == 4
    with pools.executor(2) as pool:  # kept open across calls
        assert pools.map_tasks(_late_square, [3, 1], pool=pool) == [9, 1]
        assert pools.map_tasks(_late_square, [2], pool=pool) == [4]
    assert client.status == "running"  # a client given is left open


def test_pools_fork_until_jax_runs(monkeypatch):
    """Forked where the platform has fork, spawned once JAX's backends (threads) run."""
    fork = "fork" in multiprocessing.get_all_start_methods()
    bridge = types.SimpleNamespace(_backends={})
    monkeypatch.setitem(sys.modules, "jax._src.xla_bridge", bridge)
    assert pools.start_method() == ("fork" if fork else "spawn")
    bridge._backends = {"cpu": object()}
    assert pools.start_method() == "spawn"
    with pools.executor(2) as pool:  # spawned: a fresh interpreter runs the task
        assert pool.submit(_late_square, 3).result() == 9


@pytest.mark.slow
def test_database_build_on_dask_writes_the_same_bytes(tmp_path, client):
    from scripts.arena import database_build as B
    here = B.build(4, 5, 4, 6, tmp_path / "here.cxdb", chunk=200, leaves=None)
    with distributed.get_task_stream(client) as tasks:
        there = B.build(4, 5, 4, 6, tmp_path / "dask.cxdb", chunk=200, leaves=None,
                        dask=client)
    assert here.chunks == there.chunks == 8
    assert ran(tasks, "solve_chunk") == 8
    assert (tmp_path / "here.cxdb").read_bytes() == (tmp_path / "dask.cxdb").read_bytes()


@pytest.mark.slow
def test_teacher_labels_on_dask_as_here(tmp_path, client, monkeypatch):
    """Two rounds of ``connectx learn --mode teacher``'s run (the second labels the
    positions of the network's own games: its bytes go to the workers) label the same
    positions with the same scores, in the same order, here and on the cluster. The
    optimiser's step is left out (the parameters stay as seeded): what is compared is
    the labelling, and JAX's compilation would cost seconds a run."""
    import scripts.learn.model as model
    import scripts.learn.teacher as teacher
    from scripts.learn.run import plan_for, run
    labels = []

    def merge(parts, exclude):
        labels.append([[np.array(a) for a in part] for part in parts])
        return merge_here(parts, exclude)
    merge_here = teacher.merge
    monkeypatch.setattr(teacher, "merge", merge)
    monkeypatch.setattr(model, "train_step", lambda opt, value_weight:
                        lambda params, state, *batch: (params, state, 0.0, 0.0, 0.0))
    plan = plan_for((4, 5, 3), positions=120, steps=2, rounds=2, eval_games=1)
    run((4, 5, 3), plan, 3, str(tmp_path / "here"), workers=1)
    with distributed.get_task_stream(client) as tasks:
        run((4, 5, 3), plan, 3, str(tmp_path / "dask"), dask=client)
    assert ran(tasks, "play_and_label") == 2 * len(plan.opponents)  # two rounds
    here, there = labels[:2], labels[2:]
    assert len(here) == len(there) == 2 and len(here[1]) > len(here[0]) > 0
    for a, b in zip(here, there):
        assert len(a) == len(b)
        for part_a, part_b in zip(a, b):
            assert len(part_a) == len(part_b) == 2  # planes, scores
            for x, y in zip(part_a, part_b):
                np.testing.assert_array_equal(x, y)


@pytest.mark.slow
def test_labelled_sets_and_judges_on_dask_as_here(tmp_path, client, capsys):
    """``connectx dataset``'s set (the same bytes), ``connectx score``'s columns and the
    search's judge (``connectx score NET.npz --simulations N --dask ADDRESS``: the same
    report, seconds aside) on the cluster as here."""
    import json

    from agents.players.network import Network, save_network
    from agents.solver.labels import save_labels
    from scripts.arena.dataset import make_set
    from scripts.arena.judging import score
    from scripts.learn.model import init_params
    from scripts.commands.score import main
    shape = (4, 4, 3)
    with distributed.get_task_stream(client) as tasks:
        there = make_set(*shape, 30, seed=4, dask=client)
    assert ran(tasks, "label_games") > 0
    save_labels(tmp_path / "there.npz", there)
    save_labels(tmp_path / "here.npz", make_set(*shape, 30, seed=4))
    assert (tmp_path / "here.npz").read_bytes() == (tmp_path / "there.npz").read_bytes()

    with distributed.get_task_stream(client) as tasks:
        judged = score("alphabeta:depth=2", there, seed=1, dask=client)
    assert ran(tasks, "_judge_chunk") > 0
    assert judged.columns == score("alphabeta:depth=2", there, seed=1).columns

    net = tmp_path / "net.npz"
    architecture = {"trunk": [8, 8], "kernel": 3, "value_hidden": 8}
    save_network(net, Network(*shape, architecture, init_params(4, 4, architecture, 0)))
    lines = []
    with distributed.get_task_stream(client) as tasks:
        for where in ([], ["--dask", client.scheduler.address]):
            assert main([str(net), "--simulations", "20", "--set", str(tmp_path / "here.npz"),
                         "--json"] + where) == 0
            result = json.loads(capsys.readouterr().out)
            result.pop("seconds")
            lines.append(result)
    assert ran(tasks, "search_moves") > 0
    assert lines[0] == lines[1] and lines[0]["rows"]
