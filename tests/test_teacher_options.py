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


def _stopped_run(monkeypatch):
    """Replace ``scripts.learn.run.run`` with a stub that records what the command hands
    it (``plan``, ``init``, ``exclude``, ``dask``) and stops there; returns the record (a
    dict)."""
    import scripts.learn.run as run
    got = {}

    def fake_run(cfg, plan, seed, out, judge, workers, progress, log, command, init, exclude=(),
                 dask=None):
        got.update(plan=plan, init=init, exclude=exclude, dask=dask)
        raise OSError("stopped here")
    monkeypatch.setattr(run, "run", fake_run)
    return got


def test_init_continues_the_network_and_value_weight_weighs_the_loss(tmp_path):
    """One optimiser step from a network of another size than the default: the trained
    network has the start's architecture and stays within a few learning rates of its
    weights (a fresh start is seeded elsewhere, far away); the step's loss is the policy's
    plus 3 times the value's."""
    from scripts.learn.run import plan_for
    from scripts.learn.teacher import train
    from scripts.learn.model import initial_network
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
    """``connectx learn --init NET --value-weight 3 --dask ADDRESS`` hands the run the
    network, a plan weighing the value 3 times and the scheduler (the run itself: the
    test above)."""
    from scripts.commands.learn import main
    start = _network(tmp_path / "start.npz", 4, 5, 3, SIZED, seed=5)
    got = _stopped_run(monkeypatch)
    with pytest.raises(SystemExit):
        main(SMALL + ["--init", str(start), "--value-weight", "3", "--quiet", "--out",
                      str(tmp_path), "--dask", "tcp://127.0.0.1:1"])
    assert got["plan"].value_weight == 3.0 and got["init"][1] == SIZED
    assert got["dask"] == "tcp://127.0.0.1:1"  # the labelling's scheduler
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
    (["--mode", "recipe", "--dask", "tcp://h:1"], "--dask is an option of --mode teacher"),
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


def test_the_command_passes_children_to_the_plan(tmp_path, monkeypatch, capsys):
    """``connectx learn --children 32`` hands the run a plan with 32 children a batch;
    ``--children`` in another mode, or below 0, is one line and exit status 2."""
    from scripts.commands.learn import main
    got = _stopped_run(monkeypatch)
    with pytest.raises(SystemExit):
        main(SMALL + ["--children", "32", "--quiet", "--out", str(tmp_path)])
    assert got["plan"].children == 32
    from scripts.learn.teacher import Plan
    assert Plan().children == Plan().openings == 0
    capsys.readouterr()
    for bad, word in ((["--mode", "zero", "--children", "2"], "--children is an option of "
                       "--mode teacher"), (["--children", "-1"], "expected an integer >= 0")):
        with pytest.raises(SystemExit) as e:
            main(SMALL + ["--out", str(tmp_path)] + bad)
        assert e.value.code == 2
        err = capsys.readouterr().err.strip()
        assert len(err.splitlines()) == 1 and word in err, err


def test_the_command_passes_openings_and_exclude(tmp_path, monkeypatch, capsys):
    """``--openings 3 --exclude A --exclude B`` hands the run a plan with openings 3 and
    the two sets read; a set of another board, a missing file, a count past the board or
    either option in another mode is one line and exit status 2."""
    from agents.solver.labels import load_labels
    from scripts.commands.learn import main
    from agents.solver.labels import save_labels
    from scripts.arena.dataset import make_set
    sets = {}
    for name, shape in (("a", (4, 5, 3)), ("b", (4, 5, 3)), ("other", (5, 4, 3))):
        sets[name] = tmp_path / f"{name}.npz"
        save_labels(sets[name], make_set(*shape, 6, seed={"a": 0, "b": 1, "other": 2}[name],
                                         database=False, command="test"))
    got = _stopped_run(monkeypatch)
    with pytest.raises(SystemExit):
        main(SMALL + ["--openings", "3", "--exclude", str(sets["a"]), "--exclude",
                      str(sets["b"]), "--quiet", "--out", str(tmp_path)])
    assert got["plan"].openings == 3 and len(got["exclude"]) == 2
    np.testing.assert_array_equal(got["exclude"][1].planes, load_labels(sets["b"]).planes)
    capsys.readouterr()
    for bad, word in ((["--exclude", str(sets["other"])], "--exclude"),
                      (["--exclude", str(tmp_path / "none.npz")], "none.npz"),
                      (["--openings", "20"], "--openings takes a number of stones 0..19"),
                      (["--mode", "zero", "--openings", "2"], "--openings is an option"),
                      (["--mode", "zero", "--exclude", str(sets["a"])], "--exclude is an option")):
        with pytest.raises(SystemExit) as e:
            main(SMALL + ["--out", str(tmp_path)] + bad)
        assert e.value.code == 2
        err = capsys.readouterr().err.strip()
        assert len(err.splitlines()) == 1 and word in err, err


