"""Packages whose public names load at first use (PEP 562): importing the package stays cheap."""

from __future__ import annotations

import importlib
from typing import Callable


def lazy_exports(package: str, exports: dict[str, str]) -> tuple[list[str], Callable[[str], object]]:
    """``(__all__, __getattr__)`` for ``package`` whose names ``exports`` maps to the (relative)
    module defining each: ``__all__, __getattr__ = lazy_exports(__name__, {...})``."""

    def load(name: str) -> object:
        module = exports.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return getattr(importlib.import_module(module, package), name)

    return sorted(exports), load
