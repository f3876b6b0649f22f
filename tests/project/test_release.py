"""Release hygiene: one version for the wheel, ``golflab --version`` and CHANGELOG.md."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

import golflab

ROOT = Path(__file__).resolve().parents[2]

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    tomllib = pytest.importorskip("tomli")


def test_the_wheel_reads_its_version_from_golflab():
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert "version" not in pyproject["project"] and "version" in pyproject["project"]["dynamic"]
    assert pyproject["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "golflab.__version__"}
    assert re.fullmatch(r"\d+\.\d+\.\d+", golflab.__version__)


def test_the_newest_changelog_entry_is_this_version():
    headings = re.findall(r"^## (\S+)", (ROOT / "CHANGELOG.md").read_text(), flags=re.M)
    assert headings and headings[0] == golflab.__version__
