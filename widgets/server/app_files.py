"""Where the apps' files are, installed or in a clone, and ``golflab notebooks DIR``.

A wheel installs the repository's one copy of the apps as package data under
``golflab_widgets/apps`` (pyproject's package-dir maps ``golflab_widgets.apps`` to the repository
root): ``voila.json``, ``notebooks/`` and ``jupyter_config/`` (the Voila template, the Voila and
Jupyter server settings, the lab settings and extensions), laid out as in the repository. A clone
(or an editable install, which installs no package data) uses the repository itself.

Imports no Jupyter: ``golflab notebooks`` and ``golflab --version`` work without the apps extra.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

#: The landing page's path under the server's base URL (every app is linked from it).
LANDING = "voila/render/index.ipynb"
#: What ``golflab notebooks`` wrote in a folder: file name -> sha256 of what it wrote.
MANIFEST = ".golflab-notebooks.json"
#: Apps ``golflab serve`` preheats unless told otherwise: what a class opens first (the landing page,
#: the table, the lessons).
DEFAULT_PREHEAT = ("index", "play", "learn")
_HERE = Path(__file__).resolve().parent.parent  # the golflab_widgets package (widgets/ in the clone)


class AppFilesMissing(RuntimeError):
    """Neither the installed apps nor a repository's are there."""


def apps_root(installed: "Path | None" = None, repository: "Path | None" = None) -> Path:
    """The folder holding ``voila.json``, ``notebooks/`` and ``jupyter_config/``: the package data
    when installed, else the repository this module lives in."""
    for root in (installed or _HERE / "apps", repository or _HERE.parent):
        if (root / "voila.json").is_file() and (root / "notebooks").is_dir() and (root / "jupyter_config").is_dir():
            return root
    raise AppFilesMissing("the golflab apps are not installed here (no voila.json, notebooks/ and jupyter_config/ "
                          "beside golflab_widgets): reinstall with pip install \"golflab[apps]\"")


def notebooks_dir(root: "Path | None" = None) -> Path:
    """The apps' notebooks."""
    return (root or apps_root()) / "notebooks"


def app_names(root: "Path | None" = None) -> list[str]:
    """Every app's name: its notebook's name without ``.ipynb``, sorted."""
    return sorted(p.stem for p in notebooks_dir(root).glob("*.ipynb"))


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _manifest(folder: Path) -> dict[str, str]:
    try:
        data = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {k: v for k, v in data.items() if isinstance(k, str) and isinstance(v, str)}


def copy_notebooks(dest: "str | Path", source: "Path | None" = None) -> list[Path]:
    """Copy every app notebook into ``dest`` (made if missing) and return the files written.

    A file already in ``dest`` is replaced only if ``golflab notebooks`` wrote it and nobody has
    changed it since (``MANIFEST`` keeps what was written); otherwise nothing at all is copied
    and ``FileExistsError`` names the files in the way, so a learner's edits are never lost."""
    dest = Path(dest)
    source = source or notebooks_dir()
    if dest.exists() and not dest.is_dir():
        raise NotADirectoryError(f"{dest} is a file, not a folder")
    written = _manifest(dest) if dest.is_dir() else {}
    notebooks = sorted(source.glob("*.ipynb"))
    in_the_way = [p.name for p in notebooks
                  if (dest / p.name).exists() and written.get(p.name) != _digest(dest / p.name)]
    if in_the_way:
        raise FileExistsError(f"not copied: {dest} already holds {', '.join(in_the_way)}, which golflab notebooks "
                              "did not write (or which were changed since): choose an empty folder, or move them")
    dest.mkdir(parents=True, exist_ok=True)
    copied = []
    for notebook in notebooks:
        target = dest / notebook.name
        shutil.copyfile(notebook, target)
        written[notebook.name] = _digest(target)
        copied.append(target)
    (dest / MANIFEST).write_text(json.dumps(written, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return copied


__all__ = ["DEFAULT_PREHEAT", "LANDING", "MANIFEST", "AppFilesMissing", "app_names", "apps_root", "copy_notebooks",
           "notebooks_dir"]
