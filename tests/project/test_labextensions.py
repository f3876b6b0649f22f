"""golflab's lab extensions (``jupyter_config/labextensions``) install with the package, where a
plain JupyterLab (started without ``binder/start``) finds them: without golflab-rise-console the
lessons' widgets show as text on RISE slides."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ROOT / "jupyter_config" / "labextensions"
TARGET = "share/jupyter/labextensions"

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    tomllib = pytest.importorskip("tomli")


def shipped_files() -> dict[str, Path]:
    """Every file of every shipped extension, by its path under ``share/jupyter/labextensions``."""
    return {f"{TARGET}/{p.relative_to(SHIPPED).as_posix()}": p for ext in SHIPPED.iterdir() if ext.is_dir()
            for p in ext.rglob("*") if p.is_file()}


def test_every_file_of_the_lab_extensions_is_installed_where_jupyterlab_looks():
    data_files = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"].get("data-files", {})
    listed = {f"{folder}/{Path(source).name}": ROOT / source for folder, sources in data_files.items()
              for source in sources if folder.startswith(TARGET)}
    assert shipped_files(), "no lab extension found to check"
    assert listed == shipped_files()


def test_a_plain_jupyterlab_finds_golflab_rise_console():
    """A wheel installs it (data-files); ``make`` copies it there for its editable install, which
    gets no data-files (rerun ``make`` after a change to the lab extensions)."""
    from jupyter_core.paths import jupyter_path
    from jupyterlab_server.config import get_federated_extensions

    found = get_federated_extensions(jupyter_path("labextensions"))
    assert "golflab-rise-console" in found, "golflab-rise-console is not installed in this environment: run make"
    installed = Path(found["golflab-rise-console"]["ext_path"])
    assert installed.resolve() != (SHIPPED / "golflab-rise-console").resolve()  # found without the repo's folder
    for name, source in shipped_files().items():
        if name.startswith(f"{TARGET}/golflab-rise-console/"):
            copy = installed / name.removeprefix(f"{TARGET}/golflab-rise-console/")
            assert copy.read_bytes() == source.read_bytes(), f"{copy} differs from {source}: rerun make"
