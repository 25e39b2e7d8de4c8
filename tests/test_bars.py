"""The one progress object (:class:`scripts.arena.bars.ProgressCallback`) in its three
uses: a job's callback, a job of several kinds of work, and counted updates."""
from scripts.arena.bars import ProgressCallback


def test_disabled_makes_no_bar_but_still_writes(capsys):
    p = ProgressCallback("x", "u", enabled=False, total=5)
    p.update()
    p(1, 2, "other kind")
    p.write("value lost: 4453")
    p.close()
    assert p.bar is None
    assert "value lost: 4453" in capsys.readouterr().err


def test_callback_keeps_the_total_and_a_new_kind_starts_a_new_bar():
    p = ProgressCallback("labelling", "", enabled=True)
    p(1, 4)
    first = p.bar
    assert (first.n, first.total) == (1, 4)
    p(3, 5)
    assert (p.bar.n, p.bar.total) == (3, 5)
    p(1, 10, "training")
    assert p.bar is not first and p.desc == "training" and (p.bar.n, p.bar.total) == (1, 10)
    p.close()
    assert p.bar is None


def test_update_counts_against_the_total_given():
    p = ProgressCallback("rollouts", "game", True, total=7)
    p.update(2)
    p.update()
    assert (p.bar.n, p.bar.total) == (3, 7)
    p.close()
