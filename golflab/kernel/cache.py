"""The disk cache of golflab's compiled code: where it is, whether it can be read, and where
numba may write it.

numba keeps one folder per source directory inside its cache root (``NUMBA_CACHE_DIR``, by
default ``cache_dir()``), each holding an index (``.nbi``) and machine code (``.nbc``) per
function, all pickles. numba unpickles them unchecked: one truncated or garbled file makes
every call of that function fail. ``damaged`` finds such files without importing numba or
running anything they name, so ``golflab.kernel.enabled`` can leave a damaged cache to the
Python reference and ``python -m golflab.kernel`` can rebuild it. numba also refuses to read a
cache it cannot write (``no locator available``): a read-only cache is read from a private
writable copy instead (``prepare``).
"""

from __future__ import annotations

import atexit
import hashlib
import io
import os
import pickle
import re
import shutil
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

NUMBA_ENV = "NUMBA_CACHE_DIR"
PACKAGE = Path(__file__).resolve().parent.parent  # golflab/
REBUILD = "python -m golflab.kernel"  # the setup step: rebuilds a damaged cache


def numba_sources() -> list[Path]:
    """golflab's source files that use numba, in a fixed order."""
    uses = re.compile(rb"^from numba import", re.MULTILINE)
    return [path for path in sorted(PACKAGE.rglob("*.py")) if uses.search(path.read_bytes())]


_IMPORT = re.compile(rb"^from (\.+)([\w.]*) import \(?([\w ,\n]+?)\)?[ \t]*(?:#.*)?$", re.MULTILINE)


def key_sources() -> list[Path]:
    """The numba sources and the golflab modules they import at module level, directly or
    through others (their constants, e.g. the action codes of ``golflab.actions``, are compiled
    in), in a fixed order."""
    found = set(numba_sources())
    todo = sorted(found)
    while todo:
        path = todo.pop()
        for dots, module, names in _IMPORT.findall(path.read_bytes()):
            base = path.parent
            for _ in range(len(dots) - 1):
                base = base.parent
            target = base.joinpath(*module.decode().split(".")) if module else base
            if target.with_suffix(".py").is_file():
                files = [target.with_suffix(".py")]
            else:
                files = [target / f"{name}.py" if (target / f"{name}.py").is_file() else target / "__init__.py"
                         for name in (n.split()[0] for n in names.decode().replace("\n", " ").split(",") if n.strip())]
            for file in files:
                if file.is_file() and file not in found:
                    found.add(file)
                    todo.append(file)
    return sorted(found)


def cache_dir() -> Path:
    """Where numba caches golflab's compiled code: a folder named after a hash of every golflab
    source that uses numba and of the golflab modules those import (``key_sources``). numba
    checks only the file of each cached function, not the functions it calls from other files
    nor the constants it compiled in, so without this an edit to ``cpu.py`` would leave
    ``engine.play_games`` compiled from the old code."""
    digest = hashlib.sha256()
    for path in key_sources():
        digest.update(path.relative_to(PACKAGE).as_posix().encode() + b"\0" + path.read_bytes())
    return PACKAGE / "kernel" / "__pycache__" / f"numba-{digest.hexdigest()[:16]}"


def cache_root() -> Path:
    """numba's cache root for golflab: ``NUMBA_CACHE_DIR`` when set, else ``cache_dir()``."""
    return Path(os.environ.get(NUMBA_ENV) or cache_dir())


def folders(root: Path) -> list[Path]:
    """golflab's folders inside the numba cache ``root``: one per directory of numba sources,
    named as numba names them (the directory's name and the SHA-1 of its path)."""
    dirs = sorted({str(path.parent) for path in numba_sources()})
    return [root / f"{os.path.basename(d)}_{hashlib.sha1(d.encode()).hexdigest()}" for d in dirs]


class _Anything:
    """What every global of a checked pickle stands for: accepts any construction and state."""

    def __new__(cls, *args, **kwargs):
        return object.__new__(cls)

    def __init__(self, *args, **kwargs) -> None:
        pass

    def __call__(self, *args, **kwargs) -> "_Anything":
        return _Anything()

    def __setstate__(self, state) -> None:
        pass

    def __setitem__(self, key, value) -> None:
        pass

    def append(self, item) -> None:
        pass

    def extend(self, items) -> None:
        pass


class _Checker(pickle.Unpickler):
    """Reads a pickle through to its end, every global replaced by ``_Anything`` (nothing is
    imported or run)."""

    def find_class(self, module, name):
        return _Anything


def problem(path: Path) -> str | None:
    """Why numba could not read this cache file (an index holds two pickles, machine code one),
    or None when it can."""
    try:
        data = path.read_bytes()
    except OSError as error:
        return error.strerror or str(error)
    stream = io.BytesIO(data)
    try:
        for _ in range(2 if path.suffix == ".nbi" else 1):
            _Checker(stream).load()
    except Exception as error:  # noqa: BLE001  (any failure to read is damage: its text says which)
        return f"{type(error).__name__}: {error}"[:200]
    return None


def damaged(root: Path) -> list[tuple[Path, str]]:
    """Every file of golflab's compiled cache under ``root`` that numba could not read, and why."""
    found = []
    for folder in folders(root):
        if folder.is_dir():
            for path in sorted(folder.iterdir()):
                if path.suffix in (".nbi", ".nbc"):
                    why = problem(path)
                    if why is not None:
                        found.append((path, why))
    return found


def writable(folder: Path) -> bool:
    """True when numba can write in ``folder`` (made if missing), tested as numba tests it."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        tempfile.TemporaryFile(dir=folder).close()
    except OSError:
        return False
    return True


@dataclass(frozen=True)
class Location:
    """golflab's compiled cache: ``root``, where it is kept; ``used``, where numba reads and
    writes it (``root``, a private writable copy when ``root`` is read-only, or None when no
    folder can be written); ``error``, why it is None."""

    root: Path
    used: Path | None
    error: str = ""


def point_numba_at(root: Path) -> None:
    """Make ``root`` numba's cache root, for this process and the processes it starts."""
    os.environ[NUMBA_ENV] = str(root)
    if "numba" in sys.modules:  # already imported: its config was read then
        sys.modules["numba"].config.CACHE_DIR = str(root)


def prepare() -> Location:
    """Point numba at golflab's cache (``NUMBA_CACHE_DIR`` when the user set it, else
    ``cache_dir()``); when numba cannot write there, at a private copy of golflab's folders
    in the temporary directory, removed when this process ends. To be called before any
    compiled module is imported."""
    root = cache_root()
    if all(writable(folder) for folder in folders(root)):
        return Location(root, root)
    try:
        copy = Path(tempfile.mkdtemp(prefix="golflab-numba-"))
    except OSError as error:
        return Location(root, None, f"{root} is read-only and no temporary folder can be made ({error})")
    atexit.register(shutil.rmtree, copy, True)
    try:
        for folder in folders(root):
            target = copy / folder.name
            target.mkdir()
            if folder.is_dir():
                for path in folder.iterdir():
                    if path.suffix in (".nbi", ".nbc"):
                        shutil.copyfile(path, target / path.name)
    except OSError as error:
        return Location(root, None, f"{root} is read-only and could not be copied to {copy} ({error})")
    point_numba_at(copy)
    return Location(root, copy)
