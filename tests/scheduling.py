"""How pytest-xdist hands out the tests: a file is one unit of work, and the files go out longest
first, by measured durations.

``make test`` runs the suite with pytest-xdist's ``--dist loadfile --no-loadscope-reorder``: a file's
tests run on one worker, so its module-scoped browser, servers and notebook kernel stay with it
(tests that must share a session's server are written in one file: the JupyterHub apps'). This
plugin sorts the collected tests by their file's seconds in ``tests/durations.json``, longest first
(longest-processing-time scheduling), so that no long file is left to start last while the other
workers idle. Within a file the order is its own. A file missing from the durations counts
``UNKNOWN_SECONDS``. (``--dist loadgroup`` would let files share a unit, but pytest-xdist 3.8
cannot name a test's group under pytest 9.2, whose node ids it no longer rewrites.)

``--measured-durations PATH`` writes the seconds each file took in this run (setup, call and teardown
of its tests, summed) into PATH (``make test`` keeps them in ``test-artifacts/durations.json``);
``--store-durations`` writes them into ``tests/durations.json``, keeping the entries of files that
did not run (and dropping those of files that are gone). Store them after a change moves time between files;
the order only balances the workers, it never changes what runs.
"""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DURATIONS = Path(__file__).with_name("durations.json")
#: Seconds assumed for a file with no measurement yet (about a median file's).
UNKNOWN_SECONDS = 5.0


def file_of(nodeid: str) -> str:
    """The file part of a test's node id (``tests/engine/test_game.py::test_x[1]`` -> ``tests/engine/test_game.py``)."""
    return nodeid.split("::", 1)[0]


def load_durations(path: Path) -> dict[str, float]:
    """The seconds per file stored in ``path`` (empty when there is no file yet)."""
    return json.loads(path.read_text()) if path.exists() else {}


def longest_first(nodeids: list[str], durations: dict[str, float]) -> list[int]:
    """The order (indexes into ``nodeids``) that puts the files by their seconds, longest first, and
    keeps the collection's order within a file and between files that tie."""
    first_seen: dict[str, int] = {}
    for index, nodeid in enumerate(nodeids):
        first_seen.setdefault(file_of(nodeid), index)

    def key(index: int) -> tuple[float, int, int]:
        name = file_of(nodeids[index])
        return (-durations.get(name, UNKNOWN_SECONDS), first_seen[name], index)

    return sorted(range(len(nodeids)), key=key)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--store-durations", action="store_true",
                     help=f"write each test file's measured seconds into {DURATIONS.name} (scheduling order)")
    parser.addoption("--measured-durations", metavar="PATH", help="write each test file's measured seconds into PATH")


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    order = longest_first([item.nodeid for item in items], load_durations(DURATIONS))
    items[:] = [items[index] for index in order]


class DurationRecorder:
    """Sums each file's test phases as reports arrive (on xdist's controller, from every worker);
    writes them at the end into ``measured`` (a path, if any), and into ``DURATIONS`` when ``store``."""

    def __init__(self, measured: "str | None" = None, store: bool = True) -> None:
        self.seconds: dict[str, float] = defaultdict(float)
        self.measured, self.store = measured, store

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        self.seconds[file_of(report.nodeid)] += report.duration

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        seconds = {name: round(s, 1) for name, s in sorted(self.seconds.items())}
        if self.measured:
            path = Path(self.measured)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(seconds, indent=1) + "\n")
        if not self.store:
            return
        stored = {**load_durations(DURATIONS), **seconds}
        kept = {name: s for name, s in sorted(stored.items()) if (ROOT / name).is_file()}  # files gone: dropped
        DURATIONS.write_text(json.dumps(kept, indent=1) + "\n")


def pytest_configure(config: pytest.Config) -> None:
    worker = hasattr(config, "workerinput")  # only the controller (or a run without xdist) records
    measured, store = config.getoption("--measured-durations"), config.getoption("--store-durations")
    if (measured or store) and not worker:
        config.pluginmanager.register(DurationRecorder(measured, store), "golflab-durations")