# --- --openings STONES and --exclude FILE -------------------------------------------------


def _reference_openings(rows, columns, inarow, stones):
    """The same positions by the plain-Python rules: (stones' tuple, mark) pairs."""
    from agents.board.rules_reference import ref_drop, ref_winner
    level, out = {tuple([0] * rows * columns)}, set()
    for n in range(stones + 1):
        mark, after = 1 + n % 2, set()
        for board in level:
            out.add((board, mark))
            if n == stones:
                continue
            for c in range(columns):
                if board[c] == 0:
                    child = tuple(ref_drop(list(board), c, mark, rows, columns))
                    if ref_winner(list(child), rows, columns, inarow) == 0 and 0 in child:
                        after.add(child)
        level = after
    return out


def test_opening_grids_are_every_position_of_play():
    """7x6: 1, 7, 49, 238, 1,120, 4,263 positions of 0..5 stones, the known counts; on
    two small boards the same set as a plain-Python enumeration by the reference rules
    (game ends left out)."""
    from scripts.learn.positions import opening_grids
    counts = np.bincount([int((g != 0).sum()) for g, _ in opening_grids(6, 7, 4, 5)])
    assert counts.tolist() == [1, 7, 49, 238, 1120, 4263]
    for shape in ((4, 5, 3), (3, 4, 3)):
        got = {(tuple(g.tolist()), m) for g, m in opening_grids(*shape, 5)}
        assert got == _reference_openings(*shape, 5) and len(got) > 100


def test_openings_are_labelled_for_the_side_to_move():
    """The planes put the side to move first (as many stones as the other side, or one
    fewer) and the scores are the solver's for it: a column that wins at once scores the
    most, a full column FULL."""
    from agents.solver.labels import FULL
    from scripts.learn.positions import openings
    planes, scores = openings(4, 5, 3, 4, database=False)
    mine, theirs = planes[..., 0].sum(axis=(1, 2)), planes[..., 1].sum(axis=(1, 2))
    assert set((theirs - mine).tolist()) == {0, 1}
    full = planes.sum(axis=(1, 3)) == 4                       # (n, columns)
    assert ((scores == FULL) == full).all()
    best = np.where(scores == FULL, -999, scores).max(axis=1)
    assert (best > 0).any() and (best < 0).any()
    # first player on the empty 5x4 board with 3 in a row wins: the empty board's best > 0
    assert best[0] > 0 and mine[0] == theirs[0] == 0


def test_openings_and_exclude_reach_the_batches(monkeypatch):
    """A plan with ``openings`` 3 trains on every position of up to 3 stones (or its mirror
    image), and never on a position of the ``exclude`` sets or their mirror images."""
    import scripts.learn.model as model
    from scripts.learn.positions import opening_grids
    from scripts.learn.run import plan_for
    from scripts.learn.teacher import train
    rows, columns, inarow = 4, 5, 3
    seen = set()

    def fake_train_step(opt, value_weight):
        def step(params, state, x, legal, target, value, weight):
            seen.update(np.asarray(x)[i, ..., :2].astype(np.uint8).tobytes()
                        for i in range(len(x)))
            return params, state, 0.0, 0.0, 0.0
        return step
    monkeypatch.setattr(model, "train_step", fake_train_step)
    grids = opening_grids(rows, columns, inarow, 3)
    planes = np.array([np.stack([g == m, g == 3 - m], -1).reshape(rows, columns, 2)
                       for g, m in grids], dtype=np.uint8)
    held = planes[[2, 9, 20]]  # three positions of 1, 2 and 3 stones, held out

    class Held:  # what train reads of a labelled set
        pass
    held_set = Held()
    held_set.planes = held
    plan = plan_for((rows, columns, inarow), positions=50, steps=400, rounds=1, eval_games=1,
                    openings=3)
    _, record = train((rows, columns, inarow), plan, 0, None, exclude=[held_set])
    assert record["rounds"][0]["openings"] == len(grids)
    keep = [p for p in planes if not any((p == h).all() or (p[:, ::-1] == h).all()
                                         for h in held)]
    assert len(planes) - 6 <= len(keep) <= len(planes) - 3   # the held and their mirrors
    missing = [p for p in keep if p.tobytes() not in seen and p[:, ::-1].tobytes() not in seen]
    assert not missing
    assert not any(h.tobytes() in seen or h[:, ::-1].tobytes() in seen for h in held)
