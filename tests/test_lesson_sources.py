"""The lessons name their sources as the sources name themselves: each experiment's
source (printed by the listing, by every run and in its notebook's "Source" line) and
docs/lessons.md give the work and, for the book, the chapter by its number and its own
title, read here from the titles' copy in tests/data/seeds/titles.txt (where they came
from is written at its top). No page names a chapter the material does not have."""
import json
import os
import re

import pytest

from scripts.lessons import experiments, listing

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TITLES = os.path.join(ROOT, "tests", "data", "seeds", "titles.txt")
DOCS = os.path.join(ROOT, "docs", "lessons.md")
NOTEBOOKS = os.path.join(ROOT, "docs", "notebooks")

# which file of the material each experiment re-runs (000, 001: the book's chapters 5
# and 4; 002: the Kaggle tutorial; 003: the adversarial-search lesson; 004: the article)
SEED_OF = {
    "mini-isolation": "003", "isolation-search": "003", "search-windows": "003",
    "branching-factor": "003", "horizon-effect": "003", "isolation-evaluations": "003",
    "isolation-3-players": "003", "isolation-sloppy": "003", "rollout-book": "003",
    "mcts-uniform-vs-uct": "003",
    "textbook-trees": "004", "tictactoe-solved": "004",
    "tictactoe-think": "000", "tictactoe-depth": "000", "connect4-think3": "000",
    "coin-game": "001", "coin-game-times": "001",
    "tutorial-lookahead": "002",
}
CHAPTER = re.compile(r"\bchapters?\s+(\d+)", re.IGNORECASE)
# a chapter named by its number and then its title, as the sources write them
NAMED = re.compile(r"\bchapter\s+(\d+),?\s+\"([^\"]+)\"", re.IGNORECASE)
# a chapter named by a game instead: chapter 5 holds two games, chapter 4 is the coin game's
BY_GAME = re.compile(r"(tic-tac-toe|connect four|coin[- ]game)'?s? chapter", re.IGNORECASE)


def seed_titles():
    """{"000": (5, "Depth Pruning in Minimax"), "002": (None, "N-step lookahead"), ...}"""
    out = {}
    for line in open(TITLES, encoding="utf-8"):
        if line.startswith("#") or not line.strip():
            continue
        name, title = line.rstrip("\n").split("\t")
        m = re.fullmatch(r"Chapter (\d+): (.+)", title)
        out[name[:3]] = (int(m.group(1)), m.group(2)) if m else (None, title)
    return out


def chapters():
    """{chapter number: its title} of the book's chapters in the material."""
    return {n: t for n, t in seed_titles().values() if n is not None}


def wrong_chapters(text):
    """The chapter mentions in ``text`` that the material does not bear out: a number it
    has no chapter of, a title that is not that chapter's, a chapter named by a game."""
    known = chapters()
    bad = [m.group(0) for m in CHAPTER.finditer(text) if int(m.group(1)) not in known]
    bad += [m.group(0) for m in NAMED.finditer(text) if known.get(int(m.group(1))) !=
            m.group(2)]
    return bad + [m.group(0) for m in BY_GAME.finditer(text)]


def test_the_titles_copy_holds_the_two_chapters():
    assert chapters() == {4: "Recursion and MiniMax Tree Search",
                          5: "Depth Pruning in Minimax"}
    assert sorted(seed_titles()) == ["000", "001", "002", "003", "004"]


@pytest.mark.parametrize("e", experiments(), ids=lambda e: e.name)
def test_each_source_names_its_seed_by_its_own_title(e):
    assert e.name in SEED_OF, f"{e.name}: which file of the material? (SEED_OF)"
    number, title = seed_titles()[SEED_OF[e.name]]
    assert f'"{title}"' in e.source, e.source
    assert [int(n) for n in CHAPTER.findall(e.source)] == ([number] if number else [])
    assert not wrong_chapters(e.source + " " + e.title), e


def test_the_listing_and_the_docs_name_only_the_materials_chapters():
    shown = listing(experiments())
    for e in experiments():
        assert f"({e.source})" in shown
    docs = open(DOCS, encoding="utf-8").read()
    assert not wrong_chapters(shown) and not wrong_chapters(docs), wrong_chapters(docs)
    for number, title in seed_titles().values():
        quoted = f'chapter {number} "{title}"' if number else f'"{title}"'
        assert quoted in re.sub(r"\s+", " ", docs), f"docs/lessons.md: name {quoted}"


def test_the_stored_notebooks_name_only_the_materials_chapters():
    """The stored files themselves (the generator's cells are checked against them by
    tests/test_notebooks.py): every markdown cell, and each lesson's Source line."""
    sources = {e.name: e.source for e in experiments()}
    for name in sorted(os.listdir(NOTEBOOKS)):
        if not name.endswith(".ipynb"):
            continue
        with open(os.path.join(NOTEBOOKS, name), encoding="utf-8") as f:
            cells = json.load(f)["cells"]
        text = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
        assert not wrong_chapters(text), (name, wrong_chapters(text))
        lesson = name[:-len(".ipynb")]
        if lesson in sources:
            assert f"Source: {sources[lesson]}." in text, name


def test_a_wrong_chapter_is_caught():
    assert wrong_chapters('the book, chapter 4 "Depth Pruning in Minimax"')
    assert wrong_chapters("the book's chapter 3") and wrong_chapters("the Connect Four chapter")
    assert not wrong_chapters('chapter 5 "Depth Pruning in Minimax" and chapters 4')
