"""Packaging: every package is installed, and the widgets install under their own name."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: Where each installed top-level package lives in the repository (pyproject's package-dir).
FOLDERS = {"golflab": ROOT / "golflab", "golflab_widgets": ROOT / "widgets"}
#: The apps' files, installed as package data from their one copy (golflab_widgets.server.app_files).
APP_DATA = {"golflab_widgets.apps": ROOT, "golflab_widgets.apps.notebooks": ROOT / "notebooks",
            "golflab_widgets.apps.jupyter_config": ROOT / "jupyter_config"}

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    tomllib = pytest.importorskip("tomli")


def _setuptools() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]


def test_every_package_folder_is_listed_for_installation():
    listed = set(_setuptools()["packages"])
    found = {
        ".".join((top, *init.parent.relative_to(folder).parts))
        for top, folder in FOLDERS.items() for init in folder.rglob("__init__.py")
    }
    assert found - listed == set(), "add these packages to [tool.setuptools] packages in pyproject.toml"
    assert listed - found == set(APP_DATA)


def test_the_widgets_folder_installs_as_golflab_widgets():
    assert _setuptools()["package-dir"] == {"golflab_widgets": "widgets", "golflab_widgets.apps": "."}
    spec = importlib.util.find_spec("golflab_widgets")
    assert spec is not None and Path(spec.origin).resolve() == (ROOT / "widgets" / "__init__.py").resolve()
    from golflab_widgets import GolfTable  # the lazy exports resolve inside the renamed package

    assert GolfTable.__module__ == "golflab_widgets.table.golf_table"


def test_no_code_or_notebook_imports_the_bare_widgets_name():
    bare = re.compile(r"(^|[\s\"'])(from widgets[ .]|import widgets\b)")
    files = [p for pattern in ("*.py", "*.ipynb") for p in ROOT.rglob(pattern)
             if not any(part in {".venv", "test-artifacts", ".ipynb_checkpoints", "build"} for part in p.parts)]
    offenders = [str(p.relative_to(ROOT)) for p in files if bare.search(p.read_text(errors="replace"))]
    assert offenders == [], "import golflab_widgets, not widgets"


def test_every_app_file_in_the_repository_is_in_the_package_data():
    """What git tracks of the apps (the notebooks, voila.json, jupyter_config/) is matched by the
    package-data patterns (or is a module of jupyter_config/, which installs as one): the wheel
    serves what a clone serves (tests/browser/test_wheel.py builds and serves it)."""
    import subprocess

    tracked = subprocess.run(["git", "ls-files", "voila.json", "notebooks", "jupyter_config"], cwd=ROOT,
                             capture_output=True, text=True, check=True).stdout.split()
    data = _setuptools()["package-data"]
    installed = {ROOT / "jupyter_config" / p.name for p in (ROOT / "jupyter_config").glob("*.py")}
    for package, folder in APP_DATA.items():
        installed |= {p for pattern in data[package] for p in folder.glob(pattern) if p.is_file()}
    missing = sorted(name for name in tracked if ROOT / name not in installed)
    assert len(tracked) > 25 and missing == [], "add these to [tool.setuptools.package-data] in pyproject.toml"
