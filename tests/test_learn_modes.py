"""``connectx learn``'s options come from the modes' run configurations
(:mod:`scripts.learn.configs`): each mode takes its own options into its plan, and an
option of another mode is refused by one rule, in one line naming the option and the
modes it belongs to, with exit status 2.

:data:`OWNERS` is the contract written out by hand (docs/learning.md and the reference
page name these options and modes): the derived flags must match it, so that a field
moved to the wrong configuration, or an option lost, fails here."""

import pytest

from agents.players.network import save_network

PROG = "python -m scripts.commands.learn"
SMALL = ["--config", "rows=5,columns=5,inarow=3"]
MODES = ("teacher", "reinforce", "recipe", "zero")

# every option of some modes only: the modes that take it
OWNERS = {
    "--positions": ("teacher",), "--rounds": ("teacher",), "--value-weight": ("teacher",),
    "--children": ("teacher",), "--openings": ("teacher",), "--no-database": ("teacher",),
    "--exclude": ("teacher",),
    "--init": ("teacher", "zero"), "--trunk": ("teacher", "zero"),
    "--value-hidden": ("teacher", "zero"), "--workers": ("teacher", "zero"),
    "--iterations": ("zero",), "--games": ("zero",), "--simulations": ("zero",),
    "--search-value": ("zero",), "--judge-simulations": ("zero",), "--minutes": ("zero",),
    "--dask": ("teacher", "zero"), "--resume": ("zero",),
}
# the options of every mode (each mode's own default)
EVERY_MODE = ("--steps", "--eval-games")

# (arguments, the plan's field and value they set); FILE: a network or a labelled set
# of the small board, made by the test
GIVEN = {
    "--positions": (["--positions", "300"], "positions", 300),
    "--rounds": (["--rounds", "3"], "rounds", 3),
    "--value-weight": (["--value-weight", "2.5"], "value_weight", 2.5),
    "--children": (["--children", "4"], "children", 4),
    "--openings": (["--openings", "2"], "openings", 2),
    "--no-database": (["--no-database"], "database", False),
    "--exclude": (["--exclude", "SET", "--exclude", "SET"], "exclude", ["SET", "SET"]),
    "--init": (["--init", "NET"], "init", "NET"),
    "--trunk": (["--trunk", "8,8"], "trunk", "8,8"),
    "--value-hidden": (["--value-hidden", "0"], "value_hidden", 0),
    "--workers": (["--workers", "1"], "workers", 1),
    "--iterations": (["--iterations", "3"], "iterations", 3),
    "--games": (["--games", "8"], "games", 8),
    "--simulations": (["--simulations", "16"], "simulations", 16),
    "--search-value": (["--search-value", "0.5"], "search_value", 0.5),
    "--judge-simulations": (["--judge-simulations", "20"], "judge_simulations", 20),
    "--minutes": (["--minutes", "1.5"], "minutes", 1.5),
    "--dask": (["--dask", "tcp://127.0.0.1:1"], "dask", "tcp://127.0.0.1:1"),
    "--steps": (["--steps", "7"], "steps", 7),
    "--eval-games": (["--eval-games", "6"], "eval_games", 6),
}
# --resume of zero is left out here: it needs a run to continue (tests/test_zero.py's
# test_zero_command_bad_input_is_one_line and the resumed runs there)
ACCEPTED = [(mode, flag) for flag in (*OWNERS, *EVERY_MODE)
            for mode in (OWNERS.get(flag) or MODES) if flag != "--resume"]
REFUSED = [(mode, flag) for flag, owners in OWNERS.items() for mode in MODES
           if mode not in owners]


def _files(tmp_path):
    """A random network and a small labelled set of the 5x5 board with 3 in a row."""
    from agents.solver.labels import save_labels
    from scripts.learn.model import ARCHITECTURE, init_params, to_network
    from scripts.arena.dataset import make_set
    net = tmp_path / "net.npz"
    save_network(net, to_network(init_params(5, 5, ARCHITECTURE, 0), 5, 5, 3, ARCHITECTURE))
    labelled = tmp_path / "set.npz"
    save_labels(labelled, make_set(5, 5, 3, 12, seed=1))
    return {"NET": str(net), "SET": str(labelled)}


