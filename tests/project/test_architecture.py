"""docs/architecture.md is the map a newcomer reads, and it is checked, not hoped: its picture draws
the layers of pyproject's import-linter contracts in their order, it names every deliberate upward
import those contracts let through, and every test file the docs and docstrings point to exists."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    tomllib = pytest.importorskip("tomli")

ROOT = Path(__file__).resolve().parents[2]
PAGE = (ROOT / "docs" / "architecture.md").read_text()
CONTRACTS = {c["name"]: c for c in
             tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]}
#: A module or package in the picture: ``name.py`` or ``name/`` (parenthesised notes left out).
DRAWN = re.compile(r"(?<![\w/.])([a-z_0-9]+)(?:\.py\b|/)")


def picture() -> list[str]:
    """The lines of the page's picture (its first fenced block)."""
    return PAGE.split("```\n", 2)[1].splitlines()


def drawn_layers(lines: list[str]) -> list[list[str]]:
    """The modules each layer of ``lines`` draws: a line that starts with a module or package starts
    a layer, any other line goes on the layer above (a wrapped line)."""
    layers: list[list[str]] = []
    for line in lines:
        text = re.sub(r"\([^)]*\)", "", line).strip().lstrip("|").strip()
        names = DRAWN.findall(text)
        if DRAWN.match(text):
            layers.append(names)
        elif layers:
            layers[-1].extend(names)
    return layers


def contract_layers(name: str, package: str) -> list[list[str]]:
    """The layers of contract ``name``, top first, each as its modules' names under ``package``."""
    return [[m.strip().removeprefix(package + ".") for m in layer.split(":")] for layer in CONTRACTS[name]["layers"]]


def split_picture() -> tuple[list[str], list[str]]:
    """(the widgets' lines, the engine's lines) of the picture, headers left out."""
    lines = picture()
    widgets_at = next(i for i, line in enumerate(lines) if line.lstrip().startswith("widgets/"))
    engine_at = next(i for i, line in enumerate(lines) if line.lstrip().startswith("golflab/"))
    engine = [lines[engine_at].replace("golflab/", "", 1), *lines[engine_at + 1:]]
    return lines[widgets_at + 1:engine_at], engine


@pytest.mark.parametrize("contract, package, part", [
    ("golflab in layers", "golflab", 1), ("golflab_widgets in layers", "golflab_widgets", 0)])
def test_the_picture_draws_each_contracts_layers_in_order(contract, package, part):
    """Line for line: the same modules, siblings on one line, the top layer first."""
    drawn = drawn_layers(split_picture()[part])
    declared = contract_layers(contract, package)
    assert [sorted(layer) for layer in drawn] == [sorted(layer) for layer in declared], (
        f"docs/architecture.md draws {drawn}, pyproject's contract {contract!r} declares {declared}")


def test_the_coach_contract_is_the_pages_coach_paragraph():
    """The coach's layers, bottom first, are named in that order in the page's coach paragraph."""
    paragraph = PAGE[PAGE.index("**the coach in layers**"):PAGE.index("**golflab_widgets in layers**")]
    bottom_up = [m for layer in reversed(contract_layers("the coach in layers (one valuation under the hints, "
                                                         "grades and the Experts)", "golflab.coach"))
                 for m in layer]
    places = [paragraph.index(f"`{m}`") for m in bottom_up]
    assert places == sorted(places), f"the page names the coach's modules out of the contract's order {bottom_up}"


def test_the_page_names_every_import_a_contract_lets_through():
    ignored = [i for c in CONTRACTS.values() for i in c.get("ignore_imports", [])]
    assert len(ignored) >= 10
    missing = [i for i in ignored if f"`{i}`" not in PAGE]
    assert not missing, f"docs/architecture.md does not explain these upward imports: {missing}"


def test_every_test_file_the_docs_and_docstrings_name_exists():
    """A renamed or moved test leaves no stale path behind (the tests were grouped into folders)."""
    named = re.compile(r"(?<![\w/])tests/[\w/]+\.py\b")
    sources = [ROOT / "README.md", *(ROOT / "docs").glob("*.md"),
               *(p for folder in ("golflab", "widgets", "benchmarks", "tools") for p in (ROOT / folder).rglob("*.py"))]
    stale = sorted({f"{source.relative_to(ROOT)}: {path}" for source in sources
                    for path in named.findall(source.read_text(errors="replace")) if not (ROOT / path).exists()})
    assert not stale, "these name test files that do not exist:\n" + "\n".join(stale)
