"""What the page benchmarks read of processes (``psutil``): a server's kernels, and the CPU
seconds each process has used (``first_render.py`` and ``classroom.py``)."""

from __future__ import annotations

import contextlib

import psutil  # ipykernel's dependency


def kernel_processes(pid: int) -> list[psutil.Process]:
    """The kernel processes (``ipykernel``) among the descendants of process ``pid``."""
    found = []
    with contextlib.suppress(psutil.Error):
        for child in psutil.Process(pid).children(recursive=True):
            with contextlib.suppress(psutil.Error):
                if "ipykernel" in " ".join(child.cmdline()):
                    found.append(child)
    return found


def cpu_seconds(pids) -> dict[int, float]:
    """User and system CPU seconds of each process in ``pids`` still running, by pid."""
    found = {}
    for pid in pids:
        with contextlib.suppress(psutil.Error):
            times = psutil.Process(pid).cpu_times()
            found[pid] = times.user + times.system
    return found


def tree_cpu(pid: int) -> dict[int, float]:
    """``cpu_seconds`` of process ``pid`` and each of its descendants."""
    try:
        children = psutil.Process(pid).children(recursive=True)
    except psutil.Error:
        return {}
    return cpu_seconds([pid, *(child.pid for child in children)])
