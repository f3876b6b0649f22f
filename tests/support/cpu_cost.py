"""Where a test run's CPU goes: per test, the CPU seconds its worker's process tree spent (the worker
itself, and the servers, kernels, browsers and subprocesses it started, alive or already reaped), from
setup to teardown. The run is CPU-bound on a 2-core machine, so this, not the wall time of a test
that mostly waits, is what a shorter ``make test`` must cut.

    PYTEST_ADDOPTS="-p tests.support.cpu_cost" make test      # or any pytest command
    .venv/bin/python -m tests.support.cpu_cost [N]            # the N costliest files and tests

Each pytest process writes ``test-artifacts/cpu-cost-<worker>.json`` ({nodeid: [cpu s, wall s]}).
Linux only (``/proc``). A process that leaves its parent (a daemon, such as PostgreSQL's server) is
not counted; a shared server's work between tests counts to the test running then on its worker. A
process whose parent does not wait for it (Chromium's, when a module's browser closes) takes its CPU
seconds out of the tree as it ends: that test's figure is negative, and counts as 0 in the sums.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections import defaultdict
from pathlib import Path

import pytest

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
HZ = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _stat(pid: "int | str") -> "list[str]":
    """``/proc/<pid>/stat``'s fields from the third (the state) on, past the command's parentheses."""
    stat = Path(f"/proc/{pid}/stat").read_text()
    return stat[stat.rfind(")") + 2:].split()


def _ticks(fields: "list[str]") -> int:
    """Clock ticks of a process and its reaped children (utime, stime, cutime, cstime)."""
    return sum(int(f) for f in fields[11:15])


def _processes() -> "dict[int, list[tuple[int, int]]]":
    """Each parent's children: (pid, clock ticks of the child and its reaped children)."""
    children: dict[int, list[tuple[int, int]]] = defaultdict(list)
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            fields = _stat(name)
        except OSError:  # it ended meanwhile
            continue
        children[int(fields[1])].append((int(name), _ticks(fields)))
    return children


def tree_cpu(root: int) -> float:
    """CPU seconds of ``root`` and every live descendant, each with its reaped children."""
    children = _processes()
    total = _ticks(_stat(root))
    todo = [root]
    while todo:
        for pid, ticks in children.get(todo.pop(), ()):
            total += ticks
            todo.append(pid)
    return total / HZ


class CpuCost:
    def __init__(self, worker: str) -> None:
        self.worker = worker
        self.costs: dict[str, list[float]] = {}

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(self, item, nextitem):
        cpu, wall = tree_cpu(os.getpid()), time.perf_counter()
        yield
        self.costs[item.nodeid] = [round(tree_cpu(os.getpid()) - cpu, 2), round(time.perf_counter() - wall, 2)]

    def pytest_sessionfinish(self, session) -> None:
        if self.costs:
            ARTIFACTS.mkdir(exist_ok=True)
            (ARTIFACTS / f"cpu-cost-{self.worker}.json").write_text(json.dumps(self.costs, indent=0))


def pytest_configure(config) -> None:
    worker = os.environ.get("PYTEST_XDIST_WORKER", f"main-{os.getpid()}")
    config.pluginmanager.register(CpuCost(worker), "golflab-cpu-cost")


def main(argv: "list[str]") -> None:
    top = int(argv[0]) if argv else 25
    costs: dict[str, list[float]] = {}
    for path in sorted(ARTIFACTS.glob("cpu-cost-*.json")):
        costs.update(json.loads(path.read_text()))
    files: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0])
    costs = {nodeid: [max(0.0, cpu), wall] for nodeid, (cpu, wall) in costs.items()}
    for nodeid, (cpu, wall) in costs.items():
        files[nodeid.split("::")[0]][0] += cpu
        files[nodeid.split("::")[0]][1] += wall
    print(f"{len(costs)} tests, {sum(c for c, _ in costs.values()):.0f} CPU s in all "
          f"({sum(w for _, w in costs.values()):.0f} s of their wall time)")
    print(f"\nthe {top} costliest files: CPU s, wall s")
    for name, (cpu, wall) in sorted(files.items(), key=lambda kv: -kv[1][0])[:top]:
        print(f"{cpu:8.1f} {wall:8.1f}  {name}")
    print(f"\nthe {top} costliest tests: CPU s, wall s")
    for nodeid, (cpu, wall) in sorted(costs.items(), key=lambda kv: -kv[1][0])[:top]:
        print(f"{cpu:8.1f} {wall:8.1f}  {nodeid}")


if __name__ == "__main__":
    main(sys.argv[1:])
