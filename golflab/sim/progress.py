"""A run's progress: a ``callable(done, total)``, or a text bar on stderr where one shows."""

from __future__ import annotations

import sys
from typing import Any, Callable

Progress = Callable[[int, int], Any]


class TextBar:
    """A one-line text progress bar on stderr (redrawn at most every 1%)."""

    def __init__(self, stream=None, label: str = "simulating", unit: str = "games") -> None:
        self.stream = stream or sys.stderr
        self.shown = -1
        self.label, self.unit = label, unit
        self.open = False

    def __call__(self, done: int, total: int) -> None:
        pct = 100 * done // total if total else 100
        if pct == self.shown and done != total:
            return
        self.shown = pct
        filled = pct * 30 // 100
        end = "\n" if done >= total else ""
        self.stream.write(f"\r{self.label} [{'#' * filled}{'.' * (30 - filled)}] {done}/{total} {self.unit}{end}")
        self.stream.flush()
        self.open = not end

    def close(self) -> None:
        """End a bar left unfinished (e.g. by an interrupt), so the next line starts clean."""
        if self.open:
            self.stream.write("\n")
            self.open = False


def in_notebook() -> bool:
    """True inside a Jupyter kernel (its stderr shows in the cell, redrawn on carriage returns)."""
    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None and hasattr(ipython, "get_ipython") else None
    return type(shell).__name__ == "ZMQInteractiveShell"


def auto_progress(progress) -> Progress | None:
    """``simulate``'s ``progress`` argument as a callable or None: a callable as it is; None
    a ``TextBar`` in a terminal or a notebook (else nothing); True always a bar; False none."""
    if progress is False:
        return None
    if progress is None or progress is True:
        interactive = in_notebook() or getattr(sys.stderr, "isatty", lambda: False)()
        return TextBar() if (interactive or progress is True) else None
    if not callable(progress):
        raise ValueError(f"progress must be a callable(done, total), True, False or None, got {progress!r}")
    return progress