def _stopped(monkeypatch):
    """Stub every mode's run: it records the plan the command hands it and stops with
    an OSError (the command's one line, exit 2)."""
    import scripts.commands.learn as command
    import scripts.learn.run as run
    got = {}

    def stop(plan):
        got["plan"] = plan
        raise OSError("stopped here")
    monkeypatch.setattr(run, "run", lambda cfg, plan, *a, **k: stop(plan))
    monkeypatch.setattr(command, "_learn_zero", lambda args, cfg, plan, *a: stop(plan))
    monkeypatch.setattr(command, "_learn_by_games", lambda args, cfg, plan, *a: stop(plan))
    return got


def test_the_flags_are_the_configurations_options():
    """The flags derived from the configurations are :data:`OWNERS`' and
    :data:`EVERY_MODE`'s, each with its modes."""
    from scripts.commands.learn import modes
    from scripts.learn.configs import modes_of
    derived = {flag: tuple(m for m, _ in owners) for flag, owners in modes_of(modes()).items()}
    assert derived == {**OWNERS, **{flag: MODES for flag in EVERY_MODE}}


@pytest.mark.parametrize("mode,flag", ACCEPTED)
def test_each_mode_takes_its_options(mode, flag, tmp_path, monkeypatch, capsys):
    """The option reaches the mode's plan (the run itself is stubbed)."""
    files = _files(tmp_path) if flag in ("--init", "--exclude") else {}
    args, field, value = GIVEN[flag]
    got = _stopped(monkeypatch)
    from scripts.commands.learn import main
    with pytest.raises(SystemExit) as e:
        main(SMALL + ["--mode", mode, "--out", str(tmp_path), "--quiet"]
             + [files.get(a, a) for a in args])
    assert e.value.code == 2
    assert "stopped here" in capsys.readouterr().err
    value = [files.get(v, v) for v in value] if isinstance(value, list) else \
        files.get(value, value)
    assert getattr(got["plan"], field) == value


@pytest.mark.parametrize("mode,flag", REFUSED)
def test_another_modes_option_is_refused_in_one_line(mode, flag, tmp_path, monkeypatch,
                                                      capsys):
    """One line naming the option and its modes, exit status 2, before any run."""
    args, _, _ = GIVEN.get(flag, ([flag], None, None))
    got = _stopped(monkeypatch)
    from scripts.commands.learn import main
    with pytest.raises(SystemExit) as e:
        main(SMALL + ["--mode", mode, "--out", str(tmp_path), "--quiet"] + args)
    assert e.value.code == 2
    owners = OWNERS[flag]
    listed = owners[0] if len(owners) == 1 else " and ".join(owners)
    assert capsys.readouterr().err.splitlines() == \
        [f"{PROG}: error: {flag} is an option of --mode {listed}"]
    assert "plan" not in got


def test_a_mode_without_options_runs_on_its_defaults(tmp_path, monkeypatch):
    """Each mode's plan, no option given, is its configuration's defaults."""
    from scripts.commands.learn import main, modes
    for mode, config in modes().items():
        got = _stopped(monkeypatch)
        with pytest.raises(SystemExit):
            main(SMALL + ["--mode", mode, "--out", str(tmp_path), "--quiet"])
        assert got["plan"] == config(), mode


@pytest.mark.parametrize("shape", ["rows=4,columns=5,inarow=3", "rows=6,columns=4,inarow=3"])
def test_recipe_refuses_a_board_its_network_does_not_fit(shape, tmp_path, monkeypatch, capsys):
    """The course's network (two 3x3 convolutions without padding) needs 5 rows and 5
    columns: a smaller board is one line, exit status 2, before any run (it was a
    reshape error from inside numpy)."""
    got = _stopped(monkeypatch)
    from scripts.commands.learn import main
    with pytest.raises(SystemExit) as e:
        main(["--config", shape, "--mode", "recipe", "--out", str(tmp_path), "--quiet"])
    assert e.value.code == 2
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 1 and "at least 5 rows and 5 columns" in lines[0], lines
    assert "plan" not in got
