"""Which test files reach the compiled kernel's one switch: how ``tools/test_lanes.py`` chooses the
files its reference lane runs again with ``GOLFLAB_KERNEL=0`` (a file that never reaches the switch
runs the Python reference in both lanes).

    python -m pytest -p tools.switch_probe -n 2 tests/engine tests/coach tests/kernel tests/simulation

prints, at the end, whether each file's tests (their setup included) ever got a yes from
``golflab.kernel.use_compiled`` or ``golflab.kernel.enabled``, and the files that never did. Run it with
the kernel on.
"""

from __future__ import annotations

import collections
import json
import os
import shutil
import tempfile
from pathlib import Path

import pytest

_current: list[str | None] = [None]
_reached: set[str] = set()
_files: set[str] = set()
_DIR = "GOLFLAB_SWITCH_PROBE_DIR"  # where each process (the xdist workers too) leaves what it saw


def pytest_configure(config) -> None:
    import golflab.kernel as kernel

    if not hasattr(config, "workerinput"):
        os.environ[_DIR] = tempfile.mkdtemp(prefix="golflab-switch-probe-")
    for name in ("enabled", "use_compiled"):
        def probed(*args, _switch=getattr(kernel, name), **kwargs):
            answer = _switch(*args, **kwargs)
            if answer and _current[0]:
                _reached.add(_current[0])
            return answer

        setattr(kernel, name, probed)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    _current[0] = item.nodeid.split("::")[0]
    _files.add(_current[0])
    yield
    _current[0] = None


def pytest_sessionfinish(session) -> None:
    seen = {"files": sorted(_files), "reached": sorted(_reached)}
    (Path(os.environ[_DIR]) / f"{os.getpid()}.json").write_text(json.dumps(seen))


def pytest_terminal_summary(terminalreporter) -> None:
    files, reached = set(), collections.Counter()
    for path in Path(os.environ[_DIR]).glob("*.json"):
        seen = json.loads(path.read_text())
        files.update(seen["files"])
        reached.update(seen["reached"])
    shutil.rmtree(os.environ[_DIR], ignore_errors=True)
    terminalreporter.section("test files reaching the kernel switch")
    for name in sorted(files):
        terminalreporter.write_line(f"{'yes' if reached[name] else 'never':>5}  {name}")
    terminalreporter.write_line("never: " + " ".join(sorted(name for name in files if not reached[name])))
