"""The generated reference pages (docs/reference: commands, agents, environments) against
a fresh generation: a new option of a command's parser or of an agent's ``OPTIONS``, a
changed help text, default or space fails here until the pages are written again with
``python -m scripts.tools.reference_pages``. (The environments' page needs Gymnasium,
PettingZoo and OpenSpiel: the dev extra.)"""
import difflib
import os

import pytest

from scripts.tools import reference_pages as reference


@pytest.mark.parametrize("name", sorted(reference.PAGES))
def test_the_committed_page_is_the_generated_one(name, tmp_path):
    if name == "environments.md":
        for module in ("gymnasium", "pettingzoo", "pyspiel"):
            pytest.importorskip(module, reason="the environments' page needs the dev extra")
    fresh = reference.PAGES[name]().rstrip("\n") + "\n"
    (tmp_path / name).write_text(fresh, encoding="utf-8")
    path = os.path.join(reference.FOLDER, name)
    with open(path, encoding="utf-8") as f:
        committed = f.read()
    diff = "".join(difflib.unified_diff(committed.splitlines(True), fresh.splitlines(True),
                                        f"docs/reference/{name}", "generated", n=1))
    assert committed == fresh, \
        f"docs/reference/{name} is out of date; run: {reference.REGENERATE}\n{diff[:3000]}"


def test_every_command_and_agent_has_its_section():
    """The pages hold every command of the dispatch table and every command one reads
    itself (``lessons tree``: ``connectx lessons``' ``OWN_COMMANDS``), and every agent spec."""
    import agents
    from scripts import cli
    from scripts.commands.lessons import OWN_COMMANDS
    own = [f"connectx lessons {word}" for word in OWN_COMMANDS]
    progs = [prog for prog, _, _ in reference.commands()]
    assert [p for p, _, _ in cli.leaves()] == [p for p in progs if p not in own]
    assert set(own) <= set(progs) and "connectx lessons tree" in own
    page = reference.agents_page()
    assert all(f"\n## {name}\n" in page for name in agents.names())


def test_a_checker_that_does_not_say_what_it_accepts_is_refused():
    with pytest.raises(ValueError, match="accepting"):
        reference.accepts(lambda value: value)
