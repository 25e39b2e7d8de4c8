import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

# labelled 7x6 positions, notation and provenance in tests/data/positions/README.md
POSITIONS = os.path.join(ROOT, "tests", "data", "positions")


def board_from_moves(moves, rows=6, columns=7):
    """Kaggle flat board after a 1-based move string such as "4453" (first player = mark 1)."""
    from agents.board.reference import ref_drop
    board = [0] * (rows * columns)
    for i, ch in enumerate(moves):
        board = ref_drop(board, int(ch) - 1, 1 + i % 2, rows, columns)
    return board


def cli_error_line(argv, capsys):
    """``connectx ARGV`` run in this process: the one line it writes to stderr. Fails
    unless the status is 2 and stderr is one line (an exception other than
    ``SystemExit`` fails the test: it would be a traceback)."""
    from scripts import cli
    try:
        status = cli.main(argv)
    except SystemExit as exc:
        status = exc.code
    out, err = capsys.readouterr()
    assert status == 2, (out, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    return lines[0]


def shuffled_multi_isolation(seed, width, height):
    """:class:`agents.games.isolation.MultiIsolation` with each state's children in a
    random order fixed by the state and ``seed`` (tuples of ints hash the same in every
    run), so that two searches see the same order at a node: the tie-break is the
    first best child."""
    import random

    from agents.games.isolation import MultiIsolation

    class Shuffled(MultiIsolation):
        def actions(self, state):
            actions = super().actions(state)
            random.Random(hash((seed, state))).shuffle(actions)
            return actions

    return Shuffled(width, height)


def pytest_collection_modifyitems(config, items):
    """Tests marked ``slow`` (games in fresh processes, seconds each) run first: with
    ``pytest -n auto`` the workers then share out the short tests at the end instead of
    one worker finishing a long game while the others wait. Order only; every test runs."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)
