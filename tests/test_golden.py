"""The golden moves (``tests/data/golden_moves.json``) come out unchanged.

STYLE.md warns against golden transcripts as tests: a harmless tie-break change
breaks them. This one is legitimate because it guards pure restructures (issue 18:
code moved between modules must not change one move), and it records single moves of
fixed-depth, seeded or solved settings, not self-play games. When a change to a search,
an evaluation or a tie-break is meant to change moves, regenerate the file in the same
commit and say why in its message::

    python -m scripts.tools.golden --write tests/data/golden_moves.json
"""
import os

import pytest

from scripts.tools import golden

GOLDEN = os.path.join(os.path.dirname(__file__), "data", "golden_moves.json")


@pytest.mark.slow
def test_golden_moves_unchanged(capsys):
    assert golden.main(["--check", GOLDEN]) == 0, capsys.readouterr().err
