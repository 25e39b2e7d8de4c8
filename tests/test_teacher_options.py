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


# --- --children N: the labels' child positions, trained on the value alone ---------------


def _labelled(rows, columns, inarow, n, seed):
    from scripts.learn.positions import Task, play_and_label
    return play_and_label(Task(rows, columns, inarow, "random", "teacher", 0.5, 8, n, seed))


@pytest.mark.parametrize("shape", [(4, 5, 3), (4, 5, 4), (5, 4, 4)])
def test_children_values_are_the_solvers(shape):
    """Every child of a labelled position (one legal move on, not a game end) has the
    value the solver gives it, for its own side to move; none repeats, none ends the game,
    and an excluded position is left out."""
    from agents.board.rules_reference import ref_winner
    from agents.solver.labels import FULL, labelling_solver
    from scripts.learn.positions import children, keys_of, label
    rows, columns, inarow = shape
    planes, scores = _labelled(rows, columns, inarow, 60, seed=3)
    kids, values = children(planes, scores, inarow)
    assert len(kids) > 2 * len(planes) and len({k.tobytes() for k in kids}) == len(kids)
    solver = labelling_solver(rows, columns, inarow, False)
    for kid, v in zip(kids, values):
        board = (kid[..., 0] + 2 * kid[..., 1]).reshape(-1).tolist()
        assert ref_winner(board, rows, columns, inarow) == 0 and 0 in board
        best = label(solver, board, 1, shape)
        assert v == np.sign(best[best != FULL].max())
    # the child's opponent (who just moved) has as many stones as its side to move, or one more
    gap = kids[..., 1].sum(axis=(1, 2)) - kids[..., 0].sum(axis=(1, 2))
    assert set(gap.tolist()) <= {0, 1} and 0 in gap and 1 in gap
    excluded = keys_of(kids[:5])
    left = children(planes, scores, inarow, exclude=excluded)[0]
    assert len(left) == sum(k.tobytes() not in excluded for k in kids) < len(kids)


def test_children_join_every_batch_on_the_value_alone(monkeypatch):
    """With ``children`` 16 each optimiser step sees the plan's batch of labelled positions
    and 16 children after it: no policy weight, no legal column to learn, a value of the
    children's; with 0 (the default) the batch is as before."""
    import scripts.learn.model as model
    from scripts.learn.run import plan_for
    from scripts.learn.positions import children, merge, play_and_label
    from scripts.learn.teacher import round_tasks, train
    seen = []

    def fake_train_step(opt, value_weight):
        def step(params, state, x, legal, target, value, weight):
            seen.append((np.array(x), np.array(legal), np.array(value), np.array(weight)))
            return params, state, 0.0, 0.0, 0.0
        return step
    monkeypatch.setattr(model, "train_step", fake_train_step)
    plan = plan_for((4, 5, 3), positions=200, steps=3, rounds=1, eval_games=1, children=16)
    _, record = train((4, 5, 3), plan, 0, None)
    assert len(seen) == 3 and record["rounds"][0]["children"] > 0
    planes, scores = merge([play_and_label(t) for t in round_tasks((4, 5, 3), plan, 0, 0, b"")])
    kids, values = children(planes, scores, 3)
    by_key = {k.tobytes(): v for k, v in zip(kids, values)}
    by_key.update({k[:, ::-1].tobytes(): v for k, v in zip(kids, values)})
    for x, legal, value, weight in seen:
        assert len(x) == plan.batch + 16
        assert (weight[:plan.batch] >= 1).all() and (weight[plan.batch:] == 0).all()
        assert legal[:plan.batch].any(axis=1).all() and not legal[plan.batch:].any()
        for row, v in zip(x[plan.batch:], value[plan.batch:]):
            key = row[..., :2].astype(np.uint8).tobytes()
            assert by_key[key] == v
    seen.clear()
    train((4, 5, 3), plan_for((4, 5, 3), positions=200, steps=2, rounds=1, eval_games=1),
          0, None)
    assert all(len(x) == plan.batch and (w >= 1).all() for x, _, _, w in seen)


def test_the_command_passes_children_to_the_plan(tmp_path, monkeypatch):
    """``connectx learn --children 32`` hands the run a plan with 32 children a batch;
    ``--children`` in another mode, or below 0, is one line and exit status 2."""
    import scripts.learn.run as run
    from scripts.commands.learn import main
    got = {}

    def fake_run(cfg, plan, seed, out, judge, workers, progress, log, command, init):
        got.update(plan=plan)
        raise OSError("stopped here")
    monkeypatch.setattr(run, "run", fake_run)
    with pytest.raises(SystemExit):
        main(SMALL + ["--children", "32", "--quiet", "--out", str(tmp_path)])
    assert got["plan"].children == 32
    from scripts.learn.teacher import Plan
    assert Plan().children == 0
    for bad, word in ((["--mode", "zero", "--children", "2"], "--children is an option of "
                       "--mode teacher"), (["--children", "-1"], "expected an integer >= 0")):
        with pytest.raises(SystemExit) as e:
            main(SMALL + ["--out", str(tmp_path)] + bad)
        assert e.value.code == 2
