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


def pytest_collection_modifyitems(config, items):
    """Tests marked ``slow`` (games in fresh processes, seconds each) run first: with
    ``pytest -n auto`` the workers then share out the short tests at the end instead of
    one worker finishing a long game while the others wait. Order only; every test runs."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)
