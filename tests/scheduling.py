"""How pytest-xdist hands out the tests: a file (or a group of files that share a server) is one unit
of work, and the units go out longest first, by measured durations.

``make test`` runs the suite with pytest-xdist's ``--dist loadgroup --no-loadscope-reorder``. This
plugin gives every test the group of its file, unless the test names one itself with
``pytest.mark.xdist_group(name)`` (the files that share one JupyterHub do), so a file's
module-scoped browser, servers and notebook kernel stay with it; and it sorts the collected tests
by their group's seconds in ``tests/durations.json``, longest first (longest-processing-time
scheduling), so that no long unit is left to start last while the other workers idle. Within a
group the order is the collection's. A file missing from the durations counts ``UNKNOWN_SECONDS``.

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
    """The file part of a test's node id (``tests/test_game.py::test_x[1]@group`` -> ``tests/test_game.py``)."""
    return nodeid.split("::", 1)[0]


def load_durations(path: Path) -> dict[str, float]:
    """The seconds per file stored in ``path`` (empty when there is no file yet)."""
    return json.loads(path.read_text()) if path.exists() else {}


def group_of(item: pytest.Item) -> str:
    """The work unit of a test: the group it names (``xdist_group``), else its file."""
    mark = item.get_closest_marker("xdist_group")
    if mark is None:
        return file_of(item.nodeid)
    return str(mark.args[0] if mark.args else mark.kwargs.get("name", "default"))


def longest_first(units: list[tuple[str, str]], durations: dict[str, float]) -> list[int]:
    """The order (indexes into ``units``, one ``(group, file)`` per test) that puts the groups by
    their files' seconds summed, longest first, and keeps the collection's order within a group and
    between groups that tie."""
    files: dict[str, set[str]] = defaultdict(set)
    first_seen: dict[str, int] = {}
    for index, (group, name) in enumerate(units):
        files[group].add(name)
        first_seen.setdefault(group, index)
    seconds = {group: sum(durations.get(name, UNKNOWN_SECONDS) for name in names) for group, names in files.items()}
    return sorted(range(len(units)), key=lambda i: (-seconds[units[i][0]], first_seen[units[i][0]], i))


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--store-durations", action="store_true",
                     help=f"write each test file's measured seconds into {DURATIONS.name} (scheduling order)")
    parser.addoption("--measured-durations", metavar="PATH", help="write each test file's measured seconds into PATH")


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist reads the groups
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if item.get_closest_marker("xdist_group") is None:
            item.add_marker(pytest.mark.xdist_group(file_of(item.nodeid)))
    order = longest_first([(group_of(item), file_of(item.nodeid)) for item in items], load_durations(DURATIONS))
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
