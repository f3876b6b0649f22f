"""A chunk of a run (``games.Task``) played by the engine the one switch allows: the compiled
kernel's games with their round rows alone, the compiled games graded in compiled code
(``graded``), or the reference (``games.play_reference``, given the kernel's actions when it
played them). Every way gives the same rows."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from .. import kernel
from ..analysis import QualityCounters
from .dispatch import compiled_grading
from .games import Task, kernel_rounds, play_reference


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
