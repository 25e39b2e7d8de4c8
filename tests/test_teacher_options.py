"""``connectx learn --mode teacher --init NET`` and ``--value-weight W``: a teacher run
starts from a given network (its architecture and weights; new positions, the
learning-rate schedule afresh) and weighs the value's squared error W times in its loss;
without them a run is as before; bad values are one line and exit status 2."""

import numpy as np
import pytest

from agents.players.network import read_network, save_network

pytest.importorskip("jax")
pytest.importorskip("optax")

SMALL = ["--config", "rows=4,columns=5,inarow=3"]
SIZED = {"trunk": [6, 10, 6], "kernel": 3, "value_hidden": 4}


def _network(path, rows, columns, inarow, architecture, seed):
    """A random network of ``architecture`` for the board, written to ``path``."""
    from scripts.learn.model import init_params, to_network
    save_network(path, to_network(init_params(rows, columns, architecture, seed), rows,
                                  columns, inarow, architecture))
    return path


def test_init_continues_the_network_and_value_weight_weighs_the_loss(tmp_path):
    """One optimiser step from a network of another size than the default: the trained
    network has the start's architecture and stays within a few learning rates of its
    weights (a fresh start is seeded elsewhere, far away); the step's loss is the policy's
    plus 3 times the value's."""
    from scripts.learn.run import plan_for
    from scripts.learn.teacher import train
    from scripts.learn.zero import initial_network
    init = initial_network(_network(tmp_path / "start.npz", 4, 5, 3, SIZED, seed=5), (4, 5, 3))
    plan = plan_for((4, 5, 3), positions=100, steps=1, rounds=1, eval_games=1,
                    value_weight=3)
    params, record = train((4, 5, 3), plan, 0, None, init=init)
    assert record["architecture"] == SIZED and record["init"] == "network"
    assert record["plan"]["value_weight"] == 3.0
    point = record["curve"][-1]
    assert point["loss"] == pytest.approx(point["policy_loss"] + 3 * point["value_loss"],
                                          rel=1e-5)
    moved = max(float(np.max(np.abs(params[k] - init[0][k]))) for k in init[0])
    assert 0 < moved < 0.01


def test_the_command_passes_init_and_value_weight_to_the_run(tmp_path, monkeypatch):
    """``connectx learn --init NET --value-weight 3`` hands the run the network and a plan
    weighing the value 3 times (the run itself: the test above)."""
    import scripts.learn.run as run
    from scripts.commands.learn import main
    start = _network(tmp_path / "start.npz", 4, 5, 3, SIZED, seed=5)
    got = {}

    def fake_run(cfg, plan, seed, out, judge, workers, progress, log, command, init):
        got.update(plan=plan, init=init)
        raise OSError("stopped here")
    monkeypatch.setattr(run, "run", fake_run)
    with pytest.raises(SystemExit):
        main(SMALL + ["--init", str(start), "--value-weight", "3", "--quiet", "--out",
                      str(tmp_path)])
    assert got["plan"].value_weight == 3.0 and got["init"][1] == SIZED
    np.testing.assert_array_equal(got["init"][0]["trunk1_w"],
                                  read_network(start.read_bytes()).params["trunk1_w"])


def test_without_the_options_a_plan_is_the_default():
    """Default runs are unchanged: value weight 1, no start network."""
    from scripts.learn.run import plan_for
    from scripts.learn.teacher import Plan
    assert plan_for((6, 7, 4)).value_weight == Plan().value_weight == 1.0
    assert plan_for((6, 7, 4), value_weight=2.5).value_weight == 2.5
    with pytest.raises(ValueError, match="--value-weight takes"):
        plan_for((6, 7, 4), value_weight=0)


@pytest.mark.parametrize("args,word", [
    (["--value-weight", "0"], "--value-weight: expected a number > 0"),
    (["--value-weight", "x"], "--value-weight: expected a number > 0"),
    (["--mode", "zero", "--value-weight", "2"], "--value-weight is an option of --mode teacher"),
    (["--mode", "reinforce", "--init", "net.npz"], "--init is an option of --mode teacher"),
    (["--init", "nowhere.npz"], "--init nowhere.npz"),
    (["--init", "NET", "--trunk", "8"], "--trunk sizes a new network"),
    (["--init", "OTHER"], "plays 7x6 boards with 4 in a row, not 5x4 with 3"),
    (["--init", "BROKEN"], "array trunk0_w is (3, 3, 4, 7)"),
])
def test_bad_options_are_one_line(args, word, capsys, tmp_path):
    """Bad values, an option of another mode, a missing file, ``--init`` with a size,
    a network of another board and a network whose arrays do not fit its architecture."""
    from scripts.commands.learn import main
    from scripts.learn.model import ARCHITECTURE
    files = {"NET": _network(tmp_path / "net.npz", 4, 5, 3, ARCHITECTURE, 0),
             "OTHER": _network(tmp_path / "other.npz", 6, 7, 4, ARCHITECTURE, 0)}
    if "BROKEN" in args:   # a first layer of 7 channels where the architecture has 32
        bad = read_network(files["NET"].read_bytes())
        bad.params["trunk0_w"] = np.zeros((3, 3, 4, 7), np.float32)
        files["BROKEN"] = save_network(tmp_path / "broken.npz", bad) or tmp_path / "broken.npz"
    args = [str(files.get(a, a)) for a in args]
    with pytest.raises(SystemExit) as e:
        main(SMALL + ["--out", str(tmp_path)] + args)
    assert e.value.code == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and word in err, err
