"""The docs' shape: no page under docs/ is longer than 400 lines (a guide that long is two
guides), and every row of a results page's tables carries the command that reproduces its
figure, the date it was measured and the machine (``2-core, shared``: a column or in the
row).

Pages exempt from the length, and why, are listed in ``LONG_PAGES``; pages whose rows are
not yet one figure with its command, date and machine are listed in ``ROWS_PENDING``.
Both lists name the page and the reason, so a new long page or a row without its command
fails."""
import glob
import os
import re

import pytest

from tests.conftest import ROOT

MAX_LINES = 400

# page -> why it may be longer than MAX_LINES
LONG_PAGES = {
    "docs/lessons.md": "the lessons' own tables: one row a lesson, each with its verdict",
}
GENERATED = "docs/reference/"  # generated reference, if present

# results pages whose tables are not yet one figure a row with its command, date and
# machine (page -> why): none today
ROWS_PENDING = {}

COMMAND = re.compile(
    r"`(?:connectx|python|pip|echo|make|perf|/usr/bin/time)\b[^`]*`"  # a backticked command
    r"|(?<![\w/.-])(?:connectx|python) [a-z-]")                        # or one written out
DATE = re.compile(r"\b20\d\d-\d\d-\d\d\b")
MACHINE = re.compile(r"\b\d+-core\b")  # "2-core, shared (load 4)"


def pages():
    return sorted(os.path.relpath(p, ROOT) for p in
                  glob.glob(os.path.join(ROOT, "docs", "**", "*.md"), recursive=True))


def results_pages():
    return [p for p in pages() if os.path.basename(p).startswith("results")
            or os.path.basename(p) == "benchmarks.md"]


def read(page):
    with open(os.path.join(ROOT, page), encoding="utf-8") as f:
        return f.read()


def table_rows(markdown):
    """``(line number, row)`` of every table row outside fenced code, header and
    separator rows left out."""
    rows, fenced, previous = [], False, ""
    for number, line in enumerate(markdown.splitlines(), 1):
        if line.startswith(("```", "~~~")):
            fenced = not fenced
        elif not fenced and line.startswith("|"):
            is_separator = re.fullmatch(r"\|[\s:|-]+\|?", line.strip()) is not None
            is_header = not previous.startswith("|")
            if not is_separator and not is_header:
                rows.append((number, line))
        previous = "" if fenced else line
    return rows


def row_faults(markdown):
    """Rows without a command, a date or a machine: ``[(line number, what is missing)]``."""
    faults = []
    rules = (("a command", COMMAND), ("a date", DATE), ("a machine", MACHINE))
    for number, row in table_rows(markdown):
        missing = [what for what, rule in rules if not rule.search(row)]
        if missing:
            faults.append((number, " and ".join(missing)))
    return faults


def test_the_pages_and_the_exemptions_exist():
    assert "docs/learning.md" in pages() and results_pages()
    for page in list(LONG_PAGES) + list(ROWS_PENDING):
        assert page in pages(), f"{page} is exempt but gone: take it off the list"


def checked_pages():
    """The pages the length rule holds for: not the exempt ones, not generated reference
    (an exempt page is left out of the run, not skipped: CI refuses skips)."""
    return [p for p in pages() if p not in LONG_PAGES and not p.startswith(GENERATED)]


@pytest.mark.parametrize("page", checked_pages())
def test_no_page_is_longer_than_400_lines(page):
    lines = read(page).count("\n")
    assert lines <= MAX_LINES, (f"{page} has {lines} lines (at most {MAX_LINES}): split it "
                                "(a guide per task, its figures to a results page)")


@pytest.mark.parametrize("page", [p for p in results_pages() if p not in ROWS_PENDING])
def test_every_results_row_carries_its_command_date_and_machine(page):
    faults = row_faults(read(page))
    assert not faults, f"{page}: rows without " + "; ".join(
        f"line {n}: {what}" for n, what in faults)


def test_the_row_rule_catches_a_row_without_them():
    page = ("| measured | figure | command | commit | date | machine |\n"
            "|---|---|---|---|---|---|\n"
            "| a | 1 | `connectx bench solver` | before abc1234 | 2026-11-24 | 2-core |\n"
            "| b | 2 | the run above | before abc1234 | 2026-11-24 | 2-core |\n"
            "| c | 3 | `connectx match a b` | before abc1234 | the same day | 2-core |\n"
            "| d | 4 | `connectx match a b` | before abc1234 | 2026-11-24 | the same |\n"
            "| e | 5 | the run above | before abc1234 | 2026-11-24 | |\n")
    assert row_faults(page) == [(4, "a command"), (5, "a date"), (6, "a machine"),
                                (7, "a command and a machine")]
