"""The docs are for the people who use the package: no page (README.md, docs/*.md, the
notebooks' text) names the project's issues or their bars, its sessions, engineers or
helpers, or the team and its machine. A measured figure says the machine it ran on
("a 2-core machine"), not whose it is.

What is read: the prose, with fenced code blocks and inline code taken out (``Session``,
``w.session`` and ``scripts/arena/bars.py`` are names in the code), and links to another
project's issue tracker taken out whole (``[numba issue #6061](https://github.com/numba/
numba/issues/6061)`` cites a known bug of a dependency). Line breaks count as spaces, so a
phrase split over two lines is found.

Words that pass, and why:

- "progress bar", "tqdm bar", "error bar", "bar chart": the things on a screen;
- "helper thread", "helper kernel", "helper module" and the like: a programming term (the
  solver's lazy SMP runs helper threads); only a helper named as a person is caught
  ("helper session", "helper engineer", "a helper's branch").
"""
import glob
import json
import os
import re

import pytest

from tests.conftest import ROOT

# (what it names, pattern): matched case-insensitively over a page's prose
FORBIDDEN = [
    ("an issue", r"\bissues?\b"),
    ("a bar (a target)", r"(?<!progress )(?<!tqdm )(?<!error )\bbars?\b(?! chart)"),
    ("a session", r"\bsessions?\b"),
    ("an engineer", r"\bengineers?\b"),
    ("a helper (a person)", r"\bhelpers?(?:'s)? (?:sessions?|engineers?|developers?|worktrees?|branch)\b"),
    ("the team", r"\bteams?(?:'s)?\b"),
]

FOREIGN_ISSUE_LINK = r"\[[^\]]*\]\(https?://github\.com/[^/\s]+/[^/\s]+/issues/\d+[^)]*\)"


def prose(markdown):
    """``markdown`` without fenced code, inline code and links to issue trackers, on one
    line."""
    text = re.sub(r"^(```|~~~).*?^\1[ \t]*$", " ", markdown, flags=re.S | re.M)
    text = re.sub(r"(`+)(?!`).*?(?<!`)\1(?!`)", " ", text, flags=re.S)
    text = re.sub(FOREIGN_ISSUE_LINK, " ", text)
    return re.sub(r"\s+", " ", text)


def pages():
    """``{name: markdown}`` of README.md, every docs page and every notebook's markdown."""
    found = {}
    paths = [os.path.join(ROOT, "README.md")] + sorted(
        glob.glob(os.path.join(ROOT, "docs", "**", "*.md"), recursive=True))
    for path in paths:
        with open(path, encoding="utf-8") as f:
            found[os.path.relpath(path, ROOT)] = f.read()
    for path in sorted(glob.glob(os.path.join(ROOT, "docs", "**", "*.ipynb"), recursive=True)):
        with open(path, encoding="utf-8") as f:
            cells = json.load(f)["cells"]
        found[os.path.relpath(path, ROOT)] = "\n\n".join(
            "".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
    return found


def findings(markdown):
    """``(what, excerpt)`` for every forbidden word of ``markdown``'s prose."""
    text = prose(markdown)
    return [(what, text[max(0, m.start() - 50):m.end() + 30])
            for what, pattern in FORBIDDEN
            for m in re.finditer(pattern, text, re.I)]


def test_the_pages_are_found():
    names = pages()
    assert "README.md" in names and os.path.join("docs", "index.md") in names
    assert any(name.endswith(".ipynb") for name in names)


@pytest.mark.parametrize("text, what", [
    ("Measured on the team's 2-core machine.", "the team"),
    ("as issue 53 asked", "an issue"),
    ("The Issue 55\nbar is met.", "an issue"),
    ("the issue's bar (ours/c4 <= 1.0)", "a bar (a target)"),
    ("shared with two other sessions", "a session"),
    ("five engineers' jobs", "an engineer"),
    ("a helper session measured it", "a helper (a person)"),
])
def test_the_check_finds_each_kind(text, what):
    assert what in [w for w, _ in findings(text)]


@pytest.mark.parametrize("text", [
    "a progress bar shows the games played",
    "A tqdm bar per level, and a bar chart of the ratings",
    "a helper thread runs the same kernel",
    "`w.session` is the widget's model; `scripts/arena/bars.py`",
    "recursive ([numba issue #6061](https://github.com/numba/numba/issues/6061))",
    "```python\nsession = Session()  # the issue\n```",
])
def test_the_check_passes_legitimate_words(text):
    assert findings(text) == []


def test_no_page_names_issues_bars_sessions_engineers_or_the_team():
    found = [f"{name}: {what}: ...{excerpt}..."
             for name, markdown in pages().items() for what, excerpt in findings(markdown)]
    assert not found, f"{len(found)} found:\n" + "\n".join(found)
