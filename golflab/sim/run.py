"""A run from end to end but for what it keeps: its arguments checked (``checked``), its progress
shown (``auto_progress``: a ``callable(done, total)``, or ``TextBar`` on stderr where one shows),
its games played in chunks here, in worker processes or on an executor (``pool``), each chunk by
the engine the one switch allows (``play_task``), and each chunk's result passed on in game order
(``run``)."""

from __future__ import annotations

import sys
from collections import Counter
from contextlib import closing
from dataclasses import replace
from typing import Any, Callable

from .. import kernel
from ..analysis import QualityCounters
from ..rules import Rules
from .games import Task, compiled_grading, kernel_rounds, play_reference, resolve_players, uses_kernel
from .pool import in_order, in_pool

#: Most games per task handed to a worker process (results are merged in game order).
CHUNK = 25


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


def checked(players, games, rules, seed, processes, progress, executor=None) -> tuple:
    """``simulate``'s arguments, checked: the personalities, the rules and the progress
    callable (or None); anything wrong is a ValueError saying what is allowed."""
    personalities = resolve_players(players)
    if rules is None:
        rules = Rules()
    if not isinstance(rules, Rules):
        raise ValueError(f"rules must be a golflab.Rules, got {type(rules).__name__}")
    for name, value, lo in (("games", games, 1), ("processes", processes, 1)):
        if isinstance(value, bool) or not isinstance(value, int) or value < lo:
            raise ValueError(f"{name} must be a whole number >= {lo}, got {value!r}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"seed must be a whole number, got {seed!r}")
    if executor is not None:
        if not callable(getattr(executor, "submit", None)):
            raise ValueError("executor must have submit(fn, *args), as a concurrent.futures executor or a "
                             f"dask.distributed Client has; got {type(executor).__name__}")
        if processes != 1:
            raise ValueError(f"give processes or executor, not both (processes={processes})")
    return personalities, rules, auto_progress(progress)


def run(personalities, games, rules, seed, processes, report, analyze, decision_rows, consume,
        executor=None) -> None:
    """Play the games in chunks (here, in worker processes or on ``executor``) and pass each
    chunk's ``play_task`` result to ``consume`` in game order, reporting progress. Tasks are
    made as they are handed out and only a few per worker wait, so memory does not grow with
    ``games``."""
    chunk = max(1, min(CHUNK, games // 50))  # about 50 progress steps, at most CHUNK games each
    kernel = uses_kernel(personalities, rules, games, analyze)
    tasks = (Task(tuple(personalities), rules, seed, a, min(a + chunk, games), bool(analyze), decision_rows, kernel)
             for a in range(0, games, chunk))
    done = 0

    def take(task: Task, result) -> None:
        nonlocal done
        consume(result)
        done += task.stop - task.start
        if report:
            report(done, games)

    if report:
        report(0, games)
    workers = min(processes, -(-games // chunk))
    if executor is not None:
        with closing(in_order(executor, play_task, tasks)) as results:  # cancels what is left on an error
            for task, result in results:
                take(task, result)
    elif workers == 1:
        for task in tasks:
            take(task, play_task(task))
    else:
        in_pool(play_task, tasks, workers, take)


def play_task(task: Task) -> tuple[list, "list | Counter", QualityCounters]:
    """Play games ``start..stop-1``; plain tuples so worker results pickle cheaply.
    Returns the round rows, the decision rows (or, without ``decision_rows``, a Counter
    of ``(personality, quality)``) and the quality counters."""
    if task.kernel and not kernel.use_compiled(task.rules, task.personalities):  # e.g. a worker without numba
        task = replace(task, kernel=False)  # or with GOLFLAB_KERNEL=0: the same games in Python
    if task.kernel and not task.analyze:
        return kernel_rounds(task), ([] if task.decision_rows else Counter()), QualityCounters()
    if task.kernel and compiled_grading(task.rules):  # played and graded in compiled code, the same rows
        from . import graded  # local: it compiles with numba on import

        return graded.decision_rows(task)
    return play_reference(task)
