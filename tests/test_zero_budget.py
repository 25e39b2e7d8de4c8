"""``--mode zero``'s wall budget (``Plan.minutes``, ``--minutes``) and its networks kept
one an iteration (``networks/iteration-NNN.npz``), on the 4x4/3 board of test_zero."""
import json

import numpy as np
import pytest

from tests.test_zero import SMALL, small_plan

TINY = dict(games=4, simulations=8, steps=5, eval_games=2)


def test_each_iteration_keeps_its_network_and_the_budget_stops_the_run(tmp_path, capsys):
    """Two iterations without a budget: two checkpoints, the last one the run's network;
    ``connectx bench zero`` measures them; the first iteration played on a Dask cluster
    gives the first checkpoint's network again.
    With a budget (1e-9 minutes) that the first iteration already spends, the run stops
    after it though three were asked, and says so in its log; resuming with a budget
    that is spent stops again after one more iteration."""
    from scripts.learn.checkpoints import CHECKPOINTS
    from scripts.learn.zero import train
    _, record = train(SMALL, small_plan(iterations=2, **TINY), 0, str(tmp_path / "a"))
    assert len(record["iterations"]) == 2
    kept = sorted(p.name for p in (tmp_path / "a" / CHECKPOINTS).iterdir())
    assert kept == ["iteration-001.npz", "iteration-002.npz"]
    assert (tmp_path / "a" / CHECKPOINTS / kept[-1]).read_bytes() == \
        (tmp_path / "a" / "net.npz").read_bytes()
    # connectx bench zero measures the kept networks afterwards (here: matches only)
    from scripts.bench.zero import main
    out = tmp_path / "curve.json"
    assert main([str(tmp_path / "a"), "--every", "1", "--simulations", "0", "--games", "2",
                 "--opponents", "random;onestep", "--workers", "1", "--quiet",
                 "--json", str(out)]) == 0
    rows = json.loads(out.read_text())["rows"]
    assert [r["iteration"] for r in rows] == [1, 2]
    assert all(sum(m[k] for k in ("wins", "draws", "losses")) == 2
               for r in rows for m in r["matches"].values())
    assert list(rows[0]["matches"]) == ["random", "onestep"]
    with pytest.raises(SystemExit):  # the shipped set is 7x6: the 4x4 network cannot be judged
        main([str(tmp_path / "a"), "--simulations", "8", "--games", "0", "--quiet"])
    from agents.solver.labels import save_labels
    from scripts.arena.dataset import make_set
    save_labels(tmp_path / "set.npz", make_set(*SMALL, 12, seed=1))
    capsys.readouterr()
    assert main([str(tmp_path / "a"), "--every", "2", "--simulations", "8", "--positions", "12",
                 "--eval-set", str(tmp_path / "set.npz"), "--games", "0", "--quiet",
                 "--json", str(out)]) == 0
    search = json.loads(out.read_text())["rows"][0]["search"]
    assert search["n"] == 12 and 0 <= search["perfect"] <= search["good"] <= 1
    line = capsys.readouterr().out.splitlines()[-2]  # the row, before the load line
    assert line.split()[0] == "2" and f"{100 * search['good']:.1f}%" in line

    # the self-play on a Dask cluster (--dask): the same tasks, the same network
    import distributed  # the dev extra has it: never skipped

    from agents.players.network import read_network
    from scripts.arena.pools import executor
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        with executor(dask=client, module="scripts.learn.zero") as pool:
            train(SMALL, small_plan(iterations=1, **TINY), 0, str(tmp_path / "dask"), pool=pool)
        assert client.status == "running"  # a client given is left open
    a = read_network((tmp_path / "a" / CHECKPOINTS / kept[0]).read_bytes())
    b = read_network((tmp_path / "dask" / "net.npz").read_bytes())
    for name in a.params:
        np.testing.assert_array_equal(a.params[name], b.params[name])

    said = []
    _, record = train(SMALL, small_plan(iterations=3, minutes=1e-9, **TINY), 0,
                      str(tmp_path / "b"), log=said.append)
    assert [i["iteration"] for i in record["iterations"]] == [1], (said, record["seconds"])
    assert any("stopped after iteration 1" in line for line in said)
    assert (tmp_path / "b" / "curve.png").exists()
    _, record = train(SMALL, small_plan(iterations=3, minutes=1e-9, **TINY), 0,
                      str(tmp_path / "b"), resume=True)
    assert [i["iteration"] for i in record["iterations"]] == [1, 2]


def test_minutes_is_an_option_of_zero_only(capsys, tmp_path):
    from scripts.commands.learn import main
    for args, word in ((["--mode", "teacher", "--minutes", "5"],
                        "--minutes is an option of --mode zero"),
                       (["--mode", "zero", "--minutes", "0"], "--minutes")):
        with pytest.raises(SystemExit) as e:
            main(args + ["--out", str(tmp_path / "run"), "--quiet"])
        assert e.value.code == 2
        assert word in capsys.readouterr().err.strip().splitlines()[-1]
