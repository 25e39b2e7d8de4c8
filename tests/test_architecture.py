"""``connectx learn --trunk`` and ``--value-hidden``: a network of another size than
:data:`scripts.learn.model.ARCHITECTURE` trains, is saved with its architecture, loads,
and plays as ``policy:file=`` and ``mcts:prior=`` (the numba pass reads any trunk); bad
sizes are one line and exit status 2."""
import json

import numpy as np
import pytest

import agents
from agents.players.network import policy_logits, read_network
from agents.search.network_kernel import evaluate_grid, pack_network

pytest.importorskip("jax")
pytest.importorskip("optax")

SIZED = {"trunk": [6, 10, 6], "kernel": 3, "value_hidden": 0}


def test_a_sized_network_trains_saves_loads_and_plays(tmp_path):
    """A tiny teacher run on 5x4/3 with a three-layer trunk of uneven widths and a linear
    value: the record and the .npz carry the architecture, the numba pass gives numpy's
    logits and value, and whole games of both players end without a failure."""
    from scripts.arena.games import play_out
    from scripts.arena.specs import MatchConfig
    from scripts.commands.learn import main
    out = tmp_path / "run"
    assert main(["--config", "rows=4,columns=5,inarow=3", "--positions", "300", "--steps",
                 "30", "--eval-games", "2", "--workers", "1", "--quiet", "--trunk", "6,10,6",
                 "--value-hidden", "0", "--out", str(out)]) == 0
    assert json.load(open(out / "record.json"))["architecture"] == SIZED
    net = read_network((out / "net.npz").read_bytes())
    assert net.architecture == SIZED and net.params["trunk1_w"].shape == (3, 3, 6, 10)
    weights, layout = pack_network(net.params, net.architecture, 4, 5)
    rng = np.random.default_rng(0)
    for _ in range(5):   # random positions: a stone or none in each cell of the lower rows
        grid = np.zeros(20, dtype=np.int8)
        grid[10:] = rng.integers(0, 3, 10)
        grid[10:15][grid[15:] == 0] = 0
        logits = np.empty(5)
        value = evaluate_grid(grid, 4, 5, 1, weights, layout, logits)
        planes = np.stack([grid.reshape(4, 5) == 1, grid.reshape(4, 5) == 2], -1)[None]
        want, want_value = policy_logits(net.params, planes.astype(np.uint8), net.architecture)
        np.testing.assert_allclose(logits, want[0], rtol=1e-4, atol=1e-4)
        assert value == pytest.approx(float(want_value[0]), abs=1e-4)
    cfg = MatchConfig(4, 5, 3, 2.0, 60.0)
    for player in (agents.make("policy", file=str(out / "net.npz")),
                   agents.make("mcts", prior=str(out / "net.npz"), iterations=30,
                               warmup="now")):
        result = play_out((player, player), cfg, np.zeros(20, dtype=np.int8),
                          np.zeros(5, dtype=np.int64), timed=False)
        assert result.statuses == ["DONE", "DONE"] and len(result.moves) >= 5


@pytest.mark.parametrize("args,word", [
    (["--trunk", "64,x"], "--trunk takes"),
    (["--trunk", "32,0"], "--trunk takes"),
    (["--trunk", ""], "--trunk takes"),
    (["--value-hidden", "-1"], "--value-hidden takes"),
    (["--mode", "reinforce", "--trunk", "8"], "--trunk is an option of --mode teacher"),
    (["--mode", "zero", "--trunk", "8", "--resume"], "--trunk sizes a new network"),
])
def test_bad_sizes_are_one_line(args, word, capsys, tmp_path):
    from scripts.commands.learn import main
    with pytest.raises(SystemExit) as e:
        main(["--config", "rows=4,columns=5,inarow=3", "--out", str(tmp_path)] + args)
    assert e.value.code == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and word in err


def test_no_size_given_is_the_default_architecture():
    """Without the options a run's network is :data:`ARCHITECTURE` (default runs
    unchanged), and one option leaves the other's default."""
    from scripts.learn.model import ARCHITECTURE, architecture_of
    from scripts.learn.run import plan_for
    assert plan_for((6, 7, 4)).architecture is None
    assert architecture_of() == ARCHITECTURE
    assert architecture_of("64,64") == ARCHITECTURE | {"trunk": [64, 64]}
    assert architecture_of(value_hidden=8) == ARCHITECTURE | {"value_hidden": 8}
