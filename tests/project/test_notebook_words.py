"""Issue 19 point 5: the notebooks' markdown is plain words (no notation, card codes or position
numbers) in sentences of at most 25 words; the teacher's page (class.ipynb) at most 40."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from golflab import words
from tests.support.plain_words import inline_code, markdown_seen, problems

NOTEBOOKS = sorted((Path(__file__).resolve().parents[2] / "notebooks").glob("*.ipynb"))
#: The teacher's page reads to adults: longer sentences (and a terminal command) are allowed there.
LIMITS = {"class.ipynb": 40}
COMMANDS_ALLOWED = {"class.ipynb"}


def markdown_cells(path: Path) -> list[tuple[str, str]]:
    """(cell id, source) of a notebook's markdown cells."""
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return [(cell.get("id", str(i)), "".join(cell["source"])) for i, cell in enumerate(cells)
            if cell["cell_type"] == "markdown"]


def notebook_sentences(path: Path) -> list[tuple[str, str]]:
    """(cell id, sentence) for every sentence of a notebook's markdown cells."""
    return [(cell, s) for cell, source in markdown_cells(path) for s in words.sentences(markdown_seen(source))]


def test_notebooks_found():
    assert len(NOTEBOOKS) >= 19


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_markdown_is_plain_words(path):
    limit = LIMITS.get(path.name, words.MAX_WORDS)
    bad = [f"{path.name} cell {cell}: {found}" for cell, sentence in notebook_sentences(path)
           for found in problems(sentence, limit)]
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("path", [p for p in NOTEBOOKS if p.name not in COMMANDS_ALLOWED], ids=lambda p: p.name)
def test_markdown_shows_no_code(path):
    """Column names and option values in backticks are notation: the prose says them in words."""
    bad = [f"{path.name} cell {cell}: {code}" for cell, source in markdown_cells(path) for code in inline_code(source)]
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_markdown_points_learners_to_pages_they_have(path):
    """The rules' spec is the developers' (``shared/spec``), not on a learner's screen: a page
    points to the Rules app instead of citing a section of it."""
    bad = [f"{path.name} cell {cell}" for cell, source in markdown_cells(path) if "spec section" in source.lower()]
    assert not bad, "\n".join(bad)


#: The one way back to the landing page, the same words on every app (issue 38 point 7: there were two).
BACK_LINK = "[\u2190 All golflab apps](index.ipynb)"


@pytest.mark.parametrize("path", [p for p in NOTEBOOKS if p.name != "index.ipynb"], ids=lambda p: p.name)
def test_every_app_links_back_to_the_landing_page_in_one_style(path):
    """A back link (an arrow's) to the landing page reads the same everywhere; a link inside a sentence may differ."""
    sources = [source for _cell, source in markdown_cells(path)]
    links = [link for source in sources for link in re.findall(r"\[\u2190[^\]]*\]\(index\.ipynb\)", source)]
    assert links and set(links) == {BACK_LINK}, links


def test_markdown_seen_reads_as_a_reader_does():
    source = ("# Title\n\nA [link](x.ipynb) and `code`\nwrapped on two lines.\n\n- one item\n  continued\n"
              "- two\n\n[Home](i.ipynb) · Lesson 2 of 5\n\n```\nprint('x')\n```\n"
              "| app | what |\n|---|---|\n| [A](a.ipynb) | does **this** |\n")
    assert markdown_seen(source).split("\n") == [
        "Title", "A link and code wrapped on two lines.", "one item continued", "two", "Home", "Lesson 2 of 5",
        "A", "does this"]


def test_a_long_or_coded_sentence_is_caught():
    long = " ".join(["word"] * 26) + "."
    assert problems(markdown_seen(long)) and not problems(markdown_seen(long), 40)
    assert problems(markdown_seen("Keep the `p_pair_now` column."))
    assert problems(markdown_seen("A Q is bad."))
    assert inline_code("Flip mode `never`.\n```\nprint(1)\n```\n") == ["`never`"]
